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

/// Classifies accelerometer samples into the seven device orientations, with hysteresis.
///
/// A value type updated one sample at a time: O(1) state, no allocation, no system calls. The
/// same code runs in the daemon and in `orientd classify`. The design follows CLASSIFIER.md:
///
/// 1. Gaps: a sample that goes back in time or comes more than a second after the last one
///    re-seeds the filters and keeps the outputs.
/// 2. A low-pass filter on each axis (τ = `FilterMs=`).
/// 3. A motion measure, the moving average (τ = 300 ms) of ((|a| − g)/g)², turned into a
///    weight w = clamp(1 − σ/0.25, 0, 1): time counts toward a decision only in proportion to w,
///    so shaking, walking and knocks delay decisions instead of making wrong ones.
/// 4. g is learnt from the data (a slow average of |a| while still), so that raw counts in any
///    unit classify the same as m/s². A lasting change of |a| (away from g by more than 10 %, steady
///    for 400 ms: longer than any impact) is a change of scale: g becomes the new level at once.
/// 5. A face state machine (face up or down beyond `FaceUpAngle=`, left 10° below it; the tilt is
///    taken against the filtered length of (x, y), so that a device turning in its plane does not
///    look flatter than it is)
///    and an edge state machine for the four poses, which leaves the current pose only beyond
///    45° + δ, δ growing from 15° upright to 30° near flat. The dwell of a new pose counts from the
///    moment it became the nearest one, so that steep turns are decided as fast as upright ones.
/// 6. Coming out of a face state, the pose is confirmed afresh (the nearest one, held for 350 ms),
///    so that a device picked up in another pose than it was put down in goes straight to the new one.
public struct OrientationClassifier: Sendable {
    /// The current device orientation; `unknown` until the first classification.
    public private(set) var deviceOrientation: DeviceOrientation = .unknown
    /// The last confirmed pose; nil until the first one. Kept while the device lies flat.
    public private(set) var pose: Pose?
    /// The learnt magnitude of gravity, in the unit of the samples; 0 before the first sample.
    public private(set) var gravity: Double = 0
    /// The motion weight of the last sample: 1 when still, 0 when shaken.
    public private(set) var stillness: Double = 1
    /// The low-pass filtered acceleration, for diagnostics.
    public var filteredAcceleration: Vector3 { filter.value }
    /// The settings in use.
    public let configuration: ClassifierConfiguration

    // Constants derived once from the configuration.
    private let filterTime: Double
    private let dwellTime: Double
    private let faceEnterSine: Double
    private let faceExitSine: Double
    /// sin(face angle + ``faceMargin``): the tilt a device lying on its back or face goes past.
    private let faceMarginSine: Double
    private let edgeLowestSine: Double
    private let leaveCosineUpright: Double
    private let leaveCosineFlat: Double

    private static let motionTime = 0.300
    private static let motionScale = 0.25
    /// A sample further than this from g (relative) is an impact or a glitch: motion, not direction.
    private static let impactDeviation = 0.5
    private static let gravityTime = 5.0
    private static let gravityLearningTime = 1.0
    /// A lasting change of scale: |a| this far from g (relative)…
    private static let levelDeviation = 0.1
    /// …with every sample this close to the run's mean (relative)…
    private static let levelTolerance = 0.1
    /// …for this long, longer than any impact (at most 300 ms), makes the run's level the new g.
    private static let levelTime = 0.400
    private static let faceEnterTime = 0.300
    /// How far past the face angle (degrees) a device must go for the usual ``faceEnterTime`` to decide.
    private static let faceMargin = 4.0
    /// How long a device that stays less than ``faceMargin`` past the face angle must stay past it.
    private static let faceSlowEnterTime = 2.5
    private static let faceExitTime = 0.100
    /// The stillness below which time does not count toward face down.
    private static let faceDownStillness = 0.3
    private static let firstDwellTime = 0.050
    private static let afterFaceDwellTime = 0.350
    private static let maximumGap = 1.0

    private enum Face: Sendable {
        case none
        case up
        case down
    }

    /// Whether the edge machine's pose is what the device orientation shows.
    private enum PoseState: Sendable {
        /// No pose yet: the first one needs only a short dwell.
        case initial
        /// The pose is the device orientation (unless a face state covers it).
        case confirmed
        /// Just out of a face state: the device orientation keeps the face state until a pose is confirmed.
        case reconfirming
    }

    // Filter state.
    private var lastTime: Double = 0
    private var seeded = false
    private var filter = LowPassFilter()
    /// The low-pass filtered length of (x, y): unlike that of the filtered vector, it does not shrink while
    /// the device turns in its plane, so the tilt taken with it does not steepen during a turn.
    private var filteredInPlane: Double = 0
    private var motion: Double = 0
    private var gravityLearnt: Double = 0
    // A run of samples at another level than g (followLevel).
    private var levelSamples: Double = 0
    private var levelSum: Double = 0
    private var levelElapsed: Double = 0
    /// The run's direction, filtered as ``filter`` is.
    private var levelDirection = LowPassFilter()

    // Decision state.
    private var face = Face.none
    private var faceCandidate = Face.none
    private var faceCandidateTime: Double = 0
    /// The steepest tilt (its sine, toward the candidate's face) since the face candidate began.
    private var faceCandidatePeak: Double = -1
    private var faceExitElapsed: Double = 0
    private var poseState = PoseState.initial
    private var candidate: Pose?
    private var candidateTime: Double = 0

    /// A classifier with the given settings, in the `unknown` state.
    public init(configuration: ClassifierConfiguration = ClassifierConfiguration()) {
        self.configuration = configuration
        filterTime = configuration.filterTime
        dwellTime = configuration.dwellTime
        faceEnterSine = Trigonometry.sine(degrees: configuration.faceAngle)
        faceExitSine = Trigonometry.sine(degrees: configuration.faceAngle - 10)
        faceMarginSine = Trigonometry.sine(degrees: min(configuration.faceAngle + Self.faceMargin, 90))
        edgeLowestSine = -Trigonometry.sine(degrees: 25)
        leaveCosineUpright = Trigonometry.cosine(degrees: 45 + 15)
        leaveCosineFlat = Trigonometry.cosine(degrees: 45 + 30)
    }

    /// Takes one sample.
    /// - Returns: whether the device orientation or the pose changed.
    @inlinable
    public mutating func update(_ sample: Sample) -> Bool {
        let previousDevice = deviceOrientation
        let previousPose = pose
        process(sample)
        return deviceOrientation != previousDevice || pose != previousPose
    }

    @usableFromInline
    mutating func process(_ sample: Sample) {
        let a = sample.acceleration
        let magnitude = a.magnitude
        // Non-finite and zero vectors carry no direction: ignore them entirely.
        guard magnitude.isFinite, magnitude > 0, sample.time.isFinite else { return }

        let dt = sample.time - lastTime
        guard seeded, dt > 0, dt <= Self.maximumGap else {
            reseed(sample, magnitude: magnitude)
            return
        }
        lastTime = sample.time

        let filterAlpha = LowPassFilter.weight(dt: dt, timeConstant: filterTime)
        followLevel(a, magnitude: magnitude, dt: dt, filterAlpha: filterAlpha)

        // Motion: how far |a| is from g, relative to g. An impact or a glitched sample counts as
        // motion (capped, so that one knock does not freeze decisions for long), never as direction.
        let deviation = (magnitude - gravity) / gravity
        let squaredDeviation = deviation * deviation
        let motionAlpha = LowPassFilter.weight(dt: dt, timeConstant: Self.motionTime)
        motion += motionAlpha * (min(squaredDeviation, Self.impactDeviation * Self.impactDeviation) - motion)
        let weight = max(0, min(1, 1 - motion.squareRoot() / Self.motionScale))
        stillness = weight
        let learning = gravityLearnt < Self.gravityLearningTime
        if !learning && squaredDeviation > Self.impactDeviation * Self.impactDeviation { return }
        learnGravity(magnitude, dt: dt, weight: learning ? 1 : weight)

        filter.update(toward: a, weight: filterAlpha)
        let filtered = filter.value
        filteredInPlane += filterAlpha * (Self.inPlane(a) - filteredInPlane)

        let norm = filtered.magnitude
        // Below half a g the direction means little (free fall, a violent shake): hold everything.
        guard norm >= 0.5 * gravity else { return }
        // The sine of the tilt toward face up. A vector turning in the panel's plane averages to a shorter
        // one, so z over the filtered vector's own norm would steepen during a turn, enough to reach face up
        // from 65°; the filtered length of (x, y) does not shrink.
        let sine = filtered.z / (filtered.z * filtered.z + filteredInPlane * filteredInPlane).squareRoot()
        let stillTime = dt * weight

        updateFace(sine: sine, dt: dt, stillTime: stillTime)
        if face == .none && sine >= edgeLowestSine && sine <= faceEnterSine {
            updatePose(x: filtered.x / norm, y: filtered.y / norm, sine: sine, stillTime: stillTime, sample: a)
        }
    }

    private mutating func reseed(_ sample: Sample, magnitude: Double) {
        if !seeded {
            gravity = magnitude
        }
        seeded = true
        lastTime = sample.time
        filter.value = sample.acceleration
        filteredInPlane = Self.inPlane(sample.acceleration)
        levelSamples = 0
        faceCandidateTime = 0
        faceExitElapsed = 0
        candidateTime = 0
    }

    /// Watches for a lasting change of scale: |a| away from g by more than `levelDeviation`, and steady
    /// (every sample within `levelTolerance` of the run's mean) for `levelTime`. An impact is never that
    /// steady for that long; a driver that changes its scale, a calibration written at run time or a trace
    /// that switches units is. Then g is the new level, learnt afresh, and the filters start from the run.
    private mutating func followLevel(_ a: Vector3, magnitude: Double, dt: Double, filterAlpha: Double) {
        let away = magnitude - gravity
        guard (away < 0 ? -away : away) > Self.levelDeviation * gravity else {
            levelSamples = 0
            return
        }
        let mean = levelSamples > 0 ? levelSum / levelSamples : 0
        let offLevel = magnitude - mean
        if levelSamples == 0 || (offLevel < 0 ? -offLevel : offLevel) > Self.levelTolerance * mean {
            // A new run starts here.
            levelSamples = 1
            levelSum = magnitude
            levelElapsed = 0
            levelDirection.value = a
            return
        }
        levelSamples += 1
        levelSum += magnitude
        levelElapsed += dt
        levelDirection.update(toward: a, weight: filterAlpha)
        guard levelElapsed >= Self.levelTime else { return }

        gravity = levelSum / levelSamples
        gravityLearnt = levelElapsed
        filter = levelDirection
        filteredInPlane = Self.inPlane(levelDirection.value)
        motion = 0
        levelSamples = 0
        faceCandidateTime = 0
        faceExitElapsed = 0
        candidateTime = 0
    }

    /// A cumulative mean over the first second, then a slow average weighted by stillness.
    private mutating func learnGravity(_ magnitude: Double, dt: Double, weight: Double) {
        let span = min(gravityLearnt, Self.gravityTime)
        gravity += weight * dt / (span + dt) * (magnitude - gravity)
        gravityLearnt += dt * weight
    }

    private mutating func updateFace(sine: Double, dt: Double, stillTime: Double) {
        switch face {
        case .none:
            let target: Face = sine >= faceEnterSine ? .up : (-sine >= faceEnterSine ? .down : .none)
            guard target != .none else {
                faceCandidate = .none
                faceCandidateTime = 0
                return
            }
            if target != faceCandidate {
                faceCandidate = target
                faceCandidateTime = 0
                faceCandidatePeak = -1
            }
            // Face down only counts while the device is still: held overhead or tossed, a device
            // points its screen down only for a moment.
            faceCandidateTime += target == .down && stillTime < dt * Self.faceDownStillness ? 0 : stillTime
            faceCandidatePeak = max(faceCandidatePeak, target == .up ? sine : -sine)
            // A device lying on its back or its face goes well past the face angle (80-90°): then the usual
            // 300 ms decide. One on a lap or a stand at 65-68°, whose sway, tremor and sensor offset take it just
            // past the angle at times, never goes ``faceMargin`` past it: it must stay past the angle for
            // ``faceSlowEnterTime`` before it counts as lying, so that a turn or a shift of the hands does not
            // show face up (and hold it until the device rises above the exit angle).
            let required = faceCandidatePeak >= faceMarginSine ? Self.faceEnterTime : Self.faceSlowEnterTime
            if faceCandidateTime >= required {
                face = target
                faceCandidate = .none
                faceCandidateTime = 0
                faceExitElapsed = 0
                candidate = nil
                candidateTime = 0
                deviceOrientation = target == .up ? .faceUp : .faceDown
            }
        case .up, .down:
            let tilt = face == .up ? sine : -sine
            guard tilt < faceExitSine else {
                faceExitElapsed = 0
                return
            }
            faceExitElapsed += dt
            let turnedOver = -tilt >= faceEnterSine
            guard faceExitElapsed >= Self.faceExitTime || turnedOver else { return }
            face = .none
            faceExitElapsed = 0
            // The device orientation stays the face state until a pose is confirmed anew.
            poseState = .reconfirming
            candidate = nil
            candidateTime = 0
            // Turned over onto the other face: no need to wait, that face starts counting with this sample.
            if turnedOver { updateFace(sine: sine, dt: dt, stillTime: stillTime) }
        }
    }

    private mutating func updatePose(x: Double, y: Double, sine: Double, stillTime: Double, sample: Vector3) {
        let inPlane = (x * x + y * y).squareRoot()
        let best = Pose.nearest(x: x, y: y)

        if let current = pose, poseState == .confirmed {
            // Hysteresis: leave the current pose only once it is 45° + δ away, δ from 15° upright to 30°
            // near flat. The dwell counts from the moment the new pose became the nearest one (past the
            // 45° bisector), so that a turn is decided as soon as it passes 45° + δ, however steep.
            guard best != current else {
                candidate = nil
                candidateTime = 0
                return
            }
            if candidate != best {
                // A half turn passes the pose in between on its way, and the opposite pose becomes the nearest only
                // past 135°: the time it has been away from the current pose counts on, or a half turn that ends
                // slowly (the hand settling) would wait a whole dwell after it got there.
                let halfTurnGoesOn = candidate != nil && best.isOpposite(of: current)
                candidate = best
                if !halfTurnGoesOn { candidateTime = 0 }
            }
            candidateTime += stillTime
            let flatness = min(1, max(0, (sine < 0 ? -sine : sine) / faceEnterSine))
            let leaveCosine = leaveCosineUpright + (leaveCosineFlat - leaveCosineUpright) * flatness
            guard candidateTime >= dwellTime, current.component(x: x, y: y) < inPlane * leaveCosine
            else { return }
            // The filter lags the hand: on a half turn read slowly (10 Hz), the filtered direction still points
            // at the pose in between when the hand has passed it or is about to. A pose is taken only while the
            // sample, and the sample carried on by as much as it leads the filter (where the hand will be a
            // filter time from now), agree that it is the nearest: the pose in between is never shown. On a
            // quarter turn both lie in the new pose already, and nothing waits.
            guard Pose.nearest(x: sample.x, y: sample.y) == best,
                Pose.nearest(x: 2 * sample.x - filter.value.x, y: 2 * sample.y - filter.value.y) == best
            else { return }
            confirm(best)
            return
        }

        // No pose yet, or just out of a face state: the nearest pose, kept for a dwell.
        if candidate != best {
            candidate = best
            candidateTime = 0
        }
        candidateTime += stillTime
        let required = poseState == .initial ? Self.firstDwellTime : max(dwellTime, Self.afterFaceDwellTime)
        guard candidateTime >= required else { return }
        confirm(best)
    }

    private mutating func confirm(_ wanted: Pose) {
        pose = wanted
        poseState = .confirmed
        candidate = nil
        candidateTime = 0
        deviceOrientation = wanted.deviceOrientation(natural: configuration.natural)
    }

    private static func inPlane(_ a: Vector3) -> Double {
        (a.x * a.x + a.y * a.y).squareRoot()
    }
}
