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

import Foundation
import OrientdTestKit
import Testing

/// What the desktop tests read of orientd: its constraints (status) and its allowed set (get), each time on a new
/// connection (orientd restarts in the tests).
enum DesktopAppRules {
    /// The ruled app of the tests and its mask; `Film` has the same mask, `Reader` no rule.
    static let followConf = "[Apps]\norg.example.Video=landscape\norg.example.Film=landscape\n"
    static let landscape = ["landscape-left", "landscape-right"]
    static let all = ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]

    /// One constraint as `status` lists it.
    struct Constraint: Equatable, CustomStringConvertible {
        var mask: [String]
        var holder: String?
        var pid: Int? = nil
        var description: String {
            "\(mask.joined(separator: ",")) for \(holder ?? "-") (pid \(pid.map(String.init) ?? "-"))"
        }
    }

    /// The landscape rule of `app` (`org.example.Video`, `org.example.Film`) as `via` holds it, such as
    /// `KDE script` (orientctl kwin-focus) or `GNOME extension`.
    static func landscapeRule(of app: String, via: String) -> Constraint {
        Constraint(mask: landscape, holder: "app \(app) (\(via))")
    }

    /// The constraints and the allowed set now; nil while orientd does not answer.
    static func read(_ socket: String) async -> (constraints: [Constraint], allowed: [String])? {
        guard let connection = try? DaemonConnection(path: socket) else { return nil }
        defer { connection.close() }
        guard let status = try? await connection.call("status"), let state = try? await connection.call("get"),
            let list = status.result?["constraints"]?.array, let allowed = state.state?["allowed"]?.strings
        else { return nil }
        let constraints = list.map { item in
            Constraint(mask: item["mask"]?.strings ?? [], holder: item["holder"]?.string, pid: item["pid"]?.integer)
        }
        return (constraints, allowed)
    }

    /// Waits until orientd holds exactly `constraint` (or none), with the allowed set it gives; records a failure
    /// with `context` when it does not come within 30 s.
    static func expect(
        _ constraint: Constraint?,
        allowed: [String],
        on socket: String,
        _ what: String,
        context: () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let wanted = constraint.map { [$0] } ?? []
        var last: (constraints: [Constraint], allowed: [String])?
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            last = await read(socket)
            if let last, last.constraints.map(\.mask) == wanted.map(\.mask),
                last.constraints.map(\.holder) == wanted.map(\.holder), last.allowed == allowed
            {
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        Issue.record(
            Comment(
                rawValue: "\(what): orientd holds \(last.map { "\($0.constraints)" } ?? "(no answer)") with allowed "
                    + "\(last?.allowed ?? []), not \(wanted) with \(allowed)\n\(context())"
            ),
            sourceLocation: sourceLocation
        )
    }
}
