#!/usr/bin/python3
"""Event latency of the real orientd on an emulated accelerometer (umockdev), buffered mode.

Measures the time from writing the deciding scan to the emulated device (a PTY that libiio
reads) to the event arriving at a client over the control socket: the daemon's own cost
beyond the classifier's decision (read, decode, calibrate, classify, policy, encode, send).
The classifier's decision time (how long after the hand stops it decides, in sample time) is
reported apart, from the same samples.

Method: the device is turned through the four poses (0.6 s each at 100 Hz, with timestamps).
Scans are written in bulk up to shortly before each change, then one at a time, 5 ms apart,
each write timed; the event that follows is attributed to the last scan written before it.

Usage: scripts/latency.py ORIENTD [--changes 200]
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse, json, os, select, signal, socket, subprocess, sys, tempfile, time

import emulated_accelerometer as emulated

RATE = 100
HOLD = 0.6
# Raw counts (1 g = 1000) of the four poses, in the order a hand turns the device.
POSES = [(0, -1000, 0), (1000, 0, 0), (0, 1000, 0), (-1000, 0, 0)]



def tour(changes):
    """Samples (raw x, y, z, t in ns) turning through the poses, one pose change per hold."""
    samples, per_hold = [], int(HOLD * RATE)
    for hold in range(changes + 1):
        x, y, z = POSES[hold % len(POSES)]
        for i in range(per_hold):
            wobble = ((i * 7) % 5 - 2) * 3  # a few counts of hand tremor
            samples.append((x + wobble, y - wobble, z, (hold * per_hold + i) * 1_000_000_000 // RATE))
    return samples




class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(200):
            try:
                self.sock.connect(path)
                break
            except OSError:
                time.sleep(0.02)
        else:
            sys.exit(f"latency: the daemon does not listen on {path}")
        self.buffer = b""

    def send(self, obj):
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def lines(self, timeout):
        """Lines that arrive within `timeout` seconds, each with its arrival time."""
        out, deadline = [], time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return out
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if not ready:
                return out
            data = self.sock.recv(65536)
            arrived = time.monotonic_ns()
            if not data:
                sys.exit("latency: the daemon closed the connection")
            self.buffer += data
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                out.append((arrived, json.loads(line)))
            if out:
                return out


def percentile(values, p):
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the orientd binary (a release build for figures worth quoting)")
    ap.add_argument("--changes", type=int, default=200)
    a = ap.parse_args()

    testbed = emulated.testbed()
    work = tempfile.mkdtemp(prefix="orientd-latency-")
    socket_path = os.path.join(work, "socket")
    env = emulated.child_environment(testbed)
    daemon = subprocess.Popen(
        [a.orientd, "run", "--socket", socket_path, "--state-dir", os.path.join(work, "state"),
         "--rate", str(RATE), "--poll-fallback-sec", "10"],
        env=env, stderr=subprocess.DEVNULL)
    try:
        client = Client(socket_path)
        client.send({"id": 1, "method": "begin"})
        while emulated.attribute(testbed, "buffer/enable") != "1":
            client.lines(0.01)
            if daemon.poll() is not None:
                sys.exit("latency: the daemon exited")
        client.lines(0.05)
        pty = testbed.get_dev_fd(emulated.NODE)
        samples = tour(a.changes)
        per_hold = int(HOLD * RATE)
        latencies, decisions, index = [], [], 0
        for change in range(1, a.changes + 1):
            start = change * per_hold  # the first sample of the new pose
            bulk_end = start + 3  # scans before this one cannot decide (the dwell is 150 ms)
            os.write(pty, b"".join(emulated.scan(*s) for s in samples[index:bulk_end]))
            index = bulk_end
            client.lines(0.02)  # let the daemon take them; no event can come from them
            event = None
            while index < start + per_hold and event is None:
                written = time.monotonic_ns()
                os.write(pty, emulated.scan(*samples[index]))
                index += 1
                for arrived, message in client.lines(0.005):
                    if message.get("event") == "device" and event is None:
                        event = (arrived, message)
                        latencies.append((arrived - written) / 1e6)
                        decisions.append((index - 1 - start) * 1000 / RATE)
            if event is None:
                sys.exit(f"latency: no device event for change {change}")
        print(f"machine: {os.uname().machine}, {os.cpu_count()} cores; {a.orientd}")
        print(f"method: umockdev PTY, buffered le:s16 + timestamp at {RATE} Hz, {len(latencies)} changes; "
              "scans written one at a time near each change")
        print(f"classifier decision after the pose began (sample time): "
              f"p50 {percentile(decisions, 50):.0f} ms, p99 {percentile(decisions, 99):.0f} ms")
        print(f"event latency beyond the classifier (scan written -> event read): "
              f"p50 {percentile(latencies, 50):.3f} ms, p99 {percentile(latencies, 99):.3f} ms, "
              f"max {max(latencies):.3f} ms")
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()


if __name__ == "__main__":
    main()
