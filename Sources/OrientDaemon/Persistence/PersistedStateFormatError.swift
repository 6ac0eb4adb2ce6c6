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
