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

/// Prints states and events as text or, with `--json`, as the daemon's JSON.
struct Printer {
    var json: Bool

    /// Prints a state as its state line, or its JSON text as the daemon sent it.
    func state(_ state: OrientationState, json text: ArraySlice<UInt8>?) {
        if json, let text {
            StandardStreams.output(json: text)
        } else {
            StandardStreams.output(state.stateLine)
        }
    }

    /// Prints an event as `device=… interface=… rotation=…`, or its line as the daemon sent it.
    func event(_ event: Received<OrientationEvent>) {
        if json {
            StandardStreams.output(json: event.line)
        } else {
            StandardStreams.output(event.value.state.orientationLine)
        }
    }
}
