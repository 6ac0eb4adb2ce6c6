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

/// How far the screen leans back or forward (iio-sensor-proxy's `AccelerometerTilt`).
///
/// The angle is the elevation of the screen's normal above the horizon: 0° when the display stands upright,
/// +90° lying on its back, −90° lying on its face.
public enum DeviceTilt: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No classification: nobody is generating, or the sensor has given nothing yet.
    case undefined
    /// Upright within ``TiltTracker/enterAngle`` either way.
    case vertical
    /// Leaning back: the screen faces up and away, short of lying face up.
    case tiltedUp
    /// Leaning forward: the screen faces down, short of lying face down.
    case tiltedDown
    /// Lying on its back: the classifier's `face-up`.
    case faceUp
    /// Lying on its face: the classifier's `face-down`.
    case faceDown

    /// iio-sensor-proxy's name: `undefined`, `vertical`, `tilted-up`, `tilted-down`, `face-up`, `face-down`.
    public var wireName: String {
        switch self {
        case .undefined: "undefined"
        case .vertical: "vertical"
        case .tiltedUp: "tilted-up"
        case .tiltedDown: "tilted-down"
        case .faceUp: "face-up"
        case .faceDown: "face-down"
        }
    }

    public var description: String { wireName }
}
