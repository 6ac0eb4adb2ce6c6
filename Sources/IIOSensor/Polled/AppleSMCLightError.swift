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
