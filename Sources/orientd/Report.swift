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
import OrientDaemon
import OrientProtocol
import OrientationCore
import SensorDevices
import SystemSupport
import UdevSupport

#if canImport(Glibc)
import Glibc
#endif

/// `orientd report`: one plain-text file with what a maintainer needs for a bug report.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write one plain-text file for a bug report (stdout without --output).",
        discussion: """
            Versions, the machine's DMI fields (vendor, product, board, BIOS; never serial numbers or \
            UUIDs), every accelerometer with its udev properties, sysfs attributes, mount matrix and \
            where it came from, the hwdb match line systemd's 60-sensor.rules builds for it, the \
            effective configuration, 'orientctl status', the daemon's last journal lines, and a short \
            recording ('orientd record') during which you are asked to turn the machine. Read it before \
            you paste it into an issue: it holds nothing else about you or the machine.
            """
    )

    @Option(help: "Seconds of recording (0: none; default 10).")
    var seconds: Double = 10

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file")
    )
    var output: String?

    func validate() throws {
        guard seconds >= 0, seconds <= 120, seconds.isFinite else {
            throw ValidationError("--seconds must be between 0 and 120")
        }
    }

    /// The DMI fields a report may hold: what identifies the model, never the unit.
    static let dmiFields = [
        "sys_vendor", "product_name", "product_version", "product_family", "product_sku", "board_vendor",
        "board_name", "board_version", "bios_vendor", "bios_version", "bios_date", "chassis_type", "modalias",
    ]

    /// sysfs attributes left out of a report: the unit's identity.
    static let privateAttributes: Set<String> = ["product_serial", "board_serial", "chassis_serial", "product_uuid"]

    func run() throws {
        Signals.unblockForForegroundCommand()
        var text = "# orientd report\n\n"
        text += section("Versions") {
            var lines = "orientd \(OrientdVersion.current)\n"
            var name = utsname()
            uname(&name)
            let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            lines += "Linux \(release) \(machine)\n"
            let systemd = HelperProgram.run(["systemctl", "--version"])
            lines += (systemd.output.split(separator: "\n").first.map(String.init) ?? "systemd: unknown") + "\n"
            return lines
        }
        let udev = try? Udev()
        text += section("Machine (DMI)") {
            let attributes = udev?.machineAttributes() ?? []
            let lines = attributes.filter { Self.dmiFields.contains($0.0) && !Self.privateAttributes.contains($0.0) }
            return lines.isEmpty ? "no DMI information\n" : lines.map { "\($0.0): \($0.1)\n" }.joined()
        }
        text += section("Accelerometers") { accelerometers(udev) }
        text += section("Configuration (orientd check-config)") {
            do {
                return try Configuration.load().report
            } catch {
                return "\(error)\n"
            }
        }
        text += section("Status (orientctl status)") {
            let status = HelperProgram.run([Self.sibling("orientctl"), "status"])
            return status.output.isEmpty ? "orientctl status: exit status \(status.status)\n" : status.output
        }
        text += section("Journal (the daemon's last 50 lines)") {
            let journal = HelperProgram.run([
                "journalctl", "-u", "orientd.service", "-n", "50", "-o", "cat", "--no-pager",
            ])
            if !journal.output.isEmpty { return journal.output }
            return journal.status == 0
                ? "no journal lines of orientd.service\n" : "journalctl: exit status \(journal.status)\n"
        }
        if seconds > 0 {
            try? FileDescriptor.standardError.writeAll(
                "Recording \(CalibrationSession.decimal(seconds)) s: hold the machine as you use it, turn it a quarter "
                    + "turn so that its left edge points up, then back.\n"
            )
            text += section("Recording (orientd record --seconds \(CalibrationSession.decimal(seconds)))") {
                let record = HelperProgram.run([Self.sibling("orientd"), "record", "--seconds", "\(seconds)"])
                return record.output
            }
        }
        if let output {
            if let problem = CalibrationResult.replace(output, with: text) { throw CommandFailure(problem) }
            try? FileDescriptor.standardError.writeAll("Wrote \(output): read it, then attach it to the issue.\n")
        } else {
            let out = StandardOutput()
            out.write(text)
            out.flush()
        }
    }

    private func section(_ title: String, _ body: () -> String) -> String {
        "## \(title)\n\n" + body() + "\n"
    }

    /// Each accelerometer: what orientd makes of it, then what udev and sysfs say.
    private func accelerometers(_ udev: Udev?) -> String {
        var found: [Accelerometer] = []
        if let discovery = try? AccelerometerDiscovery.discover() { found += discovery.accelerometers }
        found += InputAccelerometerDiscovery.discover().accelerometers
        guard !found.isEmpty else { return "none found\n" }
        var text = ""
        for accelerometer in found {
            let isInput = accelerometer.inputNode != nil
            text += "### \(accelerometer.id) \(accelerometer.name)\n\n"
            text += "location: \(accelerometer.location.rawValue) (\(accelerometer.locationSource))\n"
            text += "matrix: \(accelerometer.calibration.matrix) (\(accelerometer.matrixSource))\n"
            if let problem = accelerometer.brokenMatrix ?? AxesCheck.problem(with: accelerometer.calibration.matrix) {
                text += "axes: \(problem)\n"
            }
            if let entry = accelerometer.oldFrameEntry { text += "axes: \(OldBaseEntry.advice(entry))\n" }
            let key = udev?.sensorHwdbKey(subsystem: isInput ? "input" : "iio", sysname: accelerometer.id)
            text += "hwdb key: \(key?.key ?? "none: no rule of 60-sensor.rules reaches it")\n"
            if let key { text += "hwdb match line: \(HwdbEntry.matchLine(key))\n" }
            guard let syspath = accelerometer.syspath, let udev else {
                text += "\n"
                continue
            }
            text += "sysfs: \(syspath)\n\nudev properties:\n"
            let record = udev.device(subsystem: isInput ? "input" : "iio", sysname: accelerometer.id)
            for (name, value) in (record?.properties ?? [:]).sorted(by: { $0.key < $1.key }) {
                text += "  \(name)=\(value)\n"
            }
            text += "attributes:\n"
            for (name, value) in udev.attributes(ofSyspath: syspath) where !Self.privateAttributes.contains(name) {
                guard name != "uevent", !value.contains("\n"), value.count <= 200 else { continue }
                text += "  \(name)=\(value)\n"
            }
            text += "\n"
        }
        return text
    }

    /// The program `name` beside this one (the installed pair), else `name` on PATH.
    static func sibling(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return name }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidate = folder + "/" + name
        return access(candidate, X_OK) == 0 ? candidate : name
    }
}
