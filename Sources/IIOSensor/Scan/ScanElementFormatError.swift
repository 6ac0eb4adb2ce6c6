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

/// A scan element type that does not describe a value.
public struct ScanElementFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A part of the scan element type text.
    public enum Part: String, Sendable, Hashable {
        /// `be` or `le`.
        case endianness
        /// The `:` after the endianness.
        case colon = "':'"
        /// `s` or `u`.
        case sign
        /// The number of value bits.
        case bits
        /// The `/` before the storage bits.
        case slash = "'/'"
        /// The slot size in bits.
        case storageBits = "storage bits"
        /// The number after `X`.
        case repeatCount = "repeat count"
        /// The `>>` before the shift.
        case shiftOperator = "'>>'"
        /// The shift in bits.
        case shift
    }

    /// What is wrong with the text.
    public enum Reason: Error, Sendable, Hashable {
        /// Neither `be` nor `le`; carries what was found instead.
        case unknownEndianness(String)
        /// Neither `s` nor `u` (in either case); carries what was found instead.
        case unknownSign(String)
        /// The text ends, or has something else, where this part belongs.
        case missing(ScanElementFormatError.Part)
        /// A number too large to be any valid value of this part.
        case numberTooLarge(ScanElementFormatError.Part)
        /// Storage bits other than 8, 16, 32 or 64.
        case unsupportedStorageBits(Int)
        /// Bits of 0 (or less) or more than the storage bits.
        case invalidBits(Int)
        /// A negative shift, or one that pushes the value past the top of its slot.
        case invalidShift(Int)
        /// A repeat count below 1 or above ``ScanElementFormat/maximumRepeatCount``.
        case invalidRepeatCount(Int)
        /// Characters after the shift; carries them.
        case trailingCharacters(String)
    }

    /// The text that was parsed, or the kernel spelling of the parts that were given.
    public var text: String
    /// What is wrong with it.
    public var reason: Reason

    /// An error for this text and reason.
    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    /// The text in quotes and what is wrong with it.
    public var description: String {
        "scan element type '\(text)': \(explanation)"
    }

    private var explanation: String {
        switch reason {
        case .unknownEndianness(let found):
            "unknown endianness '\(found)' (expected 'be' or 'le')"
        case .unknownSign(let found):
            "unknown sign '\(found)' (expected 's' or 'u')"
        case .missing(let part):
            "missing the \(part.rawValue)"
        case .numberTooLarge(let part):
            "the \(part.rawValue) is too large"
        case .unsupportedStorageBits(let storageBits):
            "storage bits \(storageBits) is not 8, 16, 32 or 64"
        case .invalidBits(let bits):
            "bits \(bits) is not between 1 and the storage bits"
        case .invalidShift(let shift):
            "shift \(shift) is negative or moves the value past the top of its storage bits"
        case .invalidRepeatCount(let count):
            "repeat count \(count) is not between 1 and \(ScanElementFormat.maximumRepeatCount)"
        case .trailingCharacters(let rest):
            "unexpected '\(rest)' after the shift"
        }
    }
}
