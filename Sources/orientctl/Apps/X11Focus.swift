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

/// X11's focus, from the root window's `_NET_ACTIVE_WINDOW` (EWMH), which the window manager sets:
/// `xprop -root -spy _NET_ACTIVE_WINDOW` prints it now and at each change (a PropertyNotify on the root), and
/// `xprop -id WINDOW WM_CLASS` names the window's app.
struct X11Focus: FocusSource {
    var desktop: String { "X11" }

    /// The window of a line `_NET_ACTIVE_WINDOW(WINDOW): window id # 0x1a00003` (as window managers set it), or
    /// `_NET_ACTIVE_WINDOW(CARDINAL) = 27262979` (as `xprop -set` does); nil for no window (0, or the property not
    /// set: `_NET_ACTIVE_WINDOW:  not found.`).
    static func activeWindow(in line: String) -> String? {
        guard let mark = line.firstRange(of: "# ") ?? line.firstRange(of: "= ") else { return nil }
        let word = line[mark.upperBound...].prefix { !$0.isWhitespace && $0 != "," }
        let number = word.hasPrefix("0x") ? UInt64(word.dropFirst(2), radix: 16) : UInt64(word)
        guard let number, number != 0 else { return nil }
        return "0x" + String(number, radix: 16)
    }

    /// The class and instance of `WM_CLASS(STRING) = "instance", "Class"`, class first; empty when not set.
    static func classNames(in text: String) -> [String] {
        guard let equals = text.firstIndex(of: "=") else { return [] }
        let quoted = text[text.index(after: equals)...].split(separator: "\"", omittingEmptySubsequences: false)
        // The strings sit between quotes: fields 1, 3, 5…
        let strings = stride(from: 1, to: quoted.count - 1, by: 2).map { String(quoted[$0]) }
        return strings.reversed()
    }

    func watch(_ changed: @Sendable (FocusedApp?) async -> Void) async throws(QueryFailure) {
        let lines = try LineStream.lines(ofProgram: ["xprop", "-root", "-spy", "_NET_ACTIVE_WINDOW"])
        var last: FocusedApp??
        for await line in lines {
            var app: FocusedApp?
            if let window = Self.activeWindow(in: line) {
                let names = await ExternalCommand(arguments: ["xprop", "-id", window, "WM_CLASS"]).run()
                app = names.succeeded ? FocusedApp(names: Self.classNames(in: names.output)) : nil
            }
            guard last != .some(app) else { continue }
            last = .some(app)
            await changed(app)
        }
        if !Task.isCancelled {
            throw QueryFailure(
                message: "'xprop -root -spy _NET_ACTIVE_WINDOW' ended: the X server went away, or no window manager "
                    + "sets _NET_ACTIVE_WINDOW (EWMH)"
            )
        }
    }
}
