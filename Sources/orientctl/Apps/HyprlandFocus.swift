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

import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hyprland's focus, from its event socket (`.socket2.sock`): one `EVENT>>DATA` line per event, of which
/// `activewindow>>CLASS,TITLE` tells the focused window's class (empty when no window has the focus). The focus
/// at the start comes from `hyprctl activewindow -j` once, after connecting.
struct HyprlandFocus: FocusSource {
    var desktop: String { "Hyprland" }

    /// `HYPRLAND_INSTANCE_SIGNATURE`, `XDG_RUNTIME_DIR`.
    var environment: [String: String]

    /// The event socket: `$XDG_RUNTIME_DIR/hypr/SIGNATURE/.socket2.sock` (Hyprland 0.40 and later), else
    /// `/tmp/hypr/SIGNATURE/.socket2.sock`.
    func socketPaths() throws(QueryFailure) -> [String] {
        guard let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty else {
            throw QueryFailure(message: "HYPRLAND_INSTANCE_SIGNATURE is not set: cannot find Hyprland's event socket")
        }
        let runtime = environment["XDG_RUNTIME_DIR"].map { ["\($0)/hypr/\(signature)/.socket2.sock"] } ?? []
        return runtime + ["/tmp/hypr/\(signature)/.socket2.sock"]
    }

    /// The class an `activewindow>>CLASS,TITLE` line names; nil for other events, "" when no window has the focus.
    static func activeWindowClass(in line: String) -> String? {
        let prefix = "activewindow>>"
        guard line.hasPrefix(prefix) else { return nil }
        let data = line.dropFirst(prefix.count)
        // A class has no comma; the title may.
        return String(data.prefix { $0 != "," })
    }

    /// The `class` of `hyprctl activewindow -j`'s object; nil when no window has the focus (`{}` or `Invalid`).
    static func activeWindowClass(inJSON text: String) -> String? {
        struct Window: Decodable {
            var `class`: String?
        }
        return (try? JSONDecoder().decode(Window.self, from: Data(text.utf8)))?.class
    }

    func watch(_ changed: @Sendable (FocusedApp?) async -> Void) async throws(QueryFailure) {
        let paths = try socketPaths()
        var connected: (descriptor: Int32, path: String)?
        var failure = Errno(ENOENT)
        for path in paths where connected == nil {
            do throws(Errno) {
                connected = (try FileDescriptor.connect(toUnixSocketAt: path).rawValue, path)
            } catch {
                failure = error
            }
        }
        guard let (descriptor, path) = connected else {
            throw QueryFailure(
                message: "cannot connect to Hyprland's event socket (\(paths.joined(separator: " or "))): \(failure)"
            )
        }
        let lines = LineStream.lines(of: descriptor, stop: { _ = shutdown(descriptor, Int32(SHUT_RDWR)) })
        let active = await ExternalCommand(arguments: ["hyprctl", "activewindow", "-j"]).run()
        var last = active.succeeded ? FocusedApp(names: [Self.activeWindowClass(inJSON: active.output)]) : nil
        await changed(last)
        for await line in lines {
            guard let named = Self.activeWindowClass(in: line) else { continue }
            let app = FocusedApp(names: [named])
            guard app != last else { continue }
            last = app
            await changed(app)
        }
        if !Task.isCancelled {
            throw QueryFailure(message: "Hyprland's event socket \(path) closed: did Hyprland exit?")
        }
    }
}
