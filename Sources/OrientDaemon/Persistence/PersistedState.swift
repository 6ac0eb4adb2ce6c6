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
