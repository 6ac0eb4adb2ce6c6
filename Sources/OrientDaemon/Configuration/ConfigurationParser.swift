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
import OrientationCore

/// Reads one file in systemd's INI format (CONFIG.md), split into lines by ``IniLexer``. Strict: every mistake
/// is reported, with the file, the line, the key, the value and what is allowed.
struct ConfigurationParser {
    /// One accepted `Key=Value`.
    struct Assignment {
        var key: ConfigurationKey
        var value: String
        var line: Int
    }

    /// Parses `text`, the contents of `file`.
    /// - Returns: the assignments in file order, and the mistakes found (the assignments are
    ///   not to be used when there are any).
    static func parse(_ text: String, file: String) -> (assignments: [Assignment], errors: [ConfigurationError]) {
        var assignments: [Assignment] = []
        var errors: [ConfigurationError] = []
        var section: String?
        var sectionIsKnown = false
        var firstLines: [String: Int] = [:]
        for line in IniLexer.lines(of: text) {
            let number = line.number
            let name: String
            let value: String
            switch line.kind {
            case .unclosedSection:
                errors.append(ConfigurationError(file: file, line: number, value: line.text, reason: .malformedLine))
                // Its keys would only repeat the mistake.
                section = line.text
                sectionIsKnown = false
                continue
            case .section(let named):
                section = named
                sectionIsKnown = ConfigurationKey.sections.contains(named)
                if !sectionIsKnown {
                    errors.append(
                        ConfigurationError(
                            file: file,
                            line: number,
                            section: named,
                            reason: .unknownSection,
                            allowed: ConfigurationKey.sections.map { "[\($0)]" }.joined(separator: ", ")
                        )
                    )
                }
                continue
            case .notAssignment:
                errors.append(ConfigurationError(file: file, line: number, value: line.text, reason: .malformedLine))
                continue
            case .assignment(let key, let assigned):
                (name, value) = (key, assigned)
            }
            guard let section else {
                errors.append(
                    ConfigurationError(file: file, line: number, key: name, value: value, reason: .keyOutsideSection)
                )
                continue
            }
            // The unknown section was reported once; its keys are not reported again.
            guard sectionIsKnown else { continue }
            // A mistake in this assignment, with what is allowed instead.
            let refuse = { (reason: ConfigurationError.Reason, allowed: String) in
                errors.append(
                    ConfigurationError(
                        file: file,
                        line: number,
                        section: section,
                        key: name,
                        value: value,
                        reason: reason,
                        allowed: allowed
                    )
                )
            }
            guard let key = ConfigurationKey.named(name, in: section) else {
                let keys = ConfigurationKey.all.filter { $0.section == section }.map { "\($0.name)=" }
                refuse(.unknownKey, keys.joined(separator: ", "))
                continue
            }
            if let first = firstLines[key.qualifiedName] {
                refuse(.duplicateKey(firstLine: first), "once per file; a later drop-in overrides it")
                continue
            }
            firstLines[key.qualifiedName] = number
            if let problem = key.check(value) {
                refuse(.badValue(problem), key.allowed)
                continue
            }
            assignments.append(Assignment(key: key, value: value, line: number))
        }
        return (assignments, errors)
    }
}
