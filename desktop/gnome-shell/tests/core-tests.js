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

// The shared core's tests, run by gjs (no shell needed) on either build:
//
//   gjs -m desktop/gnome-shell/tests/core-tests.js 45 DIR   # DIR: scripts/build-gnome-extension 45 DIR
//   gjs -m desktop/gnome-shell/tests/core-tests.js 43 DIR   # the `imports` build, loaded with imports
//
// It prints one line per check failed and "core-tests: N checks passed" at the end; exit status 1 when one failed.

import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import System from 'system';

const [build, dir] = ARGV;
let core;
if (build === '45') {
    core = await import(`file://${dir}/core.js`);
} else {
    imports.searchPath.unshift(dir);
    core = imports.core;
}

let passed = 0;
let failed = 0;
function check(condition, what) {
    if (condition) {
        passed++;
    } else {
        failed++;
        print(`FAIL: ${what}`);
    }
}
function equal(actual, expected, what) {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
    check(a === e, `${what}: ${a}, expected ${e}`);
}
function throwsWith(body, text, what) {
    try {
        body();
        check(false, `${what}: no error, expected one with '${text}'`);
    } catch (error) {
        check(error.message.includes(text), `${what}: '${error.message}' lacks '${text}'`);
    }
}

// Masks, as orientctl reads them.
equal(core.parseMask('landscape'), ['landscape-left', 'landscape-right'], 'landscape');
equal(core.parseMask('all-but-upside-down'), ['portrait', 'landscape-left', 'landscape-right'], 'all-but-upside-down');
equal(core.parseMask('landscape-right, portrait'), ['portrait', 'landscape-right'], 'a list, in listing order');
equal(core.parseMask('portrait landscape-left'), ['portrait', 'landscape-left'], 'a list with a space');
throwsWith(() => core.parseMask('sideways'), 'allowed: a mask (portrait', 'an unknown name');
throwsWith(() => core.parseMask(''), 'allowed: a mask', 'no name');
throwsWith(() => core.parseMask('toString'), 'allowed: a mask', 'a name of Object.prototype');

// Globs, as fnmatch(3) without flags.
const globs = [
    ['mpv', 'mpv', true], ['mpv', 'mpv2', false], ['mpv', 'MPV', false],
    ['steam_app_*', 'steam_app_1234', true], ['steam_app_*', 'steam_app_', true], ['steam_app_*', 'steam', false],
    ['*', '', true], ['a*b*c', 'axxbyyc', true], ['a*b*c', 'axxbyy', false],
    ['?pv', 'mpv', true], ['?pv', 'pv', false],
    ['org.[a-c]x', 'org.bx', true], ['org.[a-c]x', 'org.dx', false], ['org.[!a-c]x', 'org.dx', true],
    ['org.[^a-c]x', 'org.ax', false], ['[]]', ']', true], ['[', '[', true], ['a\\*', 'a*', true], ['a\\*', 'ab', false],
    ['*.Foliate', 'com.github.johnfactotum.Foliate', true], ['a/*', 'a/b/c', true],
];
for (const [pattern, name, expected] of globs)
    equal(core.globMatches(pattern, name), expected, `'${pattern}' against '${name}'`);

// follow.conf, one format for follow and the extension.
const text = '# rules\n[Follow]\nBackend=sway\nThen=anything = at all\n\n[Apps]\nmpv = landscape\n; a reader\n'
    + 'org.pwmt.zathura=portrait\nsteam_app_*=landscape-right\n';
const rules = core.parseFollowConf(text, 'follow.conf');
equal(rules, [
    {pattern: 'mpv', mask: ['landscape-left', 'landscape-right'], line: 7},
    {pattern: 'org.pwmt.zathura', mask: ['portrait'], line: 9},
    {pattern: 'steam_app_*', mask: ['landscape-right'], line: 10},
], 'the rules, in file order');
equal(core.parseFollowConf('', 'f'), [], 'an empty file');
throwsWith(() => core.parseFollowConf('[Apps]\nmpv=landscape\nmpv=portrait\n', 'f'), 'f:3: the app mpv is ruled twice', 'twice');
throwsWith(() => core.parseFollowConf('[Apps]\nmpv=sideways\n', 'f'), 'f:2: mpv=sideways: allowed: a mask', 'unknown mask');
throwsWith(() => core.parseFollowConf('[Other]\n', 'f'), 'f:1: unknown section [Other]', 'unknown section');
throwsWith(() => core.parseFollowConf('[Apps\n', 'f'), "f:1: '[Apps' is not a [Section] line", 'unclosed');
throwsWith(() => core.parseFollowConf('[Apps]\nmpv\n', 'f'), "f:2: 'mpv' is not Key=Value", 'no =');
throwsWith(() => core.parseFollowConf('mpv=landscape\n', 'f'), 'f:1: mpv= comes before the [Follow] or [Apps] line', 'no section');
equal(core.ruleFor(rules, ['steam_app_42'])?.line, 10, 'a glob rule');
equal(core.ruleFor(rules, ['gimp', 'mpv'])?.line, 7, 'any of the names');
equal(core.ruleFor(rules, ['gimp']), null, 'no rule');
equal(core.ruleFor(core.parseFollowConf('[Apps]\nm*=portrait\nmpv=landscape\n', 'f'), ['mpv']).line, 2, 'the first rule wins');

// A window's names: the GTK application id, the tracker's app, WM_CLASS and its instance, each once.
const window = {
    get_gtk_application_id: () => 'io.mpv.Mpv', get_wm_class: () => 'mpv', get_wm_class_instance: () => 'mpv',
};
const tracker = {get_window_app: () => ({get_id: () => 'io.mpv.Mpv.desktop'})};
equal(core.appNames(window, tracker), ['io.mpv.Mpv', 'mpv'], 'names of a GTK window');
const plain = {get_gtk_application_id: () => null, get_wm_class: () => 'xterm', get_wm_class_instance: () => 'XTerm'};
equal(core.appNames(plain, {get_window_app: () => ({get_id: () => 'window:3'})}), ['xterm', 'XTerm'], 'no desktop file');

// The requests: the mask and the holder status shows; null releases.
const holder = new core.FocusHolder({GLib, Gio, socketPath: '/nonexistent', via: 'GNOME extension', log: () => {}});
const want = {app: 'mpv', rule: rules[0]};
equal(JSON.parse(holder.request(want, 3)), {
    id: 3, method: 'constrain', params: {mask: ['landscape-left', 'landscape-right'], holder: 'app mpv (GNOME extension)'},
}, 'the constrain request');
equal(JSON.parse(holder.request(null, 4)), {id: 4, method: 'constrain', params: {mask: null}}, 'the release');
check(holder.request(want, 1).endsWith('}\n') && holder.request(want, 1).split('\n').length === 2, 'one line');
const long = JSON.parse(holder.request({app: 'x'.repeat(300), rule: rules[0]}, 5)).params.holder;
check(Array.from(long).length === 200 && long.endsWith('…'), `a long holder is cut to 200 characters: ${long.length}`);

// The connection, against a socket of this test's own: one line per change, nothing for the same hold, and after
// the peer closes, a new connection that holds it again.
const folder = GLib.dir_make_tmp('orientd-core-XXXXXX');
const socketPath = `${folder}/socket`;
const service = new Gio.SocketService();
service.add_address(Gio.UnixSocketAddress.new(socketPath), Gio.SocketType.STREAM, Gio.SocketProtocol.DEFAULT, null);
const connections = [];
const lines = [];
const logged = [];
let peer = null;
service.connect('incoming', (_service, connection) => {
    connections.push(connection);
    peer = connection;
    const input = new Gio.DataInputStream({base_stream: connection.get_input_stream()});
    const readLine = () => input.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
        let line;
        try {
            [line] = stream.read_line_finish_utf8(result);
        } catch (error) {
            return;
        }
        if (line === null)
            return;
        const request = JSON.parse(line);
        lines.push(request);
        const reply = request.params.mask !== null && request.params.mask.includes('portrait-upside-down')
            ? {id: request.id, error: {code: 'empty-mask', message: 'the lock allows none of it'}}
            : {id: request.id, result: {}};
        connection.get_output_stream().write_all(new TextEncoder().encode(`${JSON.stringify(reply)}\n`), null);
        readLine();
    });
    readLine();
    return true;
});
service.start();
const loop = new GLib.MainLoop(null, false);
function waitFor(condition, what) {
    const deadline = GLib.get_monotonic_time() + 10_000_000;
    while (!condition() && GLib.get_monotonic_time() < deadline)
        loop.get_context().iteration(true);
    check(condition(), `${what}: not seen within 10 s (lines: ${JSON.stringify(lines)}, log: ${JSON.stringify(logged)})`);
}
const live = new core.FocusHolder({GLib, Gio, socketPath, via: 'GNOME extension', log: line => logged.push(line)});
live.hold(want);
live.start();
waitFor(() => lines.length === 1, 'the hold is sent once connected');
equal(lines[0]?.params, {mask: ['landscape-left', 'landscape-right'], holder: 'app mpv (GNOME extension)'}, 'held');
live.hold({app: 'mpv', rule: rules[0]});
live.hold(null);
waitFor(() => lines.length === 2, 'the release is sent');
equal(lines[1]?.params, {mask: null}, 'released, the same hold in between sent nothing');
live.hold({app: 'upside', rule: {pattern: 'upside', mask: ['portrait-upside-down'], line: 1}});
waitFor(() => logged.some(line => line.includes('orientd refused to hold portrait-upside-down for upside: empty-mask')),
    'a refusal is logged');
live.hold(want);
waitFor(() => lines.length === 4, 'the next hold after a refusal');
// The peer closes (orientd restarts): a new connection, which holds it again.
peer.close(null);
waitFor(() => connections.length === 2 && lines.length === 5, 'held again on a new connection');
equal(lines[4]?.params?.holder, 'app mpv (GNOME extension)', 'held again');
check(logged.some(line => line.includes('orientd closed the connection')), `the loss is logged: ${logged}`);
// Stopped: the connection closes, nothing connects again.
live.stop();
waitFor(() => {
    try {
        return connections[1].get_input_stream().read_bytes(1, null).get_size() === 0;
    } catch (error) {
        return true;
    }
}, 'stop closes the connection');
service.stop();
service.close();
GLib.unlink(socketPath);
GLib.rmdir(folder);

print(`core-tests: ${passed} checks passed, ${failed} failed (the ${build} build)`);
System.exit(failed === 0 ? 0 : 1);
