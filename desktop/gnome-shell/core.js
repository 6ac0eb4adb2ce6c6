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

// The shared core of orientd's GNOME Shell extension: follow.conf's [Apps] rules, matched as
// `orientctl follow` matches them, and the one connection to orientd's socket that holds the
// focused app's mask. It names no module: the builds give it GLib and Gio (scripts/build-gnome-extension
// writes it once with ES module exports for GNOME 45 and later, once as it is for the `imports` of
// GNOME 43 and 44, where a file's top-level `var`s and functions are what it exports).

/* exported ORIENTATIONS, parseMask, globMatches, parseFollowConf, ruleFor, appNames, FocusHolder, AppOrientations */

// The interface orientations, in the daemon's listing order, and the masks' names (ORIENTATION.md).
var ORIENTATIONS = ['portrait', 'portrait-upside-down', 'landscape-left', 'landscape-right'];
var NAMED_MASKS = {
    'portrait': ['portrait'],
    'portrait-upside-down': ['portrait-upside-down'],
    'landscape-left': ['landscape-left'],
    'landscape-right': ['landscape-right'],
    'landscape': ['landscape-left', 'landscape-right'],
    'all': ORIENTATIONS,
    'all-but-upside-down': ['portrait', 'landscape-left', 'landscape-right'],
};

/**
 * A mask as follow.conf writes it: a name, or names separated by commas, spaces or tabs.
 * @param {string} text
 * @returns {string[]} the orientations, in listing order
 * @throws {Error} naming what is allowed, when a name is unknown or the mask allows nothing
 */
function parseMask(text) {
    const names = text.split(/[ ,\t]/).filter(name => name.length > 0);
    const names_ = Object.keys(NAMED_MASKS).join(', ');
    if (names.length === 0)
        throw new Error(`allowed: a mask (${names_}) or a list of orientations`);
    const chosen = new Set();
    for (const name of names) {
        const mask = NAMED_MASKS[name];
        if (!Object.prototype.hasOwnProperty.call(NAMED_MASKS, name))
            throw new Error(`allowed: a mask (${names_}) or a list of orientations`);
        mask.forEach(orientation => chosen.add(orientation));
    }
    return ORIENTATIONS.filter(orientation => chosen.has(orientation));
}

/**
 * Whether a shell glob matches a name, as fnmatch(3) without flags: `*`, `?`, `[…]` (with `!` or `^`
 * to negate, and ranges), a backslash quoting the next character; case included.
 * @param {string} pattern
 * @param {string} name
 * @returns {boolean}
 */
function globMatches(pattern, name) {
    const p = Array.from(pattern);
    const n = Array.from(name);
    // The bracket expression starting at p[i]: [matched, index after it], or null when it is not closed.
    const bracket = (i, c) => {
        let j = i + 1;
        let negate = false;
        if (p[j] === '!' || p[j] === '^') {
            negate = true;
            j++;
        }
        let matched = false;
        let first = true;
        while (j < p.length && (first || p[j] !== ']')) {
            first = false;
            let low = p[j];
            if (low === '\\' && j + 1 < p.length)
                low = p[++j];
            if (p[j + 1] === '-' && j + 2 < p.length && p[j + 2] !== ']') {
                let high = p[j + 2];
                j += 2;
                if (high === '\\' && j + 1 < p.length)
                    high = p[++j];
                if (low <= c && c <= high)
                    matched = true;
            } else if (low === c) {
                matched = true;
            }
            j++;
        }
        if (j >= p.length)
            return null;
        return [matched !== negate, j + 1];
    };
    const match = (pi, ni) => {
        while (pi < p.length) {
            const c = p[pi];
            if (c === '*') {
                while (p[pi] === '*')
                    pi++;
                if (pi === p.length)
                    return true;
                for (let k = ni; k <= n.length; k++) {
                    if (match(pi, k))
                        return true;
                }
                return false;
            }
            if (ni >= n.length)
                return false;
            if (c === '?') {
                pi++;
                ni++;
                continue;
            }
            if (c === '[') {
                const result = bracket(pi, n[ni]);
                if (result !== null) {
                    if (!result[0])
                        return false;
                    pi = result[1];
                    ni++;
                    continue;
                }
            }
            let literal = c;
            if (c === '\\' && pi + 1 < p.length)
                literal = p[++pi];
            if (literal !== n[ni])
                return false;
            pi++;
            ni++;
        }
        return ni === n.length;
    };
    return match(0, 0);
}

/**
 * The [Apps] rules of follow.conf's text, read as `orientctl follow` reads them: `[Section]` lines,
 * `Key=Value` lines, `#` and `;` comment lines; an app ruled twice, an unknown mask, an unknown
 * section or a line that is neither is a mistake. [Follow]'s values are `follow`'s own and are not judged here.
 * @param {string} text
 * @param {string} file the path, for the messages
 * @returns {{pattern: string, mask: string[], line: number}[]} the rules, in file order
 * @throws {Error} the first mistake, naming the file and the line
 */
function parseFollowConf(text, file) {
    const rules = [];
    const seen = new Set();
    let section = null;
    const lines = text.split('\n');
    for (let index = 0; index < lines.length; index++) {
        const number = index + 1;
        const line = lines[index].trim();
        const mistake = reason => new Error(`${file}:${number}: ${reason}`);
        if (line === '' || line.startsWith('#') || line.startsWith(';'))
            continue;
        if (line.startsWith('[')) {
            if (!line.endsWith(']') || line.length < 2)
                throw mistake(`'${line}' is not a [Section] line`);
            const name = line.slice(1, -1).trim();
            if (name !== 'Follow' && name !== 'Apps')
                throw mistake(`unknown section [${name}]; follow.conf has [Follow] and [Apps]`);
            section = name;
            continue;
        }
        const equals = line.indexOf('=');
        const key = equals < 0 ? '' : line.slice(0, equals).trim();
        if (key === '')
            throw mistake(`'${line}' is not Key=Value`);
        const value = line.slice(equals + 1).trim();
        if (section === null)
            throw mistake(`${key}= comes before the [Follow] or [Apps] line`);
        if (section !== 'Apps')
            continue;
        if (seen.has(key))
            throw mistake(`the app ${key} is ruled twice`);
        seen.add(key);
        let mask;
        try {
            mask = parseMask(value);
        } catch (error) {
            throw mistake(`${key}=${value}: ${error.message}`);
        }
        rules.push({pattern: key, mask, line: number});
    }
    return rules;
}

/**
 * The rule of an app: the first, in file order, whose pattern matches one of its names.
 * @param {{pattern: string, mask: string[], line: number}[]} rules
 * @param {string[]} names the app's names, the main one first
 * @returns {{pattern: string, mask: string[], line: number}|null}
 */
function ruleFor(rules, names) {
    return rules.find(rule => names.some(name => globMatches(rule.pattern, name))) || null;
}

/**
 * Holds the focused app's mask on orientd through one connection to its socket, kept open: the
 * constraint is the connection's, so it goes when the connection closes (disabled, locked screen,
 * gnome-shell gone). When orientd goes away, it connects again (after 0.5 s, then doubling up to 8 s)
 * and holds what it should hold then.
 */
var FocusHolder = class FocusHolder {
    /**
     * @param {object} options
     * @param {object} options.GLib
     * @param {object} options.Gio
     * @param {string} options.socketPath
     * @param {string} options.via what holds it, shown by `orientctl status` after the app: `GNOME extension`
     * @param {function(string): void} options.log a line for the journal
     */
    constructor({GLib, Gio, socketPath, via, log}) {
        this._GLib = GLib;
        this._Gio = Gio;
        this._socketPath = socketPath;
        this._via = via;
        this._log = log;
        this._want = null;
        this._sent = null;
        this._connection = null;
        this._cancellable = null;
        this._retry = 0;
        this._delay = 500;
        this._failing = null;
        this._nextId = 1;
        this._pending = new Map();
        this._stopped = true;
    }

    /** Connects (at once) and keeps connected until stop(). */
    start() {
        this._stopped = false;
        this._delay = 500;
        this._connect();
    }

    /** Closes the connection (orientd drops its constraint with it) and connects no more. */
    stop() {
        this._stopped = true;
        if (this._retry !== 0) {
            this._GLib.source_remove(this._retry);
            this._retry = 0;
        }
        this._disconnect();
    }

    /**
     * What to hold now: an app and its rule, or null for nothing.
     * @param {{app: string, rule: {pattern: string, mask: string[], line: number}}|null} want
     */
    hold(want) {
        this._want = want;
        this._send();
    }

    /** The request that holds `want`, as one JSON line. */
    request(want, id) {
        const params = want === null
            ? {mask: null}
            : {mask: want.rule.mask, holder: holderText(`app ${want.app} (${this._via})`)};
        return `${JSON.stringify({id, method: 'constrain', params})}\n`;
    }

    _key(want) {
        return want === null ? null : `${want.app}\n${want.rule.mask.join(',')}`;
    }

    _send() {
        if (this._connection === null || this._key(this._want) === this._key(this._sent))
            return;
        const want = this._want;
        const id = this._nextId++;
        this._pending.set(id, want);
        this._sent = want;
        const bytes = new TextEncoder().encode(this.request(want, id));
        this._connection.get_output_stream().write_all_async(
            bytes, this._GLib.PRIORITY_DEFAULT, this._cancellable, (stream, result) => {
                try {
                    stream.write_all_finish(result);
                } catch (error) {
                    if (!error.matches(this._Gio.IOErrorEnum, this._Gio.IOErrorEnum.CANCELLED))
                        this._lost(`cannot write to ${this._socketPath}: ${error.message}`);
                }
            });
    }

    _connect() {
        if (this._stopped)
            return;
        const cancellable = new this._Gio.Cancellable();
        this._cancellable = cancellable;
        const client = new this._Gio.SocketClient();
        const address = this._Gio.UnixSocketAddress.new(this._socketPath);
        client.connect_async(address, cancellable, (source, result) => {
            let connection;
            try {
                connection = source.connect_finish(result);
            } catch (error) {
                if (error.matches(this._Gio.IOErrorEnum, this._Gio.IOErrorEnum.CANCELLED))
                    return;
                this._failed(`cannot reach orientd at ${this._socketPath}: ${error.message}`);
                return;
            }
            if (this._failing !== null)
                this._log(`connected to orientd again at ${this._socketPath}`);
            this._failing = null;
            this._delay = 500;
            this._connection = connection;
            this._sent = null;
            this._read(new this._Gio.DataInputStream({base_stream: connection.get_input_stream()}), cancellable);
            this._send();
        });
    }

    _read(input, cancellable) {
        input.read_line_async(this._GLib.PRIORITY_DEFAULT, cancellable, (stream, result) => {
            let line;
            try {
                [line] = stream.read_line_finish_utf8(result);
            } catch (error) {
                if (!error.matches(this._Gio.IOErrorEnum, this._Gio.IOErrorEnum.CANCELLED))
                    this._lost(`lost orientd at ${this._socketPath}: ${error.message}`);
                return;
            }
            if (line === null) {
                this._lost(`orientd closed the connection at ${this._socketPath}`);
                return;
            }
            this._answer(line);
            this._read(input, cancellable);
        });
    }

    _answer(line) {
        let reply;
        try {
            reply = JSON.parse(line);
        } catch (error) {
            this._log(`orientd sent a line that is not JSON: ${line}`);
            return;
        }
        if (!Object.prototype.hasOwnProperty.call(reply, 'id') || !this._pending.has(reply.id))
            return;
        const want = this._pending.get(reply.id);
        this._pending.delete(reply.id);
        if (reply.error) {
            const what = want === null ? 'release the constraint' : `hold ${want.rule.mask.join(' ')} for ${want.app}`;
            this._log(`orientd refused to ${what}: ${reply.error.code}: ${reply.error.message}`);
            // Refused: nothing of it is held; the next focus change tries again.
            if (this._key(this._sent) === this._key(want))
                this._sent = {refused: true, app: '', rule: {mask: []}};
        } else if (want !== null) {
            this._log(`${want.app} has the focus: holding ${want.rule.mask.join(' ')} (follow.conf [Apps] line ${want.rule.line})`);
        }
    }

    _lost(reason) {
        this._disconnect();
        this._failed(reason);
    }

    _failed(reason) {
        if (this._stopped)
            return;
        // Said once per outage, not at every attempt.
        if (this._failing === null)
            this._log(`${reason}; trying again until it answers`);
        this._failing = reason;
        this._retry = this._GLib.timeout_add(this._GLib.PRIORITY_DEFAULT, this._delay, () => {
            this._retry = 0;
            this._connect();
            return this._GLib.SOURCE_REMOVE;
        });
        this._delay = Math.min(this._delay * 2, 8000);
    }

    _disconnect() {
        if (this._cancellable !== null) {
            this._cancellable.cancel();
            this._cancellable = null;
        }
        if (this._connection !== null) {
            try {
                this._connection.close(null);
            } catch (error) {
                // Closing a connection the peer has closed may fail; it is closed either way.
            }
            this._connection = null;
        }
        this._sent = null;
        this._pending.clear();
    }
};

/**
 * A holder's text as the protocol takes it: at most 200 characters.
 * @param {string} text
 * @returns {string}
 */
function holderText(text) {
    const characters = Array.from(text);
    return characters.length <= 200 ? text : `${characters.slice(0, 199).join('')}…`;
}

/**
 * The names of a window's app, the main one first, as a rule may match them: the GTK application id,
 * the app Shell.WindowTracker finds for it (its desktop file's name without `.desktop`), the
 * WM_CLASS class (the Wayland app_id of a native Wayland window) and its instance.
 * @param {object} window a Meta.Window
 * @param {object|null} tracker Shell.WindowTracker
 * @returns {string[]}
 */
function appNames(window, tracker) {
    const names = [];
    const add = name => {
        if (typeof name === 'string' && name.length > 0 && !names.includes(name))
            names.push(name);
    };
    add(window.get_gtk_application_id ? window.get_gtk_application_id() : null);
    const app = tracker ? tracker.get_window_app(window) : null;
    const id = app ? app.get_id() : null;
    // Windows without a desktop file get an id of the tracker's own (window:N): not a name.
    if (id && id.endsWith('.desktop'))
        add(id.slice(0, -'.desktop'.length));
    add(window.get_wm_class ? window.get_wm_class() : null);
    add(window.get_wm_class_instance ? window.get_wm_class_instance() : null);
    return names;
}

/**
 * The extension's work, the same in both builds: follows the focused window, reads follow.conf
 * (again when it changes), and holds the focused app's mask through a FocusHolder.
 */
var AppOrientations = class AppOrientations {
    /**
     * @param {object} options
     * @param {object} options.GLib
     * @param {object} options.Gio
     * @param {object} options.display global.display
     * @param {object} options.tracker Shell.WindowTracker.get_default()
     * @param {function(string): void} options.log
     */
    constructor({GLib, Gio, display, tracker, log}) {
        this._GLib = GLib;
        this._Gio = Gio;
        this._display = display;
        this._tracker = tracker;
        this._log = log;
        this._rules = [];
        this._signals = [];
        this._monitor = null;
        this._path = GLib.build_filenamev([GLib.get_user_config_dir(), 'orientd', 'follow.conf']);
        const socketPath = GLib.getenv('ORIENTD_SOCKET') || '/run/orientd/socket';
        this._holder = new FocusHolder({GLib, Gio, socketPath, via: 'GNOME extension', log});
    }

    enable() {
        this._readRules();
        const file = this._Gio.File.new_for_path(this._path);
        this._monitor = file.monitor_file(this._Gio.FileMonitorFlags.WATCH_MOVES, null);
        this._monitorSignal = this._monitor.connect('changed', () => {
            this._readRules();
            this._update();
        });
        this._holder.start();
        this._signals.push(this._display.connect('notify::focus-window', () => this._update()));
        this._update();
    }

    disable() {
        for (const id of this._signals)
            this._display.disconnect(id);
        this._signals = [];
        if (this._monitor !== null) {
            this._monitor.disconnect(this._monitorSignal);
            this._monitor.cancel();
            this._monitor = null;
        }
        this._holder.stop();
    }

    _readRules() {
        let text = '';
        try {
            const [, bytes] = this._GLib.file_get_contents(this._path);
            text = new TextDecoder().decode(bytes);
        } catch (error) {
            if (!error.matches(this._GLib.FileError, this._GLib.FileError.NOENT))
                this._log(`${this._path}: cannot be read: ${error.message}; no app is ruled`);
            this._rules = [];
            return;
        }
        try {
            this._rules = parseFollowConf(text, this._path);
        } catch (error) {
            this._log(`${error.message}; no app is ruled until it is corrected`);
            this._rules = [];
        }
    }

    _update() {
        const window = this._display.focus_window;
        const names = window ? appNames(window, this._tracker) : [];
        const rule = names.length > 0 ? ruleFor(this._rules, names) : null;
        this._holder.hold(rule === null ? null : {app: names[0], rule});
    }
};
