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

import EventLoop
import Logging
import OrientationCore

/// What an ``AccelerometerSensor``'s capture reports: readings (the hot path), passing trouble, and its end.
extension AccelerometerSensor {
    /// A reading of the capture (the hot path): counts, has the watch check the gap to the previous sample (no
    /// clock read: the samples carry their time), and hands usable samples to the sink.
    /// `gated`: read through a motion gate, which holds back the scans of a still device (any gap is no jump).
    func captured(_ sample: Sample, quality: ReadingQuality, gated: Bool = false) {
        samplesRead += 1
        if let capturing = shell.capturing, let jump = capturing.watch?.sample(at: sample.time, gated: gated),
            capturing.pendingRevalidation == nil
        {
            // Not from inside the capture's delivery, which the re-validation replaces: at the next loop turn.
            capturing.pendingRevalidation = try? loop.addNextTurnAction { [unowned self] in
                guard let capturing = self.shell.capturing, let watch = capturing.watch else { return }
                capturing.pendingRevalidation = nil
                self.act(on: watch.revalidation(because: jump, usable: self.usableSamples))
            }
        }
        guard quality == .usable else {
            unusable(sample, quality)
            if options.handsOnImplausibleReadings {
                reports.samples.accelerometer(at: options.location, captured: sample)
            }
            return
        }
        usableSamples += 1
        if let capturing = shell.capturing, capturing.probeCheck != nil { capturing.probeCheck = nil }
        shell.delivered()
        if anomaly != nil { anomalyEnded() }
        reports.samples.accelerometer(at: options.location, captured: sample)
    }

    /// A read of the capture failed; it goes on reading, and the next good read recovers.
    func captureHadTrouble(_ error: SensorError) {
        shell.lastError = "\(error)"
    }

    /// The capture ended: a device gone makes the sensor absent, another error failed (retried).
    func captureFailed(_ error: SensorError) {
        shell.captureFailed(error)
    }

    /// A reading of zeros or a clipped one: not handed on; a run of them lasting a second is logged once.
    private func unusable(_ sample: Sample, _ quality: ReadingQuality) {
        guard let current = anomaly, current.quality == quality else {
            anomaly = (quality, sample.time, false)
            return
        }
        guard !current.reported, sample.time - current.since >= Self.anomalyReportTime else { return }
        anomaly = (quality, current.since, true)
        let what =
            quality == .zero
            ? "the accelerometer reads 0 on every axis (powered down or not measuring?)"
            : "the accelerometer reads at the limit of its range (saturated)"
        shell.lastError = "\(accelerometer?.id ?? "accelerometer"): \(what): readings ignored"
        logger.warning(
            "implausible readings ignored until they are plausible again",
            metadata: ["device": "\(accelerometer?.id ?? "?")", "problem": "\(what)"]
        )
    }

    private func anomalyEnded() {
        if let anomaly, anomaly.reported {
            logger.notice(
                "the accelerometer's readings are plausible again",
                metadata: ["device": "\(accelerometer?.id ?? "?")"]
            )
        }
        anomaly = nil
    }
}
