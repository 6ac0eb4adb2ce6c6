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
    /// For trace lines and mount matrices. Trimmed scalar by scalar, not character by character: a mark combining with
    /// a space (`" \u{0614}.5"`) is not whitespace and stays, so that such a text is still seen as no number. The
    /// core imports nothing and exports no convenience extensions, so the other modules trim with IniFormat's.
    func trimmingWhitespace() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
