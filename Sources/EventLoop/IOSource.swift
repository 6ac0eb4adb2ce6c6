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

/// A watched file descriptor: owns its `sd_event_source`, and the callbacks stop when it is released.
///
/// Created by ``EventLoop/addIO(fd:events:handler:)``. The handler may release the source (drop the last reference)
/// from inside itself.
public final class IOSource {
    /// The `sd_event_source*` this object owns.
    private let source: OpaquePointer
    /// Called with the events seen; stored once so that dispatch allocates nothing.
    private let handler: (IOEvents) -> Void

    init(
        event: OpaquePointer,
        fd: Int32,
        events: IOEvents,
        handler: @escaping (IOEvents) -> Void
    ) throws(EventLoopError) {
        var source: OpaquePointer?
        // The userdata is set below, once `self` exists; nothing dispatches in between (one thread, no iteration).
        let result = sd_event_add_io(
            event,
            &source,
            fd,
            events.rawValue,
            { _, _, revents, userdata in
                IOSource.dispatch(userdata, IOEvents(rawValue: revents))
                return 0
            },
            nil
        )
        try EventLoopError.check(result, "sd_event_add_io", "fd \(fd)")
        self.source = source!
        self.handler = handler
        // Unretained: the owner keeps this object alive, and deinit disables the source before it dies.
        sd_event_source_set_userdata(self.source, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // Safe inside this source's own callback: sd-event defers the free until the dispatch returns.
        sd_event_source_disable_unref(source)
    }

    /// The events waited for (`sd_event_source_get_io_events`, `sd_event_source_set_io_events`).
    ///
    /// Setting fails only when the fd was closed before the source was released, a programming error that stops
    /// the process.
    public var events: IOEvents {
        get {
            var events: UInt32 = 0
            EventLoopError.require(
                sd_event_source_get_io_events(source, &events),
                "sd_event_source_get_io_events"
            )
            return IOEvents(rawValue: events)
        }
        set {
            EventLoopError.require(
                sd_event_source_set_io_events(source, newValue.rawValue),
                "sd_event_source_set_io_events"
            )
        }
    }

    /// Whether the handler can run (`sd_event_source_set_enabled` with `SD_EVENT_ON` or `SD_EVENT_OFF`).
    ///
    /// Disable rather than set ``events`` to empty: errors and hang-ups are reported even then.
    public var isEnabled: Bool {
        get { sd_event_source_get_enabled(source, nil) > 0 }
        set {
            let mode = newValue ? Int32(SD_EVENT_ON) : Int32(SD_EVENT_OFF)
            EventLoopError.require(sd_event_source_set_enabled(source, mode), "sd_event_source_set_enabled")
        }
    }

    /// The C callback's whole work: find the Swift source and call its handler.
    private static func dispatch(_ userdata: UnsafeMutableRawPointer?, _ events: IOEvents) {
        guard let userdata else { return }
        Unmanaged<IOSource>.fromOpaque(userdata).takeUnretainedValue().handler(events)
    }
}
