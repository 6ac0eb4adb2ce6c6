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

package import Foundation
import Glibc
import SystemSupport

/// What `/proc` says about a running process (the daemon under test): resident memory and open files, for bounds
/// tied to the design rather than to a measurement.
package struct ProcessResources {
    package let pid: pid_t

    package init(pid: pid_t) {
        self.pid = pid
    }

    /// `VmRSS` of `/proc/PID/status`, in KiB.
    package var residentKiB: Int { field("VmRSS") }
    /// `VmHWM` (the peak of `VmRSS`), in KiB.
    package var peakResidentKiB: Int { field("VmHWM") }

    /// The entries of `/proc/PID/fd`.
    package var openFileCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// The open-file count once it holds still: the fewest of several looks over `seconds`. The daemon opens a file
    /// for a moment now and then (`/proc/self/smaps`, when it gives back pages a second after start-up and after it
    /// settles), which one look can catch; a descriptor leaked stays in every look.
    package func settledOpenFileCount(over seconds: Double = 1.5) async -> Int {
        var fewest = openFileCount
        for _ in 0..<Int(seconds / 0.1) {
            try? await Task.sleep(for: .milliseconds(100))
            fewest = min(fewest, openFileCount)
        }
        return fewest
    }

    private func field(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }
}
