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

import OrientProtocol
public import OrientationCore

/// What the daemon keeps across restarts and reboots: the lock and the manual tablet mode.
///
/// Saved by ``StateStore`` as `{"version": 1, "lock": ["landscape-left", "landscape-right"], "tablet_mode": "auto"}`
/// or `{"version": 1, "lock": null, "tablet_mode": "on"}`, the lock as wire names in the mask's listing order. A
/// file without `tablet_mode` (written before it existed) reads as `auto`; a daemon that does not know the key
/// ignores it.
public struct PersistedState: Sendable, Hashable {
    /// The locked interface orientations; nil when unlocked. An empty mask is stored as nil: no lock allows nothing.
    public var lock: InterfaceOrientationMask? {
        didSet { if lock?.isEmpty == true { lock = nil } }
    }

    /// The manual tablet mode (`orientctl tablet-mode on|off`); nil for `auto`.
    public var tabletMode: Bool?

    /// A state with the given lock (unlocked by default) and manual tablet mode (auto by default); an empty mask
    /// means unlocked.
    public init(lock: InterfaceOrientationMask? = nil, tabletMode: Bool? = nil) {
        self.lock = lock?.isEmpty == true ? nil : lock
        self.tabletMode = tabletMode
    }

    /// The state of a fresh install, and of a lost or corrupt file: unlocked.
    public static let defaults = PersistedState()
}

extension PersistedState {
    /// The version of the file format written, and the only one read.
    static let formatVersion = 1

    /// The file's bytes: one line of JSON, keys in a fixed order so that the file reads well and diffs cleanly.
    var fileContents: [UInt8] {
        // Wire names are fixed ASCII words, so writing the JSON by hand needs no escaping.
        let lock = lock.map { "[" + $0.wireNames.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } ?? "null"
        let tabletMode = tabletMode.map { $0 ? "on" : "off" } ?? "auto"
        return Array(
            "{\"version\": \(Self.formatVersion), \"lock\": \(lock), \"tablet_mode\": \"\(tabletMode)\"}\n".utf8
        )
    }

    /// Reads a file's bytes strictly: the version must be 1, `lock` present, null or a non-empty list of
    /// interface orientation wire names (in any order), `tablet_mode` absent (auto) or `on`, `off` or `auto`.
    /// Other keys are ignored.
    init(fileContents: [UInt8]) throws(PersistedStateFormatError) {
        guard let file = try? JSONValue.parse(fileContents) else {
            throw .notJSON
        }
        guard case .object(let members) = file else { throw .notAnObject }
        // The version first: a later format may give `lock` another shape, and that must read as "wrong version".
        switch members["version"] {
        case nil:
            throw .missingKey("version")
        case .null?:
            throw .null(path: "version")
        case .integer(let version)? where version != Int64(Self.formatVersion):
            throw .unsupportedVersion(Int(version))
        case .integer?:
            break
        case _?:
            throw .wrongType(path: "version")
        }
        let tabletMode: Bool?
        switch members["tablet_mode"] {
        case nil:
            // Written before the manual tablet mode existed.
            tabletMode = nil
        case .string("on")?: tabletMode = true
        case .string("off")?: tabletMode = false
        case .string("auto")?: tabletMode = nil
        case _?:
            throw .wrongType(path: "tablet_mode")
        }
        let names: [JSONValue]
        switch members["lock"] {
        case nil:
            // A file without `lock` was not written by the daemon.
            throw .missingKey("lock")
        case .null?:
            self.init(lock: nil, tabletMode: tabletMode)
            return
        case .array(let items)?:
            names = items
        case _?:
            throw .wrongType(path: "lock")
        }
        guard !names.isEmpty else {
            throw .emptyLock
        }
        var mask: InterfaceOrientationMask = []
        for item in names {
            guard case .string(let name) = item else {
                throw .notAnOrientationName(item.typeName)
            }
            guard let orientation = InterfaceOrientation(wireName: name), orientation != .unknown else {
                throw .unknownOrientation(name)
            }
            mask.insert(InterfaceOrientationMask(orientation))
        }
        self.init(lock: mask, tabletMode: tabletMode)
    }
}

/// Why the bytes of a state file are not a state.
struct PersistedStateFormatError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case notJSON
        case notAnObject
        case missingKey(String)
        case wrongType(path: String)
        case null(path: String)
        case unsupportedVersion(Int)
        case emptyLock
        case notAnOrientationName(String)
        case unknownOrientation(String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The bytes are not JSON.
    static let notJSON = Self(.notJSON)
    /// The JSON is not an object.
    static let notAnObject = Self(.notAnObject)
    /// A key the format requires is missing.
    static func missingKey(_ key: String) -> Self { Self(.missingKey(key)) }
    /// A value has the wrong type.
    static func wrongType(path: String) -> Self { Self(.wrongType(path: path)) }
    /// A value that must not be null is.
    static func null(path: String) -> Self { Self(.null(path: path)) }
    /// A version this daemon does not read.
    static func unsupportedVersion(_ version: Int) -> Self { Self(.unsupportedVersion(version)) }
    /// `"lock": []`: unlocked is written as null.
    static let emptyLock = Self(.emptyLock)
    /// An item of the lock that is not a string (its JSON type named).
    static func notAnOrientationName(_ typeName: String) -> Self { Self(.notAnOrientationName(typeName)) }
    /// A name in the lock that is no interface orientation.
    static func unknownOrientation(_ name: String) -> Self { Self(.unknownOrientation(name)) }

    /// What is wrong, in words, for the log.
    var reason: String { description }

    var description: String {
        switch code {
        case .notJSON: "not valid JSON"
        case .notAnObject: "not a JSON object"
        case .missingKey(let key): "no '\(key)' key"
        case .wrongType(let path): "'\(path)' has the wrong type"
        case .null(let path): "'\(path)' is null"
        case .unsupportedVersion(let version):
            "unsupported version \(version); this daemon reads version \(PersistedState.formatVersion)"
        case .emptyLock: "the lock is an empty list; unlocked is written as null"
        case .notAnOrientationName(let typeName): "'lock' holds \(typeName), not an orientation name"
        case .unknownOrientation(let name): "unknown orientation '\(name)' in the lock"
        }
    }
}
