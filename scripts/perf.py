#!/usr/bin/python3
"""The figure sheet of the real orientd on an emulated accelerometer (umockdev): figures, not a test.

Prints the machine, then, each with its method:
  1. event latency, buffered at 100 Hz (scripts/latency.py) and in poll mode at the default rate;
  2. CPU time of the daemon per 100,000 samples fed faster than real time, and per hour at 100 Hz;
  3. resident memory at start, after 10^6 samples and after 10,000 connections came and went;
  4. wake-ups per second while nobody generates (context switches of all threads), without and
     with a watchdog (WATCHDOG_USEC, as a WatchdogSec= drop-in sets it);
  5. fan-out: time from the deciding scan to the last of 1000 generating clients;
  6. the parts of the binary: shared libraries, size, no FoundationInternationalization (nm).

Usage: scripts/perf.py ORIENTD [--changes 500] [--poll-changes 100] [--idle-sec 30]
                               [--clients 1000] [--fanout-trials 20]
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse, atexit, json, os, platform, random, resource, select, signal, socket, subprocess
import sys, tempfile, time, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import emulated_accelerometer as emulated  # noqa: E402
from latency import Client, percentile, tour, POSES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CLK_TCK = os.sysconf("SC_CLK_TCK")
DAEMONS = []
EVENTS = [0]
WORK = tempfile.mkdtemp(prefix="orientd-perf-")


def cleanup():
    for daemon in DAEMONS:
        stop(daemon)
    shutil.rmtree(WORK, ignore_errors=True)


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit("perf: terminated"))


def stop(daemon):
    if daemon.poll() is None:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


def raise_nofile(n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(n, hard) if hard != resource.RLIM_INFINITY else n
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))


def start(orientd, testbed, name, *args, config=None, nofile=None, environment=None):
    """A daemon on the testbed; its socket path."""
    emulated_reset(testbed)
    socket_path = os.path.join(WORK, name + ".socket")
    command = [orientd, "run", "--socket", socket_path, "--state-dir", os.path.join(WORK, name + "-state")]
    if config:
        path = os.path.join(WORK, name + ".conf")
        with open(path, "w") as f:
            f.write(config)
        command += ["--config", path]
    daemon = subprocess.Popen(command + list(args), env={**emulated.child_environment(testbed), **(environment or {})},
                              stderr=open(os.path.join(WORK, name + ".log"), "w"),
                              preexec_fn=(lambda: raise_nofile(nofile)) if nofile else None)
    DAEMONS.append(daemon)
    deadline = time.monotonic() + 10
    while not os.path.exists(socket_path):
        if daemon.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"perf: the daemon did not start ({' '.join(command)})")
        time.sleep(0.01)
    return daemon, socket_path


def emulated_reset(testbed):
    for name, value in [("buffer/enable", "0"), ("in_accel_x_raw", "0"), ("in_accel_y_raw", "-1000"),
                        ("in_accel_z_raw", "0")]:
        set_attribute(testbed, name, value)


def set_attribute(testbed, name, value):
    path = os.path.join(testbed.get_root_dir(), "sys" + emulated.SYSPATH, name)
    with open(path, "w") as f:
        f.write(f"{value}\n")


def begin(client, daemon, testbed, buffered=True):
    client.send({"id": 1, "method": "begin"})
    if buffered and not emulated.wait_for_buffer(testbed, True, 10, lambda: daemon.poll() is None):
        sys.exit("perf: the daemon did not enable the buffer")
    drain(client, 0.1)


def drain(client, seconds):
    deadline = time.monotonic() + seconds
    messages = []
    while time.monotonic() < deadline:
        messages += client.lines(max(0.001, deadline - time.monotonic()))
    return messages


def status_field(pid, field, task=None):
    path = f"/proc/{pid}/task/{task}/status" if task else f"/proc/{pid}/status"
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14, 15)


def switches(pid):
    """Context switches per thread: {tid: voluntary + nonvoluntary}."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        v = status_field(pid, "voluntary_ctxt_switches", tid)
        n = status_field(pid, "nonvoluntary_ctxt_switches", tid)
        if v is not None and n is not None:
            out[tid] = v + n
    return out


def feed(pty, samples, client, daemon, chunk=1000):
    """Writes samples in chunks as fast as the daemon takes them; reads the client's events."""
    os.set_blocking(pty, False)
    data = b"".join(emulated.scan(*s) for s in samples)
    view, deadline = memoryview(data), time.monotonic() + 300
    step = chunk * 16
    while view:
        if time.monotonic() > deadline or daemon.poll() is not None:
            sys.exit(f"perf: the daemon stopped taking scans (exit {daemon.poll()}): " + open(os.path.join(WORK, "cpu.log")).read()[:3000])
        readable, writable, _ = select.select([client.sock], [pty], [], 0.5)
        if readable:
            empty(client)
        if writable:
            try:
                n = os.write(pty, view[:step])
                view = view[n:]
            except BlockingIOError:
                pass
        empty(client)  # keep up with the events
    os.set_blocking(pty, True)


def empty(client):
    """Reads whatever the daemon has sent, without waiting; counts the events."""
    client.sock.setblocking(False)
    try:
        while True:
            data = client.sock.recv(1 << 20)
            if not data:
                sys.exit("perf: the daemon closed the connection")
            EVENTS[0] += data.count(b'"event"')
    except (BlockingIOError, InterruptedError):
        pass
    finally:
        client.sock.setblocking(True)


def settle(daemon, client, limit=20):
    """Waits until the daemon's CPU time stops growing (it has taken every scan written)."""
    deadline, last = time.monotonic() + limit, cpu_seconds(daemon.pid)
    while time.monotonic() < deadline:
        drain(client, 0.3)
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


def section_latency(a):
    print("\n== 1a. latency, buffered at 100 Hz (scripts/latency.py)")
    try:
        out = subprocess.run([os.path.join(HERE, "latency.py"), a.orientd, "--changes", str(a.changes)],
                             capture_output=True, text=True, timeout=600)
        print(out.stdout.strip() or out.stderr.strip())
    except subprocess.TimeoutExpired:
        print("latency.py timed out")


def section_poll(a, testbed):
    print(f"\n== 1b. latency, poll mode at the default rate (20 Hz, --poll), {a.poll_changes} changes")
    daemon, path = start(a.orientd, testbed, "poll", "--poll")
    client = Client(path)
    begin(client, daemon, testbed, buffered=False)
    drain(client, 0.5)
    latencies, pose = [], 0
    for change in range(a.poll_changes):
        pose = (pose + 1) % len(POSES)
        time.sleep(random.uniform(0, 0.05))  # a random phase against the poll timer
        x, y, z = POSES[pose]
        for axis, value in zip("xyz", (x, y, z)):
            set_attribute(testbed, f"in_accel_{axis}_raw", value)
        written = time.monotonic_ns()
        deadline, got = time.monotonic() + 3, None
        while got is None and time.monotonic() < deadline:
            for arrived, message in client.lines(deadline - time.monotonic()):
                if message.get("event") == "device" and got is None:
                    got = (arrived - written) / 1e6
        if got is None:
            print(f"no device event for poll change {change}; stopping")
            break
        latencies.append(got)
        drain(client, 0.02)
    stop(daemon)
    if latencies:
        print("method: the three in_accel_*_raw files of the testbed rewritten to the next pose at a random "
              "phase; time from the last write to the device event at a client")
        print(f"attribute write -> event: p50 {percentile(latencies, 50):.1f} ms, "
              f"p99 {percentile(latencies, 99):.1f} ms, min {min(latencies):.1f}, max {max(latencies):.1f} ms "
              f"({len(latencies)} changes)")
        print("this includes up to one poll period (50 ms) of waiting for the next read, and the classifier's "
              "dwell in sample time (see 1a: its decision time, reported apart)")
    return latencies


def section_cpu_memory_idle(a, testbed):
    daemon, path = start(a.orientd, testbed, "cpu", "--rate", "100", "--poll-fallback-sec", "10")
    time.sleep(0.3)
    pid = daemon.pid
    rss_start = status_field(pid, "VmRSS")
    client = Client(path)
    begin(client, daemon, testbed)
    pty = testbed.get_dev_fd(emulated.NODE)

    print("\n== 2. CPU time of the daemon per 100,000 samples")
    samples = still_samples(1_000_000, 0)
    before, t0 = cpu_seconds(pid), time.monotonic()
    feed(pty, samples[:100_000], client, daemon)
    settle(daemon, client)
    first = cpu_seconds(pid) - before
    wall = time.monotonic() - t0
    before = cpu_seconds(pid)
    feed(pty, samples[100_000:], client, daemon)
    settle(daemon, client)
    rest = cpu_seconds(pid) - before
    per_100k = (first + rest) / 10
    print(f"method: scans with 100 Hz timestamps (each pose held 10 s, a few counts of tremor), written to the "
          f"PTY in chunks of 1000 as fast as the daemon takes them; utime+stime from /proc/PID/stat "
          f"(clock tick {1000 / CLK_TCK:.0f} ms) before and after")
    print(f"first 100,000 samples: {first:.2f} s CPU in {wall:.1f} s wall; next 900,000: {rest:.2f} s CPU")
    print(f"CPU per 100,000 samples: {per_100k * 1000:.0f} ms ({per_100k * 10:.2f} µs per sample; {EVENTS[0]} events read)")
    print(f"CPU per hour of real time at 100 Hz (extrapolated: 360,000 samples): {per_100k * 3.6:.2f} s "
          f"({per_100k * 3.6 / 36:.3f} % of one core)")
    rss_samples = status_field(pid, "VmRSS")

    print("\n== 3. resident memory (VmRSS of /proc/PID/status)")
    rounds = []
    for _ in range(2):
        for i in range(a.connections):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(5)
                s.connect(path)
                method = "begin" if i % 2 else "get"
                s.sendall(json.dumps({"id": 1, "method": method}).encode() + b"\n")
                reply = b""
                while b'"result"' not in reply and b'"error"' not in reply:
                    data = s.recv(65536)
                    if not data:
                        break
                    reply += data
                if method == "begin" and i % 4 == 1:
                    s.sendall(b'{"id": 2, "method": "end"}\n')
            if i % 500 == 0:
                client.lines(0)
        drain(client, 0.3)
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
    client.sock.close()
    if not emulated.wait_for_buffer(testbed, False, 10, lambda: daemon.poll() is None):
        print("the daemon did not disable the buffer")
    time.sleep(1)
    first = switches(pid)
    time.sleep(a.idle_sec)
    second = switches(pid)
    total = sum(second[t] - first[t] for t in second if t in first)
    busy = {t: second[t] - first[t] for t in second if t in first and second[t] != first[t]}
    print(f"method: the daemon above after its last generating client closed (the sensor ran and stopped); "
          f"voluntary+nonvoluntary ctxt switches summed over /proc/PID/task/*/status, {len(second)} threads")
    print(f"context switches: {total} in {a.idle_sec:g} s = {total / a.idle_sec:.2f} per second"
          + (f" (by thread: {busy})" if busy else ""))
    stop(daemon)


def section_watchdog(a, testbed, interval=10):
    """Idle wake-ups with a watchdog (a drop-in's WatchdogSec=): they should be its pings alone."""
    print(f"\n== 4b. wake-ups while nobody generates, with WatchdogSec={interval}s ({a.idle_sec:g} s)")
    notify_path = os.path.join(WORK, "notify.socket")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.setblocking(False)
    daemon, _ = start(a.orientd, testbed, "watchdog",
                      environment={"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": str(interval * 1_000_000)})
    time.sleep(1)

    def pings():
        count = 0
        while True:
            try:
                count += notify.recv(4096).split(b"\n").count(b"WATCHDOG=1")
            except BlockingIOError:
                return count

    pings()
    first = switches(daemon.pid)
    time.sleep(a.idle_sec)
    second = switches(daemon.pid)
    total = sum(second[t] - first[t] for t in second if t in first)
    sent = pings()
    print(f"method: a daemon that nobody has used, with WATCHDOG_USEC and NOTIFY_SOCKET set as systemd sets "
          f"them; context switches as in 4; WATCHDOG=1 datagrams counted on the notify socket")
    print(f"context switches: {total} in {a.idle_sec:g} s; watchdog pings: {sent} "
          f"({'only the pings' if total <= sent else 'more than the pings'})")
    stop(daemon)
    notify.close()


def rss_by_mapping(pid):
    """[(file name, Rss kB)] from /proc/PID/smaps, largest first."""
    totals, name = {}, "[anon]"
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                first = line.split()
                if "-" in first[0] and not first[0].endswith(":"):
                    name = os.path.basename(first[5]) if len(first) > 5 and first[5].startswith("/") else "[anon]"
                elif first[0] == "Rss:":
                    totals[name] = totals.get(name, 0) + int(first[1])
    except OSError:
        return []
    return sorted(totals.items(), key=lambda item: -item[1])


def build_reader():
    """scripts/fanout-reader.c, compiled into the work folder."""
    binary = os.path.join(WORK, "fanout-reader")
    for compiler in ("cc", "gcc", "clang"):
        if shutil.which(compiler):
            subprocess.run([compiler, "-O2", "-o", binary, os.path.join(HERE, "fanout-reader.c")], check=True)
            return binary
    sys.exit("perf: the fan-out figure needs a C compiler (cc, gcc or clang)")


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
                sys.exit(f"perf: the fan-out reader ended ({self.process.wait()})")
            self.pending += data
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.line(max(0.001, end - time.monotonic()))


def section_fanout(a, testbed):
    print(f"\n== 5. fan-out to {a.clients} generating connections, {a.fanout_trials} changes")
    reader_binary = build_reader()
    raise_nofile(a.clients + 200)
    daemon, path = start(a.orientd, testbed, "fanout", "--rate", "100", "--poll-fallback-sec", "10",
                         config=f"[Server]\nMaxClients={a.clients + 100}\n", nofile=a.clients + 200)
    first = Client(path)
    begin(first, daemon, testbed)
    reader = subprocess.Popen([reader_binary, path, str(a.clients)], stdout=subprocess.PIPE,
                              preexec_fn=lambda: raise_nofile(a.clients + 200))
    output = ReaderOutput(reader)
    if output.line(60) != "ready":
        sys.exit("perf: the fan-out reader did not get its connections ready")
    # The reader's connections generate now; the first client, which enabled the buffer, leaves.
    first.send({"id": 2, "method": "end"})
    first.sock.close()
    pty = testbed.get_dev_fd(emulated.NODE)

    # Settle on the first pose; whatever the reader reports meanwhile is not measured.
    per_hold = 60
    samples = tour(a.fanout_trials + 1)
    os.write(pty, b"".join(emulated.scan(*s) for s in samples[:per_hold]))
    output.drain(1)
    times, firsts, index = [], [], per_hold
    for change in range(1, a.fanout_trials + 1):
        start_i = change * per_hold
        os.write(pty, b"".join(emulated.scan(*s) for s in samples[index:start_i + 3]))
        index = start_i + 3
        output.drain(0.05)
        written = first_at = None
        while index < start_i + per_hold and first_at is None:
            written = time.monotonic_ns()
            os.write(pty, emulated.scan(*samples[index]))
            index += 1
            line = output.line(0.005)
            if line and line.startswith("first "):
                first_at = int(line.split()[1])
        if first_at is None:
            sys.exit(f"perf: no event for fan-out change {change}")
        line = output.line(5)
        if not line or not line.startswith("last "):
            print(f"change {change}: not every client got the event within 5 s ({line!r})")
            continue
        times.append((int(line.split()[1]) - written) / 1e6)
        firsts.append((first_at - written) / 1e6)
    reader.kill()
    reader.wait()
    stop(daemon)
    if times:
        print(f"method: {a.clients} connections that began, read with epoll by one C process "
              f"(scripts/fanout-reader.c); a pose change fed as in 1a (bulk, then one scan every 5 ms); "
              f"time from writing the deciding scan to the last client's device event")
        print(f"deciding scan -> last of {a.clients} clients: p50 {percentile(times, 50):.2f} ms, "
              f"p99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms ({len(times)} changes)")
        print(f"deciding scan -> first client: p50 {percentile(firsts, 50):.2f} ms, "
              f"p99 {percentile(firsts, 99):.2f} ms (the reader and the daemon share the machine's "
              f"{os.cpu_count()} CPUs)")
    return times


def section_parts(a):
    print("\n== 6. the parts of the binary")
    size = os.path.getsize(a.orientd)
    print(f"{a.orientd}: {size / 1e6:.1f} MB")
    try:
        ldd = subprocess.run(["ldd", a.orientd], capture_output=True, text=True, timeout=20).stdout
        libs = [line.split()[0] for line in ldd.splitlines() if line.strip()]
        print(f"shared libraries ({len(libs)}): {' '.join(libs)}")
        nm = subprocess.run(["nm", "-D", "--defined-only", a.orientd], capture_output=True, text=True,
                            timeout=60).stdout + subprocess.run(["nm", a.orientd], capture_output=True,
                                                                text=True, timeout=60).stdout
        count = nm.count("FoundationInternationalization") + nm.count("20FoundationInternational")
        print(f"symbols naming FoundationInternationalization (nm): {count}; "
              f"libFoundation.so linked: {'yes' if 'libFoundation.so' in ldd else 'no'}; "
              f"ICU: {'libicuuc via ' + ('libxml2 (libiio)' if 'libxml2' in ldd else '?') if 'libicu' in ldd else 'none'}")
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"ldd/nm failed: {error}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the release orientd binary")
    ap.add_argument("--changes", type=int, default=500, help="buffered latency changes (default 500)")
    ap.add_argument("--poll-changes", type=int, default=100, help="poll-mode latency changes (default 100)")
    ap.add_argument("--idle-sec", type=float, default=30, help="idle wake-up window (default 30)")
    ap.add_argument("--connections", type=int, default=10000, help="connections for memory (default 10000)")
    ap.add_argument("--clients", type=int, default=1000, help="fan-out connections (default 1000)")
    ap.add_argument("--fanout-trials", type=int, default=20, help="fan-out changes (default 20)")
    ap.add_argument("--skip", default="", help="comma-separated sections to skip: latency,poll,cpu,watchdog,fanout")
    a = ap.parse_args()
    a.orientd = os.path.abspath(a.orientd)
    skip = set(a.skip.split(","))
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                 platform.processor())
    print(f"machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {model}; "
          f"kernel {platform.release()}; {platform.machine()}")
    print(f"daemon: {a.orientd}")
    testbed = emulated.testbed()
    if "latency" not in skip:
        section_latency(a)
    if "poll" not in skip:
        section_poll(a, testbed)
    if "cpu" not in skip:
        section_cpu_memory_idle(a, testbed)
    if "watchdog" not in skip:
        section_watchdog(a, testbed)
    if "fanout" not in skip:
        section_fanout(a, testbed)
    section_parts(a)


if __name__ == "__main__":
    main()
