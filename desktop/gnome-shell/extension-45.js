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

// orientd's GNOME Shell extension, the ES module build (GNOME 45 and later).

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Shell from 'gi://Shell';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {AppOrientations} from './core.js';

export default class OrientdAppOrientations extends Extension {
    enable() {
        this._apps = new AppOrientations({
            GLib, Gio, display: global.display, tracker: Shell.WindowTracker.get_default(),
            log: message => console.log(`orientd: ${message}`),
        });
        this._apps.enable();
    }

    disable() {
        this._apps.disable();
        this._apps = null;
    }
}
