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

/// One bus client followed until its unique name leaves the bus (an `sd_bus_track`): `gone` is called with the name
/// then, once. Released, it follows nothing more.
final class BusNameWatch {
    let name: String
    private let track: OpaquePointer
    private let gone: (String) -> Void

    /// Follows `name` on `bus`.
    /// - Throws: ``BusError`` naming the call that failed.
    init(name: String, bus: OpaquePointer, gone: @escaping (String) -> Void) throws(BusError) {
        self.name = name
        self.gone = gone
        var track: OpaquePointer?
        try BusError.check(
            sd_bus_track_new(
                bus,
                &track,
                { _, userdata in
                    guard let userdata else { return 0 }
                    let watch = Unmanaged<BusNameWatch>.fromOpaque(userdata).takeUnretainedValue()
                    watch.gone(watch.name)
                    return 0
                },
                nil
            ),
            "sd_bus_track_new"
        )
        self.track = try BusError.returned(track, by: "sd_bus_track_new")
        // Unretained: the owner keeps the watch while it lives, and deinit drops the track with it.
        sd_bus_track_set_userdata(self.track, Unmanaged.passUnretained(self).toOpaque())
        try BusError.check(sd_bus_track_add_name(self.track, name), "sd_bus_track_add_name", name)
    }

    deinit {
        // Safe inside the track's own handler: sd-bus holds a reference while it dispatches.
        sd_bus_track_set_userdata(track, nil)
        sd_bus_track_unref(track)
    }
}
