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

import IniFormat
import OrientDaemon
import OrientationCore
import SensorDevices
import SystemSupport
import UdevSupport

#if canImport(Glibc)
import Glibc
#endif

/// The matrices found, applied as asked (hwdb, configuration drop-in, or nowhere) and checked, then reported.
struct CalibrationResult {
    /// One sensor calibrated.
    struct Calibrated {
        var sensor: CalibratedSensor
        var accelerometer: Accelerometer
        var matrix: MountMatrix
        /// The matrix in use before, and where it came from (`hwdb`, `sysfs`, `config`, `identity`).
        var was: MountMatrix
        var wasSource: String
        /// The key `60-sensor.rules` looks it up by; nil when no rule of that file reaches it.
        var key: SensorHwdbKey?
        var entry: HwdbEntry?

        /// The matrix as the hwdb entry holds it (``CrosEcFrame``: systemd's sign of z for ChromeOS's sensors).
        var hwdbMatrix: MountMatrix { CrosEcFrame.hwdb(inUse: matrix, driver: accelerometer.name) }
    }

    var calibrated: [Calibrated]
    var root: String?
    var mode: Calibrate.Apply
    /// The configured `MountMatrix=` (display only), which overrides udev.
    var configured: MountMatrix?

    /// The hwdb file under the root.
    var hwdbFile: String { (root ?? "") + "/etc/udev/hwdb.d/61-sensor-local.hwdb" }
    /// The configuration drop-in under the root.
    var configFile: String { (root ?? "") + Configuration.defaultDropInFolder + "/60-calibration.conf" }

    init(
        outcome: CalibrationOutcome,
        sensors: [(CalibratedSensor, Accelerometer)],
        root: String?,
        mode: Calibrate.Apply
    ) {
        self.root = root
        self.mode = mode
        let configuration = try? Configuration.load(
            file: (root ?? "") + Configuration.defaultFile,
            dropInFolder: (root ?? "") + Configuration.defaultDropInFolder
        )
        let configured = configuration?.settings.sensor.mountMatrix
        self.configured = configured
        let udev = try? Udev()
        calibrated = sensors.compactMap { sensor, accelerometer in
            guard let matrix = outcome.matrices[sensor] else { return nil }
            let before = Self.before(accelerometer, configured: sensor == .display ? configured : nil)
            let isInput = accelerometer.inputNode != nil
            let key = udev?.sensorHwdbKey(subsystem: isInput ? "input" : "iio", sysname: accelerometer.id)
            return Calibrated(
                sensor: sensor,
                accelerometer: accelerometer,
                matrix: matrix,
                was: before.matrix,
                wasSource: before.source,
                key: key,
                entry: key.map { HwdbEntry(key: $0, driver: accelerometer.name, location: sensor, matrix: matrix) }
            )
        }
    }

    /// The matrix in use before calibrating, and its source, found again without the calibration's override.
    private static func before(
        _ accelerometer: Accelerometer,
        configured: MountMatrix?
    ) -> (
        matrix: MountMatrix, source: String
    ) {
        let found: Accelerometer?
        if accelerometer.inputNode != nil {
            found = InputAccelerometerDiscovery.discover(device: accelerometer.id, mountMatrix: configured)
                .accelerometers.first { $0.id == accelerometer.id }
        } else {
            found = (try? AccelerometerDiscovery.discover(device: accelerometer.id, mountMatrix: configured))?
                .accelerometers.first { $0.id == accelerometer.id }
        }
        guard let found else { return (.identity, "identity") }
        let source =
            if found.matrixSource.hasPrefix("udev") {
                "hwdb"
            } else if found.matrixSource.hasPrefix("sysfs") {
                "sysfs"
            } else if found.matrixSource.hasPrefix("configuration") {
                "config"
            } else {
                "identity"
            }
        return (found.calibration.matrix, source)
    }

    /// The entries as systemd's 60-sensor.hwdb wants them in a pull request.
    var hwdbText: String {
        calibrated.compactMap(\.entry).map(\.text).joined(separator: "\n")
    }

    /// Applies the result as asked, then reports it; exits 1 (nothing written) when it cannot be applied.
    func applyAndReport(_ output: CalibrationOutput) {
        for item in calibrated {
            let name = calibrated.count > 1 ? "The \(item.sensor.rawValue) accelerometer" : "The accelerometer"
            let change =
                item.matrix == item.was
                ? "already right (\(item.wasSource))" : "was \(item.was) (\(item.wasSource))"
            output.say("\(name) (\(item.accelerometer.id), \(item.accelerometer.name)): \(item.matrix); \(change).")
        }
        var file: String?
        var verified: Bool?
        switch mode {
        case .no:
            break
        case .hwdb:
            (file, verified) = applyHwdb(output)
        case .config:
            (file, verified) = applyConfig(output)
        }
        if !hwdbText.isEmpty {
            output.say(
                "\nFor systemd's hwdb/60-sensor.hwdb (https://github.com/systemd/systemd), so that the next owner "
                    + "of this model gets it without calibrating:\n\n" + hwdbText
            )
        } else {
            output.say("\nNo rule of systemd's 60-sensor.rules reaches this sensor: no hwdb entry can be written.")
        }
        output.result(
            calibrated.map { ($0.sensor, $0.matrix, "\($0.was)", $0.wasSource) },
            hwdb: hwdbText,
            applied: mode.rawValue,
            file: file,
            verified: verified
        )
    }

    /// Writes the hwdb file, compiles it and checks that the sensors' key gives the new matrix.
    private func applyHwdb(_ output: CalibrationOutput) -> (String?, Bool?) {
        let entries = calibrated.compactMap(\.entry)
        guard entries.count == calibrated.count else {
            output.fail(
                "no rule of systemd's 60-sensor.rules reaches \(calibrated.filter { $0.entry == nil }.map(\.accelerometer.id).joined(separator: ", ")): "
                    + "use --apply config"
            )
        }
        let existing = (try? FileDescriptor.contents(ofFile: hwdbFile)).map { String(decoding: $0, as: UTF8.self) }
        let text = HwdbFile.merging(entries, into: existing ?? "")
        if let problem = Self.replace(hwdbFile, with: text) { output.fail(problem) }
        var update = ["systemd-hwdb", "update"]
        if let root { update += ["--root", root] }
        let updated = HelperProgram.run(update)
        guard updated.status == 0 else {
            // Put the file back as it was: nothing written.
            if let existing { _ = Self.replace(hwdbFile, with: existing) } else { unlink(hwdbFile) }
            _ = HelperProgram.run(update)
            output.fail("'\(update.joined(separator: " "))' failed: \(updated.output.trimmingWhitespace())")
        }
        output.say("Wrote \(hwdbFile) and ran '\(update.joined(separator: " "))'.")
        var allRight = true
        for item in calibrated {
            guard let key = item.key else { continue }
            if let root {
                // The compiled database under the root, asked for the key udev would build.
                let query = HelperProgram.run(["systemd-hwdb", "query", "--root", root, key.key])
                let value = query.output.split(separator: "\n").first { $0.hasPrefix("ACCEL_MOUNT_MATRIX=") }
                let matrix = value.flatMap { try? MountMatrix(parsing: $0.dropFirst("ACCEL_MOUNT_MATRIX=".count)) }
                if matrix != item.hwdbMatrix {
                    allRight = false
                    output.say(
                        "The compiled hwdb does not give \(key.key) the new matrix: "
                            + (value.map(String.init) ?? "no ACCEL_MOUNT_MATRIX") + "; another entry may win."
                    )
                }
                continue
            }
            let subsystem = item.accelerometer.inputNode != nil ? "input" : "iio"
            let syspath = item.accelerometer.syspath ?? "/sys/bus/\(subsystem)/devices/\(item.accelerometer.id)"
            let trigger = HelperProgram.run(["udevadm", "trigger", "--settle", "--action=change", syspath])
            if trigger.status != 0 {
                output.say("'udevadm trigger' failed: \(trigger.output.trimmingWhitespace())")
            }
            let now = (try? Udev())?.device(subsystem: subsystem, sysname: item.accelerometer.id)?
                .properties["ACCEL_MOUNT_MATRIX"]
            let matrix = now.flatMap { try? MountMatrix(parsing: $0) }
            if matrix != item.hwdbMatrix {
                allRight = false
                output.say(
                    "udev does not give \(item.accelerometer.id) the new matrix (ACCEL_MOUNT_MATRIX=\(now ?? "unset")): "
                        + "an entry of another hwdb file may win; 'udevadm info \(syspath)' shows what udev sees."
                )
            } else if item.sensor == .display, let configured, configured != item.matrix {
                allRight = false
                output.say(
                    "udev now gives the new matrix, but MountMatrix=\(configured) in orientd's configuration "
                        + "overrides it: remove that line (orientd check-config shows where it is)."
                )
            } else {
                output.say("udev now gives \(item.accelerometer.id) ACCEL_MOUNT_MATRIX=\(item.hwdbMatrix).")
            }
        }
        return (hwdbFile, allRight)
    }

    /// Writes `MountMatrix=` for the display accelerometer in a drop-in and has the daemon reload.
    private func applyConfig(_ output: CalibrationOutput) -> (String?, Bool?) {
        guard let display = calibrated.first(where: { $0.sensor == .display }) else { return (nil, nil) }
        if calibrated.contains(where: { $0.sensor == .base }) {
            output.say(
                "The base accelerometer's matrix cannot be configured for orientd alone: it needs the hwdb entry."
            )
        }
        let text = """
            # Written by 'orientd calibrate': the display accelerometer's mount matrix (\(display.accelerometer.id), \
            \(display.accelerometer.name)).
            [Sensor]
            MountMatrix=\(display.matrix)

            """
        if let problem = Self.replace(configFile, with: text) { output.fail(problem) }
        let loaded = try? Configuration.load(
            file: (root ?? "") + Configuration.defaultFile,
            dropInFolder: (root ?? "") + Configuration.defaultDropInFolder
        )
        let effective = loaded?.settings.sensor.mountMatrix
        if effective != display.matrix {
            output.say(
                "Wrote \(configFile), but the configuration's MountMatrix= is \(effective.map { "\($0)" } ?? "unset"): "
                    + "a later drop-in overrides it ('orientd check-config' shows which)."
            )
        } else {
            output.say("Wrote \(configFile).")
        }
        if root == nil {
            let reload = HelperProgram.run(["systemctl", "reload", "orientd.service"])
            output.say(
                reload.status == 0
                    ? "The daemon reloaded its configuration."
                    : "The daemon was not reloaded (\(reload.output.trimmingWhitespace())); it reads the file at its next start."
            )
        }
        return (configFile, effective == display.matrix)
    }

    /// Replaces `path` with `text` atomically (a temporary file renamed over it), making its folder; the problem, or nil.
    static func replace(_ path: String, with text: String) -> String? {
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o755) != 0 && errno != EEXIST { return "cannot make \(folder): \(Errno.current)" }
        }
        let temporary = path + ".orientd-new"
        do {
            let descriptor = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
            defer { descriptor.close() }
            try descriptor.writeAll(text)
        } catch {
            unlink(temporary)
            return "cannot write \(temporary): \(error)"
        }
        guard rename(temporary, path) == 0 else {
            let error = Errno.current
            unlink(temporary)
            return "cannot replace \(path): \(error)"
        }
        return nil
    }
}
