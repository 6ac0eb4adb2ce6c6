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

// orientd's KWin script: tells orientctl's session-bus service (orientctl kwin-focus, started by the bus on the
// first call) each window KWin activates, with the names a follow.conf [Apps] rule may match; an empty
// activation (no active window) as three empty strings. The service holds the app's mask on orientd's socket.

function tell(window) {
    var names = window ? [String(window.resourceClass || ''), String(window.resourceName || ''),
        String(window.desktopFileName || '')] : ['', '', ''];
    callDBus('org.orientd.AppFocus', '/org/orientd/AppFocus', 'org.orientd.AppFocus', 'Activated',
        names[0], names[1], names[2]);
}

// Plasma 6 names it windowActivated and the active window activeWindow; Plasma 5 clientActivated and activeClient.
if (workspace.windowActivated !== undefined) {
    workspace.windowActivated.connect(tell);
    tell(workspace.activeWindow);
} else {
    workspace.clientActivated.connect(tell);
    tell(workspace.activeClient);
}
