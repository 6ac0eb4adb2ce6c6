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

/// One way of reading the accelerometer while its sensor captures: through the IIO buffer (``BufferedCapture``)
/// or from a timer (``PolledCapture``). A capture reports to the ``AccelerometerSensor`` that made it: each reading
/// with its quality (`captured(_:quality:)`), a passing read error (`captureHadTrouble(_:)`) and the end of the
/// capture (`captureFailed(_:)`). A reading handed on may stop the capture that read it: a capture looks at itself
/// again after every reading it hands on.
protocol Capture: AnyObject {
    /// How this capture reads the device.
    var mode: CaptureMode { get }
    /// The device captured.
    var device: IIODevice { get }
    /// Samples slowly while the device is still, at the full rate while it moves.
    /// - Returns: false when the device refused the idle pace (the capture stays at the full rate).
    func setPace(_ pace: SensorPace) -> Bool
    /// Whether the driver holds back the scans of a still device now (``MotionGate``): silence is then no fault.
    var motionGated: Bool { get }
    /// Lets one scan through the gate, to see that the device still delivers; nothing without a gate.
    func probe()
    /// Stops capturing: nothing of it wakes the process any more, and the device is as it was. Safe to call twice.
    func stop()
}

extension Capture {
    var motionGated: Bool { false }
    func probe() {}
}
