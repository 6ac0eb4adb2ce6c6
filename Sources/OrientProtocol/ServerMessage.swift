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

/// A line from the daemon, as a client reads it: a reply (result or error) or an event. OrientClient reads it
/// (`ServerMessage.decode(_:)`), with FoundationEssentials' `JSONDecoder`, which the daemon does not need;
/// `orientd calibrate` with this module's own parser (`ServerMessage.parse(_:)`).
public enum ServerMessage: Sendable, Hashable {
    /// A successful reply; decode its result with `result(_:from:)` knowing the method called.
    case result(id: RequestID?, line: [UInt8])
    /// An error reply.
    case error(id: RequestID?, ProtocolError)
    /// An event.
    case event(OrientationEvent)
}
