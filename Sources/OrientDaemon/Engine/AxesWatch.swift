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

import Logging
import OrientationCore

/// The self-check of the accelerometers' axes (``AxesCheck``, fed every usable sample), with what it found: a value
/// that owns its state, says each finding once, and keeps them all for `status`. No allocation until it
/// finds something.
struct AxesWatch {
    private let logger: Logger
    private var selfCheck = AxesCheck()
    /// Every finding of the readings, in order, for `status`.
    private(set) var findings: [AxesCheck.Finding] = []

    init(logger: Logger) {
        self.logger = logger
    }

    /// Whether the base's entry may be one of calibrate's old frame (the readings alone cannot tell it).
    mutating func baseEntryMayBeOldFrame(_ value: Bool) {
        selfCheck.baseEntryMayBeOldFrame = value
    }

    /// Feeds one usable sample of `sensor` (`laptopMode`: what tablet mode says of the fold now); a new finding is
    /// said in the journal (once per sensor and kind) and kept in ``findings``.
    mutating func check(_ sample: Sample, from sensor: CalibratedSensor, laptopMode: Bool?) {
        selfCheck.laptopMode = laptopMode
        selfCheck.update(sample, from: sensor)
        guard selfCheck.hasFindings else { return }
        for finding in selfCheck.takeFindings() {
            findings.append(finding)
            logger.warning(
                "the accelerometer's axes cannot be right",
                metadata: [
                    "sensor": "\(finding.sensor.rawValue)", "finding": "\(finding.text)",
                    "suggested": "\(finding.suggested.map { "\($0)" } ?? "none")",
                ]
            )
        }
    }
}
