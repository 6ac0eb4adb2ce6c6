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

import OrientProtocol
import OrientationCore

/// Who holds each connection's constraint, for `status`: the mask, the process at the other end of the
/// connection (its pid and command name, from the peer's credentials and `/proc`), and what the client said the
/// constraint is for (`holder`: `app mpv`). The engine owns the constraints themselves; this only names them.
struct ConstraintHolders {
    private var entries: [ClientID: StatusReport.Constraint] = [:]

    /// Records a connection's constraint after the engine took it; nil forgets it (removed, or the connection
    /// closed).
    mutating func record(
        _ mask: InterfaceOrientationMask?,
        holder: String?,
        for client: ClientID,
        peer: PeerCredentials?
    ) {
        guard let mask else {
            entries[client] = nil
            return
        }
        let pid = peer.map { Int($0.processID) }
        // The command name the kernel keeps (`comm`: at most 15 bytes), read once, when the constraint is set.
        let command = pid.flatMap { (try? ConfigurationFiles.read("/proc/\($0)/comm"))??.trimmingWhitespace() }
        entries[client] = StatusReport.Constraint(
            mask: mask.wireNames,
            pid: pid,
            command: command.flatMap { $0.isEmpty ? nil : $0 },
            holder: holder
        )
    }

    /// The constraints in the order their connections were made.
    var report: [StatusReport.Constraint] {
        entries.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value)
    }
}
