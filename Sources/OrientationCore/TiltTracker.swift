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

/// Follows the tilt of the device from the classifier's filtered acceleration and device orientation.
///
/// The face states are the classifier's own (so `FaceUpAngle=` and its hysteresis apply); between them the
/// tilt is `tilted-up` or `tilted-down` beyond ``enterAngle`` and back to `vertical` below ``exitAngle``, so that
/// a hand holding the device near the threshold does not make it flicker. O(1), no allocation.
public struct TiltTracker: Sendable {
    /// Degrees of elevation beyond which an upright device counts as tilted.
    public static let enterAngle = 30.0
    /// Degrees of elevation below which a tilted device counts as upright again.
    public static let exitAngle = 20.0

    private static let enterSine = Trigonometry.sine(degrees: enterAngle)
    private static let exitSine = Trigonometry.sine(degrees: exitAngle)

    /// The tilt now.
    public private(set) var tilt = DeviceTilt.undefined

    /// An undefined tilt.
    public init() {}

    /// Takes the classifier's state after a sample.
    /// - Parameters:
    ///   - acceleration: The filtered acceleration (any constant scale: only its direction counts).
    ///   - device: The device orientation the classifier reports.
    /// - Returns: Whether ``tilt`` changed.
    public mutating func update(acceleration: Vector3, device: DeviceOrientation) -> Bool {
        let new: DeviceTilt
        switch device {
        case .unknown: new = .undefined
        case .faceUp: new = .faceUp
        case .faceDown: new = .faceDown
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight:
            let norm = acceleration.magnitude
            guard norm > 0, norm.isFinite else { return false }
            new = Self.upright(sine: acceleration.z / norm, current: tilt)
        }
        guard new != tilt else { return false }
        tilt = new
        return true
    }

    /// Forgets the tilt (the sensor stopped).
    /// - Returns: Whether ``tilt`` changed.
    public mutating func reset() -> Bool {
        guard tilt != .undefined else { return false }
        tilt = .undefined
        return true
    }

    /// The tilt of a device standing on an edge, from the sine of its elevation, with hysteresis around `current`.
    private static func upright(sine: Double, current: DeviceTilt) -> DeviceTilt {
        switch current {
        case .tiltedUp where sine >= exitSine: .tiltedUp
        case .tiltedDown where -sine >= exitSine: .tiltedDown
        default: sine >= enterSine ? .tiltedUp : (-sine >= enterSine ? .tiltedDown : .vertical)
        }
    }
}
