import Foundation
import Testing

extension EmulatedDeviceTests {
    /// `IdleRate=` in poll mode: the daemon polls slowly while the device is still and settled, at the full rate
    /// from the first sample that moves, and a turn is decided with the idle rate on and off.
    @Suite struct DaemonPaceTests {
        /// A daemon polling a poll-only accelerometer at 50 Hz with `IdleRate=idleRate`, generating for one client
        /// that has seen the first orientation (landscape-left).
        static func polling(idleRate: String, testbed: Testbed) async throws -> (RunningDaemon, DaemonConnection) {
            var fixture = AccelerometerFixture()
            fixture.capture = .pollOnly
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let config = sandbox.directory + "/orientd.conf"
            try "[Sensor]\nRate=50\nIdleRate=\(idleRate)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: ["--poll-fallback-sec", "10", "--config", config]
            )
            let client = try daemon.connect()
            _ = try await client.call("begin")
            let first = try await client.events(until: "the first orientation") { $0.event == "device" }
            #expect(first.last?.state?["device"]?.string == "landscape-left", "\(first)")
            return (daemon, client)
        }

        /// The samples the daemon reads in `seconds` (`status` → `sensor.samples_read`, before and after).
        static func samplesRead(in seconds: Double, via connection: DaemonConnection) async throws -> Int {
            let read = { () async throws -> Int in
                try await connection.call("status").result?["sensor"]?["samples_read"]?.integer ?? -1
            }
            let before = try await read()
            try await Task.sleep(for: .seconds(seconds))
            return try await read() - before
        }

        /// Still for a second and a half, then 2 s at 2 Hz (4 samples; 100 at the full rate); a turn is read at the
        /// full rate from its first sample (25 samples in the half second after it is decided; 1 at 2 Hz).
        @Test func pollingSlowsWhileStillAndReturnsOnMotion() async throws {
            let testbed = Testbed()
            let (daemon, client) = try await Self.polling(idleRate: "2", testbed: testbed)
            let fixture = AccelerometerFixture()
            try await Task.sleep(for: .seconds(1.5))
            let still = try await Self.samplesRead(in: 2, via: client)
            #expect(still >= 1 && still <= 12, "2 Hz while still: \(still) samples in 2 s")

            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "1000")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let turned = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(turned.last?.event == "device" || turned.last?.event == "interface", "\(turned)")
            let moving = try await Self.samplesRead(in: 0.5, via: client)
            #expect(moving >= 10, "50 Hz after the turn began: \(moving) samples in 0.5 s")
            #expect(await daemon.stop() == .exited(0))
        }

        /// With `IdleRate=` equal to `Rate=` nothing slows down; with the idle rate on or off, a turn after a still
        /// spell is decided.
        @Test(arguments: [("2", false), ("50", true)])
        func aTurnAfterAStillSpellIsDecided(idleRate: String, fullWhileStill: Bool) async throws {
            let testbed = Testbed()
            let (daemon, client) = try await Self.polling(idleRate: idleRate, testbed: testbed)
            let fixture = AccelerometerFixture()
            try await Task.sleep(for: .seconds(1.5))
            let still = try await Self.samplesRead(in: 1, via: client)
            if fullWhileStill {
                #expect(still >= 20, "IdleRate=Rate: the full rate while still: \(still) samples in 1 s")
            } else {
                #expect(still <= 8, "IdleRate=2: \(still) samples in 1 s")
            }
            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "-1000")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let turned = try await client.events(until: "portrait-upside-down") {
                $0.state?["device"]?.string == "portrait-upside-down"
            }
            #expect(turned.contains { $0.event == "device" && $0.previous == "landscape-left" }, "\(turned)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
