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

import OrientationCore
import SensorDevices
import UdevSupport

/// One sensor's entry for systemd's hwdb: a comment naming the device, the match line, the matrix.
struct HwdbEntry: Equatable {
    /// `# Acme Tab 1 (bmc150_accel, display accelerometer)`; a base's ends `base accelerometer, systemd's frame)`.
    var comment: String
    /// The match line: the key `60-sensor.rules` builds for this sensor, with the parts that vary between units of
    /// the same model (the rest of the DMI string, the ACPI instance) left to `*`.
    var match: String
    /// The matrix as the hwdb holds it (for cros-ec, in systemd's form: ``CrosEcFrame``).
    var matrix: MountMatrix

    /// The entry for a sensor looked up under `key`.
    init(key: SensorHwdbKey, driver: String, location: CalibratedSensor, matrix: MountMatrix) {
        let vendor = key.dmiField("svn") ?? "unknown vendor"
        let product = key.dmiField("pn") ?? "unknown model"
        // A base entry says its frame: entries calibrate wrote before it used systemd's lack it (OldBaseEntry).
        let ending = location == .base ? OldBaseEntry.currentEnding : ", \(location.rawValue) accelerometer)"
        comment = "# \(vendor) \(product) (\(driver)\(ending)"
        match = Self.matchLine(key)
        self.matrix = CrosEcFrame.hwdb(inUse: matrix, driver: driver)
    }

    /// The match line for `key`: `sensor:[LABEL:]modalias:MODALIAS*:dmi:*:svnVENDOR:pnPRODUCT:*`, or the whole DMI
    /// string when the product name is a placeholder that many machines share.
    static func matchLine(_ key: SensorHwdbKey) -> String {
        var modalias = key.modalias
        if modalias.hasPrefix("acpi:") {
            // acpi:BOSC0200:BOSC0200: → acpi:BOSC0200*, as 60-sensor.hwdb writes it.
            let id = modalias.dropFirst(5).prefix { $0 != ":" }
            modalias = "acpi:\(id)*"
        } else if !modalias.isEmpty {
            modalias += "*"
        }
        var line = "sensor:" + (key.label.map { "\($0):" } ?? "") + "modalias:\(modalias):"
        let placeholders: Set<String> = ["Defaultstring", "ToBeFilledByO.E.M.", "SystemProductName", "Notapplicable"]
        if let vendor = key.dmiField("svn"), let product = key.dmiField("pn"), !placeholders.contains(product) {
            line += "dmi:*:svn\(vendor):pn\(product):*"
        } else if !key.dmi.isEmpty {
            line += key.dmi.hasSuffix(":") ? key.dmi + "*" : key.dmi + ":*"
        } else {
            line += "*"
        }
        return line
    }

    /// The entry as a hwdb file holds it.
    var text: String {
        "\(comment)\n\(match)\n ACCEL_MOUNT_MATRIX=\(matrix)\n"
    }
}

/// A hwdb file's text with entries put in: an earlier entry for the same match line is taken out (the line alone
/// when its record matches other devices too), every other line of the file is kept.
enum HwdbFile {
    static func merging(_ entries: [HwdbEntry], into existing: String) -> String {
        let ours = Set(entries.map(\.match))
        var records: [[Substring]] = [[]]
        for line in existing.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                if !(records.last ?? []).isEmpty { records.append([]) }
            } else {
                records[records.count - 1].append(line)
            }
        }
        var kept: [String] = []
        for record in records where !record.isEmpty {
            let isMatch = { (line: Substring) in !line.hasPrefix(" ") && !line.hasPrefix("\t") && !line.hasPrefix("#") }
            let matches = record.filter(isMatch)
            let remaining = record.filter { !(isMatch($0) && ours.contains(String($0))) }
            if !matches.isEmpty && remaining.filter(isMatch).isEmpty { continue }
            kept.append(remaining.joined(separator: "\n") + "\n")
        }
        kept += entries.map(\.text)
        return kept.joined(separator: "\n")
    }
}
