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

/// Why the daemon could not start, or its loop failed: the step, and what went wrong and what to do.
public struct DaemonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Sendable, Hashable {
            case eventLoop
            case policy
            case listen
            case controlSocket
            case signals
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        /// Creating or running the event loop.
        public static let eventLoop = Step(.eventLoop)
        /// Taking the `[Policy]` settings.
        public static let policy = Step(.policy)
        /// Listening on the control socket.
        public static let listen = Step(.listen)
        /// Watching the control socket on the loop.
        public static let controlSocket = Step(.controlSocket)
        /// Handling SIGTERM, SIGINT and SIGHUP, and the watchdog.
        public static let signals = Step(.signals)

        public var description: String {
            switch code {
            case .eventLoop: "event loop"
            case .policy: "policy"
            case .listen: "listen"
            case .controlSocket: "control socket"
            case .signals: "signals"
            }
        }
    }

    /// The step that failed.
    public let step: Step
    /// What went wrong and what to do.
    public let description: String

    init(_ step: Step, _ description: String) {
        self.step = step
        self.description = description
    }
}
