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

import OrientClient
import OrientProtocol

/// A failure reported as `orientctl: MESSAGE` on standard error, with the exit status of CLI.md.
struct CommandFailure: Error {
    /// orientd answered with an error.
    static let daemonErrorStatus: Int32 = 1
    /// The command line is wrong.
    static let usageStatus: Int32 = 2
    /// orientd cannot be reached, or went away.
    static let unreachableStatus: Int32 = 3
    /// Permission denied, by orientd or by the socket's permissions.
    static let permissionStatus: Int32 = 4

    var status: Int32
    var message: String

    init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    /// The failure for a client error, with advice where there is some.
    init(_ error: OrientClientError) {
        switch error.code {
        case .cannotConnect where error.isPermissionDenied:
            self.init(
                status: Self.permissionStatus,
                message: "\(error). The socket's permissions do not let this user talk to orientd."
            )
        case .cannotConnect:
            self.init(
                status: Self.unreachableStatus,
                message: "\(error). Is orientd running? Start it with 'sudo systemctl start orientd.socket' "
                    + "or run 'orientd run --socket \(error.socketPath)'"
            )
        case .connectionClosed:
            self.init(
                status: Self.unreachableStatus,
                message: "\(error). Was orientd stopped? 'systemctl status orientd' tells"
            )
        case .daemon:
            let code = error.protocolError?.code
            self.init(
                status: code == .permissionDenied ? Self.permissionStatus : Self.daemonErrorStatus,
                message: error.protocolError?.description ?? error.description
            )
        default:
            self.init(status: Self.daemonErrorStatus, message: error.description)
        }
    }
}
