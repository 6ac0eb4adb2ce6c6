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

/// How an ``AccelerometerSensor`` watches a capture through the buffer: looks at the pace of the motion gate, probes
/// through the gate, and carries out the ``BufferWatch``'s verdicts (a re-validation, a fallback to polling).
extension AccelerometerSensor {
    /// Looks at the buffer at the pace of the capture's gate: every `PollFallbackSec=` / 2 while scans flow, every
    /// ``BufferWatch/Settings/gatedLookInterval`` while the gate holds them back. Called after every change of pace.
    func followGate() {
        guard let capturing = shell.capturing, var watch = capturing.watch else { return }
        let gated = capturing.capture.motionGated
        guard gated != capturing.looksGated else { return }
        capturing.looksGated = gated
        capturing.probeCheck = nil
        watch.gateChanged(usable: usableSamples)
        capturing.watch = watch
        // Gated, a look may come a second late: the kernel then wakes the process once for the looks of both
        // sensors of a convertible, paced together (and for any other timer due then).
        let interval = gated ? watch.settings.gatedLookInterval : options.pollFallback / 2
        capturing.bufferLooks = try? loop.addRepeatingTimer(interval: interval, accuracy: gated ? 1 : 0.001) {
            [unowned self] in self.lookAtBuffer()
        }
    }

    /// A look at the buffer, every `PollFallbackSec=` / 2 while capturing through it (gated, less often): no syscall
    /// but the loop's cached clocks. The watch decides.
    func lookAtBuffer() {
        guard let capturing = shell.capturing, var watch = capturing.watch else { return }
        let verdict =
            capturing.looksGated
            ? watch.gatedLook(usable: usableSamples, asleepOffset: asleepOffset)
            : watch.look(usable: usableSamples, asleepOffset: asleepOffset)
        capturing.watch = watch
        act(on: verdict)
    }

    /// Carries out the watch's verdict on the buffer captured now.
    func act(on verdict: BufferWatch.Verdict) {
        guard let capturing = shell.capturing, capturing.watch != nil, let accelerometer else { return }
        let capture = capturing.capture
        switch verdict {
        case .keep:
            return
        case .probe:
            // One scan through the gate; none within `PollFallbackSec=`: the buffer is silent.
            logger.debug(
                "no scan since the last look: one let through the motion gate",
                metadata: metadata(accelerometer)
            )
            capture.probe()
            capturing.probeCheck = try? loop.addTimer(at: loop.now + options.pollFallback) { [unowned self] in
                guard let capturing = self.shell.capturing, var watch = capturing.watch else { return }
                capturing.probeCheck = nil
                let verdict = watch.probeEnded(usable: self.usableSamples)
                capturing.watch = watch
                self.act(on: verdict)
            }
        case .revalidate(let cause):
            // Disables and enables the buffer again (the fix for drivers that stop after a resume); a buffer
            // that cannot be set up again is replaced by polling at once.
            var details = metadata(accelerometer)
            details["reason"] = "\(explain(cause))"
            logger.info("disabling and enabling the buffer again", metadata: details)
            shell.reopen {
                startBuffered(capture.device, accelerometer, revalidation: true)
                    ?? startPolling(capture.device, accelerometer)
            }
        case .fallBack(let cause):
            var details = metadata(accelerometer)
            details["reason"] = "\(explain(cause))"
            logger.warning("the buffer does not deliver: polling instead", metadata: details)
            fellBack = true
            shell.reopen { startPolling(capture.device, accelerometer) }
        }
    }

    /// Why the buffer is re-validated or replaced, in words for the log.
    private func explain(_ cause: BufferWatch.Cause) -> String {
        let fallback = Self.seconds(options.pollFallback)
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
