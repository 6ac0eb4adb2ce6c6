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

package import OrientationCore

/// Where the engine's changes go, given to the engine when it is made, each with what it shows (an output never
/// reads the engine back): the daemon sends event lines to its generating connections, the state to sd_notify, the
/// D-Bus service and the virtual tablet-mode switch; a unit test records them; a
/// benchmark counts them. Every call comes from the loop's one thread, after the change it reports is complete.
package protocol EngineOutput: AnyObject {
    /// One event line (PROTOCOL.md) for every connection whose count in `generation` (the counts after the change)
    /// is above zero, in the order of the change's events.
    func deliver(_ line: [UInt8], to generation: GenerationCounter)
    /// What the outputs show after a change, once its events are sent (sd_notify `STATUS=`, the D-Bus properties,
    /// the virtual tablet-mode switch).
    func stateChanged(to published: PublishedState)
    /// The tilt changed (only while the engine follows it), after the change of state the same sample made.
    func tiltChanged(to tilt: DeviceTilt)
}
