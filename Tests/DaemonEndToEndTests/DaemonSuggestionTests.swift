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
    /// PROTOCOL.md `suggestion` and CONFIG.md `[Policy] SuggestionSec=`: under a lock, a turn to an orientation
    /// everything but the lock allows is suggested, with a `suggestion` event last in its change; the suggestion
    /// goes when the device comes back, the lock is lifted or moved, or its time runs out.
    @Suite struct DaemonSuggestionTests {
        /// A generating observer on a daemon with `configuration`, in the normal pose (interface landscape-right).
        struct Setup {
            let daemon: RunningDaemon
            let config: String
            let observer: DaemonConnection
            var feed: AccelerometerFeed

            init(configuration: String) async throws {
                let rig = try await GeneratingDaemon(configuration: configuration)
                (daemon, observer, feed) = (rig.daemon, rig.client, rig.feed)
                config = try #require(rig.configPath)
                try feed.hold(.normal)
                let change = try await observer.nextChange()
                #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")
                #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")
            }

            /// Feeds a pose and returns the change it made.
            mutating func turn(to posture: Posture) async throws -> [DaemonMessage] {
                try feed.hold(posture)
                return try await observer.nextChange(timeout: .seconds(10), "the change to \(posture)")
            }

            /// Sends a request and returns its reply and the change it made.
            func request(_ method: String, _ params: String? = nil) async throws -> (DaemonMessage, [DaemonMessage]) {
                let reply: DaemonMessage
                if let params {
                    reply = try await observer.call(method, params)
                } else {
                    reply = try await observer.call(method)
                }
                return (reply, try await observer.nextChange(timeout: .seconds(10), "the change of \(method)"))
            }

            /// Writes a new configuration and reloads it; the change it made.
            func reload(_ configuration: String) async throws -> [DaemonMessage] {
                try configuration.write(toFile: config, atomically: true, encoding: .utf8)
                daemon.process.signal(SIGHUP)
                return try await observer.nextChange(timeout: .seconds(10), "the change of the reload")
            }

            /// Writes a new configuration and reloads it, when it changes nothing clients see: waits for the log.
            func reloadChangingNothing(_ configuration: String) async throws {
                let process = daemon.process
                let before = process.errorText.components(separatedBy: "configuration reloaded").count
                try configuration.write(toFile: config, atomically: true, encoding: .utf8)
                process.signal(SIGHUP)
                let reloaded = await process.waitUntil("the reload", timeout: .seconds(10)) {
                    process.errorText.components(separatedBy: "configuration reloaded").count > before
                }
                #expect(reloaded, "\(process.report)")
                _ = try await expectNoEvents()
            }

            /// Requires that nothing was sent since the last change; the state.
            func expectNoEvents(sourceLocation: SourceLocation = #_sourceLocation) async throws -> DaemonJSON? {
                let state = try await observer.call("get").state
                #expect(observer.inbox.isEmpty, "unexpected events: \(observer.inbox)", sourceLocation: sourceLocation)
                return state
            }
        }

        @Test func aTurnUnderALockIsSuggestedUntilTheDeviceOrTheLockChanges() async throws {
            var setup = try await Setup(configuration: "[Policy]\nSuggestionSec=60\n")
            var (reply, change) = try await setup.request("lock", "{}")
            #expect(change.map(\.event) == ["allowed"], "\(change)")
            #expect(reply.state?["suggestion"]?.isNull == true, "\(reply)")

            // Turned to portrait under the lock: the device event, then the suggestion, with the same state.
            change = try await setup.turn(to: .leftUp)
            #expect(change.map(\.event) == ["device", "suggestion"], "\(change)")
            #expect(change.last?.previousValue?.isNull == true, "\(change)")
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")
            #expect(change.first?.state == change.last?.state, "\(change)")
            #expect(try await setup.observer.call("get").state?["suggestion"]?.string == "portrait")

            // Turned on to upside-down: the suggestion moves.
            change = try await setup.turn(to: .rightUp)
            #expect(change.map(\.event) == ["device", "suggestion"], "\(change)")
            #expect(change.last?.previous == "portrait", "\(change)")
            #expect(change.last?.state?["suggestion"]?.string == "portrait-upside-down", "\(change)")

            // Back to the locked orientation: withdrawn.
            change = try await setup.turn(to: .normal)
            #expect(change.map(\.event) == ["device", "suggestion"], "\(change)")
            #expect(change.last?.previous == "portrait-upside-down", "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")

            // Unlocked: withdrawn, and the screen follows.
            change = try await setup.turn(to: .leftUp)
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")
            (reply, change) = try await setup.request("unlock")
            #expect(change.map(\.event) == ["allowed", "interface", "suggestion"], "\(change)")
            #expect(change.last?.state?["interface"]?.string == "portrait", "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")
            #expect(reply.state == change.last?.state, "\(reply) / \(change)")

            // Locked elsewhere while held in portrait: the user chose against the pose, nothing is suggested.
            (_, change) = try await setup.request("lock", #"{"orientation": "landscape-right"}"#)
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")

            // The lock moves under a suggestion: withdrawn.
            change = try await setup.turn(to: .rightUp)
            #expect(change.last?.state?["suggestion"]?.string == "portrait-upside-down", "\(change)")
            (_, change) = try await setup.request("lock", #"{"orientation": "landscape-left"}"#)
            #expect(change.map(\.event) == ["allowed", "interface", "suggestion"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-left", "\(change)")

            // Accepting a suggestion is a lock of its orientation: the screen turns, the lock stays a lock.
            change = try await setup.turn(to: .leftUp)
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")
            (reply, change) = try await setup.request("lock", #"{"orientation": "portrait"}"#)
            #expect(change.map(\.event) == ["allowed", "interface", "suggestion"], "\(change)")
            #expect(reply.state?["interface"]?.string == "portrait", "\(reply)")
            #expect(reply.state?["lock"]?.strings == ["portrait"], "\(reply)")
            #expect(reply.state?["suggestion"]?.isNull == true, "\(reply)")
            _ = try await setup.expectNoEvents()
            DaemonContract.expectWellOrdered(setup.observer.log.filter(\.isEvent))
            #expect(await setup.daemon.stop() == .exited(0), "\(setup.daemon.process.report)")
        }

        @Test func aSuggestionGoesAfterSuggestionSec() async throws {
            var setup = try await Setup(configuration: "[Policy]\nSuggestionSec=1\n")
            _ = try await setup.request("lock", "{}")
            let clock = ContinuousClock()
            // Before the turn: the daemon's time starts after it.
            let turned = clock.now
            let change = try await setup.turn(to: .leftUp)
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")
            let expired = try await setup.observer.nextChange(timeout: .seconds(20), "the suggestion's end")
            // Not before its second (later on a loaded machine).
            #expect(clock.now - turned >= .seconds(1))
            #expect(expired.map(\.event) == ["suggestion"], "\(expired)")
            #expect(expired.last?.previous == "portrait", "\(expired)")
            #expect(expired.last?.state?["suggestion"]?.isNull == true, "\(expired)")
            #expect(expired.last?.state?["device"]?.string == "portrait", "still held in portrait: \(expired)")
            // Not suggested again while the pose lasts; a new turn is suggested again.
            #expect(try await setup.expectNoEvents()?["suggestion"]?.isNull == true)
            _ = try await setup.turn(to: .normal)
            let again = try await setup.turn(to: .leftUp)
            #expect(again.last?.state?["suggestion"]?.string == "portrait", "\(again)")
            #expect(await setup.daemon.stop() == .exited(0), "\(setup.daemon.process.report)")
        }

        @Test func neverForAnOrientationAConstraintOrSupportedForbids() async throws {
            var setup = try await Setup(configuration: "[Policy]\nSupported=all-but-upside-down\nSuggestionSec=60\n")
            _ = try await setup.request("lock", "{}")
            // Supported= forbids upside-down: no suggestion.
            var change = try await setup.turn(to: .rightUp)
            #expect(change.map(\.event) == ["device"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")
            _ = try await setup.turn(to: .normal)

            // An app's constraint forbids portrait: no suggestion.
            let app = try setup.daemon.connect()
            _ = try await app.call("constrain", #"{"mask": "landscape"}"#)
            // The lock already allows less: nothing changes.
            _ = try await setup.expectNoEvents()
            change = try await setup.turn(to: .leftUp)
            #expect(change.map(\.event) == ["device"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")

            // Once the app is gone, the pose held is suggested.
            app.close()
            change = try await setup.observer.nextChange(timeout: .seconds(10), "the constraint's end")
            #expect(change.map(\.event) == ["suggestion"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")

            // A constraint that forbids it withdraws it.
            let reader = try setup.daemon.connect()
            _ = try await reader.call("constrain", #"{"mask": "landscape-right"}"#)
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["suggestion"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")
            DaemonContract.expectWellOrdered(setup.observer.log.filter(\.isEvent))
            #expect(await setup.daemon.stop() == .exited(0), "\(setup.daemon.process.report)")
        }

        @Test func noneUnlockedNoneWithZeroSecondsAndAReloadAppliesTheValue() async throws {
            var setup = try await Setup(configuration: "[Policy]\nSuggestionSec=0\n")
            // Unlocked, the screen follows: nothing to suggest.
            var change = try await setup.turn(to: .leftUp)
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")
            _ = try await setup.turn(to: .normal)

            // SuggestionSec=0: a turn under a lock suggests nothing.
            _ = try await setup.request("lock", "{}")
            change = try await setup.turn(to: .leftUp)
            #expect(change.map(\.event) == ["device"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")

            // Reloaded with suggestions on: the pose held is suggested at once.
            change = try await setup.reload("[Policy]\nSuggestionSec=1\n")
            #expect(change.map(\.event) == ["suggestion"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")
            // The reloaded time applies: it goes after its second.
            change = try await setup.observer.nextChange(timeout: .seconds(20), "the suggestion's end")
            #expect(change.map(\.event) == ["suggestion"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")

            // Reloaded off: a standing suggestion is withdrawn.
            try await setup.reloadChangingNothing("[Policy]\nSuggestionSec=60\n")
            _ = try await setup.turn(to: .normal)
            change = try await setup.turn(to: .leftUp)
            #expect(change.last?.state?["suggestion"]?.string == "portrait", "\(change)")
            change = try await setup.reload("[Policy]\nSuggestionSec=0\n")
            #expect(change.map(\.event) == ["suggestion"], "\(change)")
            #expect(change.last?.state?["suggestion"]?.isNull == true, "\(change)")

            // A bad value is refused and changes nothing.
            try "[Policy]\nSuggestionSec=61\n".write(toFile: setup.config, atomically: true, encoding: .utf8)
            setup.daemon.process.signal(SIGHUP)
            _ = await setup.daemon.process.waitUntil("the reload is refused", timeout: .seconds(10)) {
                setup.daemon.process.errorText.contains("\(setup.config):2: [Policy] SuggestionSec=61")
            }
            _ = try await setup.expectNoEvents()
            #expect(await setup.daemon.stop() == .exited(0), "\(setup.daemon.process.report)")
        }
    }
}
