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
import Glibc
import SystemSupport

/// A blocked signal delivered through the loop: owns its `sd_event_source`, and delivery stops when it is released.
///
/// Created by ``EventLoop/addSignal(_:handler:)``. The handler may release the source from inside itself.
public final class SignalSource {
    /// The `sd_event_source*` this object owns.
    private let source: OpaquePointer
    /// Called once per delivery; stored once so that dispatch allocates nothing.
    private let handler: () -> Void

    init(event: OpaquePointer, signal: Int32, handler: @escaping () -> Void) throws(EventLoopError) {
        var source: OpaquePointer?
        // The userdata is set below, once `self` exists; nothing dispatches in between (one thread, no iteration).
        let result = sd_event_add_signal(
            event,
            &source,
            signal,
            { _, _, userdata in
                SignalSource.dispatch(userdata)
                return 0
            },
            nil
        )
        try EventLoopError.check(result, "sd_event_add_signal", "signal \(signal)") { errno in
            switch errno.rawValue {
            case EBUSY:
                "the signal must be blocked with pthread_sigmask first, and a loop takes one source per signal"
            case EINVAL:
                "not a valid signal number; the signal must also be blocked with pthread_sigmask first"
            default:
                nil
            }
        }
        self.source = source!
        self.handler = handler
        // Unretained: the owner keeps this object alive, and deinit disables the source before it dies.
        sd_event_source_set_userdata(self.source, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // Safe inside this source's own callback: sd-event defers the free until the dispatch returns.
        sd_event_source_disable_unref(source)
    }

    /// Whether the signal is read and handled (`sd_event_source_set_enabled`); while off, it stays pending, blocked.
    public var isEnabled: Bool {
        get { sd_event_source_get_enabled(source, nil) > 0 }
        set {
            let mode = newValue ? Int32(SD_EVENT_ON) : Int32(SD_EVENT_OFF)
            EventLoopError.require(sd_event_source_set_enabled(source, mode), "sd_event_source_set_enabled")
        }
    }

    /// The C callback's whole work: find the Swift source and call its handler.
    private static func dispatch(_ userdata: UnsafeMutableRawPointer?) {
        guard let userdata else { return }
        Unmanaged<SignalSource>.fromOpaque(userdata).takeUnretainedValue().handler()
    }
}
