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

import IniFormat
/// One reading of the ambient light sensor of Apple's System Management Controller: the `light` attribute of the
/// `applesmc` platform device, `(left,right)` (two sensors; the kernel writes `(%d,%d)`), a value of the machine's
/// own that is not lux.
///
/// The level is iio-sensor-proxy's: the brighter of the two sensors as a percentage of 255, so that a client sees
/// the same `LightLevel` from either daemon.
public struct AppleSMCLight: Sendable, Hashable {
    /// The reading of the sensor the kernel names first.
    public let left: Int
    /// The reading of the other sensor.
    public let right: Int

    /// The full scale of one sensor in iio-sensor-proxy's level.
    public static let fullScale = 255.0

    /// The reading of a `light` attribute's text: `(left,right)`, with blanks around the numbers and a trailing
    /// newline allowed.
    /// - Throws: ``AppleSMCLightError`` for any other text (empty, a missing parenthesis or comma, a part that is
    ///   not a whole number, a negative number, something after the closing parenthesis).
    public init(parsing text: String) throws(AppleSMCLightError) {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.first == "(" else { throw AppleSMCLightError(text: text, reason: .notParenthesized) }
        guard trimmed.last == ")" else {
            let reason: AppleSMCLightError.Reason = trimmed.contains(")") ? .trailingText : .notParenthesized
            throw AppleSMCLightError(text: text, reason: reason)
        }
        let inside = trimmed.dropFirst().dropLast()
        let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw AppleSMCLightError(text: text, reason: .notTwoValues(parts.count)) }
        var values: [Int] = []
        for part in parts {
            let word = part.trimmingWhitespace()
            guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }),
                let value = Int(word)
            else { throw AppleSMCLightError(text: text, reason: .notANumber(String(part))) }
            guard value >= 0 else { throw AppleSMCLightError(text: text, reason: .negative(value)) }
            values.append(value)
        }
        left = values[0]
        right = values[1]
    }

    /// iio-sensor-proxy's level: the larger of the two readings / 255 × 100 (a `vendor` value), the division in
    /// single precision as iio-sensor-proxy makes it, so that both daemons give the same number.
    public var level: Double { Double(Float(max(left, right)) / Float(Self.fullScale)) * 100 }
}

/// A text of the `applesmc` `light` attribute that is not a reading `(left,right)`: nothing is served from it.
public struct AppleSMCLightError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the text.
    public enum Reason: Sendable, Hashable {
        /// It does not start with `(` or end with `)` (an empty text too).
        case notParenthesized
        /// Something follows the closing parenthesis.
        case trailingText
        /// Not two values between the parentheses; carries how many there are.
        case notTwoValues(Int)
        /// A value that is not a whole number; carries it.
        case notANumber(String)
        /// A value below 0, which no sensor reads; carries it.
        case negative(Int)
    }

    /// The text read.
    public let text: String
    /// What is wrong with it.
    public let reason: Reason

    /// An error for `text`.
    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    public var description: String {
        let shown = text.replacingNewlines
        let why =
            switch reason {
            case .notParenthesized: "it is not in parentheses"
            case .trailingText: "something follows the closing parenthesis"
            case .notTwoValues(let count): "it has \(count) values, not 2"
            case .notANumber(let part): "'\(part.replacingNewlines)' is not a whole number"
            case .negative(let value): "\(value) is negative"
            }
        return "the applesmc light reading '\(shown)' is not (left,right): \(why)"
    }
}

extension String {
    /// The text with its newlines written `\n`, for a one-line message.
    fileprivate var replacingNewlines: String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }
}
