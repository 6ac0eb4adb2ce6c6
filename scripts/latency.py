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

"""Event latency of the real orientd on an emulated accelerometer (umockdev), buffered mode.

Measures the time from writing the deciding scan to the emulated device (a PTY that libiio
reads) to the event arriving at a client over the control socket: the daemon's own cost
beyond the classifier's decision (read, decode, calibrate, classify, policy, encode, send).
The classifier's decision time (how long after the hand stops it decides, in sample time) is
reported apart, from the same samples.

Method: the device is turned through the four poses (0.6 s each at 100 Hz, with timestamps).
Scans are written in bulk up to shortly before each change, then one at a time, 5 ms apart,
each write timed; the event that follows is attributed to the last scan written before it.

With --settle S, each pose is held 1.6 s (sample time), long enough for the daemon to drop to its idle pace,
and the script waits S seconds (real time) before each change, so that every change starts from a settled
daemon.

Usage: scripts/latency.py ORIENTD [--changes 200] [--settle S]
Exits 1 with the reason if the daemon does not start or a change gets no event.
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse
import os
import sys
import tempfile
import time

from orientd_harness.daemon import Daemon, DaemonStartError, exit_on_sigterm
from orientd_harness.device import EmulatedAccelerometer, scan, tour
from orientd_harness.figures import machine, percentile

RATE = 100
HOLD = 0.6
SETTLED_HOLD = 1.6


def measure(orientd, device, work, changes, settle=0.0):
    """(latencies, decisions) in ms, one of each per change; raises RuntimeError if a change gets no event."""
    with Daemon(orientd, work, "latency", "--rate", str(RATE), "--poll-fallback-sec", "10", device=device) as daemon:
        client = daemon.connect()
        client.send({"id": 1, "method": "begin"})
        while device.attribute("buffer/enable") != "1":
            client.receive(0.01)
            if not daemon.alive():
                raise RuntimeError(f"the daemon exited with status {daemon.returncode}{daemon.log_tail()}")
        client.receive(0.05)
        hold = SETTLED_HOLD if settle > 0 else HOLD
        samples = tour(changes, RATE, hold)
        per_hold = int(hold * RATE)
        latencies, decisions, index = [], [], 0
        for change in range(1, changes + 1):
            start = change * per_hold  # the first sample of the new pose
            bulk_end = start + 3  # scans before this one cannot decide (the dwell is 150 ms)
            if settle > 0:
                device.write(b"".join(scan(*s) for s in samples[index:start]))
                index = start
                client.receive(0.05)
                time.sleep(settle)  # still: the idle pace
            device.write(b"".join(scan(*s) for s in samples[index:bulk_end]))
            index = bulk_end
            client.receive(0.02)  # let the daemon take them; no event can come from them
            event = None
            while index < start + per_hold and event is None:
                written = time.monotonic_ns()
                device.write(scan(*samples[index]))
                index += 1
                for message in client.receive(0.005):
                    if message.get("event") == "device" and event is None:
                        event = message
                        latencies.append((message.arrived - written) / 1e6)
                        decisions.append((index - 1 - start) * 1000 / RATE)
            if event is None:
                raise RuntimeError(f"no device event for change {change}"
                                   + (" (the daemon closed the connection)" if client.closed else ""))
    return latencies, decisions


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the orientd binary (a release build for figures worth quoting)")
    ap.add_argument("--changes", type=int, default=200, help="pose changes measured (default 200)")
    ap.add_argument("--settle", type=float, default=0.0, metavar="S",
                    help="hold each pose 1.6 s and wait S seconds before each change (default 0: no wait)")
    a = ap.parse_args()
    exit_on_sigterm("latency")
    try:
        with tempfile.TemporaryDirectory(prefix="orientd-latency-") as work:
            latencies, decisions = measure(os.path.abspath(a.orientd), EmulatedAccelerometer(), work, a.changes,
                                           a.settle)
    except (DaemonStartError, RuntimeError) as error:
        sys.exit(f"latency: {error}")
    print(f"machine: {machine()}; {a.orientd}")
    print(f"method: umockdev PTY, buffered le:s16 + timestamp at {RATE} Hz, {len(latencies)} changes; "
          "scans written one at a time near each change"
          + (f"; {a.settle:g} s still before each change" if a.settle > 0 else ""))
    print(f"classifier decision after the pose began (sample time): "
          f"p50 {percentile(decisions, 50):.0f} ms, p99 {percentile(decisions, 99):.0f} ms")
    print(f"event latency beyond the classifier (scan written -> event read): "
          f"p50 {percentile(latencies, 50):.3f} ms, p99 {percentile(latencies, 99):.3f} ms, "
          f"max {max(latencies):.3f} ms")


if __name__ == "__main__":
    main()
