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

/// What keeps a still device from pushing scans while the capture is at the idle pace, when its driver has it:
/// then the kernel wakes the process only when the device moves.
///
/// - The hysteresis of HID sensor hubs (`hid-sensor-accel-3d`: the AMD Sensor Fusion Hub, Intel's ISH): the hub
///   reports only changes larger than `in_accel_hysteresis`. orientd sets it to 0 at the full pace (every sample)
///   and puts back the hub's own value at the idle pace; a hub whose own value is 0 has no gate.
/// - The `<name>-any-motion-dev<N>` trigger of bmc150, kxcjk-1013 and bmg160-style drivers: the chip's slope
///   interrupt pushes a scan only when the acceleration changes by more than the driver's threshold (left as the
///   driver has it). orientd uses it at the idle pace, the data-ready trigger `<name>-dev<N>` at the full pace.
///
/// Both are put back as they were when the capture stops (``DeviceSettings/restore(_:)``).
enum MotionGate: Equatable, Sendable {
    /// The hub's own hysteresis, as read before the capture set it to 0.
    case hysteresis(String)
    /// The any-motion trigger's name.
    case anyMotionTrigger(String)

    /// The gate `device` offers: its any-motion trigger when it has one and a data-ready trigger to return to,
    /// else its own non-zero hysteresis (`savedHysteresis`, as read before capturing); nil for neither.
    static func find(
        _ device: IIODevice,
        dataReadyTrigger: String?,
        savedHysteresis: String?
    ) -> MotionGate? {
        let number = device.id.dropFirst("iio:device".count)
        let anyMotion = "\(device.name)-any-motion-dev\(number)"
        if dataReadyTrigger != nil, device.context.device(named: anyMotion)?.isTrigger == true {
            return .anyMotionTrigger(anyMotion)
        }
        if let savedHysteresis, let value = Double(savedHysteresis), value > 0 {
            return .hysteresis(savedHysteresis)
        }
        return nil
    }

    /// The looks of a still, gated buffer (``BufferWatch/Settings/gatedLookInterval``, 40 s by default) in a row that
    /// find no scan before one scan is let through the gate to see that the buffer still delivers (a probe).
    ///
    /// A hub's hysteresis opens and closes with the buffer on, two attribute writes: every look. A trigger changes
    /// only with the buffer off, so its probe disables and enables the buffer twice (on a bmc150, I2C writes that
    /// block; under the emulation about 50 context switches a sensor): every ``triggerLooksPerProbe``-th look, so
    /// that a still convertible with two such sensors stays under 0.1 wake-ups a second. A suspend is found at the
    /// next look either way; a buffer that falls silent with no suspend while the device is still is found within
    /// this many looks.
    var looksPerProbe: Int {
        switch self {
        case .hysteresis: 1
        case .anyMotionTrigger: Self.triggerLooksPerProbe
        }
    }

    /// The looks per probe of an any-motion trigger: 40, a probe every 27 minutes by default. Under the emulation two
    /// sensors' probes cost about 110 context switches (one or two bursts) and a look one: 40 looks and a probe in
    /// 1600 s are under 0.1 a second (at every 30th look, 0.11 was measured).
    static let triggerLooksPerProbe = 40

    /// How the log and `status` name it.
    var description: String {
        switch self {
        case .hysteresis(let value): "hysteresis \(value)"
        case .anyMotionTrigger(let name): "trigger \(name)"
        }
    }
}
