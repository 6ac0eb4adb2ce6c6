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
import UdevSupport

/// How an ``AccelerometerSensor`` opens its device: a fresh discovery, then the buffer, else polling.
extension AccelerometerSensor: SensorDriver {
    /// Discovers the device and starts capturing; the phase to enter.
    func open() -> SensorOpening<AccelerometerCapturing> {
        // Readings of the previous capture say nothing of this one's.
        anomaly = nil
        // A fresh context each time: a context is a snapshot, and devices come and go.
        let context: IIOContext
        do {
            context = try IIOContext(uri: options.uri)
        } catch {
            return .absent(reason: "\(error)")
        }
        let discovery = AccelerometerDiscovery.discover(
            in: context,
            udev: try? Udev(),
            device: options.device,
            mountMatrix: options.mountMatrix
        )
        let (found, reason) = pick(discovery)
        guard let found, let device = context.device(named: found.id) else {
            return .absent(reason: reason)
        }
        // Raised before the capture saves the device's settings: it puts back the raised rate.
        let chosen = raiseSlowFrequency(found)
        shell.accelerometer = chosen
        for warning in chosen.warnings {
            logger.warning(
                "the accelerometer's attributes",
                metadata: ["device": "\(chosen.id)", "problem": "\(warning)"]
            )
        }
        fellBack = false
        if chosen.canBuffer && !options.forcePolling, let buffered = startBuffered(device, chosen) {
            return buffered
        }
        return startPolling(device, chosen)
    }

    /// Captures through the buffer, looked at by a timer every half of `PollFallbackSec=`; nil (and
    /// `fellBack`) when the buffer cannot be set up. `revalidation`: enabled again by a re-validation.
    func startBuffered(
        _ device: IIODevice,
        _ chosen: Accelerometer,
        revalidation: Bool = false
    ) -> SensorOpening<AccelerometerCapturing>? {
        do {
            let capture = try BufferedCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                idleRate: options.idleRate,
                loop: loop,
                logger: logger,
                owner: self
            )
            let looks = try? loop.addRepeatingTimer(interval: options.pollFallback / 2) { [unowned self] in
                self.lookAtBuffer()
            }
            let watch = BufferWatch(
                settings: BufferWatch.Settings(
                    clockJump: Self.clockJump,
                    rate: options.rate,
                    pollFallback: options.pollFallback,
                    gate: capture.gate
                ),
                usable: usableSamples,
                asleepOffset: asleepOffset,
                revalidation: revalidation ? usableSamples : nil
            )
            var details = metadata(chosen)
            if let gate = capture.gate { details["motion_gate"] = "\(gate.description)" }
            logger.info("capturing through the buffer", metadata: details)
            return .capturing(AccelerometerCapturing(capture: capture, watch: watch, bufferLooks: looks))
        } catch {
            var details = metadata(chosen)
            details["error"] = "\(error)"
            logger.warning("buffered capture failed, polling instead", metadata: details)
            fellBack = true
            return nil
        }
    }

    /// Polls the raw attributes on a timer; failed (retried) when they cannot be opened.
    func startPolling(_ device: IIODevice, _ chosen: Accelerometer) -> SensorOpening<AccelerometerCapturing> {
        do {
            let capture = try PolledCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                idleRate: options.idleRate,
                loop: loop,
                logger: logger,
                giveUpAfter: Self.readFailureLimit,
                owner: self
            )
            logger.info("polling the accelerometer", metadata: metadata(chosen))
            return .capturing(AccelerometerCapturing(capture: capture))
        } catch {
            return .failed(error)
        }
    }

    /// udev changed the device (`udevadm trigger` after a new hwdb entry): a new `ACCEL_MOUNT_MATRIX` is taken without
    /// a restart of the daemon; while capturing, the capture starts again with it. A configured matrix wins anyway.
    func deviceChanged() -> Bool {
        guard options.mountMatrix == nil, let current = accelerometer else { return true }
        if shell.isStopped {
            refreshDiscovery()
            return true
        }
        guard let capturing = shell.capturing, capturing.pendingMatrixCheck == nil else { return true }
        capturing.pendingMatrixCheck = try? loop.addNextTurnAction { [unowned self] in
            guard let capturing = self.shell.capturing else { return }
            capturing.pendingMatrixCheck = nil
            guard
                let found = try? AccelerometerDiscovery.discover(uri: self.options.uri, device: current.id)
                    .accelerometers.first(where: { $0.id == current.id }),
                found.calibration.matrix != self.accelerometer?.calibration.matrix
            else { return }
            self.logger.notice(
                "the mount matrix changed: capturing again with it",
                metadata: [
                    "device": "\(current.id)", "was": "\(current.calibration.matrix)",
                    "matrix": "\(found.calibration.matrix)", "matrix_source": "\(found.matrixSource)",
                ]
            )
            self.shell.attempt()
        }
        return true
    }
}
