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

"""Sensor faults and suspend/resume, checked on the real orientd with an emulated accelerometer (umockdev).

One line per check: its name, PASS or FAIL, and the figures measured. Each check starts its own daemon
(`orientd run` on a private socket, the testbed's preload) with a client that began generating:
  hotplug        the accelerometer removed and added again while generating, several times: the time from
                 its return (the add uevent) to the client's `sensor` event and to its first orientation
                 event (scans written as soon as the buffer is enabled), against the 1 s target;
  read-error     poll mode, `in_accel_x_raw` made unreadable (a directory: EISDIR): logged once, the sensor
                 `failed` after the 5 s limit, another client still served, `active` and orientation again
                 once the attribute reads;
  saturated      from the first scan on, x clipped at the top of le:s16 (a pose that, believed, would be
                 portrait): no orientation event, `status` says why, the next plausible pose is used;
  zero           0, 0, 0 on every axis after a pose: no event, `status` says why, then a pose again;
  silent-buffer  the buffer stops delivering and the driver has lost `buffer/enable` (as after a resume):
                 the time until the daemon enables it again (PollFallbackSec=2), then orientation again;
  stays-silent   the same buffer stays silent after that: the time until it polls instead, then orientation
                 from the raw attributes;
  clock-jump     the scans' timestamps jump 30 s (a suspend seen by the IIO timestamp clock): the time until
                 the buffer is enabled again (PollFallbackSec=10, so silence cannot be the cause).

Usage: scripts/reliability-sensor.py ORIENTD [--rounds 5] [--only NAME,...]
A daemon that does not start fails its check, with the reason, and the others still run. The last line
counts the checks that passed and failed; the exit status is 1 if one failed.
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps).
"""
import argparse
import os
import sys
import tempfile
import time

from orientd_harness import checks
from orientd_harness.client import NoReply
from orientd_harness.daemon import Daemon, Failure, Run, exit_on_sigterm
from orientd_harness.device import EmulatedAccelerometer, Feed
from orientd_harness.figures import machine, percentile

TARGET_MS = 1000
NORMAL, LEFT_UP = (0, -1000, 0), (1000, 0, 0)


class Watched(Daemon):
    """A daemon at 50 Hz with a client, whose events are kept in `seen` as the check waits for them."""

    def __init__(self, run, name, *args):
        super().__init__(run.a.orientd, run.work, name, *run.defaults, *args, device=run.device)
        self.seen = []

    def start(self):
        super().start()
        self.client = self.connect()
        return self

    def call(self, method):
        """The result of a request; the events read on the way are kept for `wait_event`."""
        try:
            return self.client.result(method)
        except NoReply as error:
            raise Failure(str(error)) from None

    def events(self, timeout):
        """Events that arrive within `timeout` (and those already read)."""
        events = [m for m in self.client.messages(timeout) if m.is_event]
        self.seen += events
        return events

    def wait_event(self, condition, timeout, what):
        """The first event satisfying `condition` (its `arrived` is when it was read)."""
        def matches(message):
            if message.is_event:
                self.seen.append(message)
                return condition(message)
            return False
        message = self.client.wait_for(matches, timeout, self.alive)
        if message is None:
            raise Failure(f"no {what} within {timeout} s" + ("" if self.alive() else " (the daemon exited)"))
        return message.arrived, message

    def begin(self, buffered=True):
        self.client.pending = []
        try:
            super().begin(self.client, buffered)
        except NoReply as error:
            raise Failure(str(error)) from None
        self.seen = []  # events taken by wait_event from here on (the sensor event of begin included)


def device_of(message):
    return message.get("state", {}).get("device")


def wait_until(condition, timeout, step=0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def first_pose(d, run):
    run.feed.hold(NORMAL, 1)
    d.wait_event(lambda m: device_of(m) == "landscape-left", 10, "first orientation")
    d.events(0.1)  # the rest of that change (its interface event)


def check_hotplug(run):
    bed = run.device
    try:
        with Watched(run, "hotplug", "--poll-fallback-sec", "10") as d:
            d.begin()
            first_pose(d, run)
            if not wait_until(lambda: bed.monitors(), 10):
                raise Failure("the daemon's udev monitor does not listen")
            sensor_ms, orientation_ms = [], []
            for round in range(run.a.rounds):
                bed.remove()
                d.wait_event(lambda m: m.get("event") == "sensor" and m["state"]["sensor"] == "absent", 10,
                             "sensor event on removal")
                returned = bed.add()
                arrived, _ = d.wait_event(lambda m: m.get("event") == "sensor" and m["state"]["sensor"] == "active",
                                          10, "sensor event on return")
                sensor_ms.append((arrived - returned) / 1e6)
                if not bed.wait_for_buffer(True, 10, d.alive):
                    raise Failure("the buffer was not enabled after the return")
                run.feed.hold(NORMAL if round % 2 else LEFT_UP, 0.3)
                arrived, _ = d.wait_event(lambda m: m.get("event") == "device" and device_of(m) != "unknown", 10,
                                          "orientation after the return")
                orientation_ms.append((arrived - returned) / 1e6)
        ok = max(orientation_ms) <= TARGET_MS
        return ok, (f"{run.a.rounds} removals and returns: return -> sensor event p50 "
                    f"{percentile(sensor_ms, 50):.0f} ms, max {max(sensor_ms):.0f} ms; return -> orientation p50 "
                    f"{percentile(orientation_ms, 50):.0f} ms, max {max(orientation_ms):.0f} ms "
                    f"(target <= {TARGET_MS} ms)")
    finally:
        if not bed.present():
            bed.add()


def check_read_error(run):
    bed = run.device
    attribute = os.path.join(bed.sysfs, "in_accel_x_raw")
    try:
        with Watched(run, "read-error", "--poll") as d:
            d.begin(buffered=False)
            d.wait_event(lambda m: device_of(m) == "landscape-left", 10, "first orientation")
            os.remove(attribute)
            os.mkdir(attribute)
            broken = time.monotonic_ns()
            arrived, failed = d.wait_event(lambda m: m.get("event") == "sensor", 20, "sensor event on the read error")
            to_failed = (arrived - broken) / 1e6
            other = d.connect()
            asked = time.monotonic_ns()
            other.send({"id": 1, "method": "status"})
            replies = [m for m in other.receive(5) if m.get("id") == 1]
            other_ms = (time.monotonic_ns() - asked) / 1e6
            status = replies[0]["result"]["sensor"] if replies else {}
            logged = d.log().count("cannot read the accelerometer")
            os.rmdir(attribute)
            bed.set("in_accel_x_raw", "1000")
            bed.set("in_accel_y_raw", "0")
            fixed = time.monotonic_ns()
            arrived, _ = d.wait_event(lambda m: device_of(m) == "portrait", 30, "orientation after the repair")
            to_back = (arrived - fixed) / 1e6
            ok = (failed["state"]["sensor"] == "failed" and logged == 1
                  and "accel_x raw" in (status.get("last_error") or "") and d.alive())
        return ok, (f"read error -> sensor failed {to_failed:.0f} ms (limit 5 s of failing reads); 'cannot read' "
                    f"logged {logged}x; another client's status answered in {other_ms:.1f} ms "
                    f"(last_error: {status.get('last_error')!r}); repaired -> active + orientation {to_back:.0f} ms")
    finally:
        if os.path.isdir(attribute):
            os.rmdir(attribute)
            bed.set("in_accel_x_raw", "0")


def check_reading(run, name, bad, after_pose):
    with Watched(run, name, "--poll-fallback-sec", "10") as d:
        d.begin()
        if after_pose:
            first_pose(d, run)
        before = d.call("status")["sensor"]["samples_read"]
        run.feed.hold(bad, 2)
        wait_until(lambda: d.call("status")["sensor"]["samples_read"] >= before + 100, 10, 0.02)
        false_events = [m for m in d.events(0.2) if m.get("event") in ("device", "interface")]
        status = d.call("status")
        pose, expected = (LEFT_UP, "portrait") if after_pose else (NORMAL, "landscape-left")
        run.feed.hold(pose, 1)
        d.wait_event(lambda m: device_of(m) == expected, 10, "orientation after the bad readings")
        error = status["sensor"].get("last_error")
        ok = not false_events and error is not None and "readings ignored" in error and d.alive()
    return ok, (f"100 scans of {bad}: {len(false_events)} orientation events, device {status['state']['device']}, "
                f"last_error {error!r}; the next pose was used")


def check_silent(run, stays):
    bed = run.device
    with Watched(run, "stays-silent" if stays else "silent-buffer", "--poll-fallback-sec", "2") as d:
        d.begin()
        first_pose(d, run)
        d.seen = []
        bed.set("buffer/enable", "0")
        stopped = time.monotonic_ns()
        if not wait_until(lambda: bed.attribute("buffer/enable") == "1", 10):
            raise Failure("the buffer was not enabled again")
        reenabled = (time.monotonic_ns() - stopped) / 1e6
        if not stays:
            run.feed.hold(LEFT_UP, 1)
            written = time.monotonic_ns()
            arrived, _ = d.wait_event(lambda m: device_of(m) == "portrait", 10, "orientation after the re-enable")
            mode = d.call("status")["sensor"]
            quiet = not any(m.get("event") == "sensor" for m in d.seen)
            ok = mode["mode"] == "buffer" and quiet and "disabling and enabling the buffer again" in d.log()
            return ok, (f"silent (PollFallbackSec=2) -> buffer enabled again {reenabled:.0f} ms; scans -> "
                        f"orientation {(arrived - written) / 1e6:.0f} ms; mode {mode['mode']}, no sensor event: "
                        f"{quiet}")
        polled = wait_until(lambda: d.call("status")["sensor"]["mode"] == "poll", 15, 0.02)
        to_poll = (time.monotonic_ns() - stopped) / 1e6
        if not polled:
            raise Failure("the daemon did not poll")
        for axis, value in zip("xyz", LEFT_UP):
            bed.set(f"in_accel_{axis}_raw", value)
        written = time.monotonic_ns()
        arrived, _ = d.wait_event(lambda m: device_of(m) == "portrait", 10, "orientation while polling")
        status = d.call("status")["sensor"]
        ok = status["fell_back"] and "stayed silent" in d.log()
        return ok, (f"silent -> enabled again {reenabled:.0f} ms -> polling {to_poll:.0f} ms after the stop "
                    f"(PollFallbackSec=2); attributes -> orientation {(arrived - written) / 1e6:.0f} ms; "
                    f"fell_back {status['fell_back']}")


def check_clock_jump(run):
    bed = run.device
    with Watched(run, "clock-jump", "--poll-fallback-sec", "10") as d:
        d.begin()
        first_pose(d, run)
        bed.set("buffer/enable", "0")
        run.feed.skip(30)
        run.feed.hold(NORMAL, 0.2)
        written = time.monotonic_ns()
        if not wait_until(lambda: bed.attribute("buffer/enable") == "1", 8):
            raise Failure("the buffer was not enabled again within 8 s")
        reenabled = (time.monotonic_ns() - written) / 1e6
        run.feed.hold(LEFT_UP, 1)
        d.wait_event(lambda m: device_of(m) == "portrait", 10, "orientation after the jump")
        ok = "the clock jumped by 30 s" in d.log()
    return ok, f"30 s jump in the scans' timestamps -> buffer enabled again {reenabled:.0f} ms; orientation again"


CHECKS = [
    ("hotplug", check_hotplug),
    ("read-error", check_read_error),
    ("saturated", lambda run: check_reading(run, "saturated", (32767, -1000, 0), after_pose=False)),
    ("zero", lambda run: check_reading(run, "zero", (0, 0, 0), after_pose=True)),
    ("silent-buffer", lambda run: check_silent(run, stays=False)),
    ("stays-silent", lambda run: check_silent(run, stays=True)),
    ("clock-jump", check_clock_jump),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the orientd binary (a release build for figures worth quoting)")
    ap.add_argument("--rounds", type=int, default=5, help="hotplug removals and returns (default 5)")
    ap.add_argument("--only", default="", help="comma-separated checks to run (default: all)")
    a = ap.parse_args()
    a.orientd = os.path.abspath(a.orientd)
    only = set(filter(None, a.only.split(",")))
    unknown = only - {name for name, _ in CHECKS}
    if unknown:
        ap.error(f"no such check: {', '.join(sorted(unknown))}")
    exit_on_sigterm("reliability-sensor")
    print(f"machine: {machine()}")
    print(f"daemon: {a.orientd}")
    print("method: umockdev testbed (HID-style accel_3d, le:s16 + timestamp, PTY node), orientd run --rate 50 as a "
          "child; times from the fault or repair to the event read by a client (Unix socket)", flush=True)
    results = checks.Checks(width=14)
    with tempfile.TemporaryDirectory(prefix="orientd-reliability-sensor-") as work:
        run = Run(a, EmulatedAccelerometer(), work, "--rate", "50")
        run.feed = Feed(run.device)  # one clock for the scans of every check
        for name, check in CHECKS:
            if not only or name in only:
                results.run(name, check, run)
    sys.exit(results.summary())


if __name__ == "__main__":
    main()
