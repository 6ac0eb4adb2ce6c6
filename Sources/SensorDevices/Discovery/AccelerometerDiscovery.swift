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

public import OrientationCore
import UdevSupport

/// Finds the accelerometers of an IIO context and chooses the display one (ORIENTATION.md:
/// location and mount-matrix precedence), and the base one of a two-accelerometer convertible.
public struct AccelerometerDiscovery: Sendable {
    /// An IIO device that is not used, and why.
    public struct Skipped: Sendable, Hashable {
        /// `iio:deviceN`.
        public var id: String
        /// The driver's name.
        public var name: String
        /// Why it is not used.
        public var reason: String
    }

    /// The accelerometers found, in the context's order.
    public var accelerometers: [Accelerometer]
    /// The devices skipped, with the reason.
    public var skipped: [Skipped]
    /// The accelerometer to use, if any.
    public var chosen: Accelerometer?
    /// Why that one (or why none).
    public var reason: String
    /// The base accelerometer to follow the hinge with, if any (never the display one).
    public var base: Accelerometer?
    /// Why that one, or why none: no base accelerometer, or one that cannot be trusted (a broken mount matrix).
    public var baseReason: String

    /// Looks at every device of the context.
    /// - Parameters:
    ///   - uri: a libiio URI, or nil for the local machine.
    ///   - device: a device to use instead of choosing: its id (`iio:device1`), name, label or sysfs path.
    ///   - mountMatrix: a configured matrix that overrides udev and sysfs.
    /// - Throws: ``SensorError`` when no context can be made (no IIO subsystem, unreachable URI).
    public static func discover(
        uri: String? = nil,
        device: String? = nil,
        mountMatrix: MountMatrix? = nil
    ) throws(SensorError) -> AccelerometerDiscovery {
        let context = try IIOContext(uri: uri)
        let udev = try? Udev()
        return discover(in: context, udev: udev, device: device, mountMatrix: mountMatrix)
    }

    static func discover(
        in context: IIOContext,
        udev: Udev?,
        device override: String?,
        mountMatrix: MountMatrix?
    ) -> AccelerometerDiscovery {
        var found: [Accelerometer] = []
        var skipped: [Skipped] = []
        for device in context.devices {
            if device.isTrigger { continue }
            guard ["x", "y", "z"].allSatisfy({ device.accelerometerChannel($0) != nil }) else {
                skipped.append(Skipped(id: device.id, name: device.name, reason: "no accel x/y/z channels"))
                continue
            }
            found.append(describe(device, context: context, udev: udev, mountMatrix: mountMatrix))
        }
        var result = AccelerometerDiscovery(
            accelerometers: found,
            skipped: skipped,
            chosen: nil,
            reason: "",
            base: nil,
            baseReason: ""
        )
        result.choose(override: override)
        result.chooseBase()
        return result
    }

    private mutating func choose(override: String?) {
        if let override, !override.isEmpty {
            let wanted = override.hasSuffix("/") ? String(override.dropLast()) : override
            if let match = accelerometers.first(where: { accelerometer in
                accelerometer.id == wanted || accelerometer.name == wanted || accelerometer.label == wanted
                    || accelerometer.syspath == wanted || wanted.hasSuffix("/" + accelerometer.id)
            }) {
                chosen = match
                reason = "chosen by configuration (Device=\(override))"
            } else {
                reason = "the configured device '\(override)' is not an accelerometer here"
            }
            return
        }
        // A device udev marks as an accelerometer (IIO_SENSOR_PROXY_TYPE) goes before one it does not mark.
        let ordered =
            accelerometers.filter(\.markedBySensorProxyType) + accelerometers.filter { !$0.markedBySensorProxyType }
        if let display = ordered.first(where: { $0.location == .display }) {
            chosen = display
            reason =
                "the display accelerometer (location from \(display.locationSource))"
                + (display.markedBySensorProxyType ? ", marked by udev IIO_SENSOR_PROXY_TYPE" : "")
        } else if accelerometers.isEmpty {
            reason = "no accelerometer found"
        } else {
            reason = "only base accelerometers found; a base sensor never drives rotation"
        }
    }

    /// The first base accelerometer, unless it is the display one chosen by configuration or its mount matrix is
    /// broken: a base sensor read in the wrong frame would give a wrong hinge angle, so it is not used at all.
    private mutating func chooseBase() {
        guard let candidate = accelerometers.first(where: { $0.location == .base && $0.id != chosen?.id }) else {
            baseReason = "no base accelerometer: the hinge angle is not measured"
            return
        }
        if let problem = candidate.brokenMatrix {
            baseReason = "the base accelerometer \(candidate.id) is ignored: \(problem)"
            return
        }
        base = candidate
        baseReason = "the base accelerometer (location from \(candidate.locationSource))"
    }

    static func describe(
        _ device: IIODevice,
        context: IIOContext,
        udev: Udev?,
        mountMatrix configured: MountMatrix?
    ) -> Accelerometer {
        let record = udev?.device(subsystem: "iio", sysname: device.id)
        let properties = record?.properties ?? [:]
        var warnings: [String] = []

        let (location, locationSource) = Self.location(device, properties: properties)
        let (scale, scaleSource) = Self.scale(device, warnings: &warnings)
        let offset = Self.offset(device, warnings: &warnings)
        var matrix = MountMatrix.identity
        var matrixSource = "identity (no mount matrix found)"
        var rejected: [String] = []
        if let configured {
            matrix = configured
            matrixSource = "configuration (MountMatrix=)"
        } else {
            for (source, text) in Self.matrixCandidates(device, properties: properties) {
                do {
                    matrix = try MountMatrix(parsing: text)
                    matrixSource = source
                    if source == "udev ACCEL_MOUNT_MATRIX" {
                        let inUse = CrosEcFrame.inUse(hwdb: matrix, driver: device.name)
                        if inUse != matrix {
                            matrixSource = "udev ACCEL_MOUNT_MATRIX \(matrix), z turned for cros-ec"
                            matrix = inUse
                        }
                    }
                    break
                } catch {
                    warnings.append("\(source) '\(text)' is ignored: \(error)")
                    rejected.append("\(source) '\(text)' cannot be used: \(error)")
                }
            }
        }
        // Every matrix found was broken: the identity is a guess.
        let brokenMatrix =
            matrixSource.hasPrefix("identity") && !rejected.isEmpty ? rejected.joined(separator: "; ") : nil

        let x = device.accelerometerChannel("x")
        let y = device.accelerometerChannel("y")
        let z = device.accelerometerChannel("z")
        // Buffered capture needs x, y and z as scan elements and a device node to read scans from
        // (poll-only drivers have neither); without udev, trust the scan elements.
        let scanElements = [x, y, z].allSatisfy { $0?.isScanElement == true }
        let hasNode = record.map { $0.properties["DEVNAME"] != nil } ?? true
        // A device udev marks for polling alone (IIO_SENSOR_PROXY_TYPE=iio-poll-accel) is polled, as
        // iio-sensor-proxy polls it.
        let canBuffer = scanElements && hasNode && !SensorProxyType.marksPollingOnly(properties)
        let trigger = ["\(device.name)-dev\(device.id.dropFirst("iio:device".count))", "\(device.name)-trigger"]
            .first { name in context.device(named: name)?.isTrigger == true }

        let (frequency, available) = Self.frequencies(device)
        var accelerometer = Accelerometer(
            id: device.id,
            name: device.name,
            label: device.label,
            syspath: record?.syspath,
            location: location,
            locationSource: locationSource,
            calibration: Calibration(scale: scale, offset: offset, matrix: matrix),
            matrixSource: matrixSource,
            scaleSource: scaleSource,
            canBuffer: canBuffer,
            triggerName: canBuffer ? trigger : nil,
            samplingFrequency: frequency,
            availableFrequencies: available,
            hasTimestamp: device.channel("timestamp")?.isScanElement == true,
            warnings: warnings,
            brokenMatrix: brokenMatrix
        )
        accelerometer.markedBySensorProxyType = SensorProxyType.marks(properties, as: .accelerometer)
        if location == .base, matrixSource == "udev ACCEL_MOUNT_MATRIX",
            let key = udev?.sensorHwdbKey(subsystem: "iio", sysname: device.id)
        {
            accelerometer.oldFrameEntry = OldBaseEntry.find(key: key.key, matrix: matrix)
        }
        return accelerometer
    }

    /// udev `ACCEL_LOCATION`, else sysfs `label`, else `location`, else display.
    static func location(_ device: IIODevice, properties: [String: String]) -> (SensorLocation, String) {
        if let value = properties["ACCEL_LOCATION"] {
            switch value {
            case "display": return (.display, "udev ACCEL_LOCATION")
            case "base": return (.base, "udev ACCEL_LOCATION")
            default: break
            }
        }
        if let label = device.label {
            if label.hasSuffix("-display") { return (.display, "sysfs label") }
            if label.hasSuffix("-base") { return (.base, "sysfs label") }
        }
        if device.hasAttribute("location"), let value = try? device.readAttribute("location") {
            switch value {
            case "lid", "display": return (.display, "sysfs location")
            case "base": return (.base, "sysfs location")
            default: break
            }
        }
        return (.display, "default")
    }

    /// Per-axis `in_accel_{x,y,z}_scale` or shared `in_accel_scale` (both channel attributes in
    /// libiio), else the device-wide `scale`, else none (raw counts: the classifier learns g).
    static func scale(_ device: IIODevice, warnings: inout [String]) -> (Vector3, String) {
        var values: [Double] = []
        var source = ""
        for axis in ["x", "y", "z"] {
            guard let channel = device.accelerometerChannel(axis), channel.hasAttribute("scale") else { break }
            do {
                values.append(
                    try KernelNumber.parse(
                        channel.readAttribute("scale"),
                        attribute: "in_accel_\(axis)_scale",
                        device: device.id
                    )
                )
                source = "in_accel scale"
            } catch {
                warnings.append("\(error)")
                break
            }
        }
        if values.count == 3 { return (Vector3(x: values[0], y: values[1], z: values[2]), source) }
        if device.hasAttribute("scale") {
            do {
                let value = try KernelNumber.parse(device.readAttribute("scale"), attribute: "scale", device: device.id)
                return (Vector3(x: value, y: value, z: value), "scale")
            } catch {
                warnings.append("\(error)")
            }
        }
        warnings.append("no usable scale attribute: raw counts are used (orientation still works)")
        return (Vector3(x: 1, y: 1, z: 1), "none")
    }

    /// Per-axis or shared `in_accel_*_offset`, in counts; 0 when absent.
    static func offset(_ device: IIODevice, warnings: inout [String]) -> Vector3 {
        var values: [Double] = [0, 0, 0]
        for (index, axis) in ["x", "y", "z"].enumerated() {
            guard let channel = device.accelerometerChannel(axis), channel.hasAttribute("offset") else { continue }
            do {
                values[index] = try KernelNumber.parse(
                    channel.readAttribute("offset"),
                    attribute: "in_accel_\(axis)_offset",
                    device: device.id
                )
            } catch {
                warnings.append("\(error); offset 0 is used")
            }
        }
        return Vector3(x: values[0], y: values[1], z: values[2])
    }

    /// The mount matrix texts in precedence order: udev, `mount_matrix`, `in_accel_mount_matrix`, `in_mount_matrix`.
    static func matrixCandidates(_ device: IIODevice, properties: [String: String]) -> [(String, String)] {
        var candidates: [(String, String)] = []
        if let value = properties["ACCEL_MOUNT_MATRIX"] { candidates.append(("udev ACCEL_MOUNT_MATRIX", value)) }
        if device.hasAttribute("mount_matrix"), let value = try? device.readAttribute("mount_matrix") {
            candidates.append(("sysfs mount_matrix", value))
        }
        if let channel = device.accelerometerChannel("x"), channel.hasAttribute("mount_matrix"),
            let value = try? channel.readAttribute("mount_matrix")
        {
            candidates.append(("sysfs in_accel_mount_matrix", value))
        }
        if let channel = device.channel("mount"), channel.hasAttribute("matrix"),
            let value = try? channel.readAttribute("matrix")
        {
            candidates.append(("sysfs in_mount_matrix", value))
        }
        return candidates
    }

    /// `sampling_frequency` and `sampling_frequency_available`, device-wide or on the accel channels.
    static func frequencies(_ device: IIODevice) -> (Double?, [Double]) {
        func read(_ name: String) -> String? {
            if device.hasAttribute(name) { return try? device.readAttribute(name) }
            if let channel = device.accelerometerChannel("x"), channel.hasAttribute(name) {
                return try? channel.readAttribute(name)
            }
            return nil
        }
        let current = read("sampling_frequency").flatMap { Double($0) }
        let available = (read("sampling_frequency_available") ?? "")
            .split(whereSeparator: { $0 == " " || $0 == "\t" })
            .compactMap { Double($0) }
            .filter { $0 > 0 && $0.isFinite }
        return (current, available)
    }
}

extension AccelerometerDiscovery {
    /// No IIO accelerometer, because there is no IIO context: `why`.
    public init(iioUnavailable why: String) {
        self.init(accelerometers: [], skipped: [], chosen: nil, reason: why, base: nil, baseReason: why)
    }
}
