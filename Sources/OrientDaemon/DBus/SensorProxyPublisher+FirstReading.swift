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

import CSystemd
import EventLoop
import Logging
import OrientationCore
import SensorDevices
import SystemSupport

/// A `ClaimAccelerometer` is answered once the first reading is in, so that a client that reads
/// `AccelerometerOrientation` right after its claim returns gets the pose the device is in, not `undefined`.
///
/// The light, proximity and compass sensors need no wait: their first claim reads them before it is answered
/// (``ClaimedSensor/start()``). The accelerometer's samples come from its buffer through the event loop, and the
/// classifier decides the first pose after 50 ms of samples; until then the claim's reply waits (the method call is
/// kept, referenced, and answered later), while the service keeps serving other calls.
extension SensorProxyPublisher {
    /// How much longer than the sensor's `[Sensor] PollFallbackSec=` a claim waits for the first reading.
    ///
    /// The wait ends at the first classified sample, or as soon as the sensor cannot deliver (absent, failed,
    /// stopped). A buffer that delivers nothing is polled instead after `PollFallbackSec=` seconds (2 by default), and the
    /// first polled reading needs a few more samples to be classified: the fallback plus one second covers a sensor
    /// that is slow to start (HID sensor hubs take up to a second to power a sensor up) or that only works polled, and
    /// stays far below the 25 s a D-Bus client waits for a reply by default, so that a sensor that never reads
    /// answers the claim (with `undefined`) instead of making the caller time out.
    static let firstReadingMargin = 1.0

    /// Answers the waiting claims once the state shown has an answer (``accelerometerHasAnswer``).
    func answerClaimsIfRead() {
        if !unansweredClaims.isEmpty, accelerometerHasAnswer {
            answerUnansweredClaims(reason: "first reading")
        }
    }

    /// Keeps `message` (a `ClaimAccelerometer` whose claim holds) to answer it at the first reading or at the
    /// deadline.
    /// - Returns: the method handler's result: 1, handled (the reply comes later).
    func answerLater(_ message: OpaquePointer) -> Int32 {
        unansweredClaims.append(sd_bus_message_ref(message))
        if firstReadingDeadline == nil {
            let wait = pollFallback + Self.firstReadingMargin
            do {
                firstReadingDeadline = try loop.addTimer(at: loop.now + wait, accuracy: 0.05) { [unowned self] in
                    self.answerUnansweredClaims(reason: "no reading within \(wait) s")
                }
            } catch {
                // Without a timer the claim could wait forever: answer it now.
                logger.warning("cannot time the wait for the first reading", metadata: ["error": "\(error)"])
                answerUnansweredClaims(reason: "no timer")
            }
        }
        return 1
    }

    /// Answers every waiting `ClaimAccelerometer` (their claims hold) and ends the wait.
    func answerUnansweredClaims(reason: String) {
        firstReadingDeadline = nil
        let waiting = unansweredClaims
        unansweredClaims.removeAll()
        guard !waiting.isEmpty else { return }
        logger.debug(
            "accelerometer claims answered",
            metadata: ["claims": "\(waiting.count)", "reason": "\(reason)", "orientation": "\(properties.orientation)"]
        )
        for message in waiting {
            let result = orientd_bus_reply_empty(message)
            if result < 0 {
                logger.warning("a claim's reply was not sent", metadata: ["error": "\(Errno(result))"])
            }
            sd_bus_message_unref(message)
        }
    }
}
