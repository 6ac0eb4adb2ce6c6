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

import OrientationCore

/// Reads request lines strictly (PROTOCOL.md): the right error code for every way a line can be wrong.
public enum RequestDecoder {
    /// The result of reading one line: the request, or the error to reply with (and the id to echo, if readable).
    public enum Outcome: Sendable, Hashable {
        case request(Request)
        case failure(id: RequestID?, ProtocolError)
    }

    /// Reads one line (without its newline).
    public static func decode(_ line: some Collection<UInt8>) -> Outcome {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return .failure(
                id: nil,
                ProtocolError(.parseError, "not JSON: each request is one JSON object on one line")
            )
        }
        guard case .object(let object) = value else {
            return .failure(id: nil, ProtocolError(.parseError, "a request is a JSON object, not \(value.typeName)"))
        }
        var id: RequestID?
        switch object["id"] {
        case nil, .null?: id = nil
        case .integer(let number)?: id = .number(number)
        case .string(let text)?: id = .string(text)
        case let other?:
            return .failure(id: nil, invalid("'id' must be an integer or a string, not \(other.typeName)"))
        }
        if let unknown = object.keys.sorted().first(where: { !["id", "method", "params"].contains($0) }) {
            return .failure(id: id, invalid("unknown field '\(unknown)'; a request has 'id', 'method' and 'params'"))
        }
        guard case .string(let name)? = object["method"] else {
            return .failure(id: id, invalid("'method' is missing or not a string; methods: \(methodList)"))
        }
        guard let method = Request.Method(rawValue: name) else {
            return .failure(id: id, invalid("unknown method '\(name)'; methods: \(methodList)"))
        }
        var parameters: [String: JSONValue] = [:]
        switch object["params"] {
        case nil, .null?: break
        case .object(let fields)?: parameters = fields
        case let other?: return .failure(id: id, invalid("'params' must be an object, not \(other.typeName)"))
        }
        do {
            return .request(Request(id: id, method: method, parameters: try Self.parameters(method, parameters)))
        } catch {
            return .failure(id: id, error)
        }
    }

    private static let methodList = Request.Method.allCases.map(\.rawValue).joined(separator: ", ")

    private static func invalid(_ message: String) -> ProtocolError {
        ProtocolError(.invalidRequest, message)
    }

    private static func parameters(
        _ method: Request.Method,
        _ fields: [String: JSONValue]
    ) throws(ProtocolError) -> Request.Parameters {
        switch method {
        case .hello, .get, .begin, .end, .unlock, .status:
            if let key = fields.keys.sorted().first {
                throw invalid("'\(method.rawValue)' takes no params (got '\(key)')")
            }
            return .none
        case .lock:
            if let key = fields.keys.sorted().first(where: { $0 != "orientation" && $0 != "mask" }) {
                throw invalid("unknown lock param '\(key)'; use 'orientation' or 'mask'")
            }
            switch (fields["orientation"], fields["mask"]) {
            case (nil, nil):
                return .lock(.current)
            case (let orientation?, nil):
                guard case .string(let name) = orientation else {
                    throw invalid("'orientation' must be a string, not \(orientation.typeName)")
                }
                guard let value = InterfaceOrientation(wireName: name), value != .unknown else {
                    throw ProtocolError(
                        .invalidOrientation,
                        "unknown orientation '\(name)'; use portrait, portrait-upside-down, landscape-left or "
                            + "landscape-right (or 'mask' for landscape, all, all-but-upside-down)"
                    )
                }
                return .lock(.orientation(value))
            case (nil, let mask?):
                guard let value = try self.mask(mask) else { throw invalid("'mask' must not be null for lock") }
                return .lock(.mask(value))
            case (_?, _?):
                throw invalid("give either 'orientation' or 'mask', not both")
            }
        case .constrain:
            if let key = fields.keys.sorted().first(where: { $0 != "mask" && $0 != "holder" }) {
                throw invalid("unknown constrain param '\(key)'; use 'mask' and 'holder'")
            }
            guard let mask = fields["mask"] else {
                throw invalid("constrain needs 'mask' (a mask, a list of orientations, or null to remove)")
            }
            var holder: String?
            switch fields["holder"] {
            case nil, .null?:
                break
            case .string(let text)? where !text.isEmpty && text.count <= Request.holderLimit:
                holder = text
            default:
                throw invalid("'holder' must be a string of 1 to \(Request.holderLimit) characters, or null")
            }
            return .constrain(try self.mask(mask), holder: holder)
        case .tabletMode:
            if let key = fields.keys.sorted().first(where: { $0 != "mode" }) {
                throw invalid("unknown tablet-mode param '\(key)'; use 'mode'")
            }
            guard case .string(let name)? = fields["mode"], let setting = Request.TabletModeSetting(rawValue: name)
            else {
                throw invalid("tablet-mode needs 'mode': \"on\", \"off\" or \"auto\"")
            }
            return .tabletMode(setting)
        }
    }

    /// A mask written as a name, a space- or comma-separated list, or an array of names; nil for null.
    private static func mask(_ value: JSONValue) throws(ProtocolError) -> InterfaceOrientationMask? {
        let mask: InterfaceOrientationMask
        switch value {
        case .null:
            return nil
        case .string(let text):
            do {
                mask = try InterfaceOrientationMask(parsing: text)
            } catch {
                throw ProtocolError(.invalidOrientation, error.description)
            }
        case .array(let items):
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item else {
                    throw invalid("a mask list holds strings, not \(item.typeName)")
                }
                names.append(name)
            }
            do {
                mask = try InterfaceOrientationMask(names: names)
            } catch {
                throw ProtocolError(.invalidOrientation, error.description)
            }
        default:
            throw invalid("'mask' must be a string or a list of strings, not \(value.typeName)")
        }
        guard !mask.isEmpty else { throw ProtocolError(.emptyMask, "the mask allows no orientation") }
        return mask
    }
}
