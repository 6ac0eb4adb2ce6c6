#!/usr/bin/python3
##===----------------------------------------------------------------------===##
##
## This source file is part of the orientd open source project
##
## Copyright (c) 2026 the orientd project authors
## Licensed under Apache License v2.0
##
## See LICENSE for license information
##
## SPDX-License-Identifier: Apache-2.0
##
##===----------------------------------------------------------------------===##

# A small GTK 4 app for the desktop tests: one window, the application id given (GNOME's
# get_gtk_application_id, KWin's resourceClass), the title given. Prints "shown" once the window is
# mapped, and ends when the window is closed or the process gets SIGTERM.
#
#   desktop-app.py APP_ID TITLE

import signal
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

app_id, title = sys.argv[1], sys.argv[2]


def activate(application):
    window = Gtk.ApplicationWindow(application=application, title=title)
    window.set_default_size(320, 200)
    window.connect("map", lambda _w: print("shown", flush=True))
    window.present()


# NON_UNIQUE: two windows of one app may run as two processes (the tests switch between them).
app = Gtk.Application(application_id=app_id, flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", activate)
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: app.quit() or GLib.SOURCE_REMOVE)
sys.exit(app.run([sys.argv[0]]))
