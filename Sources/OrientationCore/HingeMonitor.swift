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

/// Follows the hinge angle of a two-accelerometer convertible and decides tablet mode from it, with hysteresis.
///
/// A value type fed one sample at a time from either sensor: O(1) state, no allocation. Each sample pairs its
/// sensor's low-pass filtered reading (τ 100 ms) with the other's latest, so that the two may run at different
/// rates and with gaps.
///
/// The sensors sit at different places on the machine, so any turn of the whole machine gives each its own
/// acceleration (centripetal and tangential), and the angle between their readings is then off by tens of degrees.
/// An angle is therefore **trusted** only while the machine is truly still:
///
/// - the **direction** of each reading has stayed within 3° of its recent average (τ 400 ms, started afresh from
///   the reading whenever it leaves those 3°) for 400 ms, and so has the angle itself within 1.5° (a turn that
///   moves each reading a little moves their angle by the sum); the size of each reading is steady too (the RMS
///   deviation of |a| from its one-second average at most 5 % of g);
/// - both readings are within 10 % of their sensor's **level**, within 1 m/s² of each other, and their hinge-axis
///   (x) components agree within 0.6 m/s²: a rigid, still machine reads the same gravity along its hinge with both
///   sensors. Each reading is taken in g of its own sensor's level (what it reads still, learnt as it reads), since
///   the two sensors' scales often differ by a few percent, which alone would put them more than 1 m/s² apart;
/// - the hinge axis is at least 25° from vertical (the (y, z) part of each reading at least sin 25° of its
///   level), and the other sensor's reading is at most a second old;
/// - the angle is within the trusted range, 20°…340° (closed and folded look alike to gravity; the margin is more
///   than a closed or folded machine's distance from the seam plus the worst error of a trusted angle).
///
/// A hinge cannot pass from folded to closed without going through the laptop range, so the angle is followed
/// **across the 0°/360° seam**: each reading is taken as the value nearest the last one (a folded tablet turned in
/// the hands reads 373°, not 13°); the track starts afresh after a second without a usable reading, a step of more
/// than 90° between two readings, more than 90° past 0° or 360°, or, while still, more than 20° past them (where a
/// still hinge cannot read). A trusted angle at or above
/// ``HingeConfiguration/tabletAngle`` means tablet mode, at or below ``HingeConfiguration/laptopAngle`` laptop
/// mode; in between the decision is kept, as it is while the angle is not trusted.
///
/// A machine folded flat (355–360°) reads like a closed one, so **the fold itself** also decides: when the
/// followed angle rises by at least 90° in one stretch (a pause shorter than a second, where the angle may be trusted
/// in between, does not end it: a fold made in two turns) to ``foldAngle`` or more (at least 240°) while
/// the hinge-axis components agree within 1.5 m/s² (the lid turns about its hinge) and the base's reading is within
/// 10 % of its level (the base is held while the lid turns), it is tablet mode at once, before the fold ends. A turn of the
/// whole machine errs by less than that, or shakes the base too.
///
/// Readings are in m/s² (the daemon's calibrated samples, and traces recorded by it).
public struct HingeMonitor: Sendable {
    /// Which accelerometer a sample comes from.
    public enum Sensor: Sendable, Hashable {
        /// The display's (lid's) accelerometer.
        case display
        /// The base's (keyboard's) accelerometer.
        case base
    }

    /// The trusted hinge angle in degrees, or nil while it cannot be trusted.
    public private(set) var angle: Double?
    /// The decision: true in tablet mode, false in laptop mode, nil before the first trusted angle outside the
    /// hysteresis band (or fold). Kept while the angle is not trusted and across ``stop()``.
    public private(set) var tabletMode: Bool?
    /// The thresholds in use; a change applies from the next trusted angle (the decision is kept until then).
    public var configuration: HingeConfiguration

    /// Standard gravity, m/s².
    public static let gravity = 9.806_65
    /// The lowest trusted angle, degrees: closer to closed, a reading may come from a folded machine.
    public static let lowestTrustedAngle = 20.0
    /// The highest trusted angle, degrees: closer to folded, a reading may come from a closed machine.
    public static let highestTrustedAngle = 340.0
    /// The least rise of the followed angle, degrees, that counts as a fold.
    public static let foldRise = 90.0

    private static let filterTime = 0.100
    private static let motionTime = 0.100
    private static let magnitudeTime = 1.0
    /// The time constant of the average direction a reading is compared with, seconds.
    private static let directionTime = 0.400
    /// The largest angle (radians, squared) between a reading's direction and its average that counts as steady.
    private static let steadyDirectionSquared = (3.0 * .pi / 180) * (3.0 * .pi / 180)
    /// The largest distance (degrees) of the angle from its recent average that counts as steady.
    private static let steadyAngle = 1.5
    /// How long each reading's direction, and the angle, must stay steady, seconds.
    private static let steadyTime = 0.400
    /// The largest RMS deviation of |a| from its average (relative to g) that counts as still.
    private static let stillDeviation = 0.05
    private static let maximumGap = 1.0
    /// The largest step of the followed angle between two readings, and its largest excursion past 0° or 360°,
    /// degrees: beyond them the track starts afresh.
    private static let largestStep = 90.0
    /// How long the followed angle survives without a usable reading, seconds: as long as a reading may wait for
    /// its pair, so that the sensors' idle rate (2 Hz by default) keeps it.
    private static let trackGap = 1.0
    private static let magnitudeTolerance = 0.1
    private static let magnitudeAgreement = 1.0
    /// The largest difference of the hinge-axis components of a still machine, m/s².
    private static let axisAgreement = 0.6
    /// The largest difference of the hinge-axis components while folding, m/s².
    private static let foldAxisAgreement = 1.5
    /// sin 25°: the smallest (y, z) part of a reading, as a share of its sensor's level, for the hinge axis to be
    /// far enough from vertical.
    private static let smallestCrossShare = 0.422_618_261_740_699_4
    /// How long (seconds of steady readings) a sensor's level is a plain average of its readings; then it follows
    /// them slowly (τ ``levelTime``), so that a sensor's level is known within a second, and a reading that moves
    /// away from it (the sensor accelerates) stays away.
    private static let levelLearningTime = 1.0
    private static let levelTime = 30.0

    private var display = Filter()
    private var base = Filter()
    /// The angle followed across the seam (may leave [0°, 360°)), when a usable reading came lately.
    private var track = 0.0
    private var tracking = false
    private var trackTime = 0.0
    /// The followed angle's recent average (τ ``directionTime``, from the last time it moved), and since when the
    /// angle has stayed within ``steadyAngle`` of it.
    private var trackAverage = 0.0
    private var trackSteadySince = 0.0
    /// The lowest followed angle since the angle was last trusted for ``foldPause`` (or since the track started).
    private var trackLow = 0.0
    /// Since when the angle has been trusted without a break; nil while it is not.
    private var trustedSince: Double?
    /// How long the angle must stay trusted to end a fold's stretch, seconds: a fold made in two turns with a pause
    /// between them (the hands shifting their grip) is one rise.
    private static let foldPause = 1.0

    /// A monitor with no reading yet.
    public init(configuration: HingeConfiguration = HingeConfiguration()) {
        self.configuration = configuration
    }

    /// The followed angle at or above which a fold decides tablet mode: ``HingeConfiguration/tabletAngle``, but
    /// at least 240°.
    public var foldAngle: Double { max(configuration.tabletAngle, 240) }

    /// Takes one sample of one sensor.
    /// - Returns: whether ``tabletMode`` changed.
    public mutating func update(_ sample: Sample, from sensor: Sensor) -> Bool {
        switch sensor {
        case .display: display.update(sample)
        case .base: base.update(sample)
        }
        return evaluate(at: sample.time)
    }

    /// Forgets the readings (the sensors stopped): the angle is unknown; the decision is kept.
    public mutating func stop() {
        display = Filter()
        base = Filter()
        tracking = false
        angle = nil
    }

    /// Forgets one sensor's readings (it went away): the angle is unknown until it returns; the decision is kept.
    public mutating func forget(_ sensor: Sensor) {
        switch sensor {
        case .display: display = Filter()
        case .base: base = Filter()
        }
        tracking = false
        angle = nil
    }

    private mutating func evaluate(at time: Double) -> Bool {
        angle = nil
        let trustedBefore = trustedSince
        trustedSince = nil
        guard display.seeded, base.seeded,
            time - display.lastTime <= Self.maximumGap, time - base.lastTime <= Self.maximumGap
        else { return false }
        let d = display.filtered
        let b = base.filtered
        guard (d.y * d.y + d.z * d.z).squareRoot() >= Self.smallestCrossShare * display.level,
            (b.y * b.y + b.z * b.z).squareRoot() >= Self.smallestCrossShare * base.level
        else { return false }
        let reading = HingeAngle.degrees(display: d, base: b)
        follow(reading, at: time)
        let previous = tabletMode
        // Each reading in g of its own sensor's level, so that sensors whose scales differ by a few percent (as
        // many do: calibrations are per part) still agree on a still machine.
        let axisDifference = (d.x / display.level - b.x / base.level).magnitude * Self.gravity
        let still = Self.isStill(display, base, at: time) && axisDifference <= Self.axisAgreement
        if still, track < -Self.lowestTrustedAngle || track > 360 + Self.lowestTrustedAngle {
            // Still, and farther past the seam than a still hinge can read: the track went astray while the
            // machine moved (a violent fold reads backwards at first); the reading is right, and it is no fold.
            trackLow = reading
            restartTrack(at: reading, time)
        }
        if still, time - trackSteadySince >= Self.steadyTime,
            track >= Self.lowestTrustedAngle, track <= Self.highestTrustedAngle
        {
            angle = track
            let since = trustedBefore ?? time
            trustedSince = since
            trackLow = time - since >= Self.foldPause ? track : min(trackLow, track)
            if track >= configuration.tabletAngle {
                tabletMode = true
            } else if track <= configuration.laptopAngle {
                tabletMode = false
            }
        } else {
            if tabletMode != true, track >= foldAngle, track - trackLow >= Self.foldRise,
                axisDifference <= Self.foldAxisAgreement,
                (b.magnitude - base.level).magnitude <= Self.magnitudeTolerance * base.level
            {
                tabletMode = true
            }
        }
        return tabletMode != previous
    }

    /// Follows the angle across the seam: the value of `reading` (in [0°, 360°)) nearest the last one, or the
    /// reading itself when the track was lost.
    private mutating func follow(_ reading: Double, at time: Double) {
        var step = reading - track
        step -= 360 * (step / 360).rounded()
        let recent = tracking && time - trackTime <= Self.trackGap
        if recent, step.magnitude <= Self.largestStep,
            track + step >= -Self.largestStep, track + step <= 360 + Self.largestStep
        {
            track += step
            let dt = time - trackTime
            trackAverage += LowPassFilter.weight(dt: dt, timeConstant: Self.directionTime) * (track - trackAverage)
            if (track - trackAverage).magnitude > Self.steadyAngle {
                trackAverage = track
                trackSteadySince = time
            }
        } else {
            // A fresh start: the first usable reading, one after a gap, or a leap no hinge makes between two
            // readings (a rise from the laptop range still counts as one).
            if !recent { trackLow = reading }
            restartTrack(at: reading, time)
        }
        trackLow = min(trackLow, track)
        trackTime = time
    }

    /// Starts following the angle afresh from `reading`, not yet steady.
    private mutating func restartTrack(at reading: Double, _ time: Double) {
        track = reading
        trackLow = min(trackLow, reading)
        tracking = true
        trackAverage = reading
        trackSteadySince = time
    }

    private static func isStill(_ display: Filter, _ base: Filter, at time: Double) -> Bool {
        guard display.isSteady(at: time), base.isSteady(at: time) else { return false }
        // In g of each sensor's own level: a still sensor reads its level, whatever its scale.
        let displayMagnitude = display.filtered.magnitude / display.level
        let baseMagnitude = base.filtered.magnitude / base.level
        return (displayMagnitude - 1).magnitude <= magnitudeTolerance
            && (baseMagnitude - 1).magnitude <= magnitudeTolerance
            && (displayMagnitude - baseMagnitude).magnitude * gravity <= magnitudeAgreement
    }

    /// One sensor's low-pass filter and measures of motion.
    private struct Filter: Sendable {
        var seeded = false
        var lastTime = 0.0
        /// The readings, low-pass filtered (τ ``HingeMonitor/filterTime``).
        var lowPass = LowPassFilter()
        var filtered: Vector3 { lowPass.value }
        /// The average direction of ``filtered`` (τ ``HingeMonitor/directionTime``, from the last time it moved), not
        /// normalised.
        var direction = LowPassFilter()
        /// Since when the direction has stayed steady.
        var steadySince = 0.0
        /// |a| averaged over about a second.
        var meanMagnitude = 0.0
        /// The moving average of ((|a| − ``meanMagnitude``)/g)².
        var motion = 0.0
        /// What the sensor reads still: |a| averaged while steady (a plain average over the first second, then
        /// with τ ``HingeMonitor/levelTime``), since the first reading, kept across gaps. A sensor's scale is often a few
        /// percent off (each part has its own calibration), so readings are judged against their own level, not
        /// against standard gravity.
        var level = 0.0
        /// Seconds of steady readings averaged into ``level``.
        var levelTime = 0.0

        /// Whether the reading's size and direction have been steady long enough.
        func isSteady(at time: Double) -> Bool {
            motion <= HingeMonitor.stillDeviation * HingeMonitor.stillDeviation
                && time - steadySince >= HingeMonitor.steadyTime
        }

        mutating func update(_ sample: Sample) {
            let a = sample.acceleration
            guard a.isFinite, sample.time.isFinite else { return }
            let dt = sample.time - lastTime
            let size = a.magnitude
            guard seeded, dt > 0, dt <= HingeMonitor.maximumGap, size > 0 else {
                // The first reading, a gap or time going back: start again from this reading, not yet still.
                seeded = size > 0
                if level == 0 { level = size }
                lastTime = sample.time
                lowPass.value = a
                direction.value = size > 0 ? Self.scaled(a, by: 1 / size) : .zero
                steadySince = sample.time
                meanMagnitude = size
                motion = HingeMonitor.stillDeviation * HingeMonitor.stillDeviation * 4
                return
            }
            lastTime = sample.time
            lowPass.update(toward: a, weight: LowPassFilter.weight(dt: dt, timeConstant: HingeMonitor.filterTime))

            let filteredSize = filtered.magnitude
            if filteredSize > 0 {
                let unit = Self.scaled(filtered, by: 1 / filteredSize)
                direction.update(
                    toward: unit,
                    weight: LowPassFilter.weight(dt: dt, timeConstant: HingeMonitor.directionTime)
                )
                let directionSize = direction.value.magnitude
                if directionSize > 0 {
                    let average = Self.scaled(direction.value, by: 1 / directionSize)
                    let dx = unit.x - average.x
                    let dy = unit.y - average.y
                    let dz = unit.z - average.z
                    if dx * dx + dy * dy + dz * dz > HingeMonitor.steadyDirectionSquared {
                        // Moved: the steady stretch starts again from here.
                        direction.value = unit
                        steadySince = sample.time
                    }
                }
            }

            meanMagnitude +=
                LowPassFilter.weight(dt: dt, timeConstant: HingeMonitor.magnitudeTime) * (size - meanMagnitude)
            let relative = (size - meanMagnitude) / HingeMonitor.gravity
            let deviation = relative * relative
            let m = LowPassFilter.weight(dt: dt, timeConstant: HingeMonitor.motionTime)
            motion += m * (deviation - motion)
            if motion <= HingeMonitor.stillDeviation * HingeMonitor.stillDeviation {
                let span = levelTime < HingeMonitor.levelLearningTime ? levelTime : HingeMonitor.levelTime
                level += LowPassFilter.weight(dt: dt, timeConstant: span) * (size - level)
                levelTime += dt
            }
        }

        private static func scaled(_ v: Vector3, by factor: Double) -> Vector3 {
            Vector3(x: v.x * factor, y: v.y * factor, z: v.z * factor)
        }
    }
}
