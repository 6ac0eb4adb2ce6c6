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

extension Follow {
    /// `orientctl follow --help`'s account of what follow does, its backends and follow.conf.
    static let discussion = """
        Starts the sensor (begin) and applies the current interface orientation, then each change, \
        printing 'device=D interface=I rotation=R' per change applied (with --json: the state object). \
        Nothing is applied while the interface orientation is unknown. A command that fails is reported \
        on standard error (the command, its exit status and what it said) and tried again at the next \
        change; when orientd restarts, follow reconnects and applies its state. SIGINT or SIGTERM end it \
        with status 0; it ends with status 3 only if orientd cannot be reached at the start.

        The backend is --backend, else the session's: sway when SWAYSOCK is set, hyprland when \
        HYPRLAND_INSTANCE_SIGNATURE is, niri when NIRI_SOCKET is, kde when XDG_CURRENT_DESKTOP names KDE, \
        cosmic when it names COSMIC, wlr in any other Wayland session but GNOME's (WAYLAND_DISPLAY), x11 when \
        DISPLAY is set without WAYLAND_DISPLAY. The output is --output, else the built-in panel: the \
        connected eDP, DSI or LVDS connector of /sys/class/drm under the compositor's name for it; without \
        DRM, the output named eDP*, LVDS* or DSI*, else the only one.

        sway: 'swaymsg output NAME transform T', then 'swaymsg input type:touch map_to_output NAME' and \
        'swaymsg input type:tablet_tool map_to_output NAME' (or one per --touch identifier).

        hyprland: one 'hyprctl --batch' of 'keyword monitor NAME,MODE,POSITION,SCALE,transform,N' (the \
        mode, position and scale kept from 'hyprctl monitors -j'), 'keyword input:touchdevice:transform \
        N' and 'keyword input:tablet:transform N'.

        niri: 'niri msg output NAME transform normal|90|180|270'. wlr (river, labwc, Wayfire and any \
        compositor with wlr-output-management): 'wlr-randr --output NAME --transform normal|90|180|270'. \
        kde: 'kscreen-doctor output.NAME.rotation.none|left|inverted|right' (Plasma turns touch and pen \
        itself). cosmic: 'cosmic-randr mode --transform normal|rotate90|rotate180|rotate270 --refresh HZ \
        NAME WIDTH HEIGHT', the current mode kept from 'cosmic-randr list --kdl'.

        x11: 'xrandr --output NAME --rotate R', then 'xinput set-prop DEVICE "Coordinate Transformation \
        Matrix" …' for each touch screen, pen, eraser and pad of 'xinput list --long' (udev says which \
        sit on the panel), or each --touch device.

        exec: 'sh -c CMD' (--exec CMD) with the variables of 'orientctl watch --exec'.

        --pause-external applies nothing while /sys/class/drm shows an external monitor connected and \
        applies the latest orientation when none is (checked every 2 s). --natural-in-laptop-mode holds \
        rotation 0 while orientd says the convertible is out of tablet mode. --then CMD runs 'sh -c CMD' \
        after each rotation applied, with the variables of 'orientctl watch --exec'. A command that runs \
        longer than --timeout is killed and reported like a failure.

        Defaults for every option come from ~/.config/orientd/follow.conf (under $XDG_CONFIG_HOME when \
        set): a [Follow] section with Backend=, Output=, Touch= (one device per line), PanelOffset=, \
        PauseExternal=yes|no, NaturalInLaptopMode=yes|no, Suggest=yes|no, Then=, Exec=, TimeoutSec=.

        Apps choose their orientations: an [Apps] section of follow.conf maps an app to a mask \
        (mpv=landscape, org.pwmt.zathura=portrait, steam_app_*=landscape-right: a glob of the Wayland \
        app_id, Hyprland's class or X11's WM_CLASS). While a ruled app has the focus, follow holds its \
        mask as its constraint on orientd, and releases it when the focus leaves; while a lock is in force, \
        the rules rest. The focus comes from sway's IPC events, Hyprland's event socket, niri's event \
        stream and X11's _NET_ACTIVE_WINDOW (xprop -spy); with kde, cosmic, wlr and exec the rules do not \
        apply, and follow says so once. On KDE Plasma and GNOME, orientd's KWin script and Shell extension \
        apply them (see kwin-focus).

        --suggest (or Suggest=yes in follow.conf) also shows orientd's rotation suggestions as desktop \
        notifications with a Rotate action, as 'orientctl suggest' does: while rotation is locked and the \
        device is turned, choosing Rotate locks the orientation it is held in, and follow turns the display.

        --panel-offset is for a panel whose scan-out is turned from the device's natural orientation \
        (a portrait-native panel in a landscape tablet or laptop): the counter-clockwise rotation, in \
        degrees, that makes the picture upright in the normal pose, added to every rotation. A panel \
        that sway shows upright with 'transform 90' (sway counts clockwise) needs --panel-offset 270. \
        --dry-run prints the commands for each change instead of running them: a way to try offsets.
        """
}
