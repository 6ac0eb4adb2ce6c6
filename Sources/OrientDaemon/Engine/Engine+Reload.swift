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

import IIOSensor
import Logging
import OrientationCore

/// A reloaded configuration (SIGHUP), taken all or nothing: the policy, the classifier, the hinge's thresholds and
/// the sensor options.
extension Engine {
    /// Takes a reloaded configuration, all or nothing, and sends the change as events: `allowed` for a new set,
    /// `interface` when the interface orientation or its rotation changes (a new `Natural=` turns the same
    /// interface orientation into another rotation). New sensor options replace the sensors (started if someone
    /// generates).
    /// - Throws: ``PolicyError`` when `Supported=` would leave no orientation allowed with the lock
    ///   and constraints in force; nothing changes then.
    func reconfigure(_ new: DaemonSettings) throws(PolicyError) {
        var candidate = policy
        if new.classifier.natural != policy.natural {
            candidate = try RotationPolicy(
                natural: new.classifier.natural,
                supported: new.supported,
                preferred: new.preferred
            )
            _ = candidate.setSuggests(new.suggestionSeconds > 0)
            _ = try candidate.setLock(policy.lock)
            for (client, mask) in policy.constraints { _ = try candidate.setConstraint(mask, for: client) }
            _ = candidate.setDevice(policy.device)
        } else if new.supported != settings.supported || new.preferred != settings.preferred {
            _ = try candidate.setSupported(new.supported, preferred: new.preferred)
        }
        if new.classifier != settings.classifier {
            classifier = OrientationClassifier(configuration: new.classifier)
            paceTracker.reset()
        }
        // New thresholds apply from the next reliable angle; the readings and the decision are kept.
        hinge.configuration = new.hinge
        _ = candidate.setFollowsDevice(Self.followsDevice(new.autoRotate, tabletMode: arbiter.tabletMode))
        // A new SuggestionSec= applies to the suggestions made from now on; 0 withdraws the one standing.
        _ = candidate.setSuggests(new.suggestionSeconds > 0)
        let old = settings
        settings = new
        asOneSentChange { adopt(candidate) }
        if new.sensor.requiresNewSensor(comparedWith: old.sensor) {
            sensors.replace(options: new.sensor, running: generation.isGenerating)
            logger.info(
                "the sensor options changed",
                metadata: ["sensor": "\(generation.isGenerating ? "restarted" : "stopped, starts with them")"]
            )
        }
    }
}
