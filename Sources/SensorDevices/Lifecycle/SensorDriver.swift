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

/// What an accelerometer sensor tells its ``SensorLifecycle``: how it finds and opens its device, and what it does with
/// hotplug events that concern only it. Reading is the sensor's own business (its capture calls it); the lifecycle owns
/// the rest of the life: start, stop, close, failures and their retries, hotplug and its settle delay.
protocol SensorDriver: AnyObject {
    /// The sources and state of one capture; leaving the capturing phase releases them.
    associatedtype Capturing: CapturingPhase

    /// Finds the device and opens it (at a start, a retry, or after a hotplug event while absent).
    func open() -> SensorOpening<Capturing>
    /// Looks for the device without opening it (the sensor is stopped), telling the delegate what it found.
    func refreshDiscovery()
    /// Whether a device of the monitored subsystem named `sysname` can be the sensor's (an event node, not a
    /// joystick's `js0`).
    func concerns(_ sysname: String) -> Bool
    /// udev changed the device in use (a `change` uevent); true when the sensor dealt with it, false to have it
    /// treated as any other event.
    func deviceChanged() -> Bool
}

extension SensorDriver {
    func concerns(_ sysname: String) -> Bool { true }
    func deviceChanged() -> Bool { false }
}

/// The sources of one capture, held by the capturing phase of ``SensorPhases`` and stopped by the ``SensorLifecycle``.
protocol CapturingPhase: AnyObject {
    /// Stops capturing: nothing of it wakes the process any more, and the device is as it was. Safe to call twice.
    func stop()
}

/// How an attempt to open a sensor's device ended.
enum SensorOpening<Capturing> {
    /// The device is open and read.
    case capturing(Capturing)
    /// There is no device; why, for the log and `lastError`.
    case absent(reason: String)
    /// The device went away while it was opened: absent, waiting for hotplug.
    case gone(SensorError)
    /// The device could not be opened: retried.
    case failed(SensorError)
}
