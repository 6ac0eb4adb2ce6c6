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

"""The demo: the real orientd on an emulated accelerometer, watched by `orientctl watch`.

No hardware needed: umockdev emulates an IIO accelerometer (sysfs, udev and its device node)
for the real libiio and libudev inside orientd. This script turns the emulated device by hand,
so to speak: it writes scans (x, y, z and a timestamp) to the device node as a hand would move
a tablet through all of its orientations, while `orientctl watch` prints every change.

Usage: scripts/demo.py ORIENTD ORIENTCTL [--speed 1]
  --speed 4 feeds the same motion four times faster than real time (the classifier goes by the
  scans' timestamps, so it decides exactly the same).
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse
import math
import signal
import subprocess
import sys
import tempfile
import time

from orientd_harness.daemon import Daemon, DaemonStartError, exit_on_sigterm
from orientd_harness.device import EmulatedAccelerometer, scan

RATE = 50

# Gravity directions (unit vectors in the panel frame of ORIENTATION.md) and what to say.
NORMAL, LEFT_UP, BOTTOM_UP, RIGHT_UP = (0, -1, 0), (1, 0, 0), (0, 1, 0), (-1, 0, 0)
FACE_UP, FACE_DOWN = (0, 0, 1), (0, 0, -1)
TOUR = [
    (NORMAL, "held upright, as a laptop's screen"),
    (LEFT_UP, "turned a quarter clockwise: left edge up"),
    (BOTTOM_UP, "turned a quarter more: upside down"),
    (RIGHT_UP, "turned a quarter more: right edge up"),
    (NORMAL, "back upright"),
    (FACE_UP, "laid on its back on a table"),
    (FACE_DOWN, "flipped onto its face"),
    (LEFT_UP, "picked up, left edge up"),
]


def slerp(a, b, s):
    """Unit vector a turned toward b by the fraction s (smoothly, as a hand does)."""
    s = 10 * s**3 - 15 * s**4 + 6 * s**5
    v = [a[i] * (1 - s) + b[i] * s for i in range(3)]
    if all(abs(c) < 1e-9 for c in v):  # a half turn: go through a side
        v = [a[1], -a[0], a[2] + 0.01]
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


def scans():
    """(bytes of one scan, narration or None) at RATE Hz through the tour."""
    t, previous = 0.0, None
    for target, words in TOUR:
        yield None, words
        if previous is not None:
            for i in range(int(0.7 * RATE)):  # a 0.7 s turn
                yield pack(slerp(previous, target, (i + 1) / (0.7 * RATE)), t, i), None
                t += 1 / RATE
        for i in range(int(1.8 * RATE)):  # held for 1.8 s
            yield pack(target, t, i), None
            t += 1 / RATE
        previous = target


def pack(direction, t, i):
    wobble = 0.01 * math.sin(i * 0.9)  # a little hand tremor
    counts = [int(round(1000 * (c + wobble))) for c in direction]
    return scan(counts[0], counts[1], counts[2], int(t * 1e9))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd")
    ap.add_argument("orientctl")
    ap.add_argument("--speed", type=float, default=1.0)
    a = ap.parse_args()

    exit_on_sigterm("demo")
    device = EmulatedAccelerometer()
    print("== orientd on an emulated accelerometer (umockdev); orientctl watch prints each change", flush=True)
    with tempfile.TemporaryDirectory(prefix="orientd-demo-") as work:
        daemon = Daemon(a.orientd, work, "orientd", device=device)
        try:
            daemon.start()
        except DaemonStartError as error:
            sys.exit(f"demo: {error}")
        watch = None
        try:
            watch = subprocess.Popen([a.orientctl, "--socket", daemon.socket, "watch"])
            if not device.wait_for_buffer(alive=daemon.alive):
                sys.exit("demo: orientd did not start the accelerometer")
            print("== the sensor runs only now that orientctl watch is generating", flush=True)
            start = time.monotonic()
            sent = 0
            for data, words in scans():
                if words:
                    time.sleep(0.05 / a.speed)
                    print(f"-- {words}", flush=True)
                    continue
                sent += 1
                due = start + sent / RATE / a.speed
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
                device.write(data)
            time.sleep(0.3)
        finally:
            if watch is not None:
                watch.send_signal(signal.SIGINT)
                watch.wait(timeout=10)
            daemon.stop()
            restored = device.attribute("buffer/enable") == "0"
            print(f"== stopped: orientd exited with {daemon.returncode}; the accelerometer is "
                  f"{'restored' if restored else 'NOT restored'}", flush=True)


if __name__ == "__main__":
    main()
