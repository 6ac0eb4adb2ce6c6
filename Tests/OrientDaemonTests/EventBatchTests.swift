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

import OrientProtocol
import OrientationCore
import Testing

@testable import OrientDaemon

/// The batch of one change's events: one seq per change, PROTOCOL.md's order, held during a request, one send at
/// a time, and connections closed during a send kept for afterwards.
@Suite struct EventBatchTests {
    @Test func theFirstEventOfAChangeCountsItAndTheSendKeepsTheProtocolOrder() {
        var batch = EventBatch()
        #expect(batch.seq == 0 && batch.isEmpty)
        batch.note(.interface, previous: .name("portrait"))
        batch.note(.device, previous: .name("portrait"))
        batch.note(.tabletMode, previous: .tabletMode(nil))
        batch.note(.allowed)
        batch.note(.sensor, previous: .name("stopped"))
        #expect(batch.seq == 1, "one change, however many events")

        let events = batch.beginSending()
        #expect(events?.map(\.name) == [.sensor, .allowed, .tabletMode, .device, .interface])
        #expect(batch.isEmpty)
        let none = batch.endSending()
        #expect(none.isEmpty)

        batch.note(.device, previous: .name("landscape-left"))
        #expect(batch.seq == 2, "the next change counts again")
    }

    @Test func aSecondEventOfTheSameNameKeepsTheValueBeforeTheWholeChange() {
        var batch = EventBatch()
        batch.note(.interface, previous: .name("portrait"))
        batch.note(.interface, previous: .name("landscape-left"))
        let sent1 = batch.beginSending()
        #expect(sent1?.map(\.previous) == [.name("portrait")])
    }

    @Test func heldEventsWaitForTheLastRelease() {
        var batch = EventBatch()
        batch.hold()
        batch.hold()
        batch.note(.allowed)
        let sent2 = batch.beginSending()
        #expect(sent2 == nil)
        batch.release()
        let sent3 = batch.beginSending()
        #expect(sent3 == nil, "still held once")
        batch.release()
        let sent4 = batch.beginSending()
        #expect(sent4?.map(\.name) == [.allowed])
    }

    @Test func nothingToSendIsNoSend() {
        var batch = EventBatch()
        let sent5 = batch.beginSending()
        #expect(sent5 == nil)
        #expect(!batch.isSending)
    }

    @Test func discardedEventsAreNotSentButTheChangeStaysCounted() {
        var batch = EventBatch()
        batch.note(.sensor, previous: .name("active"))
        batch.discard()
        let sent6 = batch.beginSending()
        #expect(sent6 == nil)
        #expect(batch.seq == 1)
    }

    @Test func duringASendNewEventsAndClosedConnectionsWait() {
        var batch = EventBatch()
        batch.note(.device, previous: .name("unknown"))
        let closedNow = batch.deferClose(ClientID(7))
        #expect(!closedNow, "no send under way: the connection goes now")
        let sending = batch.beginSending()
        #expect(sending?.count == 1)
        #expect(batch.isSending)

        // Sending made a connection close, which changed the state again.
        let deferred = [batch.deferClose(ClientID(3)), batch.deferClose(ClientID(4))]
        #expect(deferred == [true, true])
        batch.note(.allowed)
        #expect(batch.seq == 2)
        let sent7 = batch.beginSending()
        #expect(sent7 == nil, "one send at a time")

        let closed = batch.endSending()
        #expect(closed == [ClientID(3), ClientID(4)])
        let again = batch.endSending()
        #expect(again.isEmpty)
        let sent8 = batch.beginSending()
        #expect(sent8?.map(\.name) == [.allowed])
    }

    @Test func eachPreviousBecomesTheEventsPreviousMember() {
        let state = OrientationState(
            device: .portrait,
            interface: .portrait,
            rotation: .degrees90,
            allowed: .all,
            lock: nil,
            sensor: .active,
            generating: true,
            seq: 3,
            tabletMode: true
        )
        let tablet = EventBatch.event(.tabletMode, previous: .tabletMode(false), state: state)
        #expect(tablet.previousTabletMode == false && tablet.previous == nil)
        let device = EventBatch.event(.device, previous: .name("portrait"), state: state)
        #expect(device.previous == "portrait")
        let allowed = EventBatch.event(.allowed, previous: .none, state: state)
        #expect(allowed.previous == nil && allowed.previousTabletMode == nil)
    }
}
