#!/usr/bin/python3
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
Exits 1 if any check fails. Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps).
"""
import argparse, os, platform, socket, struct, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import emulated_accelerometer as emulated  # noqa: E402
from latency import Client, percentile  # noqa: E402

# The work folder, the list of daemons to stop at exit, and `stop` are perf.py's.
from perf import DAEMONS, WORK, stop  # noqa: E402

TARGET_MS = 1000
NORMAL, LEFT_UP = (0, -1000, 0), (1000, 0, 0)


class Failure(Exception):
    """A check that could not go on: its reason is the figure printed."""


class Bed:
    """The emulated accelerometer, removable and addable again through its old PTY, with uevents sent to the
    daemon's libudev monitor the way the kernel does (umockdev's own uevent needs the preload in this process)."""

    def __init__(self):
        self.testbed = emulated.testbed()
        self.root = self.testbed.get_root_dir()
        self.pty = self.testbed.get_dev_fd(emulated.NODE)
        self.slave = os.readlink(os.path.join(self.root, "dev/iio:device0"))
        self.seqnum = 0
        self.t = 1_000_000_000

    def set(self, name, value):
        with open(self.root + "/sys" + emulated.SYSPATH + "/" + name, "w") as f:
            f.write(f"{value}\n")

    def get(self, name):
        return emulated.attribute(self.testbed, name)

    def properties(self):
        with open(self.root + "/sys" + emulated.SYSPATH + "/uevent") as f:
            return [tuple(line.rstrip("\n").split("=", 1)) for line in f if "=" in line]

    def monitors(self):
        return [os.path.join(self.root, n) for n in os.listdir(self.root) if n.startswith("event") and n[5:].isdigit()]

    def uevent(self, action, properties):
        """Sends one libudev monitor message (systemd's device_monitor_send_device format) to every monitor."""
        self.seqnum += 1
        lookup = dict(properties)
        ordered = [("ACTION", action), ("DEVPATH", emulated.SYSPATH), ("SUBSYSTEM", lookup["SUBSYSTEM"]),
                   ("SEQNUM", str(self.seqnum))]
        if "DEVNAME" in lookup:
            name = lookup["DEVNAME"]
            ordered.append(("DEVNAME", name if name.startswith("/dev/") else "/dev/" + name))
        if "DEVTYPE" in lookup:
            ordered.append(("DEVTYPE", lookup["DEVTYPE"]))
        reserved = {"ACTION", "DEVPATH", "SUBSYSTEM", "SEQNUM", "DEVNAME", "DEVTYPE"}
        ordered += [(k, v) for k, v in properties if k not in reserved]
        body = b"".join(f"{k}={v}".encode() + b"\0" for k, v in ordered)
        devtype = murmur2(lookup["DEVTYPE"]) if "DEVTYPE" in lookup else 0
        header = b"libudev\0" + struct.pack(">I", 0xfeedcafe) + struct.pack("=III", 40, 40, len(body)) \
            + struct.pack(">II", murmur2(lookup["SUBSYSTEM"]), devtype) + struct.pack("=Q", 0)
        for path in self.monitors():
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
                try:
                    s.sendto(header + body, path)
                except (ConnectionRefusedError, FileNotFoundError):
                    pass

    def remove(self):
        properties = self.properties()
        self.testbed.remove_device("/sys" + emulated.SYSPATH)
        self.uevent("remove", properties)

    def add(self):
        """Adds the accelerometer again (its node linked to the old PTY); returns the time of the add uevent."""
        description = emulated.description().split("\n\n")[0]
        lines = [line for line in description.split("\n") if line != "N: iio:device0"]
        self.testbed.add_from_string("\n".join(lines) + "\n")
        os.symlink(self.slave, os.path.join(self.root, "dev/iio:device0"))
        self.uevent("add", self.properties())
        return time.monotonic_ns()

    def reset(self):
        for name, value in [("buffer/enable", "0"), ("in_accel_x_raw", "0"), ("in_accel_y_raw", "-1000"),
                            ("in_accel_z_raw", "0")]:
            self.set(name, value)

    def write(self, pose, seconds, rate=50):
        """Writes `seconds` of scans of one raw reading, timestamps running on from the last write."""
        count = int(seconds * rate)
        step = 1_000_000_000 // rate
        data = b"".join(emulated.scan(*pose, self.t + i * step) for i in range(count))
        self.t += count * step
        os.write(self.pty, data)

    def skip(self, seconds):
        self.t += int(seconds * 1e9)


def murmur2(text):
    """MurmurHash2, seed 0: systemd's string_hash32 for the monitor's subsystem and devtype filters."""
    data, m, mask = text.encode(), 0x5bd1e995, 0xffffffff
    h, i = len(data) & mask, 0
    while len(data) - i >= 4:
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = ((h * m) & mask) ^ k
        i += 4
    rest = data[i:]
    if len(rest) >= 3:
        h ^= rest[2] << 16
    if len(rest) >= 2:
        h ^= rest[1] << 8
    if len(rest) >= 1:
        h ^= rest[0]
        h = (h * m) & mask
    h ^= h >> 13
    h = (h * m) & mask
    h ^= h >> 15
    return h


class Daemon:
    def __init__(self, orientd, bed, name, *args):
        bed.reset()
        self.name = name
        self.socket = os.path.join(WORK, name + ".socket")
        self.log_path = os.path.join(WORK, name + ".log")
        command = [orientd, "run", "--socket", self.socket, "--state-dir", os.path.join(WORK, name + "-state"),
                   "--rate", "50"] + list(args)
        self.process = subprocess.Popen(command, env=emulated.child_environment(bed.testbed),
                                        stderr=open(self.log_path, "w"))
        DAEMONS.append(self.process)
        deadline = time.monotonic() + 10
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise Failure(f"the daemon did not start: {self.log()[-500:]}")
            time.sleep(0.01)
        self.client = Client(self.socket)
        self.next_id = 100

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def alive(self):
        return self.process.poll() is None

    def call(self, method, timeout=10):
        """Sends a request and returns its result; events read on the way are kept in `pending`."""
        self.next_id += 1
        self.client.send({"id": self.next_id, "method": method})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for arrived, message in self.client.lines(deadline - time.monotonic()):
                if message.get("id") == self.next_id:
                    return message.get("result")
                self.pending.append((arrived, message))
        raise Failure(f"no reply to {method}")

    pending = []
    seen = []

    def events(self, timeout):
        """Events that arrive within `timeout` (and those already read), with their arrival times."""
        out, self.pending = self.pending, []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out += self.client.lines(max(0.001, deadline - time.monotonic()))
        events = [(t, m) for t, m in out if "event" in m]
        self.seen += [m for _, m in events]
        return events

    def wait_event(self, condition, timeout, what):
        """The arrival time (ns) and message of the first event satisfying `condition`."""
        deadline = time.monotonic() + timeout
        while True:
            while self.pending:
                arrived, message = self.pending.pop(0)
                if "event" in message:
                    self.seen.append(message)
                    if condition(message):
                        return arrived, message
            left = deadline - time.monotonic()
            if left <= 0 or not self.alive():
                raise Failure(f"no {what} within {timeout} s" + ("" if self.alive() else " (the daemon exited)"))
            self.pending += self.client.lines(min(left, 0.2))

    def begin(self, bed, buffered=True):
        self.pending = []
        self.call("begin")
        self.seen = []  # events taken by wait_event from here on (the sensor event of begin included)
        if buffered and not emulated.wait_for_buffer(bed.testbed, True, 10, self.alive):
            raise Failure("the buffer was not enabled")

    def stop(self):
        stop(self.process)


def device(message):
    return message.get("state", {}).get("device")


def wait_until(condition, timeout, step=0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def first_pose(d, bed):
    bed.write(NORMAL, 1)
    d.wait_event(lambda m: device(m) == "landscape-left", 10, "first orientation")
    d.events(0.1)  # the rest of that change (its interface event)


def check_hotplug(a, bed):
    d = Daemon(a.orientd, bed, "hotplug", "--poll-fallback-sec", "10")
    try:
        d.begin(bed)
        first_pose(d, bed)
        if not wait_until(lambda: bed.monitors(), 10):
            raise Failure("the daemon's udev monitor does not listen")
        sensor_ms, orientation_ms = [], []
        for round in range(a.rounds):
            bed.remove()
            d.wait_event(lambda m: m.get("event") == "sensor" and m["state"]["sensor"] == "absent", 10,
                         "sensor event on removal")
            returned = bed.add()
            arrived, _ = d.wait_event(lambda m: m.get("event") == "sensor" and m["state"]["sensor"] == "active",
                                      10, "sensor event on return")
            sensor_ms.append((arrived - returned) / 1e6)
            if not emulated.wait_for_buffer(bed.testbed, True, 10, d.alive):
                raise Failure("the buffer was not enabled after the return")
            bed.write(NORMAL if round % 2 else LEFT_UP, 0.3)
            arrived, _ = d.wait_event(lambda m: m.get("event") == "device" and device(m) != "unknown", 10,
                                      "orientation after the return")
            orientation_ms.append((arrived - returned) / 1e6)
        ok = max(orientation_ms) <= TARGET_MS
        return ok, (f"{a.rounds} removals and returns: return -> sensor event p50 {percentile(sensor_ms, 50):.0f} ms, "
                    f"max {max(sensor_ms):.0f} ms; return -> orientation p50 {percentile(orientation_ms, 50):.0f} ms, "
                    f"max {max(orientation_ms):.0f} ms (target <= {TARGET_MS} ms)")
    finally:
        d.stop()
        if not os.path.exists(bed.root + "/sys" + emulated.SYSPATH + "/uevent"):
            bed.add()


def check_read_error(a, bed):
    d = Daemon(a.orientd, bed, "read-error", "--poll")
    attribute = bed.root + "/sys" + emulated.SYSPATH + "/in_accel_x_raw"
    try:
        d.begin(bed, buffered=False)
        d.wait_event(lambda m: device(m) == "landscape-left", 10, "first orientation")
        os.remove(attribute)
        os.mkdir(attribute)
        broken = time.monotonic_ns()
        arrived, failed = d.wait_event(lambda m: m.get("event") == "sensor", 20, "sensor event on the read error")
        to_failed = (arrived - broken) / 1e6
        other = Client(d.socket)
        asked = time.monotonic_ns()
        other.send({"id": 1, "method": "status"})
        replies = [m for _, m in other.lines(5) if m.get("id") == 1]
        other_ms = (time.monotonic_ns() - asked) / 1e6
        status = replies[0]["result"]["sensor"] if replies else {}
        logged = d.log().count("cannot read the accelerometer")
        os.rmdir(attribute)
        bed.set("in_accel_x_raw", "1000")
        bed.set("in_accel_y_raw", "0")
        fixed = time.monotonic_ns()
        arrived, _ = d.wait_event(lambda m: device(m) == "portrait", 30, "orientation after the repair")
        to_back = (arrived - fixed) / 1e6
        ok = (failed["state"]["sensor"] == "failed" and logged == 1 and "accel_x raw" in (status.get("last_error") or "")
              and d.alive())
        return ok, (f"read error -> sensor failed {to_failed:.0f} ms (limit 5 s of failing reads); 'cannot read' "
                    f"logged {logged}x; another client's status answered in {other_ms:.1f} ms "
                    f"(last_error: {status.get('last_error')!r}); repaired -> active + orientation {to_back:.0f} ms")
    finally:
        if os.path.isdir(attribute):
            os.rmdir(attribute)
            bed.set("in_accel_x_raw", "0")
        d.stop()


def check_reading(a, bed, name, bad, after_pose):
    d = Daemon(a.orientd, bed, name, "--poll-fallback-sec", "10")
    try:
        d.begin(bed)
        if after_pose:
            first_pose(d, bed)
        before = d.call("status")["sensor"]["samples_read"]
        bed.write(bad, 2)
        wait_until(lambda: d.call("status")["sensor"]["samples_read"] >= before + 100, 10, 0.02)
        false_events = [m for _, m in d.events(0.2) if m.get("event") in ("device", "interface")]
        status = d.call("status")
        pose, expected = (LEFT_UP, "portrait") if after_pose else (NORMAL, "landscape-left")
        bed.write(pose, 1)
        d.wait_event(lambda m: device(m) == expected, 10, "orientation after the bad readings")
        error = status["sensor"].get("last_error")
        ok = not false_events and error is not None and "readings ignored" in error and d.alive()
        return ok, (f"100 scans of {bad}: {len(false_events)} orientation events, device {status['state']['device']}, "
                    f"last_error {error!r}; the next pose was used")
    finally:
        d.stop()


def check_silent(a, bed, stays):
    d = Daemon(a.orientd, bed, "stays-silent" if stays else "silent-buffer", "--poll-fallback-sec", "2")
    try:
        d.begin(bed)
        first_pose(d, bed)
        d.seen = []
        bed.set("buffer/enable", "0")
        stopped = time.monotonic_ns()
        if not wait_until(lambda: bed.get("buffer/enable") == "1", 10):
            raise Failure("the buffer was not enabled again")
        reenabled = (time.monotonic_ns() - stopped) / 1e6
        if not stays:
            bed.write(LEFT_UP, 1)
            written = time.monotonic_ns()
            arrived, _ = d.wait_event(lambda m: device(m) == "portrait", 10, "orientation after the re-enable")
            mode = d.call("status")["sensor"]
            quiet = not any(m.get("event") == "sensor" for m in d.seen)
            ok = mode["mode"] == "buffer" and quiet and "disabling and enabling the buffer again" in d.log()
            return ok, (f"silent (PollFallbackSec=2) -> buffer enabled again {reenabled:.0f} ms; scans -> orientation "
                        f"{(arrived - written) / 1e6:.0f} ms; mode {mode['mode']}, no sensor event: {quiet}")
        polled = wait_until(lambda: d.call("status")["sensor"]["mode"] == "poll", 15, 0.02)
        to_poll = (time.monotonic_ns() - stopped) / 1e6
        if not polled:
            raise Failure("the daemon did not poll")
        for axis, value in zip("xyz", LEFT_UP):
            bed.set(f"in_accel_{axis}_raw", value)
        written = time.monotonic_ns()
        arrived, _ = d.wait_event(lambda m: device(m) == "portrait", 10, "orientation while polling")
        status = d.call("status")["sensor"]
        ok = status["fell_back"] and "stayed silent" in d.log()
        return ok, (f"silent -> enabled again {reenabled:.0f} ms -> polling {to_poll:.0f} ms after the stop "
                    f"(PollFallbackSec=2); attributes -> orientation {(arrived - written) / 1e6:.0f} ms; "
                    f"fell_back {status['fell_back']}")
    finally:
        d.stop()


def check_clock_jump(a, bed):
    d = Daemon(a.orientd, bed, "clock-jump", "--poll-fallback-sec", "10")
    try:
        d.begin(bed)
        first_pose(d, bed)
        bed.set("buffer/enable", "0")
        bed.skip(30)
        bed.write(NORMAL, 0.2)
        written = time.monotonic_ns()
        if not wait_until(lambda: bed.get("buffer/enable") == "1", 8):
            raise Failure("the buffer was not enabled again within 8 s")
        reenabled = (time.monotonic_ns() - written) / 1e6
        bed.write(LEFT_UP, 1)
        d.wait_event(lambda m: device(m) == "portrait", 10, "orientation after the jump")
        ok = "the clock jumped by 30 s" in d.log()
        return ok, f"30 s jump in the scans' timestamps -> buffer enabled again {reenabled:.0f} ms; orientation again"
    finally:
        d.stop()


CHECKS = [
    ("hotplug", check_hotplug),
    ("read-error", check_read_error),
    ("saturated", lambda a, bed: check_reading(a, bed, "saturated", (32767, -1000, 0), after_pose=False)),
    ("zero", lambda a, bed: check_reading(a, bed, "zero", (0, 0, 0), after_pose=True)),
    ("silent-buffer", lambda a, bed: check_silent(a, bed, stays=False)),
    ("stays-silent", lambda a, bed: check_silent(a, bed, stays=True)),
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
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                 platform.processor())
    print(f"machine: {os.cpu_count()} CPUs, {model}; kernel {platform.release()}; {platform.machine()}")
    print(f"daemon: {a.orientd}")
    print("method: umockdev testbed (HID-style accel_3d, le:s16 + timestamp, PTY node), orientd run --rate 50 as a "
          "child; times from the fault or repair to the event read by a client (Unix socket)")
    bed = Bed()
    failed = 0
    for name, check in CHECKS:
        if only and name not in only:
            continue
        try:
            ok, figures = check(a, bed)
        except Failure as failure:
            ok, figures = False, str(failure)
        failed += not ok
        print(f"{name:<14} {'PASS' if ok else 'FAIL'}  {figures}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
