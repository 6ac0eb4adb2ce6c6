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

import ArgumentParser
import OrientationCore
import SensorDevices

/// `orientd sensors`: the accelerometers found, what each would be used for, and why.
struct Sensors: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the accelerometers and other sensors found, what each would be used for, and why.",
        discussion: """
            For each IIO accelerometer: its location (display or base) and where that came from, \
            how it would be read (buffer or poll), its rate, scale, offset and mount matrix with \
            the source of each. Only a display accelerometer drives rotation; a base accelerometer \
            beside it gives the hinge angle (tablet mode on convertibles). Then the accelerometers \
            of the input subsystem (udev ID_INPUT_ACCELEROMETER: lis3lv02d and other evdev \
            accelerometers of older laptops), read through their events when there is no IIO \
            display accelerometer. Include this output \
            in bug reports. With --probe, the chosen accelerometer is also started briefly, to \
            show the mode that really works and a first calibrated reading (needs write access \
            to its sysfs attributes, usually root). Then the ambient light sensor (IIO, the \
            buffer of acpi-als, or Apple's SMC), the proximity sensor and the compass found, which \
            orientd serves on D-Bus with [DBus] Compat=yes: the attribute or buffer read, how a \
            reading becomes a value, and the pace while claimed.
            """
    )

    @OptionGroup var sensor: SensorOptionGroup

    @Flag(help: "Start the chosen accelerometer briefly and report the mode that works and a first reading.")
    var probe = false

    func run() throws {
        // A probe starts the sensor: it handles Ctrl-C on its loop, so that the device is put back.
        if !probe { Signals.unblockForForegroundCommand() }
        let options = sensor.sensorOptions
        let input = InputAccelerometerDiscovery.discover(
            uri: options.uri,
            device: options.device,
            mountMatrix: options.mountMatrix
        )
        let discovery: AccelerometerDiscovery
        do {
            discovery = try sensor.discover()
        } catch {
            // No IIO subsystem: an input accelerometer, and Apple's SMC light, may still be there; the listing goes on,
            // and the command fails below if no accelerometer is found.
            discovery = AccelerometerDiscovery(iioUnavailable: "\(error)")
        }
        var out = ""
        for accelerometer in discovery.accelerometers {
            out += "\(accelerometer.id) \(accelerometer.name)"
            if accelerometer.id == discovery.chosen?.id {
                out += " — used: \(discovery.reason)\n"
            } else if accelerometer.id == discovery.base?.id {
                out += " — used for the hinge angle: \(discovery.baseReason)\n"
            } else {
                out += " — not used: \(Self.whyNot(accelerometer, discovery))\n"
            }
            out += Self.details(accelerometer, options: options)
        }
        for skipped in discovery.skipped {
            out += "\(skipped.id) \(skipped.name) — skipped: \(skipped.reason)\n"
        }
        out += Self.inputListing(input, iioChosen: discovery.chosen != nil, options: options)
        for kind in ClaimedSensorKind.allCases {
            guard let found = ClaimedSensor.discover(kind) else { continue }
            out += Self.claimedSensorDetails(kind, syspath: found.syspath, channel: found.channel)
        }
        print(out, terminator: "")
        guard discovery.chosen != nil || input.chosen != nil else {
            throw CommandFailure(
                "\(discovery.reason). Is the accelerometer's kernel driver loaded (ls /sys/bus/iio/devices)?"
            )
        }
        if probe {
            try Probe(options: options, verbose: sensor.verbose).run()
        }
    }

    /// The accelerometers of the input subsystem: the one used when there is no IIO display accelerometer, the
    /// others and those skipped, with why.
    private static func inputListing(
        _ input: InputAccelerometerDiscovery,
        iioChosen: Bool,
        options: SensorOptions
    ) -> String {
        var out = ""
        for accelerometer in input.accelerometers {
            out += "\(accelerometer.id) \(accelerometer.name)"
            if accelerometer.id == input.chosen?.id {
                out +=
                    iioChosen
                    ? " — not used: an IIO display accelerometer is used instead\n"
                    : " — used: \(input.reason), no IIO display accelerometer\n"
            } else if accelerometer.location == .base {
                out += " — not used: a base accelerometer (udev ACCEL_LOCATION) never drives rotation\n"
            } else {
                out += " — not used: \(input.chosen == nil ? input.reason : "another input accelerometer is used")\n"
            }
            out += details(accelerometer, options: options)
        }
        for skipped in input.skipped {
            out += "\(skipped.id) \(skipped.name) — skipped: \(skipped.reason)\n"
        }
        return out
    }

    private static func whyNot(_ accelerometer: Accelerometer, _ discovery: AccelerometerDiscovery) -> String {
        if accelerometer.location == .base {
            if discovery.base == nil, accelerometer.brokenMatrix != nil { return discovery.baseReason }
            return discovery.base == nil
                ? "a base accelerometer (location from \(accelerometer.locationSource)) never drives rotation"
                : "another base accelerometer gives the hinge angle"
        }
        if discovery.chosen == nil { return discovery.reason }
        return "another display accelerometer is used"
    }

    static func details(_ accelerometer: Accelerometer, options: SensorOptions) -> String {
        let calibration = accelerometer.calibration
        var lines: [(String, String)] = []
        if let label = accelerometer.label { lines.append(("label", label)) }
        lines.append(("location", "\(accelerometer.location.rawValue) (\(accelerometer.locationSource))"))
        if let node = accelerometer.inputNode {
            lines.append(("mode", "evdev (\(node): the driver's input events, read with libevdev while generating)"))
            lines.append(("rate", "the driver's own"))
            lines.append(("scale", "\(Self.vector(calibration.scale)) (\(accelerometer.scaleSource))"))
            lines.append(("matrix", "\(calibration.matrix) (\(accelerometer.matrixSource))"))
            lines += axesLines(accelerometer)
            if let syspath = accelerometer.syspath { lines.append(("sysfs", syspath)) }
            for warning in accelerometer.warnings { lines.append(("warning", warning)) }
            return format(lines)
        }
        var mode = options.forcePolling ? "poll (--poll)" : accelerometer.preferredMode.rawValue
        if accelerometer.preferredMode == .buffer && !options.forcePolling {
            mode += accelerometer.triggerName.map { ", trigger \($0)" } ?? ", no trigger"
            mode += accelerometer.hasTimestamp ? ", timestamps" : ", no timestamp channel"
            mode += "; polls instead if no scan arrives within \(Self.number(options.pollFallback)) s"
        } else if accelerometer.preferredMode == .poll {
            mode += " (no buffer: the driver offers only raw attributes)"
        }
        lines.append(("mode", mode))
        var rate = "\(Self.number(accelerometer.chooseFrequency(atLeast: options.rate))) Hz"
        if let current = accelerometer.samplingFrequency { rate += "; now \(Self.number(current)) Hz" }
        if !accelerometer.availableFrequencies.isEmpty {
            rate += "; available " + accelerometer.availableFrequencies.map(Self.number).joined(separator: " ")
        }
        lines.append(("rate", rate))
        lines.append(("scale", "\(Self.vector(calibration.scale)) (\(accelerometer.scaleSource))"))
        lines.append(("offset", Self.vector(calibration.offset)))
        lines.append(("matrix", "\(calibration.matrix) (\(accelerometer.matrixSource))"))
        lines += axesLines(accelerometer)
        if let syspath = accelerometer.syspath { lines.append(("sysfs", syspath)) }
        for warning in accelerometer.warnings { lines.append(("warning", warning)) }
        return format(lines)
    }

    /// What says that the accelerometer's axes cannot be right: a matrix that is not a signed permutation, or every
    /// matrix found broken (a row of zeros, a typo), with what to do.
    static func axesLines(_ accelerometer: Accelerometer) -> [(String, String)] {
        if let broken = accelerometer.brokenMatrix {
            return [("axes", "\(broken): the identity is used, a guess; run 'orientd calibrate'")]
        }
        return AxesCheck.problem(with: accelerometer.calibration.matrix).map { [("axes", $0)] } ?? []
    }

    /// Indented `name: value` lines, the values aligned.
    private static func format(_ lines: [(String, String)]) -> String {
        lines.map { "  \($0.0 + ":" + String(repeating: " ", count: max(1, 10 - $0.0.count)))\($0.1)\n" }.joined()
    }

    /// A light sensor, proximity sensor or compass: what it is served as, and how it is read.
    static func claimedSensorDetails(
        _ kind: ClaimedSensorKind,
        syspath: String,
        channel: ClaimedSensorChannel
    ) -> String {
        let device = syspath.split(separator: "/").last.map(String.init) ?? syspath
        let what: String
        var value = "(raw + \(number(channel.offset))) × \(number(channel.scale))"
        if channel.attribute.hasSuffix("_input") { value = "as read" }
        switch kind {
        case .light:
            what = "ambient light (LightLevel)"
            value += ", \(channel.unit?.rawValue ?? "vendor")"
        case .proximity:
            what = "proximity (ProximityNear)"
            value = "near above \(number(channel.nearLevel ?? 0)) + 10 %, far at − 10 %"
        case .compass:
            what = "compass (CompassHeading)"
            value += ", degrees"
        }
        var read = "\(channel.attribute): \(value), every \(number(channel.interval)) s while claimed"
        if channel.encoding == .appleSMCLight {
            read =
                "\(channel.attribute) (Apple SMC, (left,right)): the larger / 255 × 100, vendor, every "
                + "\(number(channel.interval)) s while claimed"
        }
        if let node = channel.switchNode {
            read =
                "\(node) switch SW_FRONT_PROXIMITY: near while on, asked when claimed and then as the kernel sends it"
        }
        if let buffer = channel.buffer {
            let scan = "(raw + \(number(buffer.offset))) × \(number(buffer.scale)), lux"
            read =
                "\(buffer.node) buffer (\(buffer.element), trigger \(buffer.trigger)): \(scan), as the kernel "
                + "pushes scans while claimed; the first reading from \(channel.attribute), which is polled instead "
                + "if the buffer cannot be read"
        }
        return "\(device) — \(what), served on D-Bus with [DBus] Compat=yes\n"
            + "  read:     \(read)\n"
            + "  sysfs:    \(syspath)\n"
    }

    static func vector(_ v: Vector3) -> String {
        "\(number(v.x)) \(number(v.y)) \(number(v.z))"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(value)
    }
}
