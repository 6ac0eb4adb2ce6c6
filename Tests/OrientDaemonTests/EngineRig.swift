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

import EngineFakes
import Logging
import OrientClient
import OrientProtocol
import OrientationCore
import Testing

@testable import OrientDaemon
@testable import SensorDevices

#if canImport(Glibc)
import Glibc
#endif

extension FakeSensor {
    /// A display accelerometer with the identity matrix.
    static let displayAccelerometer = Accelerometer(
        id: "iio:device0",
        name: "accel_3d",
        label: nil,
        syspath: nil,
        location: .display,
        locationSource: "default",
        calibration: Calibration(scale: Vector3(x: 1, y: 1, z: 1)),
        matrixSource: "identity",
        scaleSource: "none",
        canBuffer: true,
        triggerName: nil,
        samplingFrequency: nil,
        availableFrequencies: [],
        hasTimestamp: false,
        warnings: []
    )

    /// A base accelerometer with the identity matrix.
    static let baseAccelerometer: Accelerometer = {
        var base = displayAccelerometer
        base.id = "iio:device1"
        base.location = .base
        return base
    }()
}

/// What the engine tells, as a test sees it: the events broadcast to generating connections (decoded).
final class RecordingOutput: EngineOutput {
    /// Every event broadcast, in order.
    var events: [OrientationEvent] = []
    /// Called with each event as it is broadcast (before the next one).
    var onEvent: (OrientationEvent) -> Void = { _ in }
    /// As the control socket's connections: only while someone generates do events reach anyone.
    func deliver(_ line: [UInt8], to generation: GenerationCounter) {
        guard generation.isGenerating else { return }
        guard case .event(let event) = try? ServerMessage.decode(line) else {
            Issue.record("not an event: \(String(decoding: line, as: UTF8.self))")
            return
        }
        events.append(event)
        onEvent(event)
    }

    func stateChanged(to published: PublishedState) {}
    func tiltChanged(to tilt: DeviceTilt) {}
}

/// An engine put together as the daemon does it, with fake sensors, a real state store in a temporary directory,
/// an output that records the events it broadcasts, and a virtual clock for its timers and next turns.
final class EngineRig {
    let engine: Engine
    let sensor: FakeSensor
    let requests: ControlRequests
    let output = RecordingOutput()
    /// The engine's timers (the rotation suggestion's) and next turns (the virtual switch's claim), on a virtual clock.
    let scheduler = VirtualScheduler()
    let sensorFactory: FakeSensorFactory
    /// Every event broadcast, in order.
    var events: [OrientationEvent] {
        get { output.events }
        set { output.events = newValue }
    }
    /// Called with each event as it is broadcast (before the next one).
    var onEvent: (OrientationEvent) -> Void {
        get { output.onEvent }
        set { output.onEvent = newValue }
    }
    private var time = 0.0
    static let root = PeerCredentials(processID: 1, userID: 0, groupID: 0)
    static let nobody = PeerCredentials(processID: 2, userID: 65534, groupID: 65534)

    init(
        settings: DaemonSettings = DaemonSettings(),
        stateDirectory: String,
        sensor: FakeSensor = FakeSensor(accelerometer: FakeSensor.displayAccelerometer),
        baseSensor: FakeSensor? = nil,
        virtualSwitch: DaemonSettings.VirtualTabletSwitchMode = .no,
        log: RecordingLog = RecordingLog()
    ) throws {
        sensorFactory = FakeSensorFactory(display: sensor, base: baseSensor)
        var settings = settings
        settings.virtualTabletSwitch = virtualSwitch
        engine = try Engine(
            settings: settings,
            store: StateStore(directory: stateDirectory, logger: log.logger),
            logger: log.logger,
            output: output,
            scheduler: scheduler,
            sensorFactory: sensorFactory
        )
        self.sensor = sensor
        requests = ControlRequests(
            engine: engine,
            authorizer: Authorizer(group: nil, seatUsers: false, logger: log.logger),
            logger: log.logger
        )
    }

    /// The seconds the rotation suggestion's timer runs for now; nil while it is off.
    var suggestionSeconds: Double? { scheduler.timers.first?.remaining }
    /// How many times the engine set or turned off the suggestion's timer.
    var suggestionTimings: Int { scheduler.timers.first?.settings ?? 0 }

    /// The events broadcast since the last call.
    func takeEvents() -> [OrientationEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Sends a request line from `client` (root unless `peer` says otherwise); the reply line, and the events
    /// broadcast after it (those from before are dropped).
    @discardableResult
    func request(
        _ json: String,
        from client: ClientID,
        peer: PeerCredentials? = EngineRig.root
    ) -> (reply: String, events: [OrientationEvent]) {
        guard case .request(let request) = RequestDecoder.decode(Array(json.utf8)) else {
            Issue.record("not a request: \(json)")
            return ("", [])
        }
        var reply: [UInt8] = []
        let before = events.count
        var eventsBeforeReply = 0
        requests.respond(to: request, from: client, peer: peer) { line in
            reply = line
            eventsBeforeReply = events.count - before
        }
        #expect(eventsBeforeReply == 0, "no event goes out before the reply")
        let caused = Array(events[before...])
        events.removeAll()
        return (String(decoding: reply, as: UTF8.self), caused)
    }

    /// `client` begins, the device is held upright (landscape-right), and the events so far are dropped.
    func beginUpright(_ client: ClientID) {
        request(#"{"id":0,"method":"begin"}"#, from: client)
        hold(Self.upright)
        events.removeAll()
    }

    /// Holds the device still with gravity along `direction` (unit vector, m/s² scaled) for `seconds` at 50 Hz.
    func hold(_ direction: Vector3, for seconds: Double = 2) {
        for _ in 0..<Int(seconds * 50) {
            time += 0.02
            engine.handle(
                Sample(time: time, x: direction.x * 9.81, y: direction.y * 9.81, z: direction.z * 9.81)
            )
        }
    }

    /// Holds a two-accelerometer convertible still at a hinge angle for `seconds`, display and base at 50 Hz: the
    /// base flat on a table, the lid opened to `degrees` (HingeAngle's convention), both turned by `turn` degrees
    /// about the hinge (the whole machine tilted). The base reads in systemd's frame (flat, keyboard up: (0, 0, −g)).
    /// The base's samples go to the engine only with a base sensor.
    func holdHinge(at degrees: Double, turn: Double = 0, for seconds: Double = 1) {
        let g = 9.81
        func reading(_ alpha: Double) -> (Double, Double) {
            let radians = alpha * .pi / 180
            return (g * sin(radians), g * cos(radians))
        }
        let (baseY, baseZ) = reading(turn + 180)
        let (displayY, displayZ) = reading(degrees + 180 + turn)
        for _ in 0..<Int(seconds * 50) {
            time += 0.02
            engine.handleBase(Sample(time: time, x: 0, y: baseY, z: baseZ))
            engine.handle(Sample(time: time + 0.001, x: 0, y: displayY, z: displayZ))
        }
    }

    /// Upright in its natural position (landscape: gravity down the panel's y axis).
    static let upright = Vector3(x: 0, y: -1, z: 0)
    /// Turned a quarter clockwise, the left side up.
    static let leftUp = Vector3(x: 1, y: 0, z: 0)
}
