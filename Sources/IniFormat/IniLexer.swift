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

/// Splits the text of an INI file into its meaningful lines: the one reader of the format, shared by the daemon's
/// configuration and `orientctl follow`'s follow.conf. It judges no names and no values: each caller knows its
/// own sections and keys, and whether it reports every mistake or stops at the first.
///
/// The format: `[Section]` lines, `Key=Value` lines with optional whitespace around `=`, `#` and `;` comments
/// (whole lines only: a value may hold either character), empty lines; lines end at `\n`, and a `\r` before it
/// is whitespace.
public enum IniLexer {
    /// The lines of `text` that are neither empty nor comments, in file order.
    public static func lines(of text: String) -> [IniLine] {
        var lines: [IniLine] = []
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            lines.append(IniLine(number: number, text: line, kind: kind(of: line)))
        }
        return lines
    }

    /// What a trimmed, non-empty line that is not a comment says.
    private static func kind(of line: String) -> IniLine.Kind {
        if line.hasPrefix("[") {
            guard line.hasSuffix("]"), line.count >= 2 else { return .unclosedSection }
            return .section(line.dropFirst().dropLast().trimmingWhitespace())
        }
        guard let equals = line.firstIndex(of: "=") else { return .notAssignment }
        let key = line[..<equals].trimmingWhitespace()
        guard !key.isEmpty else { return .notAssignment }
        return .assignment(key: key, value: line[line.index(after: equals)...].trimmingWhitespace())
    }
}
