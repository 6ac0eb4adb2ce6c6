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

import Glibc
import OrientationCore
import SystemSupport

/// A base accelerometer's entry in the local hwdb file that `orientd calibrate` wrote before it used systemd's frame.
///
/// Calibrate writes each entry under a comment naming the machine, the driver and the sensor's location. Until base
/// matrices followed systemd's `60-sensor.hwdb` (what the display reads with the lid closed), a base entry's comment
/// ended in `, base accelerometer)`; since then it ends in `, base accelerometer, systemd's frame)`. An entry of the old
/// form whose match line covers a device's hwdb key and whose matrix is the one in use puts that base a half turn
/// about the hinge away from systemd's frame.
public enum OldBaseEntry {
    /// The local hwdb file calibrate writes.
    static let localFile = "/etc/udev/hwdb.d/61-sensor-local.hwdb"
    /// How a base entry's comment ends in the old form.
    static let oldEnding = ", base accelerometer)"
    /// How a base entry's comment ends now.
    public static let currentEnding = ", base accelerometer, systemd's frame)"

    /// What to tell the user of the old-form entry `matchLine`.
    public static func advice(_ matchLine: String) -> String {
        "the hwdb entry \(matchLine) of \(localFile) was written by an 'orientd calibrate' from before systemd's "
            + "base frame (the lid closed) was used: the hinge angle is off by 180°, a laptop is taken for a tablet; "
            + "run 'orientd calibrate' again, which replaces that entry"
    }

    /// The match line of an old-form entry of `text` (a hwdb file's contents) that covers `key` and gives `matrix`;
    /// nil when there is none.
    static func find(in text: String, key: String, matrix: MountMatrix) -> String? {
        for entry in entries(in: text) where entry.old {
            guard let value = entry.matrix, (try? MountMatrix(parsing: value)) == matrix else { continue }
            if let line = entry.matches.first(where: { fnmatch($0, key, 0) == 0 }) { return line }
        }
        return nil
    }

    /// The match lines of every old-form base entry in `text`, for the tests.
    static func all(in text: String) -> [String] {
        entries(in: text).filter(\.old).flatMap(\.matches)
    }

    /// The local file's old-form entry for `key` and `matrix`, as ``find(in:key:matrix:)``; nil when the file cannot be
    /// read.
    static func find(key: String, matrix: MountMatrix, file: String = localFile) -> String? {
        guard let bytes = try? FileDescriptor.contents(ofFile: file, maximumSize: 1 << 20) else { return nil }
        return find(in: String(decoding: bytes, as: UTF8.self), key: key, matrix: matrix)
    }

    private struct Entry {
        var old = false
        var matches: [String] = []
        var matrix: String?
    }

    /// The file's records (blank lines part them): whether the comment is calibrate's old base form, the match lines,
    /// the matrix.
    private static func entries(in text: String) -> [Entry] {
        var entries: [Entry] = [Entry()]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                if !(entries.last?.matches.isEmpty ?? true) { entries.append(Entry()) }
            } else if line.hasPrefix("#") {
                if line.hasPrefix("# ") && line.hasSuffix(oldEnding) { entries[entries.count - 1].old = true }
            } else if line.hasPrefix(" ") || line.hasPrefix("\t") {
                let property = line.drop { $0 == " " || $0 == "\t" }
                if property.hasPrefix("ACCEL_MOUNT_MATRIX=") {
                    entries[entries.count - 1].matrix = String(property.dropFirst("ACCEL_MOUNT_MATRIX=".count))
                }
            } else {
                entries[entries.count - 1].matches.append(String(line))
            }
        }
        return entries
    }
}
