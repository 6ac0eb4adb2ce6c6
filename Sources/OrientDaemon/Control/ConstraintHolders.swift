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
import OrientProtocol
import OrientationCore

/// Who holds each connection's constraint, for `status`: the mask, the process at the other end of the
/// connection (its pid and command name, from the peer's credentials and `/proc`), and what the client said the
/// constraint is for (`holder`: `app mpv`). The engine owns the constraints themselves; this only names them.
struct ConstraintHolders {
    /// What is known of one holder when its constraint is set: nothing is read then, so that a `constrain` costs
    /// no more than before; `status` reads the command name.
    private struct Entry {
        var mask: InterfaceOrientationMask
        var processID: Int32?
        var holder: String?
    }

    private var entries: [ClientID: Entry] = [:]

    /// Records a connection's constraint after the engine took it; nil forgets it (removed, or the connection
    /// closed).
    mutating func record(
        _ mask: InterfaceOrientationMask?,
        holder: String?,
        for client: ClientID,
        peer: PeerCredentials?
    ) {
        entries[client] = mask.map { Entry(mask: $0, processID: peer?.processID, holder: holder) }
    }

    /// The constraints in the order their connections were made, each with the command name the kernel keeps for
    /// its process (`comm`: at most 15 bytes), read now: the connection is open, so its process is there.
    var report: [StatusReport.Constraint] {
        entries.sorted { $0.key.rawValue < $1.key.rawValue }.map { _, entry in
            let pid = entry.processID.map(Int.init)
            let command = pid.flatMap { (try? ConfigurationFiles.read("/proc/\($0)/comm"))??.trimmingWhitespace() }
            return StatusReport.Constraint(
                mask: entry.mask.wireNames,
                pid: pid,
                command: command.flatMap { $0.isEmpty ? nil : $0 },
                holder: entry.holder
            )
        }
    }
}
