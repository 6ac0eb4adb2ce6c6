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

/// Finds a member of a JSON object in its text without decoding it. The daemon's lines are valid JSON
/// (they decoded before this is asked), so the scanner only needs to skip strings and nesting correctly.
enum JSONScanner {
    /// The text of the value of `key` at the top level of the object `text`; nil when it is not there.
    static func member(_ key: String, of text: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var index = skipSpace(text, from: text.startIndex)
        guard index < text.endIndex, text[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            index = skipSpace(text, from: index)
            guard index < text.endIndex, text[index] == UInt8(ascii: "\"") else { return nil }
            let keyEnd = skipString(text, from: index)
            let name = text[(index + 1)..<max(index + 1, keyEnd - 1)]
            index = skipSpace(text, from: keyEnd)
            guard index < text.endIndex, text[index] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(text, from: index + 1)
            let valueEnd = skipValue(text, from: valueStart)
            guard valueEnd > valueStart else { return nil }
            if name.elementsEqual(key.utf8) { return text[valueStart..<valueEnd] }
            index = skipSpace(text, from: valueEnd)
            guard index < text.endIndex, text[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    private static func skipSpace(_ text: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start
        while index < text.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(text[index]) { index += 1 }
        return index
    }

    /// The index after the string that starts at `start` (its opening quote).
    private static func skipString(_ text: ArraySlice<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < text.endIndex {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return text.endIndex
    }

    /// The index after the value that starts at `start`.
    private static func skipValue(_ text: ArraySlice<UInt8>, from start: Int) -> Int {
        guard start < text.endIndex else { return start }
        switch text[start] {
        case UInt8(ascii: "\""):
            return skipString(text, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < text.endIndex {
                switch text[index] {
                case UInt8(ascii: "\""):
                    index = skipString(text, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return text.endIndex
        default:
            // A number, true, false or null: up to the next delimiter.
            var index = start
            while index < text.endIndex,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(text[index])
            {
                index += 1
            }
            return index
        }
    }
}
