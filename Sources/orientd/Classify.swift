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
import OrientProtocol
import OrientationCore

/// `orientd classify TRACE|-`: runs the classifier over a trace and prints each change.
struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify a recorded accelerometer trace and print each change of orientation.",
        discussion: """
            Reads a trace (the format 'orientd record' writes: '# orientd-trace 1', a 't,x,y,z' \
            header, then one sample per line in seconds and m/s² after the mount matrix) and \
            prints one JSON line each time the device or interface orientation changes:

              {"t": 3.52, "device": "face-up", "interface": "landscape-right", "rotation": 0}

            'rotation' is the panel rotation in degrees, null while the interface orientation \
            is unknown. The classifier is the daemon's own, with the same settings.

            A two-sensor trace (header 't,x,y,z,bx,by,bz': the display's and the base's \
            readings of a convertible, either or both on a line) also gives the hinge angle and \
            tablet mode, printed when tablet mode changes:

              {"t": 8.04, "tablet_mode": true, "hinge": 231.5}

            'hinge' is the trusted angle, null when the fold itself decided (while the machine \
            moved, or folded flat where the angle is never trusted).

            With --auto-rotate tablet-mode the interface follows the device only in tablet mode, \
            as the daemon's [Policy] AutoRotate=tablet-mode.

            When the readings show that a mount matrix cannot be right (two accelerometers that \
            disagree on the hinge axis while still, a display that is not upright over a base \
            lying flat), one line per finding, at most once per sensor and kind, with the matrix \
            to use instead when the evidence determines it (else null):

              {"t": 184.2, "axes": "display", "finding": "…", "suggested": "0, 1, 0; -1, 0, 0; 0, 0, 1"}
            """
    )

    @Argument(help: ArgumentHelp("The trace file, or '-' for standard input.", valueName: "trace"))
    var trace: String

    @Option(
        help: ArgumentHelp(
            "The panel's natural orientation: landscape (laptops) or portrait (phones, some tablets).",
            valueName: "landscape|portrait"
        ),
        transform: { (text: String) throws -> NaturalOrientation in
            guard let natural = NaturalOrientation(wireName: text) else {
                throw ValidationError("'\(text)' is not a natural orientation; use landscape or portrait")
            }
            return natural
        }
    )
    var natural: NaturalOrientation = .landscape

    @Option(
        name: .customLong("filter-ms"),
        help: "Low-pass filter time constant in ms, 10–1000 ([Classifier] FilterMs=)."
    )
    var filterMilliseconds = 100

    @Option(name: .customLong("dwell-ms"), help: "How long a new pose must hold in ms, 0–2000 ([Classifier] DwellMs=).")
    var dwellMilliseconds = 150

    @Option(
        name: .customLong("face-up-angle"),
        help: "Tilt in degrees beyond which the device lies flat, 45–89 ([Classifier] FaceUpAngle=)."
    )
    var faceAngle = 70

    @Option(
        name: .customLong("auto-rotate"),
        help: ArgumentHelp(
            "always, or tablet-mode: follow the device only in tablet mode ([Policy] AutoRotate=).",
            valueName: "always|tablet-mode"
        )
    )
    var autoRotate = "always"

    @Option(
        name: .customLong("tablet-angle"),
        help: "Hinge angle in degrees from which a two-sensor trace is in tablet mode, 181–360 ([Policy] TabletAngle=)."
    )
    var tabletAngle = 200

    @Option(
        name: .customLong("laptop-angle"),
        help: "Hinge angle in degrees up to which a two-sensor trace is in laptop mode, 0–179 ([Policy] LaptopAngle=)."
    )
    var laptopAngle = 160

    func validate() throws {
        do throws(SettingRangeError) {
            _ = try classifierConfiguration()
            _ = try HingeConfiguration(tabletAngleDegrees: tabletAngle, laptopAngleDegrees: laptopAngle)
        } catch {
            throw ValidationError(error.description)
        }
        guard ["always", "tablet-mode"].contains(autoRotate) else {
            throw ValidationError("'\(autoRotate)' is not an --auto-rotate value; use always or tablet-mode")
        }
    }

    private func classifierConfiguration() throws(ClassifierConfigurationError) -> ClassifierConfiguration {
        try ClassifierConfiguration(
            filterMilliseconds: filterMilliseconds,
            dwellMilliseconds: dwellMilliseconds,
            faceAngleDegrees: faceAngle,
            natural: natural
        )
    }

    func run() throws {
        Signals.unblockForForegroundCommand()
        let source = try LineSource(path: trace)
        var reader = TraceReader()
        var classifier = OrientationClassifier(configuration: try classifierConfiguration())
        var policy = try RotationPolicy(natural: natural)
        var hinge = HingeMonitor(
            configuration: try HingeConfiguration(tabletAngleDegrees: tabletAngle, laptopAngleDegrees: laptopAngle)
        )
        let followsTabletMode = autoRotate == "tablet-mode"
        var axes = AxesCheck()
        let output = StandardOutput()
        do {
            try source.forEachLine { line in
                guard let row = try reader.readRow(line: line) else { return }
                var changed = false
                func note(_ change: PolicyChange) {
                    changed = changed || change.previousDevice != nil || change.previousInterface != nil
                }
                // The base's reading first, then the display's: a line with both pairs each with the other.
                for (reading, sensor) in [(row.base, HingeMonitor.Sensor.base), (row.display, .display)] {
                    guard let reading else { continue }
                    let sample = Sample(time: row.time, acceleration: reading)
                    if hinge.update(sample, from: sensor) {
                        output.write(Self.tabletModeLine(time: row.time, hinge: hinge))
                        if followsTabletMode { note(policy.setFollowsDevice(hinge.tabletMode != false)) }
                    }
                    if sensor == .display && classifier.update(sample) {
                        note(policy.setDevice(classifier.deviceOrientation))
                    }
                    axes.update(sample, from: sensor == .display ? .display : .base)
                }
                for finding in axes.takeFindings() { output.write(Self.findingLine(finding)) }
                guard changed else { return }
                output.write(Self.changeLine(time: row.time, policy: policy))
            }
        } catch let error as TraceError {
            throw CommandFailure("\(source.name): \(error)")
        }
        output.flush()
    }

    static func tabletModeLine(time: Double, hinge: HingeMonitor) -> String {
        let mode = hinge.tabletMode.map { String($0) } ?? "null"
        let angle = hinge.angle.map { String(($0 * 10).rounded() / 10) } ?? "null"
        return "{\"t\": \(time), \"tablet_mode\": \(mode), \"hinge\": \(angle)}\n"
    }

    /// `{"t": 184.2, "axes": "display", "finding": "…", "suggested": "a, b, c; …"}` (CLASSIFIER.md).
    static func findingLine(_ finding: AxesCheck.Finding) -> String {
        var json = JSONWriter()
        json.object { json in
            json.member("t", (finding.time * 1000).rounded() / 1000)
            json.member("axes", finding.sensor.rawValue)
            json.member("finding", finding.text)
            json.key("suggested")
            json.string(finding.suggested.map { "\($0)" })
        }
        json.newline()
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func changeLine(time: Double, policy: RotationPolicy) -> String {
        let rotation = policy.rotation.map { String($0.degrees) } ?? "null"
        return "{\"t\": \(time), \"device\": \"\(policy.device.wireName)\", "
            + "\"interface\": \"\(policy.interface.wireName)\", \"rotation\": \(rotation)}\n"
    }
}
