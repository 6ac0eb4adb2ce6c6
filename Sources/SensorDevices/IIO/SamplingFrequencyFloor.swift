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

/// iio-sensor-proxy's floor for the rate an accelerometer rests at (its `iio_fixup_sampling_frequency`): some
/// buffered drivers start at 0 Hz and never deliver, and some polled ones start at 1 Hz and hold every read of a
/// `_raw` attribute until their next sample. An accelerometer found below ``minimum`` is raised to it and left there;
/// a capture then puts back the raised rate, not the one before.
enum SamplingFrequencyFloor {
    /// The lowest rate, in Hz, an accelerometer is left at (iio-sensor-proxy's `IIO_MIN_SAMPLING_FREQUENCY`).
    static let minimum = 10.0

    /// One attribute looked at: its file, the text it had and the one written, and whether the write was taken.
    struct Raise: Equatable {
        var attribute: String
        var from: String
        var to: String
        var written: Bool
    }

    /// Raises the accelerometer's rates below ``minimum`` (`sampling_frequency`, and the typed
    /// `in_accel_*sampling_frequency`; a gyroscope's rate on the same device is not the accelerometer's) to the
    /// lowest rate it offers at or above the minimum, or the minimum when it lists none. The number is written bare,
    /// as iio-sensor-proxy writes it. Only a device with a local sysfs folder is changed.
    /// - Returns: what was raised, or tried; empty when every rate was at the floor or above.
    static func raise(_ accelerometer: inout Accelerometer) -> [Raise] {
        guard let syspath = accelerometer.syspath, accelerometer.inputNode == nil else { return [] }
        let sysfs = SysfsAttributes(path: syspath)
        let target = accelerometer.chooseFrequency(atLeast: minimum)
        var raised: [Raise] = []
        for name in sysfs.list("")
        where name == "sampling_frequency" || (name.hasPrefix("in_accel") && name.hasSuffix("sampling_frequency")) {
            guard let text = sysfs.read(name), let current = Double(text), current < minimum, current < target
            else { continue }
            let value = DeviceSettings.format(target)
            let written = sysfs.write(name, value)
            if written { accelerometer.samplingFrequency = target }
            raised.append(Raise(attribute: name, from: text, to: value, written: written))
        }
        return raised
    }
}
