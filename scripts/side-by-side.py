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

"""iio-sensor-proxy and orientd side by side on the same emulated accelerometer: figures, not a test.

Both daemons run at once over one umockdev accelerometer in poll mode (the udev property
IIO_SENSOR_PROXY_TYPE=iio-poll-accel, which iio-sensor-proxy's udev rule would set, makes iio-sensor-proxy poll
it; orientd runs with --poll and [DBus] Compat=yes). Each owns net.hadess.SensorProxy on its own private system
bus (dbus-daemon with Debian's default policy, plus iio-sensor-proxy's policy file for it and the project's
systemd/net.hadess.SensorProxy.conf for orientd), and each is watched by `monitor-sensor --accel`, which claims
the accelerometer. The device is then turned by hand: a rotation of a quarter turn over 0.5-1 s with tremor,
then still, at random intervals (--seed). Then orientd alone in buffered mode, its scans written at the
sampling frequency it sets, in groups of its buffer's watermark, as the kernel's FIFO delivers them, by a HID
sensor hub whose own `in_accel_hysteresis` is 5 counts: it reports only readings that moved by more than the
hysteresis, which orientd sets to 0 while the device moves and puts back while it is still.

Figures: memory idle (before any claim), claimed and still (SETTLE_SEC after the first orientation), and turning
(right after the turn halfway through the run is reported): first what the system pays, the memory the kernel
cannot reclaim without swap, anonymous + private dirty (the sum over the mappings of /proc/PID/smaps of the larger
of Anonymous and Private_Dirty: proc.unreclaimable_kib says why that counts each page once), with smaps_rollup's
Anonymous and Private_Dirty beside it; then VmRSS, as top shows it (shared libraries' pages counted in full); then
Pss (smaps_rollup; a page shared with other processes counted in part) and USS (the pages of this process alone).
Then what the system pays by mapping (the binary's relocated data, its written data and bss, libsystemd, libc,
other libraries, heap, stack, other anonymous memory) and by library, and the USS by mapping, for both daemons;
CPU time (schedstat of every thread) and wake-ups (context switches of every thread) per second while claimed and
still; latency from the end of each turn to the line monitor-sensor prints (negative: decided before the turn
ended); wake-ups per second while idle.

Usage: scripts/side-by-side.py ORIENTD [--turns 20] [--seed 1] [--still-sec 10] [--idle-sec 5] [--skip-buffered]
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0, iio-sensor-proxy, dbus-daemon (make deps).
The machine's load makes the figures noisy: run it on an otherwise idle machine.
"""
import argparse
import math
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from orientd_harness.daemon import SETTLE_SEC, Daemon, Failure
from orientd_harness.device import SYSPATH, EmulatedAccelerometer, scan
from orientd_harness.figures import machine, percentile
from orientd_harness.proc import (USS_GROUPS, by_library, by_mapping, cpu_ns, kib, rollup, switches,
                                  unreclaimable_pages)

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_POLICY = os.path.join(HERE, "..", "systemd", "net.hadess.SensorProxy.conf")
DEBIAN_POLICIES = ["/usr/share/dbus-1/system.d/net.hadess.SensorProxy.conf",
                   "/etc/dbus-1/system.d/net.hadess.SensorProxy.conf"]
# iio-sensor-proxy's names of the four upright poses, in the order a quarter turn at a time reaches them.
NAMES = ["normal", "left-up", "bottom-up", "right-up"]
# The bus configuration the end-to-end tests use too: Debian's default system policy.
BUS_CONFIG = os.path.join(HERE, "..", "Tests", "Corpus", "private-system-bus.conf")


class Bus:
    """A private system bus (dbus-daemon) in `work`, with `policy` included."""

    def __init__(self, work, name, policy):
        socket_path = os.path.join(work, name + "-bus")
        config = os.path.join(work, name + "-bus.conf")
        with open(BUS_CONFIG) as template, open(config, "w") as f:
            f.write(template.read().replace("@SOCKET@", socket_path)
                    .replace("@INCLUDE@", f"<include>{os.path.abspath(policy)}</include>"))
        self.process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        if "unix:path=" not in line:
            raise Failure(f"dbus-daemon did not start for {name} (exit {self.process.poll()})")
        self.address = "unix:path=" + socket_path
        self.environment = {"DBUS_SYSTEM_BUS_ADDRESS": self.address}

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Monitor:
    """`monitor-sensor --accel` on a bus: every line it prints, with the monotonic time it arrived."""

    def __init__(self, bus):
        self.lines = queue.Queue()
        self.process = subprocess.Popen(["stdbuf", "-oL", "monitor-sensor", "--accel"], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        env=dict(os.environ, **bus.environment))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line.strip()))

    def orientation(self, timeout):
        """The next orientation printed, with its arrival time; None after `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                arrived, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            for marker in ("orientation changed: ", "(orientation: "):
                if marker in line:
                    return arrived, line.split(marker, 1)[1].split(",")[0].rstrip(")").strip()

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Process:
    """A daemon's process as the figures see it."""

    def __init__(self, pid):
        self.pid = pid

    def snapshot(self):
        return time.monotonic(), cpu_ns(self.pid), sum(switches(self.pid).values())

    def major_faults(self):
        """Page faults that read the disk so far (the 12th field of /proc/PID/stat, every thread)."""
        with open(f"/proc/{self.pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[9])

    def rates(self, seconds):
        """CPU ms per second and wake-ups per second over the next `seconds`, and the major faults in them."""
        t0, cpu0, woke0 = self.snapshot()
        faults0 = self.major_faults()
        time.sleep(seconds)
        t1, cpu1, woke1 = self.snapshot()
        self.faults = self.major_faults() - faults0
        return (cpu1 - cpu0) / 1e6 / (t1 - t0), (woke1 - woke0) / (t1 - t0)

    def memory(self):
        """The memory figures now: what the system pays (anonymous + private dirty, summed over the mappings), with
        smaps_rollup's Anonymous and Private_Dirty, VmRSS, Pss and USS in MB; what the system pays by mapping group
        and by library, and the USS by mapping group, in kB."""
        fields = rollup(self.pid)
        groups = by_mapping(self.pid, unreclaimable_pages)
        return {"pays": sum(groups.values()) / 1024, "anonymous": fields.get("Anonymous", 0) / 1024,
                "private_dirty": fields.get("Private_Dirty", 0) / 1024, "rss": kib(self.pid, "VmRSS") / 1024,
                "pss": fields.get("Pss", 0) / 1024,
                "uss": (fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)) / 1024,
                "pays_groups": groups, "pays_libraries": by_library(self.pid, unreclaimable_pages),
                "uss_groups": by_mapping(self.pid)}


class Hand:
    """The hand holding the device: a pose angle (0 upright, 90 left edge up…) that turns a quarter at a time over
    0.5-1 s with tremor, then stays still. `reading(t)` is the raw reading (1 g = 1000 counts) at monotonic time t."""

    def __init__(self, rng):
        self.rng = rng
        self.angle = 0.0
        self.turn = None  # (start, duration, from angle)

    def start_turn(self):
        duration = self.rng.uniform(0.5, 1.0)
        self.turn = (time.monotonic(), duration, self.angle)
        self.angle = (self.angle + 90) % 360
        return self.turn[0] + duration

    def reading(self, t):
        angle, tremor = self.angle, 0.0
        if self.turn is not None:
            start, duration, origin = self.turn
            if t < start + duration:
                progress = max(0.0, (t - start) / duration)
                angle = origin + 90 * (1 - math.cos(math.pi * progress)) / 2
                tremor = 30.0  # counts: a hand's tremor while turning
        theta = math.radians(angle)
        jitter = lambda: self.rng.uniform(-tremor, tremor)  # noqa: E731
        return (round(1000 * math.sin(theta) + jitter()), round(-1000 * math.cos(theta) + jitter()), round(jitter()))


def poll_writer(device, hand, stop):
    """Writes the hand's reading to the raw attributes every 10 ms while it changes (in place, as sysfs shows it)."""
    last = None
    while not stop.is_set():
        reading = hand.reading(time.monotonic())
        if reading != last:
            for axis, value in zip("xyz", reading):
                device.set(f"in_accel_{axis}_raw", value)
            last = reading
        time.sleep(0.01)


def buffer_feeder(device, hand, stop):
    """The sensor and its FIFO while the buffer is on: a scan at every period of the sampling frequency the daemon
    set, delivered once the FIFO holds the watermark the daemon set; disabling the buffer empties the FIFO, as
    the kernel does. As a HID sensor hub, it reports a reading only when an axis moved by more than
    `in_accel_hysteresis` (when not 0) since the last one reported."""
    fifo, next_sample, reported = [], time.monotonic(), None
    while not stop.is_set():
        if device.attribute("buffer/enable") != "1":
            fifo.clear()
            time.sleep(0.005)
            next_sample = time.monotonic()
            continue
        period = 1 / float(device.attribute("sampling_frequency") or 10)
        watermark = max(1, int(device.attribute("buffer/watermark") or 1))
        hysteresis = float(device.attribute("in_accel_hysteresis") or 0)
        now = time.monotonic()
        while next_sample <= now:
            reading = hand.reading(next_sample)
            if hysteresis <= 0 or reported is None or max(abs(a - b) for a, b in zip(reading, reported)) > hysteresis:
                fifo.append(scan(*reading, int(next_sample * 1e9)))
                reported = reading
            next_sample += period
        if len(fifo) >= watermark:
            try:
                device.write(b"".join(fifo))
            except OSError:
                return
            fifo.clear()
        time.sleep(max(0.0, min(0.01, next_sample - time.monotonic())))


def latencies(hand, monitors, turns, rng, name_of, midway=None):
    """Turns the device `turns` times at random intervals; per monitor, the latencies (ms) from the end of each turn
    to its line, and the turns it missed plus the orientations it reported that the hand never held. `midway` is
    called once every monitor has reported the turn halfway through the run (or missed it)."""
    results = {key: [] for key in monitors}
    wrong = {key: 0 for key in monitors}
    for turn in range(turns):
        time.sleep(rng.uniform(3, 6))
        # Lines while still: a repeat of the orientation shown is harmless, another one is a false rotation.
        for key, monitor in monitors.items():
            while (seen := monitor.orientation(timeout=0)) is not None:
                wrong[key] += seen[1] != name_of(hand.angle)
        end = hand.start_turn()
        expected = name_of(hand.angle)
        for key, monitor in monitors.items():
            seen = monitor.orientation(timeout=end - time.monotonic() + 5)
            while seen is not None and seen[1] != expected:
                wrong[key] += seen[1] != name_of((hand.angle - 90) % 360)
                seen = monitor.orientation(timeout=end - time.monotonic() + 5)
            if seen is None:
                wrong[key] += 1
            else:
                results[key].append((seen[0] - end) * 1000)
        if midway is not None and turn == turns // 2:
            midway()
        time.sleep(max(0.0, end - time.monotonic()))
    return results, wrong


def figures_of(process, monitor, still_sec):
    """Claimed and still, SETTLE_SEC after the first orientation: CPU and wake-ups per second over `still_sec`, then
    the memory figures."""
    if monitor.orientation(timeout=10) is None:
        raise Failure("monitor-sensor printed no orientation within 10 s")
    time.sleep(SETTLE_SEC)
    cpu, woke = process.rates(still_sec)
    return {"claimed": process.memory(), "cpu": cpu, "wakeups": woke, "major_faults": process.faults}


def row(label, a, b, unit, digits=1):
    def text(value):
        return "-" if value is None else f"{value:.{digits}f} {unit}".strip()
    ratio = f"{b / a:.2f}×" if a not in (None, 0) and b is not None else "-"
    return f"| {label} | {text(a)} | {text(b)} | {ratio} |"


STATES = ("idle", "claimed", "turning")
STATE_NAMES = {"idle": "idle", "claimed": "claimed and still", "turning": "turning"}


def group_table(figures, title, measure):
    """One memory measure of both daemons in every state by mapping group (MB; `measure` is pays_groups or
    uss_groups), as a markdown table with its total; groups at zero everywhere are left out."""
    columns = [(key, state) for key in ("orientd", "iio-sensor-proxy") for state in STATES]
    lines = [f"| {title} | " + " | ".join(f"{key}, {STATE_NAMES[state]}" for key, state in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for group in USS_GROUPS + ["total"]:
        cells = []
        for key, state in columns:
            groups = figures[key][state][measure]
            cells.append(sum(groups.values()) if group == "total" else groups.get(group, 0))
        if any(cells):
            lines.append(f"| {group} | " + " | ".join(f"{kb / 1024:.2f} MB" for kb in cells) + " |")
    return "\n".join(lines)


def memory_rows(a, b):
    """The memory rows of the side-by-side table: what the system pays first, then VmRSS, Pss and USS, each idle,
    claimed and still, and turning."""
    for label, field in [("what the system pays (anonymous + private dirty)", "pays"),
                         ("resident memory as top shows it (VmRSS)", "rss"), ("proportional memory (Pss)", "pss"),
                         ("private memory (USS)", "uss")]:
        for state in STATES:
            print(row(f"{label}, {STATE_NAMES[state]}", a[state][field], b[state][field], "MB", 2))


def latency_text(values):
    if not values:
        return "-"
    return (f"{percentile(values, 50):.0f} / {percentile(values, 90):.0f} / {max(values):.0f} ms"
            f" ({len(values)} turns)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("orientd")
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--still-sec", type=float, default=10)
    parser.add_argument("--idle-sec", type=float, default=5)
    parser.add_argument("--skip-buffered", action="store_true")
    args = parser.parse_args()
    sensor_proxy = shutil.which("iio-sensor-proxy") or "/usr/sbin/iio-sensor-proxy"
    debian_policy = next((p for p in DEBIAN_POLICIES if os.path.exists(p)), None)
    for needed, what in [(os.access(sensor_proxy, os.X_OK), sensor_proxy), (debian_policy, "its bus policy"),
                         (shutil.which("monitor-sensor"), "monitor-sensor"), (shutil.which("dbus-daemon"),
                                                                                 "dbus-daemon")]:
        if not needed:
            sys.exit(f"side-by-side: iio-sensor-proxy's {what} is missing: run 'make deps'")
    rng = random.Random(args.seed)
    # A binary just built is dirty in the page cache until it is written back: its pages would count as private dirty.
    os.sync()
    print(f"machine: {machine()}")
    print(f"orientd: {args.orientd}; iio-sensor-proxy: {sensor_proxy}; seed {args.seed}, {args.turns} turns")
    work = tempfile.mkdtemp(prefix="side-by-side-")
    device = EmulatedAccelerometer(properties=[("IIO_SENSOR_PROXY_TYPE", "iio-poll-accel")], hysteresis="5")
    hand = Hand(rng)
    stop = threading.Event()
    parts = []
    try:
        proxy_bus, orientd_bus = Bus(work, "iio-sensor-proxy", debian_policy), Bus(work, "orientd", PROJECT_POLICY)
        parts += [proxy_bus, orientd_bus]
        device.reset()
        with open(os.path.join(work, "iio-sensor-proxy.log"), "w") as log:
            proxy = subprocess.Popen([sensor_proxy], stdout=log, stderr=subprocess.STDOUT,
                                     env=device.environment(proxy_bus.environment))
        orientd = Daemon(args.orientd, work, "orientd", "--poll", device=None, config="[DBus]\nCompat=yes\n",
                         environment=device.environment(orientd_bus.environment))
        orientd.start()
        processes = {"iio-sensor-proxy": Process(proxy.pid), "orientd": Process(orientd.pid)}
        time.sleep(2)
        if proxy.poll() is not None:
            raise Failure(f"iio-sensor-proxy exited with {proxy.returncode}: see {work}/iio-sensor-proxy.log")
        figures = {key: {"idle": p.memory()} for key, p in processes.items()}
        for key, p in processes.items():
            figures[key]["idle_wakeups"] = p.rates(args.idle_sec)[1]
        writer = threading.Thread(target=poll_writer, args=(device, hand, stop), daemon=True)
        writer.start()
        monitors = {"iio-sensor-proxy": Monitor(proxy_bus), "orientd": Monitor(orientd_bus)}
        parts += monitors.values()
        for key in processes:
            figures[key].update(figures_of(processes[key], monitors[key], args.still_sec))
        print(f"claimed and still for {args.still_sec:g} s, then {args.turns} turns…", flush=True)

        def turning():
            for key, p in processes.items():
                figures[key]["turning"] = p.memory()
        results, wrong = latencies(hand, monitors, args.turns, rng, lambda a: NAMES[int(a // 90) % 4], turning)
        a, b = figures["iio-sensor-proxy"], figures["orientd"]
        print()
        print("Poll mode, one emulated accelerometer, both daemons at once (figures, noisy on a loaded machine):")
        print()
        print("| figure | iio-sensor-proxy | orientd | orientd / iio-sensor-proxy |")
        print("|---|---|---|---|")
        memory_rows(a, b)
        print(row("CPU while claimed and still", a["cpu"], b["cpu"], "ms/s", 2))
        print(row("wake-ups while claimed and still", a["wakeups"], b["wakeups"], "/s"))
        print(f"| major faults (disk reads) while claimed and still | {a['major_faults']} | {b['major_faults']} | - |")
        print(f"| latency, end of turn → client line, p50 / p90 / max | {latency_text(results['iio-sensor-proxy'])}"
              f" | {latency_text(results['orientd'])} | - |")
        print(row("idle wake-ups", a["idle_wakeups"], b["idle_wakeups"], "/s"))
        print(f"| turns missed, false rotations | {wrong['iio-sensor-proxy']} | {wrong['orientd']} | - |")
        print()
        ratio = b["claimed"]["pays"] / a["claimed"]["pays"]
        print(f"Anonymous + private dirty, claimed and still: orientd / iio-sensor-proxy = {ratio:.2f}× "
              f"(goal: at most 1×, {'met' if ratio <= 1 else 'not met'})")
        print()
        for key in ("orientd", "iio-sensor-proxy"):
            print(f"{key}, smaps_rollup Anonymous / Private_Dirty: " + "; ".join(
                f"{STATE_NAMES[state]} {figures[key][state]['anonymous']:.2f} / "
                f"{figures[key][state]['private_dirty']:.2f} MB" for state in STATES))
        print()
        print("Where what the system pays goes (/proc/PID/smaps: the larger of Anonymous and Private_Dirty by mapping):")
        print()
        print(group_table(figures, "anonymous + private dirty by mapping", "pays_groups"))
        print()
        for key in ("orientd", "iio-sensor-proxy"):
            libraries = figures[key]["claimed"]["pays_libraries"]
            print(f"{key}, claimed and still: anonymous + private dirty of the libraries, largest first: "
                  + ", ".join(f"{name} {kb / 1024:.3f} MB" for name, kb in libraries[:12] if kb > 0))
        print()
        print("Where the USS goes (/proc/PID/smaps: Private_Clean + Private_Dirty by mapping):")
        print()
        print(group_table(figures, "USS by mapping", "uss_groups"))
        stop.set()
        for monitor in monitors.values():
            monitor.stop()
        orientd.stop()
        proxy.terminate()
        proxy.wait()
        if not args.skip_buffered:
            buffered(args, work, device, orientd_bus, rng)
    except Failure as error:
        print(f"side-by-side: {error} (the daemons' logs are in {work})")
        return 1
    finally:
        stop.set()
        for part in parts:
            part.stop()
    # A run that went through leaves nothing behind; a failed one keeps its logs.
    shutil.rmtree(work, ignore_errors=True)
    return 0


def buffered(args, work, device, bus, rng):
    """orientd alone in buffered mode: iio-sensor-proxy's buffered driver cannot be driven by a PTY that only
    delivers what is written to it at the frequency the daemon sets."""
    hand = Hand(rng)
    stop = threading.Event()
    device.reset()
    # Marked as iio-sensor-proxy's rule marks a device with a buffer (orientd polls one marked iio-poll-accel only).
    device.testbed.set_property("/sys" + SYSPATH, "IIO_SENSOR_PROXY_TYPE", "iio-buffer-accel")
    orientd = Daemon(args.orientd, work, "orientd-buffered", device=None, config="[DBus]\nCompat=yes\n",
                     environment=device.environment(bus.environment))
    orientd.start()
    time.sleep(2)  # set up and settled, as iio-sensor-proxy and orientd were in poll mode
    feeder = threading.Thread(target=buffer_feeder, args=(device, hand, stop), daemon=True)
    monitor = None
    try:
        process = Process(orientd.pid)
        memory = {"idle": process.memory()}
        idle = process.rates(args.idle_sec)[1]
        monitor = Monitor(bus)
        if not device.wait_for_buffer(True, 10, orientd.alive):
            raise Failure("orientd did not enable the buffer")
        feeder.start()
        claimed = figures_of(process, monitor, args.still_sec)
        memory["claimed"] = claimed["claimed"]
        frequency, watermark = device.attribute("sampling_frequency"), device.attribute("buffer/watermark")

        def turning():
            memory["turning"] = process.memory()
        results, wrong = latencies(hand, {"orientd": monitor}, args.turns, rng, lambda a: NAMES[int(a // 90) % 4],
                                   turning)
        print()
        hysteresis = device.attribute("in_accel_hysteresis")
        print(f"Buffered mode, orientd alone (still: sampling_frequency {frequency} Hz, watermark {watermark}, "
              f"in_accel_hysteresis {hysteresis}):")
        print()
        print("| figure | orientd |")
        print("|---|---|")
        for label, field in [("what the system pays (anonymous + private dirty)", "pays"),
                             ("resident memory as top shows it (VmRSS)", "rss"), ("proportional memory (Pss)", "pss"),
                             ("private memory (USS)", "uss")]:
            print(f"| {label}, idle / claimed and still / turning | "
                  + " / ".join(f"{memory[state][field]:.2f}" for state in STATES) + " MB |")
        print(f"| CPU while claimed and still | {claimed['cpu']:.2f} ms/s |")
        print(f"| wake-ups while claimed and still | {claimed['wakeups']:.1f} /s |")
        print(f"| major faults (disk reads) while claimed and still | {claimed['major_faults']} |")
        print(f"| latency, end of turn → client line, p50 / p90 / max | {latency_text(results['orientd'])} |")
        print(f"| idle wake-ups | {idle:.1f} /s |")
        print(f"| turns missed, false rotations | {wrong['orientd']} |")
    finally:
        stop.set()
        if monitor is not None:
            monitor.stop()
        orientd.stop()


if __name__ == "__main__":
    sys.exit(main())
