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

import OrientProtocol
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// What `orientd calibrate` tells: JSON lines on standard output with `--json` (CLI.md), prompts for people on
/// standard error then; without it, the prompts on standard output. The live progress always goes to standard error.
final class CalibrationOutput {
    let json: Bool
    private let terminal = isatty(2) == 1
    private var lastProgress = ""

    init(json: Bool) {
        self.json = json
    }

    /// A key of the JSON lines: a sensor's name.
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A line for people.
    func say(_ text: String) {
        endProgress()
        let descriptor = json ? FileDescriptor.standardError : FileDescriptor.standardOutput
        try? descriptor.writeAll(text + "\n")
    }

    /// A JSON line, with `--json`.
    private func emit(_ body: (inout JSONWriter) -> Void) {
        guard json else { return }
        var writer = JSONWriter()
        writer.object(body)
        writer.newline()
        try? FileDescriptor.standardOutput.writeAll(writer.bytes)
    }

    private static func write(_ vector: Vector3?, to json: inout JSONWriter) {
        guard let vector else { return json.null() }
        json.array { json in
            for value in [vector.x, vector.y, vector.z] { json.number((value * 10000).rounded() / 10000 + 0) }
        }
    }

    /// The next pose.
    func step(_ index: Int, of plan: CalibrationPlan) {
        let step = plan.steps[index]
        emit { json in
            json.member("step", index + 1)
            json.member("of", plan.steps.count)
            json.member("say", step.say)
            json.key("expect")
            json.object { json in
                for sensor in CalibratedSensor.allCases {
                    json.key(Name(sensor.rawValue))
                    Self.write(step.expected(sensor), to: &json)
                }
            }
        }
        say("Step \(index + 1) of \(plan.steps.count): \(step.say)." + (step.hint.map { " (\($0).)" } ?? ""))
    }

    /// The pose was taken.
    func held(_ index: Int, readings: [CalibratedSensor: Vector3], plan: CalibrationPlan) {
        emit { json in
            json.member("step", index + 1)
            json.key("held")
            json.object { json in
                for sensor in CalibratedSensor.allCases {
                    json.key(Name(sensor.rawValue))
                    Self.write(readings[sensor], to: &json)
                }
            }
        }
        say("  Got it.")
    }

    /// The pose was refused.
    func refused(_ index: Int, why: String) {
        emit { json in
            json.member("refused", index + 1)
            json.member("why", why)
        }
        say("  That pose cannot be used: \(why).")
    }

    /// The live state of the current step, on standard error: on a terminal one line redrawn, else each change.
    func progress(_ text: String) {
        guard text != lastProgress else { return }
        lastProgress = text
        let line = terminal ? "\r\u{1B}[K  \(text)" : "  \(text)\n"
        try? FileDescriptor.standardError.writeAll(line)
    }

    private func endProgress() {
        if terminal && !lastProgress.isEmpty { try? FileDescriptor.standardError.writeAll("\n") }
        lastProgress = ""
    }

    /// The end: each matrix with what it replaces, the hwdb entry, where it went.
    func result(
        _ sensors: [(sensor: CalibratedSensor, matrix: MountMatrix, was: String, wasSource: String)],
        hwdb: String,
        applied: String,
        file: String?,
        verified: Bool?
    ) {
        emit { json in
            json.key("result")
            json.object { json in
                for sensor in CalibratedSensor.allCases {
                    json.key(Name(sensor.rawValue))
                    guard let found = sensors.first(where: { $0.sensor == sensor }) else {
                        json.null()
                        continue
                    }
                    json.object { json in
                        json.member("matrix", "\(found.matrix)")
                        json.member("was", found.was)
                        json.member("was_source", found.wasSource)
                    }
                }
            }
            json.member("hwdb", hwdb)
            json.member("applied", applied)
            json.key("file")
            json.string(file)
            json.key("verified")
            if let verified { json.bool(verified) } else { json.null() }
        }
    }

    /// An error: `{"error": …}` with `--json`, else a line on standard error; exit status 1, nothing written.
    func fail(_ message: String) -> Never {
        endProgress()
        if json {
            emit { json in json.member("error", message) }
        } else {
            try? FileDescriptor.standardError.writeAll("orientd calibrate: \(message)\n")
        }
        exit(1)
    }
}
