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

#if canImport(Glibc)
import Glibc
#endif

/// An error number of the C library (`errno`), with strerror(3)'s text as its description.
///
/// The one place where an errno becomes words: every error type of the package that comes from a system or C
/// library call carries one of these for its cause and adds what it is about (the call, the device, the path).
public struct Errno: Error, RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The positive error number, such as `ENOENT`.
    public let rawValue: Int32

    /// The error number `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The error number of a call's result or of `errno`, positive whatever its sign: C libraries such as
    /// libiio, sd-event and sd-bus return `-errno`.
    public init(_ number: Int32) {
        self.rawValue = number == .min ? EOVERFLOW : abs(number)
    }

    /// `errno` as the last failed call of this thread left it.
    public static var current: Errno { Errno(errno) }

    /// strerror(3)'s text, such as `No such file or directory`.
    public var description: String {
        String(cString: strerror(rawValue))
    }

    /// Whether the device is no longer there (unplugged, or its driver unbound): `ENODEV`, `ENOENT` or `ENXIO`.
    public var isDeviceGone: Bool {
        self == .noSuchDevice || self == .noSuchFileOrDirectory || self == .noSuchDeviceOrAddress
    }

    /// Whether the call was refused for lack of rights: `EACCES` or `EPERM`.
    public var isPermissionDenied: Bool {
        self == .permissionDenied || self == .notPermitted
    }

    /// `EAGAIN` (`EWOULDBLOCK`): a non-blocking descriptor has nothing to read or no room to write.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOENT`.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `ENODEV`.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENXIO`.
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `EACCES`.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EPERM`.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `EIO`.
    public static let ioError = Errno(rawValue: EIO)
    /// `EBADF`.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EINVAL`.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENAMETOOLONG`.
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
}
