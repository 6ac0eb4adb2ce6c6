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

import ArgumentParser

/// The options of `orientctl follow` as given on its command line; each one not given comes from follow.conf, else
/// its default (``FollowSettings``).
struct FollowArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The desktop to rotate (default: from the session's variables).", valueName: "backend"))
    var backend: BackendKind?

    @Option(help: ArgumentHelp("The output to rotate (default: the built-in panel).", valueName: "name"))
    var output: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "The touch and pen devices to turn: sway input identifiers, xinput names or ids (default: found).",
            valueName: "device"
        )
    )
    var touch: [String] = []

    @Option(
        name: .customLong("panel-offset"),
        help: ArgumentHelp(
            "Degrees counter-clockwise added to every rotation: 0, 90, 180 or 270 (default: 0).",
            valueName: "degrees"
        )
    )
    var panelOffset: Int?

    @Flag(name: .customLong("dry-run"), help: "Print the commands for each change instead of running them.")
    var dryRun = false

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp("With --backend exec: run 'sh -c CMD' for each change.", valueName: "CMD")
    )
    var command: String?

    @Flag(
        name: .customLong("pause-external"),
        inversion: .prefixedNo,
        help: "Rotate nothing while an external monitor is connected (default: no)."
    )
    var pauseExternal: Bool?

    @Flag(
        name: .customLong("natural-in-laptop-mode"),
        inversion: .prefixedNo,
        help: "Hold the natural orientation while the convertible is out of tablet mode (default: no)."
    )
    var naturalInLaptopMode: Bool?

    @Flag(
        name: .customLong("suggest"),
        inversion: .prefixedNo,
        help: "Show rotation suggestions as notifications with a Rotate action, as 'orientctl suggest' (default: no)."
    )
    var suggest: Bool?

    @Option(
        name: .customLong("then"),
        help: ArgumentHelp("Run 'sh -c CMD' after each rotation applied.", valueName: "CMD")
    )
    var then: String?

    @Option(
        help: ArgumentHelp(
            "Seconds a command may run before it is killed and reported (default: 10).",
            valueName: "seconds"
        )
    )
    var timeout: Double?
}
