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

import Foundation
import Glibc
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// `[DBus] Compat=yes`: orientd as iio-sensor-proxy on a private system bus, read by `gdbus`, an sd-bus client
    /// and iio-sensor-proxy's own `monitor-sensor`, with the emulated accelerometer turned under them.
    @Suite struct SensorProxyTests {
        static let destination = [
            "--system", "--dest", "net.hadess.SensorProxy", "--object-path", "/net/hadess/SensorProxy",
        ]

        /// A daemon with Compat on, on a private bus, over an emulated accelerometer.
        struct Setup {
            let fixture: AccelerometerFixture
            let testbed = Testbed()
            let bus: PrivateSystemBus
            /// The real polkitd on the bus, when asked for.
            let polkit: PrivatePolkit?
            let daemon: RunningDaemon
            var feed: AccelerometerFeed

            /// - Parameter claimUsers: `[DBus] ClaimUsers=`; `nobody` by default, the user that `monitor-sensor`
            ///   runs as in these tests, without a session.
            /// - Parameters:
            ///   - fixture: the emulated accelerometer.
            ///   - arguments: the daemon's command-line options.
            ///   - polkitRules: the site's polkit rules, to run the real polkitd (``PrivatePolkit``) with; nil: no
            ///     polkit on the bus.
            init(
                policy: Bool = true,
                polkitRules: String? = nil,
                claimUsers: String = "nobody",
                extraConfiguration: String = "",
                fixture: AccelerometerFixture = AccelerometerFixture(),
                arguments: [String] = RunningDaemon.defaultArguments
            ) async throws {
                self.fixture = fixture
                try testbed.add(fixture.description)
                bus = try await PrivateSystemBus(
                    testbed: testbed,
                    policy: policy,
                    otherPolicies: polkitRules == nil ? [] : [PrivatePolkit.busPolicy]
                )
                if let polkitRules {
                    polkit = try await PrivatePolkit(bus: bus, testbed: testbed, rules: polkitRules)
                } else {
                    polkit = nil
                }
                daemon = try await bus.daemon(
                    testbed: testbed,
                    configuration: "[DBus]\nCompat=yes\nClaimUsers=\(claimUsers)\n\(extraConfiguration)",
                    arguments: arguments
                )
                feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            }

            /// Everything to show when a wait fails.
            var report: String {
                "\(daemon.process.report)\n\(bus.process.report)" + (polkit.map { "\n\($0.process.report)" } ?? "")
            }

            func property(_ name: String) async throws -> String {
                try await bus.property(name, testbed: testbed)
            }

            @discardableResult
            func waitFor(
                _ name: String,
                _ value: String,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws -> Bool {
                try await bus.waitForProperty(
                    name,
                    value,
                    testbed: testbed,
                    context: report,
                    sourceLocation: sourceLocation
                )
            }

            /// `ClaimAccelerometer` by `client`, with the device held in `posture` once the claim has started the sensor:
            /// the claim is answered at the first reading. Records a failure if the reply does not come.
            mutating func claimAccelerometer(
                _ client: BusClient,
                holding posture: Posture = .normal,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws {
                let claim = try client.send("ClaimAccelerometer")
                #expect(await daemon.waitForBufferEnable("1", fixture), sourceLocation: sourceLocation)
                try feed.hold(posture)
                let reply = try await client.waitForReply(to: claim)
                #expect(reply == "", "the claim's reply: \(reply ?? "none")\n\(report)", sourceLocation: sourceLocation)
            }

            func orientctl(_ arguments: [String]) async throws -> ChildProcess {
                let child = try ChildProcess.orientctl(
                    ["--socket", daemon.sandbox.socketPath] + arguments,
                    testbed: testbed
                )
                await child.wait()
                return child
            }
        }

        @Test func propertiesClaimsLockAndSignals() async throws {
            var setup = try await Setup()
            let bus = setup.bus
            let all = try await bus.gdbus(
                ["call"] + Self.destination + [
                    "--method", "org.freedesktop.DBus.Properties.GetAll", "net.hadess.SensorProxy",
                ],
                testbed: setup.testbed
            )
            #expect(all.exitStatus == .exited(0), "\(all.report)")
            for expected in [
                "'HasAccelerometer': <true>", "'AccelerometerOrientation': <'undefined'>",
                "'AccelerometerTilt': <'undefined'>", "'HasAmbientLight': <false>", "'HasProximity': <false>",
            ] {
                #expect(all.outputText.contains(expected), "\(expected) in \(all.outputText)")
            }
            let compass = try await bus.gdbus(
                [
                    "call", "--system", "--dest", "net.hadess.SensorProxy", "--object-path",
                    "/net/hadess/SensorProxy/Compass", "--method", "org.freedesktop.DBus.Properties.Get",
                    "net.hadess.SensorProxy.Compass", "HasCompass",
                ],
                testbed: setup.testbed
            )
            #expect(compass.outputText.contains("<false>"), "\(compass.report)")

            // A claim starts the sensor; a second claim by the same client is no second count. The claimant gets
            // the readings' PropertiesChanged signals.
            let client = try BusClient(address: bus.address)
            try client.collectPropertyChanges(broadcast: false)
            #expect(setup.daemon.bufferEnable(setup.fixture) == "0")
            try await setup.claimAccelerometer(client)
            try client.call("ClaimAccelerometer")
            try client.call("ClaimLight")
            try client.call("ClaimProximity")
            let status = try await setup.daemon.connect().call("status")
            #expect(status.result?["generation_total"]?.integer == 1, "\(status)")
            let claimants = status.result?["bus"]?["clients"]?.array ?? []
            #expect(claimants.map { $0["name"]?.string } == [client.uniqueName], "\(status)")
            #expect(status.result?["bus"]?["owned"]?.bool == true, "\(status)")

            let text = try await setup.orientctl(["status"])
            #expect(
                text.outputText.contains("net.hadess.SensorProxy owned, 1 bus client claiming"),
                "\(text.report)"
            )
            #expect(
                text.outputLines.contains {
                    // Claims of sensors that are not there are kept, so that they start when they appear.
                    $0.hasPrefix("  \(client.uniqueName):") && $0.contains(" accelerometer, light, proximity (")
                        && $0.contains("pid \(getpid())")
                },
                "\(text.report)"
            )

            // Turning the device changes AccelerometerOrientation, with a PropertiesChanged signal.
            try setup.feed.hold(.normal)
            try await setup.waitFor("AccelerometerOrientation", "<'normal'>")
            try await setup.waitFor("AccelerometerTilt", "<'vertical'>")
            try setup.feed.hold(.leftUp)
            try await setup.waitFor("AccelerometerOrientation", "<'left-up'>")
            try setup.feed.hold(.bottomUp)
            try await setup.waitFor("AccelerometerOrientation", "<'bottom-up'>")
            #expect(
                try await client.waitForPropertyChanges { $0.joined().contains("AccelerometerOrientation=bottom-up") },
                "PropertiesChanged to bottom-up: \(client.propertyChanges)"
            )
            let signals = client.propertyChanges.joined()
            for pose in ["normal", "left-up", "bottom-up"] {
                #expect(signals.contains("AccelerometerOrientation=\(pose)"), "\(signals)")
            }
            #expect(signals.contains("AccelerometerTilt=vertical"), "\(signals)")

            // The tilt: leaning back and forward at 45°, then lying face up and face down.
            let lean = Int64(707)
            try setup.feed.hold(reading: AxisValues(x: 0, y: -lean, z: lean))
            try await setup.waitFor("AccelerometerTilt", "<'tilted-up'>")
            #expect(try await setup.property("AccelerometerOrientation") == "<'normal'>")
            try setup.feed.hold(reading: AxisValues(x: 0, y: -lean, z: -lean))
            try await setup.waitFor("AccelerometerTilt", "<'tilted-down'>")
            try setup.feed.hold(.faceUp)
            try await setup.waitFor("AccelerometerTilt", "<'face-up'>")
            try setup.feed.hold(.faceDown)
            try await setup.waitFor("AccelerometerTilt", "<'face-down'>")
            #expect(try await setup.property("AccelerometerOrientation") == "<'normal'>", "face states keep the pose")
            try setup.feed.hold(.normal)
            try await setup.waitFor("AccelerometerTilt", "<'vertical'>")

            // A lock is obeyed: the pose of the locked interface orientation, while the device stays in its own.
            let lock = try await setup.orientctl(["lock", "portrait"])
            #expect(lock.exitStatus == .exited(0), "\(lock.report)")
            try await setup.waitFor("AccelerometerOrientation", "<'left-up'>")
            #expect(
                try await client.waitForPropertyChanges {
                    $0.joined().last { $0.hasPrefix("AccelerometerOrientation=") } == "AccelerometerOrientation=left-up"
                },
                "PropertiesChanged to left-up after the lock: \(client.propertyChanges)"
            )
            try setup.feed.hold(.bottomUp)
            try await setup.waitFor("AccelerometerTilt", "<'vertical'>")
            #expect(try await setup.property("AccelerometerOrientation") == "<'left-up'>")
            _ = try await setup.orientctl(["unlock"])
            try await setup.waitFor("AccelerometerOrientation", "<'bottom-up'>")

            // Releasing stops the sensor.
            try client.call("ReleaseAccelerometer")
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture))
            try client.call("ReleaseAccelerometer")
            let after = try await setup.daemon.connect().call("status")
            #expect(after.result?["generation_total"]?.integer == 0, "\(after)")
            let remaining = after.result?["bus"]?["clients"]?.array?.first?["claims"]?.array?.compactMap { $0.string }
            #expect(remaining == ["light", "proximity"], "\(after)")
            try client.call("ReleaseLight")
            try client.call("ReleaseProximity")
            let released = try await setup.daemon.connect().call("status")
            #expect(released.result?["bus"]?["clients"]?.array?.isEmpty == true, "\(released)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// As iio-sensor-proxy: a reading's PropertiesChanged goes to the clients that claim the sensor, not to a
        /// client that only watches.
        @Test func readingsAreSignalledOnlyToClaimants() async throws {
            var setup = try await Setup()
            let watcher = try BusClient(address: setup.bus.address)
            try watcher.collectPropertyChanges(broadcast: true)
            let claimant = try BusClient(address: setup.bus.address)
            try claimant.collectPropertyChanges(broadcast: false)
            try await setup.claimAccelerometer(claimant, holding: .leftUp)
            #expect(
                try await claimant.waitForPropertyChanges { $0.joined().contains("AccelerometerOrientation=left-up") },
                "the claimant gets the reading: \(claimant.propertyChanges)\n\(setup.report)"
            )
            // The bus keeps the order of one sender's messages: once the watcher has the reply to a call made
            // after the signal went out, a broadcast of it would have been received before.
            try watcher.call("ReleaseAccelerometer")
            _ = try await watcher.waitForPropertyChanges(timeout: .zero) { _ in false }
            #expect(
                !watcher.propertyChanges.joined().contains { $0.hasPrefix("AccelerometerOrientation=") },
                "\(watcher.propertyChanges)"
            )
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aClaimantThatLeavesTheBusReleasesItsClaim() async throws {
            var setup = try await Setup()
            // A desktop claims as its own user, not as root.
            let monitor = try setup.bus.start("monitor-sensor", [], testbed: setup.testbed, user: 65534)
            #expect(await setup.daemon.waitForBufferEnable("1", setup.fixture), "\(monitor.report)")
            kill(monitor.pid, SIGKILL)
            #expect(await monitor.wait() == .signalled(SIGKILL))
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture), "\(setup.report)")

            // Two clients: the sensor runs until the last one has gone.
            var first: BusClient? = try BusClient(address: setup.bus.address)
            let second = try BusClient(address: setup.bus.address)
            try await setup.claimAccelerometer(first!)
            try second.call("ClaimAccelerometer")
            first = nil
            let connection = try setup.daemon.connect()
            var total: Int?
            for _ in 0..<500 {
                total = try await connection.call("status").result?["generation_total"]?.integer
                if total == 1 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(total == 1, "the first client's claim went with it\n\(setup.report)")
            #expect(setup.daemon.bufferEnable(setup.fixture) == "1")
            try second.call("ReleaseAccelerometer")
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture))
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func hasAccelerometerFollowsHotplugWhileNobodyClaims() async throws {
            let testbed = Testbed()
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let context = "\(daemon.process.report)\n\(bus.process.report)"
            let monitor = try await bus.monitor(Self.destination, testbed: testbed)
            #expect(try await bus.property("HasAccelerometer", testbed: testbed) == "<false>")
            #expect(await daemon.process.waitUntil("its udev monitor listens") { testbed.monitorCount >= 1 })

            let fixture = AccelerometerFixture()
            try testbed.add(fixture.description, announce: true)
            try await bus.waitForProperty("HasAccelerometer", "<true>", testbed: testbed, context: context)
            #expect(
                await monitor.waitUntil("PropertiesChanged for the new accelerometer") {
                    Self.signals(in: monitor).contains("'HasAccelerometer': <true>")
                }
            )
            #expect(daemon.bufferEnable(fixture) == "0", "nobody claims: the sensor stays stopped")
            try testbed.removeDevice(fixture.syspath, announce: true)
            try await bus.waitForProperty("HasAccelerometer", "<false>", testbed: testbed, context: context)
            monitor.terminate()
            #expect(await daemon.stop() == .exited(0))
        }

        /// A driver that indexes its accelerometer channels (`in_accel0_x_raw`), polled as iio-sensor-proxy's
        /// test_iio_poll_accel polls its accelerometer: undefined before the claim, the pose after it, and turns
        /// followed.
        @Test func anAccelerometerWithIndexedChannels() async throws {
            var fixture = AccelerometerFixture()
            fixture.capture = .pollOnly
            fixture.channelIndex = 0
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let context = "\(daemon.process.report)\n\(bus.process.report)"
            #expect(try await bus.property("HasAccelerometer", testbed: testbed) == "<true>", "\(context)")
            #expect(try await bus.property("AccelerometerOrientation", testbed: testbed) == "<'undefined'>")
            let client = try BusClient(address: bus.address)
            try client.call("ClaimAccelerometer")
            #expect(try await bus.property("AccelerometerOrientation", testbed: testbed) == "<'normal'>", "\(context)")
            try testbed.replaceAttribute(fixture.syspath, "in_accel0_x_raw", "-1000")
            try testbed.replaceAttribute(fixture.syspath, "in_accel0_y_raw", "0")
            try await bus.waitForProperty(
                "AccelerometerOrientation",
                "<'right-up'>",
                testbed: testbed,
                context: context
            )
            #expect(await daemon.stop() == .exited(0))
        }

        @Test func theBusGoingAwayEndsEveryClaim() async throws {
            var setup = try await Setup()
            let client = try BusClient(address: setup.bus.address)
            try await setup.claimAccelerometer(client)
            setup.bus.process.terminate()
            await setup.bus.process.wait()
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture), "\(setup.report)")
            let connection = try setup.daemon.connect()
            let status = try await connection.call("status")
            #expect(status.result?["bus"]?["owned"]?.bool == false, "\(status)")
            #expect(status.result?["bus"]?["problem"]?.string?.contains("disconnected") == true, "\(status)")
            #expect(status.result?["bus"]?["clients"]?.array?.isEmpty == true, "\(status)")
            _ = try await connection.call("begin")
            #expect(await setup.daemon.waitForBufferEnable("1", setup.fixture))
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func monitorSensorFollowsTheTurningDevice() async throws {
            var setup = try await Setup()
            let monitor = try setup.bus.start("monitor-sensor", [], testbed: setup.testbed)
            // Its claim starts the sensor and is answered at the first reading, whose PropertiesChanged comes before
            // the reply. It prints the values its proxy holds once its claims return: those of its GetAll before
            // the claim (this version's synchronous calls leave the signal queued until it prints), then the pose.
            #expect(await setup.daemon.waitForBufferEnable("1", setup.fixture), "\(monitor.report)")
            try setup.feed.hold(.rightUp)
            let changes = { monitor.outputLines.filter { $0.contains("Accelerometer orientation changed") } }
            #expect(
                await monitor.waitUntil("it sees the accelerometer in its pose") {
                    monitor.outputText.contains("=== Has accelerometer (orientation: right-up")
                        || (monitor.outputText.contains("=== Has accelerometer (orientation: undefined")
                            && changes().first?.hasSuffix("changed: right-up") == true)
                },
                "\(monitor.report)\n\(setup.report)"
            )
            let before = changes().count
            for (posture, pose) in [
                (Posture.normal, "normal"), (.leftUp, "left-up"), (.bottomUp, "bottom-up"), (.rightUp, "right-up"),
                (.normal, "normal"),
            ] {
                try setup.feed.hold(posture)
                #expect(
                    await monitor.waitUntil("monitor-sensor prints \(pose)") {
                        monitor.outputLines.last?.trimmingCharacters(in: .whitespaces)
                            == "Accelerometer orientation changed: \(pose)"
                    }
                )
            }
            #expect(changes().count - before == 5, "one line per turn: \(monitor.outputText)")
            // Newer clients also print the tilt; this one (iio-sensor-proxy 3.0) knows only the orientation.
            if monitor.outputText.localizedCaseInsensitiveContains("tilt") {
                #expect(monitor.outputText.contains("vertical"), "\(monitor.outputText)")
            }
            monitor.interrupt()
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture), "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// Why the daemon cannot own the name.
        enum BusFailure: String, CaseIterable, CustomTestStringConvertible {
            /// The bus policy lacks net.hadess.SensorProxy.conf: root may not own the name.
            case policyDenies
            /// Another program owns the name first.
            case nameTaken
            /// There is no bus at the address.
            case noBus

            var testDescription: String { rawValue }

            /// What the daemon's log and `status` say.
            var message: String {
                switch self {
                case .policyDenies: "the bus policy does not let this user own the name"
                case .nameTaken: "another program owns the name"
                case .noBus: "the bus is not reachable"
                }
            }
        }

        @Test(arguments: BusFailure.allCases)
        func withoutTheNameTheSocketKeepsServing(failure: BusFailure) async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let bus = try await PrivateSystemBus(testbed: testbed, policy: failure != .policyDenies)
            let squatter = try BusClient(address: bus.address)
            if failure == .nameTaken { try squatter.requestName("net.hadess.SensorProxy") }
            let sandbox = try DaemonSandbox()
            let configuration = sandbox.directory + "/orientd.conf"
            try "[DBus]\nCompat=yes\n".write(toFile: configuration, atomically: true, encoding: .utf8)
            let environment =
                failure == .noBus
                ? ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(sandbox.directory)/no-bus-here"] : bus.environment
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: RunningDaemon.defaultArguments + ["--config", configuration],
                environment: environment
            )
            #expect(
                await daemon.process.waitUntil("it logs why") { daemon.process.errorText.contains(failure.message) }
            )
            let connection = try daemon.connect()
            let status = try await connection.call("status")
            #expect(status.result?["bus"]?["owned"]?.bool == false, "\(status)")
            #expect(status.result?["bus"]?["problem"]?.string?.contains(failure.message) == true, "\(status)")
            // The socket's clients are served as ever.
            _ = try await connection.call("begin")
            #expect(await daemon.waitForBufferEnable("1", fixture))
            #expect(await daemon.stop() == .exited(0))
        }

        /// The PropertiesChanged lines that `gdbus monitor` printed so far.
        static func signals(in monitor: ChildProcess) -> String {
            monitor.outputLines.filter { $0.contains("PropertiesChanged") }.joined(separator: "\n")
        }
    }
}
