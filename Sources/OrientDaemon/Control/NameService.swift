//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Users and groups from the system's databases (NSS: `/etc/passwd`, `/etc/group`, systemd-userdb, LDAP…).
enum NameService {
    /// A group entry.
    struct Group: Sendable, Hashable {
        /// The group's name.
        var name: String
        /// The group's ID.
        var groupID: UInt32
    }

    /// A user entry.
    struct User: Sendable, Hashable {
        /// The user's name.
        var name: String
        /// The user's ID.
        var userID: UInt32
        /// The user's primary group.
        var groupID: UInt32
    }

    /// The group called `name` (`getgrnam_r`); nil when there is none.
    /// - Throws: the error the lookup reported (a database that cannot be read, `EIO`, `ENOMEM`).
    static func group(named name: String) throws(Errno) -> Group? {
        try group(named: name, bufferSize: defaultBufferSize)
    }

    /// ``group(named:)`` starting with a buffer of `bufferSize` bytes.
    static func group(named name: String, bufferSize: Int) throws(Errno) -> Group? {
        var entry = Glibc.group()
        return try lookUp(bufferSize: bufferSize) { buffer, size, result in
            var found: UnsafeMutablePointer<Glibc.group>?
            let status = getgrnam_r(name, &entry, buffer, size, &found)
            result = found.map { Group(name: name, groupID: $0.pointee.gr_gid) }
            return status
        }
    }

    /// The user with ID `userID` (`getpwuid_r`); nil when there is none.
    /// - Throws: the error the lookup reported.
    static func user(id userID: UInt32) throws(Errno) -> User? {
        try user(id: userID, bufferSize: defaultBufferSize)
    }

    /// ``user(id:)`` starting with a buffer of `bufferSize` bytes.
    static func user(id userID: UInt32, bufferSize: Int) throws(Errno) -> User? {
        var entry = passwd()
        return try lookUp(bufferSize: bufferSize) { buffer, size, result in
            var found: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(userID, &entry, buffer, size, &found)
            if let found, let name = found.pointee.pw_name {
                result = User(name: String(cString: name), userID: found.pointee.pw_uid, groupID: found.pointee.pw_gid)
            }
            return status
        }
    }

    /// The IDs of the groups `user` belongs to: its primary group and the groups that list it (`getgrouplist`).
    static func groupIDs(of user: User) -> [UInt32] {
        var groups = [gid_t](repeating: 0, count: 32)
        var count = Int32(groups.count)
        // On -1, `count` holds the number needed.
        while getgrouplist(user.name, user.groupID, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count) + 8)
            count = Int32(groups.count)
        }
        return Array(groups.prefix(Int(count)))
    }

    /// The buffer a lookup starts with: enough for nearly every entry.
    private static let defaultBufferSize = 1024

    /// Runs a `get…_r` call with a buffer that doubles while the call reports `ERANGE` (an entry larger than the
    /// buffer, such as a group with many members) and that is retried on `EINTR`.
    private static func lookUp<Entry>(
        bufferSize: Int,
        _ call: (UnsafeMutablePointer<CChar>, Int, inout Entry?) -> Int32
    ) throws(Errno) -> Entry? {
        var size = max(1, bufferSize)
        while true {
            var entry: Entry?
            let status = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer in
                retryingInterrupts(.errorNumber) { buffer.baseAddress.map { call($0, buffer.count, &entry) } ?? ENOMEM }
            }
            switch status {
            case 0: return entry
            case ERANGE where size < 1 << 24: size *= 2
            default: throw Errno(status)
            }
        }
    }
}
