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

// orientd's GNOME Shell extension, the `imports` build (GNOME 43 and 44).

/* exported init */

const {GLib, Gio, Shell} = imports.gi;
const Me = imports.misc.extensionUtils.getCurrentExtension();
const {AppOrientations} = Me.imports.core;

class OrientdAppOrientations {
    enable() {
        this._apps = new AppOrientations({
            GLib, Gio, display: global.display, tracker: Shell.WindowTracker.get_default(),
            log: message => log(`orientd: ${message}`),
        });
        this._apps.enable();
    }

    disable() {
        this._apps.disable();
        this._apps = null;
    }
}

function init() {
    return new OrientdAppOrientations();
}
