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

/// What an ``AccelerometerSensor`` holds while it captures: the capture, and for a capture through the buffer its
/// watch (``BufferWatch``) and the sources that serve the watch. They all go with the capturing phase
/// (``SensorPhases/Phase``): a re-validation, a fallback to polling, a stop or a failure enters another phase, and
/// nothing is released by hand.
///
/// It watches a capture through the buffer: it looks at the buffer at the pace of the capture's motion gate, probes
/// through the gate, and hands its sensor the verdicts that replace the capture (a re-validation, a fallback to
/// polling: ``AccelerometerSensor/recapture(_:_:revalidating:)``).
final class AccelerometerCapturingPhase: CapturingPhase {
    /// The capture: through the buffer or polled.
    let capture: any Capture
    /// The sensor whose capturing phase this is: it outlives the phase.
    private unowned let sensor: AccelerometerSensor
    /// The judge of a capture through the buffer; nil when polled.
    private var watch: BufferWatch?
    /// `PollFallbackSec=`: looks at a buffer that delivers are half of it apart, and a probe waits for it.
    private let pollFallback: Double
    /// The repeating look at the buffer (`look()`).
    private var bufferLooks: TimerSource?
    /// Whether the looks follow a capture whose motion gate holds back the scans of a still device: then they are
    /// ``BufferWatch/Settings/gatedLookInterval`` apart, and a silent one lets a scan through (a probe).
    private var looksGated = false
    /// The end of a probe: `PollFallbackSec=` after it, unless a usable sample came first.
    private var probeCheck: TimerSource?
    /// A re-validation asked for from inside the capture's callback, run at the loop's next turn.
    private var pendingRevalidation: TimerSource?
    /// A look at the matrix after a `change` uevent of the device (a hwdb entry applied), at the loop's next turn.
    private var pendingMatrixCheck: TimerSource?

    /// The capturing phase of a polled `capture`, for `sensor`.
    init(polled capture: any Capture, sensor: AccelerometerSensor) {
        self.capture = capture
        self.sensor = sensor
        pollFallback = 0
    }

    /// The capturing phase of a `capture` through the buffer, judged by `watch`, for `sensor`: the buffer is looked
    /// at every half of `pollFallback` from now on.
    init(buffered capture: any Capture, watch: BufferWatch, pollFallback: Double, sensor: AccelerometerSensor) {
        self.capture = capture
        self.sensor = sensor
        self.watch = watch
        self.pollFallback = pollFallback
        bufferLooks = try? sensor.loop.addRepeatingTimer(interval: pollFallback / 2) { [unowned self] in self.look() }
    }

    func stop() {
        capture.stop()
    }

    /// A sample read at `time` (the hot path): the watch checks the gap to the previous one (no clock read: the
    /// samples carry their time). `gated`: read through a motion gate, where any gap is no jump. A jump asks for a
    /// re-validation, not from inside the capture's delivery, which the re-validation replaces: at the next turn.
    func sampled(at time: Double, gated: Bool) {
        guard let jump = watch?.sample(at: time, gated: gated), pendingRevalidation == nil else { return }
        pendingRevalidation = try? sensor.loop.addNextTurnAction { [unowned self] in
            guard let watch = self.watch else { return }
            self.pendingRevalidation = nil
            self.act(on: watch.revalidation(because: jump, usable: self.sensor.usableSamples))
        }
    }

    /// A usable sample came: a probe through the gate is answered.
    func deliveredUsable() {
        if probeCheck != nil { probeCheck = nil }
    }

    /// Looks at the buffer at the pace of the capture's gate: every `PollFallbackSec=` / 2 while scans flow, every
    /// ``BufferWatch/Settings/gatedLookInterval`` while the gate holds them back. Called after every change of pace.
    func followGate() {
        guard var watch else { return }
        let gated = capture.motionGated
        guard gated != looksGated else { return }
        looksGated = gated
        probeCheck = nil
        watch.gateChanged(usable: sensor.usableSamples)
        self.watch = watch
        // Gated, a look may come a second late: the kernel then wakes the process once for the looks of both
        // sensors of a convertible, paced together (and for any other timer due then).
        let interval = gated ? watch.settings.gatedLookInterval : pollFallback / 2
        bufferLooks = try? sensor.loop.addRepeatingTimer(interval: interval, accuracy: gated ? 1 : 0.001) {
            [unowned self] in self.look()
        }
    }

    /// Looks at the matrix of `current` at the loop's next turn, once however many `change` uevents come before it
    /// (``AccelerometerSensor/recaptureIfMatrixChanged(_:)``).
    func checkMatrixAtNextTurn(_ current: Accelerometer) {
        guard pendingMatrixCheck == nil else { return }
        pendingMatrixCheck = try? sensor.loop.addNextTurnAction { [unowned self] in
            self.pendingMatrixCheck = nil
            self.sensor.recaptureIfMatrixChanged(current)
        }
    }

    /// A look at the buffer, every `PollFallbackSec=` / 2 while capturing through it (gated, less often): no syscall
    /// but the loop's cached clocks. The watch decides.
    private func look() {
        guard var watch else { return }
        let verdict =
            looksGated
            ? watch.gatedLook(usable: sensor.usableSamples, asleepOffset: sensor.asleepOffset)
            : watch.look(usable: sensor.usableSamples, asleepOffset: sensor.asleepOffset)
        self.watch = watch
        act(on: verdict)
    }

    /// Carries out the watch's verdict on the buffer captured now.
    private func act(on verdict: BufferWatch.Verdict) {
        guard watch != nil, let accelerometer = sensor.accelerometer else { return }
        switch verdict {
        case .keep:
            return
        case .probe:
            // One scan through the gate; none within `PollFallbackSec=`: the buffer is silent.
            sensor.logger.debug(
                "no scan since the last look: one let through the motion gate",
                metadata: sensor.metadata(accelerometer)
            )
            capture.probe()
            probeCheck = try? sensor.loop.addTimer(at: sensor.loop.now + pollFallback) { [unowned self] in
                guard var watch = self.watch else { return }
                self.probeCheck = nil
                let verdict = watch.probeEnded(usable: self.sensor.usableSamples)
                self.watch = watch
                self.act(on: verdict)
            }
        case .revalidate(let cause):
            // Disables and enables the buffer again (the fix for drivers that stop after a resume).
            var details = sensor.metadata(accelerometer)
            details["reason"] = "\(explain(cause))"
            sensor.logger.info("disabling and enabling the buffer again", metadata: details)
            sensor.recapture(capture.device, accelerometer, revalidating: true)
        case .fallBack(let cause):
            var details = sensor.metadata(accelerometer)
            details["reason"] = "\(explain(cause))"
            sensor.logger.warning("the buffer does not deliver: polling instead", metadata: details)
            sensor.recapture(capture.device, accelerometer, revalidating: false)
        }
    }

    /// Why the buffer is re-validated or replaced, in words for the log.
    private func explain(_ cause: BufferWatch.Cause) -> String {
        let fallback = Self.seconds(pollFallback)
        return switch cause {
        case .suspended(let seconds): "the system was suspended for \(Self.seconds(seconds)) s"
        case .clockJumped(let seconds):
            "the clock jumped by \(Self.seconds(seconds)) s between two samples (a suspend?)"
        case .silent: "the buffer delivered nothing usable for \(fallback) s"
        case .neverDelivered: "the buffer delivered no scan within \(fallback) s"
        case .silentAfterRevalidation: "the buffer stayed silent for \(fallback) s after it was enabled again"
        case .againSoonAfterRevalidation(let cause):
            "\(explain(cause)), again soon after the buffer was enabled again"
        }
    }

    private static func seconds(_ value: Double) -> String {
        let tenths = (value.magnitude * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }
}
