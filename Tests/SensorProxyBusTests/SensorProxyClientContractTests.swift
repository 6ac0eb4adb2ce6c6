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
    /// What clients of iio-sensor-proxy rely on, sensor by sensor: a claim answered once the first reading is in,
    /// an orientation that never goes back to `undefined`, claims counted per bus client, readings signalled only to
    /// claimants, and `GetAll` and introspection as complete as iio-sensor-proxy's.
    @Suite struct SensorProxyClientContractTests {
        typealias Setup = SensorProxyTests.Setup

        /// The daemon's options with the shipped `PollFallbackSec=` (2 s) instead of the tests' 10 s: the wait of a
        /// claim and the handling of a stalled sensor take their real time.
        static let shippedPollFallback = ["--rate", "50", "--poll-fallback-sec", "2"]

        /// A sensor of the API: its claim and release methods, its object, and a property its readings change.
        enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
            case accelerometer
            case light
            case proximity
            case compass

            var testDescription: String { rawValue }
            var claim: String { "Claim\(rawValue.prefix(1).uppercased())\(rawValue.dropFirst())" }
            var release: String { "Release\(rawValue.prefix(1).uppercased())\(rawValue.dropFirst())" }
            var interface: String { self == .compass ? "net.hadess.SensorProxy.Compass" : "net.hadess.SensorProxy" }
            var path: String { self == .compass ? "/net/hadess/SensorProxy/Compass" : "/net/hadess/SensorProxy" }
            /// The properties whose changes go only to claimants.
            var readings: [String] {
                switch self {
                case .accelerometer: ["AccelerometerOrientation", "AccelerometerTilt"]
                case .light: ["LightLevel", "LightLevelUnit"]
                case .proximity: ["ProximityNear"]
                case .compass: ["CompassHeading"]
                }
            }
        }

        /// The polled sensors' emulated devices: a HID sensor hub's light sensor (raw 2000: 200 lux), a proximity
        /// sensor with a near level of 100 (raw 500: near) and a HID compass (raw 900: 90°).
        static let als = PolledSensorFixture.hidSensorALS(raw: 2000)
        static let proximity = PolledSensorFixture.proximitySensor(raw: 500, nearLevel: 100)
        static let magnetometer = PolledSensorFixture.hidSensorMagn3D(heading: 900)

        /// The bus clients `status` lists, with what each claims.
        static func claimants(_ setup: Setup) async throws -> [String: [String]] {
            let status = try await setup.daemon.connect().call("status")
            var result: [String: [String]] = [:]
            for client in status.result?["bus"]?["clients"]?.array ?? [] {
                guard let name = client["name"]?.string else { continue }
                result[name] = client["claims"]?.array?.compactMap { $0.string } ?? []
            }
            return result
        }

        /// Waits until `status` lists `expected` as the bus clients' claims; records a failure if it does not.
        static func waitForClaimants(
            _ expected: [String: [String]],
            _ setup: Setup,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            var last: [String: [String]] = [:]
            for _ in 0..<250 {
                last = try await claimants(setup)
                if last == expected { return }
                try await Task.sleep(for: .milliseconds(20))
            }
            Issue.record("bus clients: \(last), not \(expected)\n\(setup.report)", sourceLocation: sourceLocation)
        }

        // MARK: A claim answered once the first reading is in

        @Test func anAccelerometerClaimIsAnsweredOnceTheFirstReadingIsIn() async throws {
            var setup = try await Setup()
            let client = try BusClient(address: setup.bus.address)
            let claim = try client.send("ClaimAccelerometer")
            #expect(await setup.daemon.waitForBufferEnable("1", setup.fixture), "\(setup.report)")
            // The sensor runs but has delivered nothing yet: the claim waits.
            _ = try await client.waitForReply(to: claim, timeout: .milliseconds(300))
            #expect(client.replies[claim] == nil, "answered before the first reading: \(client.replies)")

            // The device lies in portrait, its left edge up: the reply comes with the first reading, and the
            // property read right after it (on the same connection, so after the reply on the daemon's side too)
            // is the pose.
            try setup.feed.hold(.leftUp)
            #expect(try await client.waitForReply(to: claim) == "", "\(setup.report)")
            #expect(try client.stringProperty("AccelerometerOrientation") == "left-up", "\(setup.report)")
            #expect(try client.stringProperty("AccelerometerTilt") == "vertical", "\(setup.report)")

            // A second client, with the sensor running and its pose known, is answered at once.
            let second = try BusClient(address: setup.bus.address)
            let again = try second.send("ClaimAccelerometer")
            #expect(try await second.waitForReply(to: again, timeout: .seconds(2)) == "", "\(setup.report)")
            #expect(try second.stringProperty("AccelerometerOrientation") == "left-up")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aClaimWithoutAnAccelerometerIsAnsweredAtOnce() async throws {
            let testbed = Testbed()
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let client = try BusClient(address: bus.address)
            // Well before the wait's bound (the tests' PollFallbackSec= of 10 s and one more).
            for kind in Kind.allCases {
                let claim = try client.send(kind.claim, interface: kind.interface, path: kind.path)
                let reply = try await client.waitForReply(to: claim, timeout: .seconds(5))
                #expect(reply == "", "\(kind.claim): \(reply ?? "no reply within 5 s")\n\(daemon.process.report)")
            }
            #expect(try client.stringProperty("AccelerometerOrientation") == "undefined")
            #expect(await daemon.stop() == .exited(0))
        }

        @Test func aClaimOfAnAccelerometerThatNeverReadsIsAnsweredAfterABoundedWait() async throws {
            // Its buffer delivers nothing and its attributes read 0 on every axis (no reading at all).
            var fixture = AccelerometerFixture()
            fixture.raw = AxisValues(x: 0, y: 0, z: 0)
            let setup = try await Setup(fixture: fixture, arguments: Self.shippedPollFallback)
            let client = try BusClient(address: setup.bus.address)
            let claim = try client.send("ClaimAccelerometer")
            // The wait covers the fall back to polling (after PollFallbackSec=, 2 s), then gives up: the caller gets
            // its reply, well within a D-Bus client's own timeout, and the claim holds.
            let reply = try await client.waitForReply(to: claim, timeout: .seconds(20))
            #expect(reply == "", "\(reply ?? "no reply")\n\(setup.report)")
            #expect(
                setup.daemon.process.errorText.contains("the buffer does not deliver: polling instead"),
                "answered before the sensor was polled\n\(setup.report)"
            )
            #expect(try client.stringProperty("AccelerometerOrientation") == "undefined")
            let status = try await setup.daemon.connect().call("status")
            #expect(status.result?["generation_total"]?.integer == 1, "\(status)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// The polled sensors are read by their first claim before it is answered.
        @Test(arguments: [Kind.light, .proximity, .compass])
        func aPolledSensorsClaimIsAnsweredWithItsReading(kind: Kind) async throws {
            let setup = try await SensorProxyLightTests.Setup(devices: [Self.als, Self.proximity, Self.magnetometer])
            let client = try BusClient(address: setup.bus.address)
            try client.call(kind.claim, interface: kind.interface, path: kind.path)
            let (property, expected) =
                switch kind {
                case .light: ("LightLevel", "<200.0>")
                case .proximity: ("ProximityNear", "<true>")
                default: ("CompassHeading", "<90.0>")
                }
            let value =
                kind == .compass
                ? try await SensorProxyProximityCompassTests.compassProperty(property, setup: setup)
                : try await setup.bus.property(property, testbed: setup.testbed)
            #expect(value == expected, "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        // MARK: The orientation never goes back to undefined

        @Test func theOrientationNeverGoesBackToUndefined() async throws {
            // Its attributes read 0: once the buffer stalls, polling it reads nothing either.
            var fixture = AccelerometerFixture()
            fixture.raw = AxisValues(x: 0, y: 0, z: 0)
            var setup = try await Setup(fixture: fixture, arguments: Self.shippedPollFallback)
            let client = try BusClient(address: setup.bus.address)
            try await setup.claimAccelerometer(client, holding: .leftUp)
            #expect(try client.stringProperty("AccelerometerOrientation") == "left-up")

            // Laid flat, face up: the pose stays (as iio-sensor-proxy's, which keeps the last one when flat).
            try setup.feed.hold(.faceUp)
            try await setup.waitFor("AccelerometerTilt", "<'face-up'>")
            #expect(try client.stringProperty("AccelerometerOrientation") == "left-up")

            // Released: the sensor stops, the last pose stays.
            try client.call("ReleaseAccelerometer")
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture))
            #expect(try client.stringProperty("AccelerometerOrientation") == "left-up")

            // Claimed again while it lies flat: answered at the first reading (face up), the pose still stays.
            let fallBack = "the buffer does not deliver: polling instead"
            let fallBacks = { setup.daemon.process.errorText.components(separatedBy: fallBack).count - 1 }
            let before = fallBacks()
            try await setup.claimAccelerometer(client, holding: .faceUp)
            #expect(try client.stringProperty("AccelerometerOrientation") == "left-up")
            #expect(try client.stringProperty("AccelerometerTilt") == "face-up")

            // The sensor stalls: its buffer goes silent, is enabled again, stays silent, and polling reads nothing.
            #expect(
                await setup.daemon.process.waitUntil("it polls the stalled sensor", timeout: .seconds(30)) {
                    fallBacks() > before
                },
                "\(setup.report)"
            )
            #expect(try client.stringProperty("AccelerometerOrientation") == "left-up")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        // MARK: GetAll and introspection

        /// iio-sensor-proxy's interfaces (its net.hadess.SensorProxy.xml): every property with its type, every
        /// method (none takes or returns anything); no signal of their own (`PropertiesChanged` is
        /// `org.freedesktop.DBus.Properties`'s).
        static let mainProperties = [
            "HasAccelerometer": "b", "AccelerometerOrientation": "s", "AccelerometerTilt": "s", "HasAmbientLight": "b",
            "LightLevelUnit": "s", "LightLevel": "d", "HasProximity": "b", "ProximityNear": "b",
        ]
        static let mainMethods: Set = [
            "ClaimAccelerometer", "ReleaseAccelerometer", "ClaimLight", "ReleaseLight", "ClaimProximity",
            "ReleaseProximity",
        ]
        static let compassProperties = ["HasCompass": "b", "CompassHeading": "d"]
        static let compassMethods: Set = ["ClaimCompass", "ReleaseCompass"]

        /// The members of each interface of an introspection document.
        struct Members: Equatable, CustomStringConvertible {
            var properties: [String: String] = [:]
            var access: Set<String> = []
            var methods: Set<String> = []
            var signals: Set<String> = []
            var arguments = 0
            var description: String { "properties \(properties) \(access), methods \(methods), signals \(signals)" }
        }

        static func members(of xml: String) -> [String: Members] {
            var interfaces: [String: Members] = [:]
            for chunk in xml.components(separatedBy: "<interface name=\"").dropFirst() {
                let name = String(chunk.prefix { $0 != "\"" })
                var members = Members()
                let body = chunk.components(separatedBy: "</interface>")[0]
                for match in body.matches(of: /<property name="([^"]+)" type="([^"]+)" access="([^"]+)"/) {
                    members.properties[String(match.1)] = String(match.2)
                    members.access.insert(String(match.3))
                }
                for match in body.matches(of: /<method name="([^"]+)"/) { members.methods.insert(String(match.1)) }
                for match in body.matches(of: /<signal name="([^"]+)"/) { members.signals.insert(String(match.1)) }
                members.arguments = body.matches(of: /<arg\s/).count
                interfaces[name] = members
            }
            return interfaces
        }

        @Test func getAllAndIntrospectionAreComplete() async throws {
            let setup = try await Setup()
            let client = try BusClient(address: setup.bus.address)
            #expect(try client.propertySignatures() == Self.mainProperties)
            #expect(
                try client.propertySignatures(
                    interface: "net.hadess.SensorProxy.Compass",
                    path: "/net/hadess/SensorProxy/Compass"
                ) == Self.compassProperties
            )

            for (path, interface, properties, methods) in [
                ("/net/hadess/SensorProxy", "net.hadess.SensorProxy", Self.mainProperties, Self.mainMethods),
                (
                    "/net/hadess/SensorProxy/Compass", "net.hadess.SensorProxy.Compass", Self.compassProperties,
                    Self.compassMethods
                ),
            ] {
                let introspection = try await setup.bus.gdbus(
                    ["introspect", "--xml", "--system", "--dest", "net.hadess.SensorProxy", "--object-path", path],
                    testbed: setup.testbed
                )
                #expect(introspection.exitStatus == .exited(0), "\(introspection.report)")
                let interfaces = Self.members(of: introspection.outputText)
                let own = interfaces[interface]
                #expect(own?.properties == properties, "\(introspection.outputText)")
                #expect(own?.access == ["read"], "\(introspection.outputText)")
                #expect(own?.methods == methods, "\(introspection.outputText)")
                #expect(own?.signals == [], "\(introspection.outputText)")
                #expect(own?.arguments == 0, "\(introspection.outputText)")
                // The standard interfaces a client uses: PropertiesChanged is a signal of the Properties interface.
                #expect(interfaces["org.freedesktop.DBus.Properties"]?.signals == ["PropertiesChanged"])
                #expect(
                    interfaces["org.freedesktop.DBus.Properties"]?.methods.isSuperset(of: ["Get", "GetAll"]) == true
                )
                #expect(interfaces["org.freedesktop.DBus.Introspectable"]?.methods == ["Introspect"])
                // Each object serves only its own interface of the API.
                let other = Set(["net.hadess.SensorProxy", "net.hadess.SensorProxy.Compass"]).subtracting([interface])
                #expect(other.allSatisfy { interfaces[$0] == nil }, "\(introspection.outputText)")
            }
            #expect(await setup.daemon.stop() == .exited(0))
        }

        // MARK: Claims counted per bus client

        /// As iio-sensor-proxy: one claim per client and sensor (a repeated claim is no second one), ended by one
        /// release, or by the client leaving the bus.
        @Test(arguments: Kind.allCases)
        func claimsAreCountedPerClientAndDroppedWhenItLeaves(kind: Kind) async throws {
            var setup = try await Setup()
            var client: BusClient? = try BusClient(address: setup.bus.address)
            let name = client!.uniqueName
            // The first claim of the accelerometer is answered at its first reading.
            func firstClaim(_ client: BusClient) async throws {
                if kind == .accelerometer {
                    try await setup.claimAccelerometer(client)
                } else {
                    try client.call(kind.claim, interface: kind.interface, path: kind.path)
                }
            }
            try await firstClaim(client!)
            try client!.call(kind.claim, interface: kind.interface, path: kind.path)
            try await Self.waitForClaimants([name: [kind.rawValue]], setup)
            if kind == .accelerometer {
                let status = try await setup.daemon.connect().call("status")
                #expect(status.result?["generation_total"]?.integer == 1, "\(status)")
            }
            // One release ends both claims.
            try client!.call(kind.release, interface: kind.interface, path: kind.path)
            try await Self.waitForClaimants([:], setup)
            if kind == .accelerometer {
                #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture))
            }
            // A release of what is not claimed changes nothing.
            try client!.call(kind.release, interface: kind.interface, path: kind.path)

            // Claimed by two clients, one of which leaves the bus without releasing.
            let other = try BusClient(address: setup.bus.address)
            try await firstClaim(client!)
            try other.call(kind.claim, interface: kind.interface, path: kind.path)
            try await Self.waitForClaimants([name: [kind.rawValue], other.uniqueName: [kind.rawValue]], setup)
            client = nil
            try await Self.waitForClaimants([other.uniqueName: [kind.rawValue]], setup)
            if kind == .accelerometer {
                #expect(setup.daemon.bufferEnable(setup.fixture) == "1", "the other client's claim keeps it running")
            }
            #expect(await setup.daemon.stop() == .exited(0))
        }

        // MARK: PropertiesChanged only to claimants

        @Test(arguments: [Kind.light, .proximity, .compass])
        func readingsAreSignalledOnlyToTheirClaimants(kind: Kind) async throws {
            let setup = try await SensorProxyLightTests.Setup(devices: [Self.als, Self.proximity, Self.magnetometer])
            let watcher = try BusClient(address: setup.bus.address)
            try watcher.collectPropertyChanges(broadcast: true)
            let claimant = try BusClient(address: setup.bus.address)
            try claimant.collectPropertyChanges(broadcast: false)
            // A client that claims another sensor gets none of this one's readings either.
            let neighbour = try BusClient(address: setup.bus.address)
            try neighbour.collectPropertyChanges(broadcast: false)
            let otherKind: Kind = kind == .light ? .proximity : .light
            try neighbour.call(otherKind.claim, interface: otherKind.interface, path: otherKind.path)

            try claimant.call(kind.claim, interface: kind.interface, path: kind.path)
            let (attribute, raw, change) =
                switch kind {
                case .light: (Self.als.syspath, ("in_illuminance_raw", "5000"), "LightLevel=500.0")
                case .proximity: (Self.proximity.syspath, ("in_proximity_raw", "10"), "ProximityNear=false")
                default:
                    (
                        Self.magnetometer.syspath, ("in_rot_from_north_magnetic_tilt_comp_raw", "2700"),
                        "CompassHeading=270.0"
                    )
                }
            try setup.testbed.replaceAttribute(attribute, raw.0, raw.1)
            #expect(
                try await claimant.waitForPropertyChanges { $0.joined().contains(change) },
                "the claimant gets \(change): \(claimant.propertyChanges)\n\(setup.report)"
            )
            // The bus keeps the order of one sender's messages: once the others have the replies to calls made
            // after the signal went out, a broadcast of it would have reached them before.
            for client in [watcher, neighbour] {
                try client.call(kind.release, interface: kind.interface, path: kind.path)
                _ = try await client.waitForPropertyChanges(timeout: .zero) { _ in false }
                let leaked = client.propertyChanges.joined().filter { pair in
                    kind.readings.contains { pair.hasPrefix("\($0)=") }
                }
                #expect(leaked.isEmpty, "\(client.uniqueName) got \(leaked)")
            }
            #expect(await setup.daemon.stop() == .exited(0))
        }

        // MARK: Refused claims

        @Test(arguments: [Kind.accelerometer, .light, .proximity])
        func aRefusedClaimGetsAccessDeniedAndAJournalLine(kind: Kind) async throws {
            let setup = try await Setup(claimUsers: "")
            let refused = try await SensorProxyClaimPolicyTests.claimAsNobody(setup, kind.claim)
            #expect(refused.exitStatus != .exited(0), "\(refused.report)")
            #expect(refused.errorText.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused.report)")
            #expect(
                await setup.daemon.process.waitUntil("it logs the refusal", timeout: .seconds(10)) {
                    setup.daemon.process.errorText.split(separator: "\n").contains {
                        $0.contains("sensor claim refused") && $0.contains(kind.rawValue) && $0.contains("65534")
                    }
                },
                "\(setup.report)"
            )
            #expect(try await Self.claimants(setup).isEmpty)
            #expect(await setup.daemon.stop() == .exited(0))
        }
        /// The compass's interface is closed by the bus policy to all but root and geoclue, as iio-sensor-proxy's
        /// (`SensorProxyProximityCompassTests.onlyRootAndGeoclueMayClaimTheCompass`); geoclue, let through by the
        /// bus, is refused by orientd when `ClaimUsers=` no longer lists it. The bus names uid 65534 geoclue here
        /// (nss_wrapper), orientd sees uid 65534 without a session.
        @Test func aRefusedCompassClaimGetsAccessDeniedAndAJournalLine() async throws {
            let names = try DaemonSandbox()
            // dbus-daemon needs its own user (root) too.
            try "root:x:0:0:root:/root:/bin/sh\ngeoclue:x:65534:65534:Geoclue:/:/bin/false\n".write(
                toFile: names.directory + "/passwd",
                atomically: true,
                encoding: .utf8
            )
            try "root:x:0:\ngeoclue:x:65534:\n".write(
                toFile: names.directory + "/group",
                atomically: true,
                encoding: .utf8
            )
            let testbed = Testbed()
            try testbed.add(Self.magnetometer.description)
            let bus = try await PrivateSystemBus(
                testbed: testbed,
                environment: [
                    "LD_PRELOAD": "libumockdev-preload.so.0:libnss_wrapper.so",
                    "NSS_WRAPPER_PASSWD": names.directory + "/passwd", "NSS_WRAPPER_GROUP": names.directory + "/group",
                ]
            )
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\nClaimUsers=\n")
            let refused = try await bus.gdbus(
                ["call"] + SensorProxyProximityCompassTests.compass + [
                    "--method", "net.hadess.SensorProxy.Compass.ClaimCompass",
                ],
                testbed: testbed,
                user: 65534
            )
            #expect(refused.exitStatus != .exited(0), "\(refused.report)")
            #expect(refused.errorText.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused.report)")
            // orientd's refusal, not the bus's: it says what to do.
            #expect(refused.errorText.contains("ClaimUsers="), "\(refused.report)\n\(bus.process.report)")
            #expect(
                await daemon.process.waitUntil("it logs the refusal", timeout: .seconds(10)) {
                    daemon.process.errorText.split(separator: "\n").contains {
                        $0.contains("sensor claim refused") && $0.contains("compass") && $0.contains("65534")
                    }
                },
                "\(daemon.process.report)"
            )
            let status = try await daemon.connect().call("status")
            #expect(status.result?["bus"]?["clients"]?.array?.isEmpty == true, "\(status)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
