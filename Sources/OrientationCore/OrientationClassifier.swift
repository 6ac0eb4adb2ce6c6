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
///    unit classify the same as m/s².
/// 5. A face state machine (face up or down beyond `FaceUpAngle=`, left 10° below it) and an
///    edge state machine for the four poses, which leaves the current pose only beyond
///    45° + δ, δ growing from 15° upright to 30° near flat.
/// 6. Coming out of a face state, the pose is confirmed afresh, so that a device picked up in
///    another pose than it was put down in goes straight to the new one.
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
    public var filteredAcceleration: Vector3 { filtered }
    /// The settings in use.
    public let configuration: ClassifierConfiguration

    // Constants derived once from the configuration.
    private let filterTime: Double
    private let dwellTime: Double
    private let faceEnterSine: Double
    private let faceExitSine: Double
    private let edgeLowestSine: Double
    private let leaveCosineUpright: Double
    private let leaveCosineFlat: Double

    private static let motionTime = 0.300
    private static let motionScale = 0.25
    /// A sample further than this from g (relative) is an impact or a glitch: motion, not direction.
    private static let impactDeviation = 0.5
    private static let gravityTime = 5.0
    private static let gravityLearningTime = 1.0
    private static let faceEnterTime = 0.300
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
    private var filtered = Vector3.zero
    private var motion: Double = 0
    private var gravityLearnt: Double = 0

    // Decision state.
    private var face = Face.none
    private var faceCandidate = Face.none
    private var faceCandidateTime: Double = 0
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

        // Motion: how far |a| is from g, relative to g. An impact or a glitched sample counts as
        // motion (capped, so that one knock does not freeze decisions for long), never as direction.
        let deviation = (magnitude - gravity) / gravity
        let squaredDeviation = deviation * deviation
        let motionAlpha = dt / (Self.motionTime + dt)
        motion += motionAlpha * (min(squaredDeviation, Self.impactDeviation * Self.impactDeviation) - motion)
        let weight = max(0, min(1, 1 - motion.squareRoot() / Self.motionScale))
        stillness = weight
        let learning = gravityLearnt < Self.gravityLearningTime
        if !learning && squaredDeviation > Self.impactDeviation * Self.impactDeviation { return }
        learnGravity(magnitude, dt: dt, weight: learning ? 1 : weight)

        let filterAlpha = dt / (filterTime + dt)
        filtered.x += filterAlpha * (a.x - filtered.x)
        filtered.y += filterAlpha * (a.y - filtered.y)
        filtered.z += filterAlpha * (a.z - filtered.z)

        let norm = filtered.magnitude
        // Below half a g the direction means little (free fall, a violent shake): hold everything.
        guard norm >= 0.5 * gravity else { return }
        let sine = filtered.z / norm
        let stillTime = dt * weight

        updateFace(sine: sine, dt: dt, stillTime: stillTime)
        if face == .none && sine >= edgeLowestSine && sine <= faceEnterSine {
            updatePose(x: filtered.x / norm, y: filtered.y / norm, sine: sine, stillTime: stillTime)
        }
    }

    private mutating func reseed(_ sample: Sample, magnitude: Double) {
        if !seeded {
            gravity = magnitude
        }
        seeded = true
        lastTime = sample.time
        filtered = sample.acceleration
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
            }
            // Face down only counts while the device is still: held overhead or tossed, a device
            // points its screen down only for a moment.
            faceCandidateTime += target == .down && stillTime < dt * Self.faceDownStillness ? 0 : stillTime
            if faceCandidateTime >= Self.faceEnterTime {
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
            if faceExitElapsed >= Self.faceExitTime {
                face = .none
                faceExitElapsed = 0
                // The device orientation stays the face state until a pose is confirmed anew.
                poseState = .reconfirming
                candidate = nil
                candidateTime = 0
            }
        }
    }

    private mutating func updatePose(x: Double, y: Double, sine: Double, stillTime: Double) {
        let inPlane = (x * x + y * y).squareRoot()
        var best = Pose.normal
        var bestComponent = -y
        if -x > bestComponent {
            best = .rightUp
            bestComponent = -x
        }
        if y > bestComponent {
            best = .bottomUp
            bestComponent = y
        }
        if x > bestComponent {
            best = .leftUp
        }

        var wanted = best
        if let current = pose {
            // Hysteresis: stay in the current pose until it is 45° + δ away, δ from 15° upright to 30° near flat.
            let flatness = min(1, max(0, (sine < 0 ? -sine : sine) / faceEnterSine))
            let leaveCosine = leaveCosineUpright + (leaveCosineFlat - leaveCosineUpright) * flatness
            if Self.component(of: current, x: x, y: y) >= inPlane * leaveCosine {
                wanted = current
            }
            if wanted == current && poseState == .confirmed {
                candidate = nil
                candidateTime = 0
                return
            }
        }

        if candidate != wanted {
            candidate = wanted
            candidateTime = 0
        }
        candidateTime += stillTime
        let required: Double
        switch poseState {
        case .initial: required = Self.firstDwellTime
        case .confirmed: required = dwellTime
        case .reconfirming: required = max(dwellTime, Self.afterFaceDwellTime)
        }
        guard candidateTime >= required else { return }
        pose = wanted
        poseState = .confirmed
        candidate = nil
        candidateTime = 0
        deviceOrientation = wanted.deviceOrientation(natural: configuration.natural)
    }

    private static func component(of pose: Pose, x: Double, y: Double) -> Double {
        switch pose {
        case .normal: -y
        case .rightUp: -x
        case .bottomUp: y
        case .leftUp: x
        }
    }
}
