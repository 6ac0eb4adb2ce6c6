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

/// A value written as the JSON object its `Encodable` conformance encodes, members in byte order of their keys:
/// its coding keys (or, where they are the same, its property names) are the one spelling of its wire keys, for
/// reading and writing alike.
///
/// For messages sent now and then (`status`): it allocates (the members are gathered, then sorted), where the
/// hand-written writers of the messages sent per change do not. Each member's value must be ``JSONWritable``
/// (strings, numbers, booleans, arrays of them, and the protocol's own types); optional members left out by
/// `encodeIfPresent`, as synthesized conformances do for optional properties, are left out here too.
public protocol JSONEncodedObject: JSONWritable, Encodable {}

extension JSONEncodedObject {
    public func write(to json: inout JSONWriter) {
        let members = MemberRecorder()
        do {
            try encode(to: members)
        } catch {
            preconditionFailure("\(Self.self) encodes a member that is not JSONWritable: \(error)")
        }
        let sorted = members.members.sorted {
            $0.key.stringValue.utf8.lexicographicallyPrecedes($1.key.stringValue.utf8)
        }
        json.object { json in
            for member in sorted {
                json.key(member.key)
                if let value = member.value { json.value(value) } else { json.null() }
            }
        }
    }
}

/// The members one `encode(to:)` encodes, in the order it encodes them; nil for `encodeNil`.
private final class MemberRecorder: Encoder {
    var members: [(key: any CodingKey, value: (any JSONWritable)?)] = []

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Members(recorder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("a JSONEncodedObject encodes keyed members only")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("a JSONEncodedObject encodes keyed members only")
    }

    /// The keyed container of the object: each member recorded with its value.
    private struct Members<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let recorder: MemberRecorder

        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) {
            recorder.members.append((key, nil))
        }

        mutating func encode(_ value: some Encodable, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try record(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try record(value, key) }

        private func record(_ value: some Encodable, _ key: Key) throws {
            guard let writable = value as? any JSONWritable else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(codingPath: [key], debugDescription: "\(type(of: value)) is not JSONWritable")
                )
            }
            recorder.members.append((key, writable))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("a JSONEncodedObject's members are JSONWritable values, not nested containers")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("a JSONEncodedObject's members are JSONWritable values, not nested containers")
        }

        mutating func superEncoder() -> any Encoder {
            preconditionFailure("a JSONEncodedObject has no superclass members")
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            preconditionFailure("a JSONEncodedObject has no superclass members")
        }
    }
}
