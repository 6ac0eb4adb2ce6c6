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

import Logging

/// The settings orientd changes on a device to capture through the buffer, as they were before,
/// so that stopping puts everything back: scan element switches, trigger, sampling frequency,
/// hysteresis.
struct DeviceSettings {
    private var sysfs: SysfsAttributes?
    private var scanEnables: [(String, String)] = []
    private var triggerName: String?
    private var frequency: (attribute: Attribute, text: String)?
    private var hysteresis: String?

    /// `in_accel_hysteresis` as it was before the capture, if the device has it.
    var savedHysteresis: String? { hysteresis }

    private enum Attribute {
        case device(String)
        case channel(String, String)
    }

    /// Reads the current settings.
    static func save(_ device: IIODevice, accelerometer: Accelerometer) -> DeviceSettings {
        var settings = DeviceSettings()
        if device.context.isLocal, let syspath = accelerometer.syspath {
            let sysfs = SysfsAttributes(path: syspath)
            settings.sysfs = sysfs
            settings.scanEnables = sysfs.list("scan_elements").filter { $0.hasSuffix("_en") }.compactMap { name in
                sysfs.read("scan_elements/" + name).map { ("scan_elements/" + name, $0) }
            }
        }
        settings.triggerName = device.trigger?.name ?? ""
        if let attribute = frequencyAttribute(device) {
            // The file's own text where there is one: libiio drops a value's last character, the newline a kernel
            // ends it with, and a rate raised by ``SamplingFrequencyFloor`` is written without it.
            let file = settings.sysfs.flatMap { sysfs in fileName(attribute, device).flatMap { sysfs.read($0) } }
            settings.frequency = (attribute, file ?? (try? read(attribute, device)) ?? "")
        }
        if let channel = device.accelerometerChannel("x"), channel.hasAttribute("hysteresis") {
            settings.hysteresis = try? channel.readAttribute("hysteresis")
        }
        return settings
    }

    /// Sets the trigger, the sampling frequency (the lowest available at or above `rate`) and
    /// hysteresis 0 (HID sensors report only changes beyond it).
    func configure(_ device: IIODevice, accelerometer: Accelerometer, rate: Double, logger: Logger) throws(SensorError)
    {
        if let name = accelerometer.triggerName, device.trigger?.name != name,
            let trigger = device.context.device(named: name)
        {
            try device.setTrigger(trigger)
        }
        if let frequency, !accelerometer.availableFrequencies.isEmpty || accelerometer.samplingFrequency != nil {
            let chosen = accelerometer.chooseFrequency(atLeast: rate)
            do {
                try Self.write(frequency.attribute, device, Self.format(chosen))
            } catch {
                logger.warning(
                    "cannot set the sampling frequency",
                    metadata: ["device": "\(device.id)", "error": "\(error)"]
                )
            }
        }
        if hysteresis != nil, let channel = device.accelerometerChannel("x") {
            do {
                try channel.writeAttribute("hysteresis", "0")
            } catch {
                logger.warning(
                    "cannot set the hysteresis to 0",
                    metadata: ["device": "\(device.id)", "error": "\(error)"]
                )
            }
        }
    }

    /// Sets the sampling frequency (with the buffer off) and reads it back.
    /// - Returns: whether the device now samples at `value`; false when it has no such attribute, refuses the
    ///   write, or shows another value.
    @discardableResult
    func setFrequency(_ device: IIODevice, _ value: Double) -> Bool {
        guard let frequency else { return false }
        do {
            try Self.write(frequency.attribute, device, Self.format(value))
            return Double(try Self.read(frequency.attribute, device)) == value
        } catch {
            return false
        }
    }

    /// Writes `in_accel_hysteresis` (HID sensors) and reads it back.
    /// - Returns: whether the device now has `value` (compared as numbers: `5` and `5.000000` are one).
    @discardableResult
    func setHysteresis(_ device: IIODevice, _ value: String) -> Bool {
        guard hysteresis != nil, let channel = device.accelerometerChannel("x") else { return false }
        do {
            try channel.writeAttribute("hysteresis", value)
            let now = try channel.readAttribute("hysteresis")
            return now == value || (Double(now) != nil && Double(now) == Double(value))
        } catch {
            return false
        }
    }

    /// Sets the trigger named `name` (with the buffer off) and reads it back.
    /// - Returns: whether the device now has that trigger.
    @discardableResult
    func setTrigger(_ device: IIODevice, _ name: String) -> Bool {
        guard let trigger = device.context.device(named: name) else { return false }
        do {
            try device.setTrigger(trigger)
        } catch {
            return false
        }
        return device.trigger?.name == name
    }

    /// Puts back what ``save(_:accelerometer:)`` read; best effort (the device may be gone).
    func restore(_ device: IIODevice) {
        if let sysfs {
            for (name, value) in scanEnables where sysfs.read(name) != value {
                sysfs.write(name, value)
            }
        }
        if let triggerName, device.trigger?.name ?? "" != triggerName {
            try? device.setTrigger(triggerName.isEmpty ? nil : device.context.device(named: triggerName))
        }
        if let frequency, !frequency.text.isEmpty, (try? Self.read(frequency.attribute, device)) != frequency.text {
            try? Self.write(frequency.attribute, device, frequency.text)
        }
        if let hysteresis, let channel = device.accelerometerChannel("x"),
            (try? channel.readAttribute("hysteresis")) != hysteresis
        {
            try? channel.writeAttribute("hysteresis", hysteresis)
        }
    }

    private static func frequencyAttribute(_ device: IIODevice) -> Attribute? {
        if device.hasAttribute("sampling_frequency") { return .device("sampling_frequency") }
        if let id = device.accelerometerChannelID("x"), device.channel(id)?.hasAttribute("sampling_frequency") == true {
            return .channel(id, "sampling_frequency")
        }
        return nil
    }

    private static func fileName(_ attribute: Attribute, _ device: IIODevice) -> String? {
        switch attribute {
        case .device(let name): return name
        case .channel(let channel, let name): return device.channel(channel)?.attributeFile(name)
        }
    }

    private static func read(_ attribute: Attribute, _ device: IIODevice) throws(SensorError) -> String {
        switch attribute {
        case .device(let name): return try device.readAttribute(name)
        case .channel(let channel, let name):
            guard let channel = device.channel(channel) else {
                throw SensorError(.deviceGone, operation: name, device: device.id)
            }
            return try channel.readAttribute(name)
        }
    }

    private static func write(_ attribute: Attribute, _ device: IIODevice, _ value: String) throws(SensorError) {
        switch attribute {
        case .device(let name): try device.writeAttribute(name, value)
        case .channel(let channel, let name):
            guard let channel = device.channel(channel) else {
                throw SensorError(.deviceGone, operation: name, device: device.id)
            }
            try channel.writeAttribute(name, value)
        }
    }

    /// A frequency as the kernel accepts it: an integer when whole (`20`), else a decimal (`12.5`).
    static func format(_ value: Double) -> String {
        value == value.rounded() && value < 1e9 ? String(Int(value)) : String(value)
    }
}
