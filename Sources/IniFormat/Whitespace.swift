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

extension StringProtocol {
    /// The text without leading and trailing whitespace (Unicode's `White_Space`: spaces, tabs, line ends…).
    ///
    /// The one trim of the text the daemon's side reads: the lines, section names, keys and values of an INI file,
    /// kernel attributes, a program's output. Trimmed scalar by scalar, not character by character: a mark combining
    /// with a space (`" \u{0614}.5"`) is not whitespace and stays, so that such a text is still seen as no number.
    /// OrientationCore, which imports nothing, keeps a copy of its own for traces and mount matrices.
    package func trimmingWhitespace() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
