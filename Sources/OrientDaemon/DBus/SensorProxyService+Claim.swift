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

import CSystemd
import OrientationCore

#if canImport(Glibc)
import Glibc
#endif

extension SensorProxyService {
    /// One bus client's claim of one sensor: for the accelerometer its generation identity, and the watch
    /// that tells when its unique name leaves the bus.
    final class Claim {
        let name: String
        let id: ClientID?
        let pid: Int?
        let command: String?
        private let watch: BusNameWatch

        init(
            name: String,
            id: ClientID?,
            bus: OpaquePointer,
            message: OpaquePointer,
            onGone: @escaping (String) -> Void
        ) throws(BusError) {
            self.name = name
            self.id = id
            (pid, command) = Self.identify(message)
            watch = try BusNameWatch(name: name, bus: bus, gone: onGone)
        }

        /// The sender's process id and command name, when the bus tells them (for `status` and the log).
        private static func identify(_ message: OpaquePointer) -> (Int?, String?) {
            var creds: OpaquePointer?
            let mask = UInt64(SD_BUS_CREDS_PID) | UInt64(SD_BUS_CREDS_COMM) | UInt64(SD_BUS_CREDS_AUGMENT)
            guard sd_bus_query_sender_creds(message, mask, &creds) >= 0, let creds else { return (nil, nil) }
            defer { sd_bus_creds_unref(creds) }
            var pid: pid_t = 0
            var comm: UnsafePointer<CChar>?
            let knownPID = sd_bus_creds_get_pid(creds, &pid) >= 0 ? Int(pid) : nil
            let command = sd_bus_creds_get_comm(creds, &comm) >= 0 ? comm.map { String(cString: $0) } : nil
            return (knownPID, command)
        }
    }
}
