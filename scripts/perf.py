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

"""The figure sheet of the real orientd on an emulated accelerometer (umockdev): figures, not a test.

Prints the machine, then, each with its method:
  1. event latency, buffered at 100 Hz (scripts/latency.py) and in poll mode at the default rate;
  2. CPU time of the daemon per 100,000 samples fed faster than real time, and per hour at 100 Hz;
  3. resident memory at start, after 10^6 samples and after 10,000 connections came and went;
  4. wake-ups per second while nobody generates (context switches of all threads), without and
     with a watchdog (WATCHDOG_USEC, as a WatchdogSec= drop-in sets it);
  5. fan-out: time from the deciding scan to the last of 1000 generating clients;
  6. the parts of the binary: shared libraries, size, no FoundationInternationalization (nm);
  7. how CPU, wake-ups and memory while claimed and still grow with Rate=, IdleRate= and the number of
     generating clients (poll mode).

Usage: scripts/perf.py ORIENTD [--changes 500] [--poll-changes 100] [--idle-sec 30] [--connections 10000]
                               [--clients 1000] [--fanout-trials 20] [--skip latency,poll,cpu,watchdog,fanout,rates]
A section whose daemon does not start (or that cannot finish) says so in one line and the others still
run; the exit status is then 1.
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse
import os
import random
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from orientd_harness.daemon import SETTLE_SEC, Failure, Run, exit_on_sigterm, raise_nofile
from orientd_harness.device import POSES, EmulatedAccelerometer, scan, tour
from orientd_harness.figures import machine, percentile
from orientd_harness.proc import CLK_TCK, cpu_ns, cpu_seconds, major_faults, rss_by_mapping, status_field, switches

HERE = os.path.dirname(os.path.abspath(__file__))


def feed(device, samples, client, daemon, chunk=1000):
    """Writes samples in chunks as fast as the daemon takes them, reading the client's events meanwhile; the number
    of events read."""
    pty, events = device.pty, 0
    os.set_blocking(pty, False)
    try:
        view, deadline = memoryview(b"".join(scan(*s) for s in samples)), time.monotonic() + 300
        step = chunk * 16
        while view:
            if time.monotonic() > deadline or not daemon.alive():
                raise Failure(f"the daemon stopped taking scans (exit {daemon.process.poll()}){daemon.log_tail()}")
            readable, writable, _ = select.select([client.sock], [pty], [], 0.5)
            if writable:
                try:
                    view = view[os.write(pty, view[:step]):]
                except BlockingIOError:
                    pass
            events += sum(1 for m in client.messages(0) if m.is_event)  # keep up with the events
            if client.closed:
                raise Failure("the daemon closed the connection")
    finally:
        os.set_blocking(pty, True)
    return events


def settle(daemon, client, limit=20):
    """Waits until the daemon's CPU time stops growing (it has taken every scan written)."""
    deadline, last = time.monotonic() + limit, cpu_seconds(daemon.pid)
    while time.monotonic() < deadline:
        client.messages(0.3)
        now = cpu_seconds(daemon.pid)
        if now == last:
            return
        last = now


def still_samples(count, start_ns, hold=1000):
    """Samples at 100 Hz holding each pose for `hold` samples, with a few counts of tremor."""
    out = []
    for i in range(count):
        x, y, z = POSES[(i // hold) % len(POSES)]
        wobble = ((i * 7) % 5 - 2) * 3
        out.append((x + wobble, y - wobble, z, start_ns + i * 10_000_000))
    return out


def section_latency(run):
    print("\n== 1a. latency, buffered at 100 Hz (scripts/latency.py)")
    try:
        out = subprocess.run([os.path.join(HERE, "latency.py"), run.a.orientd, "--changes", str(run.a.changes)],
                             capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise Failure("latency.py timed out") from None
    print(out.stdout.strip() or out.stderr.strip())
    if out.returncode != 0:
        raise Failure(f"latency.py exited with status {out.returncode}")


def section_poll(run):
    a, device = run.a, run.device
    print(f"\n== 1b. latency, poll mode at the default rate (20 Hz, --poll), {a.poll_changes} changes")
    rng = random.Random(0)
    latencies = []
    with run.daemon("poll", "--poll") as daemon:
        client = daemon.connect()
        daemon.begin(client, buffered=False)
        client.messages(0.5)
        pose = 0
        for change in range(a.poll_changes):
            pose = (pose + 1) % len(POSES)
            time.sleep(rng.uniform(0, 0.05))  # a random phase against the poll timer
            for axis, value in zip("xyz", POSES[pose]):
                device.set(f"in_accel_{axis}_raw", value)
            written = time.monotonic_ns()
            got = client.wait_for(lambda m: m.get("event") == "device", 3, daemon.alive)
            if got is None:
                print(f"no device event for poll change {change}; stopping")
                break
            latencies.append((got.arrived - written) / 1e6)
            client.messages(0.02)
    if latencies:
        print("method: the three in_accel_*_raw files of the testbed rewritten to the next pose at a random "
              "phase; time from the last write to the device event at a client")
        print(f"attribute write -> event: p50 {percentile(latencies, 50):.1f} ms, "
              f"p99 {percentile(latencies, 99):.1f} ms, min {min(latencies):.1f}, max {max(latencies):.1f} ms "
              f"({len(latencies)} changes)")
        print("this includes up to one poll period (50 ms) of waiting for the next read, and the classifier's "
              "dwell in sample time (see 1a: its decision time, reported apart)")


def section_cpu_memory_idle(run):
    a, device = run.a, run.device
    # IdleRate= equal to Rate=: the feed runs faster than real time, so each pose (10 s of samples) would otherwise
    # drop the pace and raise it again in a fraction of a second, replacing the buffer twice per pose; the figure
    # is the cost of a sample.
    config = "[Sensor]\nRate=100\nIdleRate=100\n"
    with run.daemon("cpu", "--rate", "100", "--poll-fallback-sec", "10", config=config) as daemon:
        time.sleep(0.3)
        pid = daemon.pid
        rss_start = status_field(pid, "VmRSS")
        client = daemon.connect()
        daemon.begin(client)
        client.messages(0.1)

        print("\n== 2. CPU time of the daemon per 100,000 samples")
        samples = still_samples(1_000_000, 0)
        before, t0 = cpu_seconds(pid), time.monotonic()
        events = feed(device, samples[:100_000], client, daemon)
        settle(daemon, client)
        first = cpu_seconds(pid) - before
        wall = time.monotonic() - t0
        before = cpu_seconds(pid)
        events += feed(device, samples[100_000:], client, daemon)
        settle(daemon, client)
        rest = cpu_seconds(pid) - before
        per_100k = (first + rest) / 10
        print(f"method: `IdleRate=` as `Rate=` (100); scans with 100 Hz timestamps (each pose held 10 s, a few "
              f"counts of tremor), written to the PTY in chunks of 1000 as fast as the daemon takes them; "
              f"utime+stime from /proc/PID/stat "
              f"(clock tick {1000 / CLK_TCK:.0f} ms) before and after")
        print(f"first 100,000 samples: {first:.2f} s CPU in {wall:.1f} s wall; next 900,000: {rest:.2f} s CPU")
        print(f"CPU per 100,000 samples: {per_100k * 1000:.0f} ms ({per_100k * 10:.2f} µs per sample; "
              f"{events} events read)")
        print(f"CPU per hour of real time at 100 Hz (extrapolated: 360,000 samples): {per_100k * 3.6:.2f} s "
              f"({per_100k * 3.6 / 36:.3f} % of one core)")
        rss_samples = status_field(pid, "VmRSS")

        print("\n== 3. resident memory (VmRSS of /proc/PID/status)")
        rounds = []
        for _ in range(2):
            for i in range(a.connections):
                other = daemon.connect(timeout=5)
                method = "begin" if i % 2 else "get"
                other.call(method, ident=1, timeout=5)
                if method == "begin" and i % 4 == 1:
                    other.send(b'{"id": 2, "method": "end"}\n')
                other.close()
                if i % 500 == 0:
                    client.messages(0)
            client.messages(0.3)
            rounds.append(status_field(pid, "VmRSS"))
        print(f"at start {rss_start / 1024:.1f} MB; after 10^6 samples {rss_samples / 1024:.1f} MB; after "
              f"{a.connections} connections (begin or get, reply read, closed; every fourth begin ended first) "
              f"{rounds[0] / 1024:.1f} MB; after {a.connections} more {rounds[1] / 1024:.1f} MB")
        grew = rounds[1] - rounds[0]
        print(f"growth over the second {a.connections} connections: {grew} kB "
              f"({'no growth' if grew <= 64 else 'grew'}); from start to the end: {rounds[1] - rss_start} kB")
        print("resident memory by mapping at the end (kB, /proc/PID/smaps; [anon] is heap and stacks): "
              + ", ".join(f"{name} {kb}" for name, kb in rss_by_mapping(pid)[:14]))

        print(f"\n== 4. wake-ups per second while nobody generates ({a.idle_sec:g} s)")
        client.close()
        if not device.wait_for_buffer(False, 10, daemon.alive):
            print("the daemon did not disable the buffer")
        time.sleep(SETTLE_SEC)
        first = switches(pid)
        time.sleep(a.idle_sec)
        second = switches(pid)
        total = sum(second[t] - first[t] for t in second if t in first)
        busy = {t: second[t] - first[t] for t in second if t in first and second[t] != first[t]}
        print(f"method: the daemon above after its last generating client closed (the sensor ran and stopped) and "
              f"it settled ({SETTLE_SEC:g} s); "
              f"voluntary+nonvoluntary ctxt switches summed over /proc/PID/task/*/status, {len(second)} threads")
        print(f"context switches: {total} in {a.idle_sec:g} s = {total / a.idle_sec:.2f} per second"
              + (f" (by thread: {busy})" if busy else ""))


def section_watchdog(run, interval=10):
    """Idle wake-ups with a watchdog (a drop-in's WatchdogSec=): they should be its pings alone."""
    a = run.a
    print(f"\n== 4b. wake-ups while nobody generates, with WatchdogSec={interval}s ({a.idle_sec:g} s)")
    notify_path = os.path.join(run.work, "notify.socket")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(notify_path)
        notify.setblocking(False)

        def pings():
            count = 0
            while True:
                try:
                    count += notify.recv(4096).split(b"\n").count(b"WATCHDOG=1")
                except BlockingIOError:
                    return count

        environment = {"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": str(interval * 1_000_000)}
        with run.daemon("watchdog", environment=environment) as daemon:
            time.sleep(2)  # set up
            pings()
            first, faults = switches(daemon.pid), major_faults(daemon.pid)
            time.sleep(a.idle_sec)
            second, faults = switches(daemon.pid), major_faults(daemon.pid) - faults
            total = sum(second[t] - first[t] for t in second if t in first)
            sent = pings()
    print(f"method: a daemon that nobody has used, with WATCHDOG_USEC and NOTIFY_SOCKET set as systemd sets "
          f"them; context switches as in 4; WATCHDOG=1 datagrams counted on the notify socket")
    print(f"context switches: {total} in {a.idle_sec:g} s; watchdog pings: {sent}; page faults that read the disk: "
          f"{faults} ({'only the pings' if total <= sent else 'the pings and the faults' if total <= sent + faults else 'more than the pings and the faults'})")


def build_reader(work):
    """scripts/fanout-reader.c, compiled into the work folder."""
    binary = os.path.join(work, "fanout-reader")
    for compiler in ("cc", "gcc", "clang"):
        if shutil.which(compiler):
            subprocess.run([compiler, "-O2", "-o", binary, os.path.join(HERE, "fanout-reader.c")], check=True)
            return binary
    raise Failure("the fan-out figure needs a C compiler (cc, gcc or clang)")


class ReaderOutput:
    """The lines the fan-out reader prints, read with a timeout."""

    def __init__(self, process):
        self.process = process
        self.fd = process.stdout.fileno()
        os.set_blocking(self.fd, False)
        self.pending = b""

    def line(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            data = os.read(self.fd, 4096)
            if not data:
                raise Failure(f"the fan-out reader ended ({self.process.wait()})")
            self.pending += data
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.line(max(0.001, end - time.monotonic()))


def section_fanout(run):
    a, device = run.a, run.device
    print(f"\n== 5. fan-out to {a.clients} generating connections, {a.fanout_trials} changes")
    reader_binary = build_reader(run.work)
    raise_nofile(a.clients + 200)
    times, firsts = [], []
    with run.daemon("fanout", "--rate", "100", "--poll-fallback-sec", "10",
                    config=f"[Server]\nMaxClients={a.clients + 100}\n", nofile=a.clients + 200) as daemon:
        first = daemon.connect()
        daemon.begin(first)
        reader = subprocess.Popen([reader_binary, daemon.socket, str(a.clients)], stdout=subprocess.PIPE,
                                  preexec_fn=lambda: raise_nofile(a.clients + 200))
        try:
            output = ReaderOutput(reader)
            if output.line(60) != "ready":
                raise Failure("the fan-out reader did not get its connections ready")
            # The reader's connections generate now; the first client, which enabled the buffer, leaves.
            first.send({"id": 2, "method": "end"})
            first.close()

            # Settle on the first pose; whatever the reader reports meanwhile is not measured.
            per_hold = 60
            samples = tour(a.fanout_trials + 1)
            device.write(b"".join(scan(*s) for s in samples[:per_hold]))
            output.drain(1)
            index = per_hold
            for change in range(1, a.fanout_trials + 1):
                start_i = change * per_hold
                device.write(b"".join(scan(*s) for s in samples[index:start_i + 3]))
                index = start_i + 3
                output.drain(0.05)
                written = first_at = None
                while index < start_i + per_hold and first_at is None:
                    written = time.monotonic_ns()
                    device.write(scan(*samples[index]))
                    index += 1
                    line = output.line(0.005)
                    if line and line.startswith("first "):
                        first_at = int(line.split()[1])
                if first_at is None:
                    raise Failure(f"no event for fan-out change {change}")
                line = output.line(5)
                if not line or not line.startswith("last "):
                    print(f"change {change}: not every client got the event within 5 s ({line!r})")
                    continue
                times.append((int(line.split()[1]) - written) / 1e6)
                firsts.append((first_at - written) / 1e6)
        finally:
            reader.kill()
            reader.wait()
    if times:
        print(f"method: {a.clients} connections that began, read with epoll by one C process "
              f"(scripts/fanout-reader.c); a pose change fed as in 1a (bulk, then one scan every 5 ms); "
              f"time from writing the deciding scan to the last client's device event")
        print(f"deciding scan -> last of {a.clients} clients: p50 {percentile(times, 50):.2f} ms, "
              f"p99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms ({len(times)} changes)")
        print(f"deciding scan -> first client: p50 {percentile(firsts, 50):.2f} ms, "
              f"p99 {percentile(firsts, 99):.2f} ms (the reader and the daemon share the machine's "
              f"{os.cpu_count()} CPUs)")


def section_parts(run):
    orientd = run.a.orientd
    print("\n== 6. the parts of the binary")
    print(f"{orientd}: {os.path.getsize(orientd) / 1e6:.1f} MB")
    try:
        ldd = subprocess.run(["ldd", orientd], capture_output=True, text=True, timeout=20).stdout
        libs = [line.split()[0] for line in ldd.splitlines() if line.strip()]
        print(f"shared libraries ({len(libs)}): {' '.join(libs)}")
        nm = subprocess.run(["nm", "-D", "--defined-only", orientd], capture_output=True, text=True,
                            timeout=60).stdout + subprocess.run(["nm", orientd], capture_output=True,
                                                                text=True, timeout=60).stdout
        count = nm.count("FoundationInternationalization") + nm.count("20FoundationInternational")
        icu = "none"
        if "libicu" in ldd:
            icu = "libicuuc via " + ("libxml2 (libiio)" if "libxml2" in ldd else "?")
        print(f"symbols naming FoundationInternationalization (nm): {count}; "
              f"libFoundation.so linked: {'yes' if 'libFoundation.so' in ldd else 'no'}; ICU: {icu}")
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"ldd/nm failed: {error}")


def section_rates(run):
    """Claimed and still, in poll mode: CPU, wake-ups and memory by rate, idle rate and number of clients."""
    print("\n== 7. claimed and still, by rate and clients (poll mode)")
    print(f"method: a daemon per row (--poll, the rates through --config), the emulated device still; `begin` on each "
          f"client, then {SETTLE_SEC:g} s for the idle rate, then CPU (schedstat of every "
          f"thread) and context switches over 6 s, and VmRSS")
    print("| configuration | CPU, claimed and still | wake-ups/s | VmRSS |")
    print("|---|---|---|---|")
    for rate, idle, clients in [(20, 20, 1), (20, 2, 1), (100, 100, 1), (100, 2, 1), (20, 2, 50)]:
        config = f"[Sensor]\nRate={rate}\nIdleRate={idle}\n"
        with run.daemon(f"rates-{rate}-{idle}-{clients}", "--poll", config=config) as daemon:
            connections = [daemon.connect() for _ in range(clients)]
            for client in connections:
                daemon.begin(client, buffered=False)
            time.sleep(SETTLE_SEC)
            for client in connections:
                client.messages(0)
            before, cpu_before, t0 = switches(daemon.pid), cpu_ns(daemon.pid), time.monotonic()
            time.sleep(6)
            after, cpu_after, t1 = switches(daemon.pid), cpu_ns(daemon.pid), time.monotonic()
            woke = sum(after[t] - before[t] for t in after if t in before)
            label = f"`Rate={rate}`, `IdleRate={idle}`" + (f", {clients} generating clients" if clients > 1 else "")
            print(f"| {label} | {(cpu_after - cpu_before) / 1e6 / (t1 - t0):.2f} ms/s | {woke / (t1 - t0):.1f} | "
                  f"{status_field(daemon.pid, 'VmRSS') / 1024:.1f} MB |", flush=True)


SECTIONS = [("latency", section_latency), ("poll", section_poll), ("cpu", section_cpu_memory_idle),
            ("watchdog", section_watchdog), ("fanout", section_fanout), ("parts", section_parts),
            ("rates", section_rates)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the release orientd binary")
    ap.add_argument("--changes", type=int, default=500, help="buffered latency changes (default 500)")
    ap.add_argument("--poll-changes", type=int, default=100, help="poll-mode latency changes (default 100)")
    ap.add_argument("--idle-sec", type=float, default=30, help="idle wake-up window (default 30)")
    ap.add_argument("--connections", type=int, default=10000, help="connections for memory (default 10000)")
    ap.add_argument("--clients", type=int, default=1000, help="fan-out connections (default 1000)")
    ap.add_argument("--fanout-trials", type=int, default=20, help="fan-out changes (default 20)")
    ap.add_argument("--skip", default="", help="comma-separated sections to skip: latency,poll,cpu,watchdog,fanout,rates")
    a = ap.parse_args()
    a.orientd = os.path.abspath(a.orientd)
    skip = set(filter(None, a.skip.split(",")))
    unknown = skip - {name for name, _ in SECTIONS if name != "parts"}
    if unknown:
        ap.error(f"no such section: {', '.join(sorted(unknown))}")
    if not os.access(a.orientd, os.X_OK):
        ap.error(f"{a.orientd} is not an executable file (build it first: make release)")
    exit_on_sigterm("perf")
    print(f"machine: {machine()}")
    print(f"daemon: {a.orientd}", flush=True)
    failed = []
    with tempfile.TemporaryDirectory(prefix="orientd-perf-") as work:
        run = Run(a, EmulatedAccelerometer(), work)
        for name, section in SECTIONS:
            if name in skip:
                continue
            try:
                section(run)
            except Exception as error:  # one section that cannot be measured does not stop the others
                failed.append(name)
                reason = error if isinstance(error, Failure) else f"{type(error).__name__}: {error}"
                print(f"{name}: not measured: {reason}", flush=True)
    if failed:
        sys.exit(f"perf: not measured: {', '.join(failed)}")


if __name__ == "__main__":
    main()
