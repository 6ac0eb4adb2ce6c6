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

import CSystemd
import Logging
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Who hears polkit's answer to a claim that waited for it.
protocol PolkitAuthorityDelegate: AnyObject {
    /// polkit's `verdict` on the claim `message` (a `Claim…` call) of `sensor` by `sender`: the delegate replies to it.
    func polkit(
        _ verdict: PolkitAuthority.Verdict,
        claim message: OpaquePointer,
        of sensor: ProxySensor,
        by sender: String
    )
}

/// Asks polkit, as iio-sensor-proxy 3.7 and later do, whether a bus client may claim a sensor: the action
/// `net.hadess.SensorProxy.claim-sensor` (`systemd/net.hadess.SensorProxy.policy`: allowed to active local sessions),
/// so that a site's polkit rules for iio-sensor-proxy hold for orientd too.
///
/// `CheckAuthorization` is sent without waiting (`sd_bus_call_async`): the claim's reply waits, the loop goes on.
/// The answers are kept per client (``PolkitAnswers``) until polkit says something changed (`Changed`) or the client
/// leaves the bus (a ``BusNameWatch`` per client asked about, so that the loop wakes for no one else's coming and
/// going). Where polkit does not run (no owner and nothing to start it), or gives no answer, the verdict is
/// ``Verdict/noAnswer(_:)`` and the service decides by its own rules.
final class PolkitAuthority {
    /// polkit's answer for one claim.
    enum Verdict: Equatable {
        case authorized
        case notAuthorized
        /// polkit does not run here, or failed: why, in words.
        case noAnswer(String)
    }

    /// The action iio-sensor-proxy asks about.
    static let action = "net.hadess.SensorProxy.claim-sensor"
    /// How long a question may take: polkitd answers at once without interaction; started on demand, within a second.
    static let timeoutMicroseconds: UInt64 = 10_000_000

    private struct Pending {
        let message: OpaquePointer
        let sensor: ProxySensor
    }

    /// One question on its way, the userdata of its reply handler.
    private final class Question {
        let sender: String
        unowned let authority: PolkitAuthority
        var slot: OpaquePointer?

        init(sender: String, authority: PolkitAuthority) {
            self.sender = sender
            self.authority = authority
        }
    }

    private let bus: OpaquePointer
    private unowned let delegate: any PolkitAuthorityDelegate
    private let logger: Logger
    private var answers = PolkitAnswers<Pending>()
    private var questions: [String: Question] = [:]
    /// A watch on each client asked about, which tells when it leaves the bus: its answer and waiting claims then go.
    private var watches: [String: BusNameWatch] = [:]
    private var slots: [OpaquePointer] = []
    /// Whether "polkit does not run" was said, so that it is said once until polkit answers again.
    private var saidAbsent = false

    /// Follows polkit's `Changed` signal on `connection`.
    /// - Throws: ``BusError`` when the match cannot be added.
    init(connection: BusConnection, delegate: any PolkitAuthorityDelegate, logger: Logger) throws(BusError) {
        bus = connection.bus
        self.delegate = delegate
        self.logger = logger
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        try BusError.check(
            sd_bus_match_signal_async(
                bus,
                &slot,
                "org.freedesktop.PolicyKit1",
                "/org/freedesktop/PolicyKit1/Authority",
                "org.freedesktop.PolicyKit1.Authority",
                "Changed",
                { _, userdata, _ in
                    guard let userdata else { return 0 }
                    Unmanaged<PolkitAuthority>.fromOpaque(userdata).takeUnretainedValue().changed()
                    return 0
                },
                nil,
                userdata
            ),
            "sd_bus_match_signal_async",
            "org.freedesktop.PolicyKit1.Authority.Changed"
        )
        slots.append(try BusError.returned(slot, by: "sd_bus_match_signal_async"))
    }

    deinit {
        shutDown()
    }

    /// The verdict on a claim `message` of `sensor` by `sender` when it is known now; nil when the claim waits for
    /// polkit (the delegate then gets the verdict, and replies).
    func check(_ message: OpaquePointer, of sensor: ProxySensor, by sender: String) -> Verdict? {
        switch answers.claim(by: sender, Pending(message: sd_bus_message_ref(message), sensor: sensor)) {
        case .answer(let authorized):
            sd_bus_message_unref(message)
            return authorized ? .authorized : .notAuthorized
        case .wait:
            return nil
        case .ask:
            let question = Question(sender: sender, authority: self)
            var slot: OpaquePointer?
            let sent = orientd_polkit_check_authorization(
                bus,
                &slot,
                sender,
                Self.action,
                Self.timeoutMicroseconds,
                { reply, userdata, _ in
                    guard let reply, let userdata else { return 0 }
                    let question = Unmanaged<Question>.fromOpaque(userdata).takeUnretainedValue()
                    question.authority.replied(reply, to: question)
                    return 0
                },
                Unmanaged.passUnretained(question).toOpaque()
            )
            guard sent >= 0, let slot else {
                let verdict = Verdict.noAnswer("cannot ask polkit: \(Errno(sent))")
                for pending in answers.answered(sender, authorized: nil) { deliver(verdict, pending, sender) }
                return nil
            }
            question.slot = slot
            questions[sender] = question
            if watches[sender] == nil {
                do {
                    watches[sender] = try BusNameWatch(name: sender, bus: bus) { [unowned self] name in self.left(name)
                    }
                } catch {
                    // Its answer then stays until polkit's next change, or until the kept answers are dropped.
                    logger.warning(
                        "cannot follow a bus client asked about of polkit",
                        metadata: ["bus_client": "\(sender)", "error": "\(error)"]
                    )
                }
            }
            return nil
        }
    }

    /// Off the bus: the questions are dropped and the waiting claims refused (they cannot be answered any more).
    func shutDown() {
        for question in questions.values {
            if let slot = question.slot { sd_bus_slot_unref(slot) }
        }
        questions.removeAll()
        watches.removeAll()
        for slot in slots { sd_bus_slot_unref(slot) }
        slots.removeAll()
        for pending in answers.takeAllWaiting() { sd_bus_message_unref(pending.message) }
    }

    private func replied(_ reply: OpaquePointer, to question: Question) {
        questions[question.sender] = nil
        defer {
            if let slot = question.slot { sd_bus_slot_unref(slot) }
        }
        let verdict = Self.verdict(of: reply)
        switch verdict {
        case .noAnswer(let why):
            if !saidAbsent {
                logger.notice(
                    "sensor claims are decided by orientd's own rules",
                    metadata: ["reason": "\(why)"]
                )
                saidAbsent = true
            }
        case .authorized, .notAuthorized:
            saidAbsent = false
        }
        let authorized: Bool? =
            switch verdict {
            case .authorized: true
            case .notAuthorized: false
            case .noAnswer: nil
            }
        for pending in answers.answered(question.sender, authorized: authorized) {
            deliver(verdict, pending, question.sender)
        }
    }

    /// The verdict a reply (or error) of `CheckAuthorization` carries.
    private static func verdict(of reply: OpaquePointer) -> Verdict {
        if let error = sd_bus_message_get_error(reply), sd_bus_error_is_set(error) != 0 {
            let name = error.pointee.name.map { String(cString: $0) } ?? "?"
            let text = error.pointee.message.map { String(cString: $0) } ?? ""
            let absent = [
                "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
                "org.freedesktop.DBus.Error.ServiceNotFound",
            ]
            if absent.contains(name) || name.hasPrefix("org.freedesktop.DBus.Error.Spawn") {
                return .noAnswer("polkit does not run here (\(name))")
            }
            return .noAnswer("polkit gave no answer: \(name): \(text)")
        }
        var authorized: Int32 = 0
        var challenge: Int32 = 0
        let read = orientd_polkit_read_result(reply, &authorized, &challenge)
        guard read >= 0 else { return .noAnswer("polkit's answer cannot be read: \(Errno(read))") }
        return authorized != 0 ? .authorized : .notAuthorized
    }

    private func deliver(_ verdict: Verdict, _ pending: Pending, _ sender: String) {
        delegate.polkit(verdict, claim: pending.message, of: pending.sensor, by: sender)
        sd_bus_message_unref(pending.message)
    }

    private func changed() {
        logger.debug("polkit's policy changed: its answers are asked again", metadata: ["answers": "\(answers.count)"])
        answers.changed()
    }

    private func left(_ sender: String) {
        watches[sender] = nil
        for pending in answers.left(sender) { sd_bus_message_unref(pending.message) }
        if let question = questions.removeValue(forKey: sender), let slot = question.slot { sd_bus_slot_unref(slot) }
    }
}
