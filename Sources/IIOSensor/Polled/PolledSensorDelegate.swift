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

/// What a ``PolledSensor`` tells its owner, given to the sensor when it is made.
public protocol PolledSensorDelegate: AnyObject {
    /// A reading of the running sensor: the channel's value after its scale and offset (lux or a vendor value for
    /// light, the raw value for proximity, degrees for the compass).
    func polledSensor(_ sensor: PolledSensor, read value: Double)
    /// The sensor's device appeared or went (hotplug); ``PolledSensor/channel`` tells which.
    func polledSensorDiscoveryChanged(_ sensor: PolledSensor)
}
