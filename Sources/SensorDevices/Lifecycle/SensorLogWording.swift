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

/// What the log says of a sensor's device, each message written out whole, as every other log message is: which
/// sensor speaks is in the wording, so that a line read in the journal is found as it stands in the code.
enum SensorLogWording {
    /// The IIO accelerometer: its absence is a notice.
    case accelerometer
    /// The accelerometer of the input subsystem: its absence is a debug line, as most machines have none and it is
    /// looked for whenever the IIO one is absent.
    case inputAccelerometer

    /// An attempt found no device.
    var absent: Logger.Message {
        switch self {
        case .accelerometer: "no accelerometer"
        case .inputAccelerometer: "no input accelerometer"
        }
    }

    /// How loudly absent is logged.
    var absenceLevel: Logger.Level {
        switch self {
        case .accelerometer: .notice
        case .inputAccelerometer: .debug
        }
    }

    /// The device in use went away.
    var gone: Logger.Message {
        switch self {
        case .accelerometer: "the accelerometer is gone"
        case .inputAccelerometer: "the input accelerometer is gone"
        }
    }

    /// The device could not be read; it is tried again.
    var failed: Logger.Message {
        switch self {
        case .accelerometer: "the accelerometer cannot be read, retrying"
        case .inputAccelerometer: "the input accelerometer cannot be read, retrying"
        }
    }
}
