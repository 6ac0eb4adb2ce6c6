#!/usr/bin/python3
"""Reliability checks of the real orientd on an emulated accelerometer (umockdev), one line each.

Each check drives the daemon as a user's programs would, at the full counts of the reliability
issue, and prints PASS or FAIL with its figures (docs/reliability.md says what each proves):
  torture     10,000 random and malformed request lines over 50 connections: the daemon stays
              up, every well-formed but wrong request gets its documented error, a generating
              client sees every event, memory stays bounded;
  slow        a generating client that never reads while 10,000 events are made: dropped at its
              256 KiB bound, memory bounded, the others get everything;
  lag         a generating client that reads 3 % less than it is sent: dropped at its bound, and
              until then the daemon holds its unsent bytes only;
  churn       10,000 connect/begin/close cycles (some end, some do not, some clients are killed):
              the generation total returns to 0, the sensor is stopped, the open files return to
              their baseline;
  crash       SIGKILL at random moments while the lock changes (500 rounds): the state file always
              parses and holds the last acknowledged lock or the one in flight; with the state
              directory full (a 4 KiB tmpfs), state-not-saved, the old state kept, the daemon up;
  sigterm     SIGTERM under load: exit 0, the device restored, the socket file removed; the time
              to exit against the 2 s target;
  sighup      SIGHUP under load reloads the configuration without dropping a client.

Usage: scripts/reliability.py ORIENTD [--lines 10000] [--events 10000] [--cycles 10000]
                                      [--rounds 500] [--term-rounds 20] [--only torture,slow,...]
                                      [--seed N]
Exits 1 if a check fails. The tmpfs half of `crash` needs root (mount); without it it says SKIP.
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse, json, os, platform, random, select, signal, socket, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import emulated_accelerometer as emulated  # noqa: E402
import perf  # noqa: E402  (daemon start and stop, /proc readers, the work directory)

KIB = 1024
OUTPUT_LIMIT = 256 * KIB  # [Server] OutputLimitKiB= default (PROTOCOL.md)
LINE_LIMIT = 4096
POSES = [(0, -1000, 0), (1000, 0, 0), (0, 1000, 0), (-1000, 0, 0)]  # raw counts, 1 g = 1000
RESULTS = []


def report(name, ok, figures):
    RESULTS.append(ok)
    print(f"{name:<8} {'PASS' if ok else 'FAIL'}  {figures}", flush=True)


def kib(pid, field):
    return perf.status_field(pid, field) or 0


def fd_count(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


class Conn:
    """A client connection: raw sends, JSON lines read with a timeout; EOF noted, never fatal."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + 10
        while True:  # a daemon just started may not listen yet on a socket file left by a killed one
            try:
                self.sock.connect(path)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.005)
        self.buffer = b""
        self.pending = []  # messages read by call() that were not its reply
        self.closed = False
        self.received = 0  # bytes, newlines included

    def send(self, data):
        try:
            self.sock.sendall(data if isinstance(data, bytes) else data.encode())
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False

    def call(self, method, params=None, ident=1, timeout=10):
        request = {"id": ident, "method": method}
        if params is not None:
            request["params"] = params
        self.send(json.dumps(request) + "\n")
        others = []
        for message in self.messages(timeout, until=lambda m: m.get("id") == ident and "event" not in m):
            if message.get("id") == ident and "event" not in message:
                self.pending = others + self.pending
                return message
            others.append(message)
        self.pending = others + self.pending
        raise RuntimeError(f"no reply to {method} (closed: {self.closed})")

    def messages(self, timeout, until=None, count=None):
        """Messages read within `timeout`, stopping early at `count` replies or at one matching `until`."""
        if count == 0:
            return []
        out, replies, deadline = [], 0, time.monotonic() + timeout
        batch, self.pending = self.pending, []
        while True:
            batch += list(self._take())
            for index, message in enumerate(batch):
                out.append(message)
                replies += "event" not in message
                if (until and until(message)) or (count is not None and replies >= count):
                    self.pending = batch[index + 1:]
                    return out
            batch = []
            if self.closed:
                return out
            remaining = max(0, deadline - time.monotonic())
            if not select.select([self.sock], [], [], remaining)[0]:
                return out
            try:
                data = self.sock.recv(1 << 20)
            except ConnectionResetError:
                data = b""
            if not data:
                self.closed = True
            self.received += len(data)
            self.buffer += data

    def _take(self):
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            message = json.loads(line)
            message[" bytes"] = len(line) + 1  # as sent, newline included
            yield message

    def close(self):
        self.sock.close()


def start(a, testbed, name, *args, config=None):
    daemon, path = perf.start(a.orientd, testbed, name, "--rate", "100", "--poll-fallback-sec", "10", *args,
                              config=config)
    return daemon, path


def begin(conn, daemon, testbed):
    reply = conn.call("begin")
    if not emulated.wait_for_buffer(testbed, True, 10, lambda: daemon.poll() is None):
        raise RuntimeError("the daemon did not enable the buffer")
    return reply


class Feed:
    """Turns the emulated device through the four poses, 0.6 s of 100 Hz scans each, timestamps counting on."""

    def __init__(self, testbed):
        self.pty = testbed.get_dev_fd(emulated.NODE)
        self.t, self.pose = 1_000_000_000, 0

    def turn(self):
        self.pose += 1
        x, y, z = POSES[self.pose % len(POSES)]
        scans = []
        for _ in range(60):
            scans.append(emulated.scan(x, y, z, self.t))
            self.t += 10_000_000
        os.write(self.pty, b"".join(scans))


def seq_gaps(events):
    seqs = sorted({e["state"]["seq"] for e in events})
    return [s for s in range(seqs[0], seqs[-1] + 1) if s not in set(seqs)] if seqs else []


# ---------------------------------------------------------------------------------------------
# Protocol torture

# Well-formed but wrong requests: (line with %s for the id, code, whether the id is echoed).
WRONG = [
    ('{"id": %s, "method": "fly"}', "invalid-request", True),
    ('{"id": %s}', "invalid-request", True),
    ('{"id": %s, "method": 7}', "invalid-request", True),
    ('{"id": %s, "method": null}', "invalid-request", True),
    ('{"id": %s, "method": ["get"]}', "invalid-request", True),
    ('{"id": %s, "method": "get", "params": {"now": true}}', "invalid-request", True),
    ('{"id": %s, "method": "get", "params": [1]}', "invalid-request", True),
    ('{"id": %s, "method": "status", "params": "all"}', "invalid-request", True),
    ('{"id": %s, "method": "get", "extra": 1}', "invalid-request", True),
    ('{"id": %s, "method": "hello", "params": {"x": null}}', "invalid-request", True),
    ('{"id": %s, "method": "lock", "params": {"orientation": 5}}', "invalid-request", True),
    ('{"id": %s, "method": "lock", "params": {"orientation": null}}', "invalid-request", True),
    ('{"id": %s, "method": "lock", "params": {"orientation": 1e308}}', "invalid-request", True),
    ('{"id": %s, "method": "lock", "params": {"mask": null}}', "invalid-request", True),
    ('{"id": %s, "method": "lock", "params": {"orientation": "portrait", "mask": "all"}}', "invalid-request", True),
    ('{"id": %s, "method": "lock", "params": {"orientation": "sideways"}}', "invalid-orientation", True),
    ('{"id": %s, "method": "lock", "params": {"orientation": "unknown"}}', "invalid-orientation", True),
    ('{"id": %s, "method": "lock", "params": {"mask": "diagonal"}}', "invalid-orientation", True),
    ('{"id": %s, "method": "lock", "params": {"mask": []}}', "empty-mask", True),
    ('{"id": %s, "method": "constrain", "params": {}}', "invalid-request", True),
    ('{"id": %s, "method": "constrain", "params": {"mask": 3}}', "invalid-request", True),
    ('{"id": %s, "method": "constrain", "params": {"mask": [1]}}', "invalid-request", True),
    ('{"id": %s, "method": "constrain", "params": {"mask": {"a": 1}}}', "invalid-request", True),
    ('{"id": %s, "method": "constrain", "params": {"mask": ["portrait", "up"]}}', "invalid-orientation", True),
    ('{"id": %s, "method": "constrain", "params": {"mask": []}}', "empty-mask", True),
    ('{"id": %s, "method": "end"}', "not-generating", True),
    ('{"id": [%s], "method": "get"}', "invalid-request", False),
    ('{"id": {"n": %s}, "method": "get"}', "invalid-request", False),
    ('{"id": %s.5, "method": "get"}', "invalid-request", False),
    ('{"id": true, "method": "get", "n": %s}', "invalid-request", False),
    ('{"id": 1%s000000000000000000000, "method": "get"}', "invalid-request", False),
    ('{"id": -%se300, "method": "get"}', "invalid-request", False),
]
# Not JSON, or not an object: parse-error with id null.
NOT_JSON = [b"not json", b"[1, 2]", b'"get"', b"42", b"null", b"", b"{", b'{"id": 1, "method": "get"',
            b'{"id": 1,, "method": "get"}', b"{'id': 1}", b'{"id": 1, "method": "get\xff"}', b"\xc3\x28\xa0\xa1",
            b'{"id": 1, "method": "g\xc0\xafet"}', b"\xef\xbb\xbf{}", b"[" * 2000 + b"]" * 2000,
            b'{"id": 1 "method": "get"}', b'{"id": 1, "method": "get"} {"id": 2}', b"\x00\x00\x00"]
GOOD = ['{"id": %s, "method": "get"}', '{"id": %s, "method": "hello"}', '{"id": %s, "method": "status"}',
        '{"id": "s%s", "method": "get", "params": null}', '{"id": %s, "method": "get", "params": {}}',
        '{ "method" : "hello" , "id" : %s }', '{"id": %s, "method": "constrain", "params": {"mask": null}}']


def torture_line(rng, ident):
    """(bytes, expectation): ("code", code, id or None) | ("ok", id) | ("any",) | ("dup", ids)."""
    kind = rng.random()
    if kind < 0.35:
        line, code, echoed = rng.choice(WRONG)
        text = line % ident
        return text.encode(), ("code", code, ident if echoed else None)
    if kind < 0.45:
        return rng.choice(NOT_JSON), ("code", "parse-error", None)
    if kind < 0.60:
        template = rng.choice(GOOD)
        expected = f"s{ident}" if '"s%s"' in template else ident
        return (template % ident).encode(), ("ok", expected)
    if kind < 0.70:  # random bytes, no newline; never a JSON object (the first is `}`)
        data = b"}" + bytes(rng.choice([b for b in range(256) if b != 10]) for _ in range(rng.randint(0, 300)))
        return data, ("code", "parse-error", None)
    if kind < 0.85:  # a good read-only request with one or two bytes changed, added or removed
        data = bytearray((rng.choice(GOOD[:3]) % ident).encode())
        for _ in range(rng.randint(1, 2)):
            at = rng.randrange(len(data))
            op = rng.randrange(3)
            byte = rng.choice([b for b in range(256) if b != 10])
            if op == 0:
                data[at] = byte
            elif op == 1:
                data.insert(at, byte)
            elif len(data) > 1:
                del data[at]
        return bytes(data), ("any",)
    if kind < 0.90:  # duplicate keys: rejected or the last taken, but answered
        return (f'{{"id": {ident}, "method": "get", "method": "fly"}}'.encode(), ("dup", [ident, None]))
    if kind < 0.95:  # nesting inside params: valid JSON, wrong params
        depth = rng.choice([10, 100, 400])
        inner = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
        return (f'{{"id": {ident}, "method": "get", "params": {{"deep": {inner}}}}}'.encode(),
                ("code", "invalid-request", ident))
    # huge and odd numbers in wrong places
    number = rng.choice(["1e400", "-1e400", "123456789012345678901234567890", "0.0000000000000000001", "-0",
                         "1E+2", "9223372036854775808"])
    return (f'{{"id": {ident}, "method": "lock", "params": {{"orientation": {number}}}}}'.encode(),
            ("code", "invalid-request", ident))


def check_reply(message, expectation):
    if "event" in message or ("result" in message) == ("error" in message):
        return False
    code = message.get("error", {}).get("code")
    kind = expectation[0]
    if kind == "code":
        return code == expectation[1] and message.get("id") == expectation[2] and message["error"].get("message")
    if kind == "ok":
        return code is None and message.get("id") == expectation[1]
    if kind == "dup":
        return message.get("id") in expectation[1]
    return True


def check_torture(a, testbed):
    rng = random.Random(a.seed)
    daemon, path = start(a, testbed, "torture")
    pid, started = daemon.pid, time.monotonic()
    generator = Conn(path)
    begin(generator, daemon, testbed)
    feed = Feed(testbed)
    feed.turn()
    events = [m for m in generator.messages(1.0) if "event" in m]
    slots = [Conn(path) for _ in range(50)]
    for conn in slots:
        conn.call("hello")
    rss_before = kib(pid, "VmRSS")
    sent, bad, closing, connections, turns, ident = 0, [], 0, 50, 1, 100
    events += [m for m in generator.messages(0.2) if "event" in m]
    while sent < a.lines:
        # Every slot gets a batch, then every reply is read and checked in order.
        batches = []
        for conn in slots:
            batch = []
            for _ in range(min(rng.randint(5, 30), a.lines - sent)):
                ident += 1
                batch.append(torture_line(rng, ident))
            sent += len(batch)
            if batch:
                conn.send(b"".join(line + (b"\r\n" if rng.random() < 0.05 else b"\n") for line, _ in batch))
            batches.append(batch)
        for conn, batch in zip(slots, batches):
            replies = [m for m in conn.messages(20, count=len(batch)) if "event" not in m]
            if len(replies) != len(batch) or conn.closed:
                bad.append(f"{len(replies)} replies to {len(batch)} lines (closed: {conn.closed})")
            for (line, expectation), reply in zip(batch, replies):
                if not check_reply(reply, expectation):
                    bad.append(f"{line[:120]!r} -> {reply}")
        # The lines that end a connection, each on a fresh one that then takes the slot.
        for _ in range(min(3, a.lines - sent)):
            index = rng.randrange(len(slots))
            slots[index].close()
            conn = Conn(path)
            connections += 1
            case = rng.randrange(4)
            if case == 0:  # a partial line, then close
                conn.send(b'{"id": 1, "meth')
            elif case == 1:  # 1 MiB without a newline, then one: line-too-long, then the daemon closes
                conn.send(b'{"id": 1, "method": "get", "pad": "' + b"x" * (1 << 20) + b'"}\n')
                replies = conn.messages(10)
                if [m.get("error", {}).get("code") for m in replies] != ["line-too-long"] or not conn.closed:
                    bad.append(f"1 MiB line -> {replies} (closed: {conn.closed})")
            elif case == 2:  # a line with bytes after its newline, then close
                conn.send(b'{"id": 5, "method": "get"}\n{"id": 6, "method": "ge')
                conn.sock.shutdown(socket.SHUT_WR)
                replies = conn.messages(10)
                if [m.get("id") for m in replies] != [5] or not conn.closed:
                    bad.append(f"bytes after the newline -> {replies} (closed: {conn.closed})")
            else:  # a request, then close without reading the reply
                conn.send(b'{"id": 7, "method": "status"}\n')
            conn.close()
            sent += 1
            closing += 1
            slots[index] = Conn(path)
            connections += 1
        if sent // 400 > turns - 1:
            feed.turn()
            turns += 1
        events += [m for m in generator.messages(0) if "event" in m]
    # The last turn's event, then a barrier: every event before the reply to get has arrived.
    time.sleep(0.5)
    final = generator.call("get", ident=99999)
    events += [m for m in generator.messages(0.2) if "event" in m]
    device_events = sum(1 for e in events if e["event"] == "device")
    gaps = seq_gaps(events + [{"state": final["result"]}])
    rss_after, hwm = kib(pid, "VmRSS"), kib(pid, "VmHWM")
    bound = rss_before + 50 * (OUTPUT_LIMIT // KIB + 8) + 4096
    alive = daemon.poll() is None and generator.call("hello", ident=100000).get("result") is not None
    ok = alive and not bad and not gaps and device_events >= turns and hwm <= bound and not generator.closed
    perf.stop(daemon)
    report("torture", ok, f"{sent} lines over {connections} connections ({closing} ending one: partial, "
           f"1 MiB, bytes after the newline, unread reply) in {time.monotonic() - started:.1f} s; "
           f"{len(bad)} wrong replies; daemon {'up' if alive else 'DOWN'}; generating client: {len(events)} "
           f"events, {device_events} device events for {turns} turns, seq gaps {len(gaps)}; "
           f"VmRSS {rss_before} -> {rss_after} kB, VmHWM {hwm} kB (bound {bound} kB)")
    for line in bad[:5]:
        print("    " + line)


# ---------------------------------------------------------------------------------------------
# Slow consumer

def check_slow(a, testbed):
    daemon, path = start(a, testbed, "slow")
    pid = daemon.pid
    sluggard = Conn(path)
    sluggard.begin_bytes = sluggard.call("begin")[" bytes"]
    reader = Conn(path)
    reader.call("begin")
    controller = Conn(path)
    rss_before = kib(pid, "VmRSS")
    masks = [{"mask": "portrait"}, {"mask": "landscape"}]
    seqs, events, dropped_at, toggles, ident = [], [], None, 0, 10
    started = time.monotonic()
    while len([e for e in events if seqs and e["state"]["seq"] >= seqs[0]]) < a.events:
        ident += 1
        reply = controller.call("constrain", masks[toggles % 2], ident=ident)
        seqs.append(reply["result"]["seq"])
        toggles += 1
        events += [m for m in reader.messages(0) if "event" in m]
        if dropped_at is None:
            ident += 1
            if controller.call("status", ident=ident)["result"]["clients"] == 2:
                dropped_at = toggles - 1  # dropped while this toggle's events were sent
    elapsed = time.monotonic() - started
    final = reader.call("get", ident=1_000_000, timeout=30)
    events += [m for m in reader.messages(0.2) if "event" in m]
    rss_after, hwm = kib(pid, "VmRSS"), kib(pid, "VmHWM")
    # The sluggard reads now: what the kernel held for it, then EOF.
    slug = sluggard.messages(10)
    received = sluggard.received
    every = [e for e in events if e["state"]["seq"] >= seqs[0]]
    # No scans are fed, so the poll fallback may read the device once: a change of its own between toggles.
    toggled = set(seqs)
    mine = [e for e in every if e["state"]["seq"] in toggled]
    others_ok = all(e["event"] in ("device", "interface") for e in every if e["state"]["seq"] not in toggled)
    expected = [(s, name) for s in seqs for name in ("allowed", "interface")]
    got = [(e["state"]["seq"], e["event"]) for e in mine]
    # What the daemon owed the sluggard through each change: the lines before the first change (all read),
    # then each change's events, the same bytes the reader got. Less what reached its socket: its queue.
    owed = sluggard.begin_bytes + sum(m[" bytes"] for m in slug if m.get("state", {}).get("seq", 0) < seqs[0]
                                      or "event" not in m)
    queued, following = [], 0
    for s in seqs:
        while following < len(every) and every[following]["state"]["seq"] <= s:
            owed += every[following][" bytes"]
            following += 1
        queued.append(owed - received)
    queued_at = queued[dropped_at] if dropped_at is not None else None
    queued_before = queued[dropped_at - 1] if dropped_at else 0
    at_bound = dropped_at is not None and queued_before <= OUTPUT_LIMIT < queued_at
    ok = (dropped_at is not None and got == expected and others_ok and at_bound and sluggard.closed and daemon.poll() is None
          and hwm - rss_before <= 3 * (OUTPUT_LIMIT // KIB + 8) + 4096 and final.get("result"))
    perf.stop(daemon)
    report("slow", ok, f"{len(mine)} events in {toggles} changes ({elapsed:.1f} s); the non-reader dropped "
           f"at change {dropped_at} with {queued_at} B queued (over {OUTPUT_LIMIT} B; {queued_before} B one "
           f"change earlier) after {received} B reached its socket; the reader got {len(got)} of "
           f"{len(expected)} events in order; VmRSS {rss_before} -> {rss_after} kB, VmHWM {hwm} kB")


def check_lag(a, testbed):
    """A generating client that reads, but 3 % less than it is sent: it is dropped at its bound, and until then
    the daemon holds its unsent bytes only, not everything sent since it last caught up."""
    daemon, path = start(a, testbed, "lag")
    pid = daemon.pid
    lagger, reader, controller = Conn(path), Conn(path), Conn(path)
    lagger.call("begin")
    reader.call("begin")
    controller.call("hello")
    lagger.sock.setblocking(False)
    rss_before = kib(pid, "VmRSS")
    masks = ['{"mask": "portrait"}', '{"mask": "landscape"}']
    produced, batches, clients, started = 0, 0, 3, time.monotonic()
    while clients == 3 and batches < 2000:
        controller.send("".join('{"id": %d, "method": "constrain", "params": %s}\n' % (i, masks[i % 2])
                                for i in range(50)))
        controller.messages(10, count=50)
        before = reader.received
        reader.messages(0.05)
        batch = reader.received - before
        produced += batch
        want, read = int(batch * 0.97), 0
        while read < want:
            try:
                data = lagger.sock.recv(want - read)
            except BlockingIOError:
                break
            if not data:
                break
            read += len(data)
        batches += 1
        if batches % 10 == 0:
            clients = controller.call("status", ident=999)["result"]["clients"]
    hwm = kib(pid, "VmHWM")
    bound = rss_before + 2 * OUTPUT_LIMIT // KIB + 1024
    ok = clients == 2 and hwm <= bound and daemon.poll() is None and not reader.closed
    perf.stop(daemon)
    report("lag", ok, f"a client reading 97 % of what it is sent: dropped after {produced / 1e6:.1f} MB in "
           f"{batches * 50} changes ({time.monotonic() - started:.1f} s); VmRSS {rss_before} kB before, VmHWM "
           f"{hwm} kB (bound {bound} kB: twice the 256 KiB queue + 1 MiB)")


# ---------------------------------------------------------------------------------------------
# Churn

def killed_client(path):
    """A forked client that connects, begins and waits to be killed; its pid."""
    child = os.fork()
    if child == 0:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            s.sendall(b'{"id": 1, "method": "begin"}\n')
            if random.random() < 0.5:
                s.recv(65536)
            time.sleep(60)
        finally:
            os._exit(0)
    return child


def check_churn(a, testbed):
    rng = random.Random(a.seed + 1)
    daemon, path = start(a, testbed, "churn")
    pid = daemon.pid
    observer = Conn(path)
    observer.call("hello")
    fds_start = fd_count(pid)
    # The baseline comes after one start and stop of the sensor: sd-event makes its timerfd for the monotonic
    # clock at the first timer (the poll fallback) and keeps it for the loop's life.
    warm_up = Conn(path)
    begin(warm_up, daemon, testbed)
    warm_up.close()
    emulated.wait_for_buffer(testbed, False, 10, lambda: daemon.poll() is None)
    observer.call("status", ident=2)  # a round trip: the warm-up connection's close is complete, its fd closed
    fds_before, rss_before = fd_count(pid), kib(pid, "VmRSS")
    open_conns, kinds, started, children = [], {"end": 0, "no-end": 0, "unread": 0, "killed": 0, "twice": 0}, \
        time.monotonic(), []
    for cycle in range(a.cycles):
        if len(open_conns) >= rng.randint(1, 8):
            conn, kind = open_conns.pop(rng.randrange(len(open_conns)))
            if kind == "end":
                conn.call("end", ident=3)
            elif kind == "twice":
                conn.call("end", ident=3)
            conn.close()
        kind = rng.choices(list(kinds), weights=[30, 30, 15, 10, 15])[0]
        kinds[kind] += 1
        if kind == "killed":
            child = killed_client(path)
            time.sleep(rng.random() * 0.003)
            os.kill(child, signal.SIGKILL)
            children.append(child)
            if len(children) > 20:
                os.waitpid(children.pop(0), 0)
            continue
        conn = Conn(path)
        if kind == "unread":
            conn.send(b'{"id": 1, "method": "begin"}\n')
            conn.close()
            continue
        conn.call("begin", ident=1)
        if kind == "twice":
            conn.call("begin", ident=2)
        open_conns.append((conn, kind))
    for conn, _ in open_conns:
        conn.close()
    for child in children:
        os.waitpid(child, 0)
    deadline, status = time.monotonic() + 10, {}
    while time.monotonic() < deadline:
        status = observer.call("status", ident=9)["result"]
        if status["clients"] == 1 and emulated.attribute(testbed, "buffer/enable") == "0":
            break
        time.sleep(0.05)
    time.sleep(0.1)
    fds_after, rss_after = fd_count(pid), kib(pid, "VmRSS")
    samples = status["sensor"]["samples_read"] if "sensor" in status else None
    ok = (status.get("generation_total") == 0 and status["state"]["sensor"] == "stopped"
          and emulated.attribute(testbed, "buffer/enable") == "0" and fds_after == fds_before
          and daemon.poll() is None)
    perf.stop(daemon)
    report("churn", ok, f"{a.cycles} cycles in {time.monotonic() - started:.1f} s ("
           + ", ".join(f"{n} {k}" for k, n in kinds.items()) + f"); generation total "
           f"{status.get('generation_total')}, sensor {status['state']['sensor']}, buffer/enable "
           f"{emulated.attribute(testbed, 'buffer/enable')}; open files {fds_before} -> {fds_after} "
           f"({fds_start} before the sensor first ran); "
           f"VmRSS {rss_before} -> {rss_after} kB; samples read {samples}")


# ---------------------------------------------------------------------------------------------
# Crash safety

LOCKS = [None, ["portrait"], ["landscape-left", "landscape-right"], ["portrait-upside-down"],
         ["landscape-left"], ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]]
WIRE = {"portrait": {"orientation": "portrait"}, "portrait-upside-down": {"orientation": "portrait-upside-down"},
        "landscape-left": {"orientation": "landscape-left"}}


NOTHING = object()  # no request in flight (None is the unlock)


def lock_request(lock):
    if lock is None:
        return "unlock", None
    if len(lock) == 1:
        return "lock", {"orientation": lock[0]}
    return "lock", {"mask": lock}


def read_state(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return "missing"
    try:
        value = json.loads(data)
        assert value["version"] == 1 and set(value) == {"version", "lock"}
        return value["lock"]
    except (ValueError, AssertionError, KeyError, TypeError):
        return f"unparsable {data[:80]!r}"


def check_crash(a, testbed):
    rng = random.Random(a.seed + 2)
    state_dir = os.path.join(perf.WORK, "crash-state")
    state_file = os.path.join(state_dir, "state.json")
    acked, failures, in_flight_seen, locks_total, started = None, [], 0, 0, time.monotonic()
    temporaries = 0
    for round_ in range(a.rounds):
        daemon, path = start(a, testbed, "crash", "--state-dir", state_dir)
        conn = Conn(path)
        restored = conn.call("get", ident=1)["result"]["lock"]
        if restored != read_state(state_file if os.path.exists(state_file) else "/nonexistent") and not (
                restored is None and not os.path.exists(state_file)):
            failures.append(f"round {round_}: restored {restored}, file {read_state(state_file)}")
        acked = restored
        deadline = time.monotonic() + rng.random() * 0.08
        in_flight = NOTHING
        ident = 1
        while True:
            choice = rng.choice([lock for lock in LOCKS if lock != acked])
            method, params = lock_request(choice)
            ident += 1
            request = {"id": ident, "method": method}
            if params:
                request["params"] = params
            conn.send(json.dumps(request) + "\n")
            in_flight = choice
            if time.monotonic() >= deadline:
                break
            reply = conn.messages(10, count=1)
            if not reply or reply[-1].get("id") != ident or "result" not in reply[-1]:
                failures.append(f"round {round_}: {method} {params} -> {reply}")
                break
            acked, in_flight = reply[-1]["result"]["lock"], NOTHING
            locks_total += 1
            if time.monotonic() >= deadline:
                break
        time.sleep(rng.random() * 0.002)  # the request in flight is being handled, or its save is under way
        daemon.kill()
        daemon.wait()
        conn.close()
        temporaries += len([n for n in os.listdir(state_dir) if n.startswith(".state.json.")])
        on_disk = read_state(state_file)
        if in_flight is not NOTHING and on_disk == in_flight and on_disk != acked:
            in_flight_seen += 1
            acked = in_flight
        elif on_disk != acked and not (on_disk == "missing" and acked is None):
            shown = "nothing" if in_flight is NOTHING else in_flight
            failures.append(f"round {round_}: file {on_disk}, acknowledged {acked}, in flight {shown}")
    # A last start: the temporary files of saves cut short are removed.
    daemon, path = start(a, testbed, "crash", "--state-dir", state_dir)
    Conn(path).call("hello")
    leftovers = [n for n in os.listdir(state_dir) if n.startswith(".state.json.")]
    perf.stop(daemon)
    ok = not failures and not leftovers
    report("crash", ok, f"{a.rounds} SIGKILL rounds in {time.monotonic() - started:.1f} s, {locks_total} lock "
           f"changes acknowledged; the file held the last acknowledged lock or the one in flight every time "
           f"({in_flight_seen} times the one in flight); {len(failures)} failures; temporary files of saves cut "
           f"short found after {temporaries} kills, {len(leftovers)} left after the next start")
    for line in failures[:5]:
        print("    " + line)
    check_full_disk(a, testbed)


def check_full_disk(a, testbed):
    directory = os.path.join(perf.WORK, "full")
    os.makedirs(directory)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k,mode=0755", "tmpfs", directory],
                      capture_output=True).returncode != 0:
        print(f"{'full':<8} SKIP  a tmpfs cannot be mounted here (needs root)")
        return
    try:
        daemon, path = start(a, testbed, "full", "--state-dir", directory)
        generator, conn = Conn(path), Conn(path)
        generator.call("begin")
        first = conn.call("lock", {"orientation": "portrait"}, ident=2)
        before = open(os.path.join(directory, "state.json"), "rb").read()
        # One 4 KiB page, taken by state.json: the next save has no room for its new file.
        refused = conn.call("lock", {"mask": "landscape"}, ident=3)
        after = open(os.path.join(directory, "state.json"), "rb").read()
        state = conn.call("get", ident=4)["result"]
        events = [m for m in generator.messages(0.3) if "event" in m]
        code = refused.get("error", {}).get("code")
        subprocess.run(["mount", "-o", "remount,size=64k", directory], check=True)
        retried = conn.call("lock", {"mask": "landscape"}, ident=5)
        ok = (first.get("result", {}).get("lock") == ["portrait"] and code == "state-not-saved"
              and before == after and state["lock"] == ["portrait"] and daemon.poll() is None
              and not [e for e in events if e["event"] == "allowed" and e["state"]["lock"] != ["portrait"]]
              and retried.get("result", {}).get("lock") == ["landscape-left", "landscape-right"])
        perf.stop(daemon)
        report("full", ok, f"4 KiB tmpfs: lock -> {code} (…{refused.get('error', {}).get('message', '')[-40:]}); "
               f"state.json unchanged {before == after}; get shows lock {state['lock']}; daemon "
               f"{'up' if daemon.returncode == 0 else 'exit ' + str(daemon.returncode)}; after growing the "
               f"tmpfs the lock is saved: {retried.get('result', {}).get('lock')}")
    finally:
        subprocess.run(["umount", "-l", directory], capture_output=True)


# ---------------------------------------------------------------------------------------------
# Signals

def check_sigterm(a, testbed):
    times, problems = [], []
    for round_ in range(a.term_rounds):
        daemon, path = start(a, testbed, "sigterm")
        clients = [Conn(path) for _ in range(8)]
        begin(clients[0], daemon, testbed)
        for conn in clients[1:]:
            conn.call("begin")
        feed = Feed(testbed)
        for _ in range(5):
            feed.turn()
        # Load: every client has requests queued and unread events; scans keep arriving.
        for conn in clients:
            conn.send(b"".join(b'{"id": %d, "method": "status"}\n' % i for i in range(50)))
        time.sleep(0.05)
        feed.turn()
        sent = time.monotonic()
        daemon.send_signal(signal.SIGTERM)
        try:
            code = daemon.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            code = daemon.wait()
        times.append(time.monotonic() - sent)
        restored = {name: emulated.attribute(testbed, name) for name in
                    ["buffer/enable", "sampling_frequency", "trigger/current_trigger", "scan_elements/in_accel_x_en"]}
        if code != 0 or restored != {"buffer/enable": "0", "sampling_frequency": "10",
                                     "trigger/current_trigger": "", "scan_elements/in_accel_x_en": "0"}:
            problems.append(f"round {round_}: exit {code}, device {restored}")
        if os.path.exists(path):
            problems.append(f"round {round_}: the socket file is still there")
        for conn in clients:
            conn.messages(5)
            if not conn.closed:
                problems.append(f"round {round_}: a client was not closed")
            conn.close()
    ok = not problems and max(times) <= 2
    report("sigterm", ok, f"{len(times)} rounds with 8 generating clients, 400 queued requests and scans "
           f"arriving: exit 0, device restored (buffer, frequency, trigger, channels), socket removed: "
           f"{'all rounds' if not problems else f'{len(problems)} problems'}; time to exit max {max(times) * 1000:.0f} ms, "
           f"median {sorted(times)[len(times) // 2] * 1000:.0f} ms (target 2 s)")
    for line in problems[:5]:
        print("    " + line)


def check_sighup(a, testbed):
    config = os.path.join(perf.WORK, "sighup.conf")
    with open(config, "w") as f:
        f.write("[Policy]\nSupported=all\n")
    daemon, path = perf.start(a.orientd, testbed, "sighup", "--rate", "100", "--poll-fallback-sec", "10",
                              "--config", config)
    clients = [Conn(path) for _ in range(8)]
    begin(clients[0], daemon, testbed)
    for conn in clients[1:]:
        conn.call("begin")
    feed, problems, reloads = Feed(testbed), [], 20
    landscape = ["landscape-left", "landscape-right"]
    every = ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]
    for conn in clients:
        conn.messages(0.3)
    for index in range(reloads):
        want = landscape if index % 2 == 0 else every
        with open(config, "w") as f:
            f.write(f"[Policy]\nSupported={'landscape' if index % 2 == 0 else 'all'}\n")
        feed.turn()
        for conn in clients:
            conn.send(b'{"id": 5, "method": "status"}\n')
        daemon.send_signal(signal.SIGHUP)
        for number, conn in enumerate(clients):
            got = conn.messages(10, until=lambda m: m.get("event") == "allowed" and m["state"]["allowed"] == want)
            if not got or got[-1].get("event") != "allowed":
                problems.append(f"reload {index}: client {number} got no allowed event {want}")
    status = clients[0].call("status", ident=77)["result"]
    ok = not problems and status["clients"] == 8 and daemon.poll() is None and not any(c.closed for c in clients)
    perf.stop(daemon)
    report("sighup", ok, f"{reloads} reloads (Supported= landscape/all) with 8 generating clients and the "
           f"device turning: each client got each allowed event, {status['clients']} clients still connected, "
           f"exit {daemon.returncode} on SIGTERM")
    for line in problems[:5]:
        print("    " + line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the orientd binary (a release build for figures worth quoting)")
    ap.add_argument("--lines", type=int, default=10000, help="torture lines (default 10000)")
    ap.add_argument("--events", type=int, default=10000, help="events made for the slow consumer (default 10000)")
    ap.add_argument("--cycles", type=int, default=10000, help="churn cycles (default 10000)")
    ap.add_argument("--rounds", type=int, default=500, help="SIGKILL rounds (default 500)")
    ap.add_argument("--term-rounds", type=int, default=20, help="SIGTERM rounds (default 20)")
    ap.add_argument("--only", default="", help="comma-separated checks: torture,slow,lag,churn,crash,sigterm,sighup")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    a = ap.parse_args()
    a.orientd = os.path.abspath(a.orientd)
    only = set(filter(None, a.only.split(",")))
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                 platform.processor())
    print(f"machine: {os.cpu_count()} CPUs, {model}; kernel {platform.release()} {platform.machine()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"daemon: {a.orientd} under umockdev (an emulated HID accelerometer, scans written to its PTY); "
          f"clients are this script's Unix sockets; memory from /proc/PID/status, open files from /proc/PID/fd; "
          f"seed {a.seed}")
    testbed = emulated.testbed()
    checks = [("torture", check_torture), ("slow", check_slow), ("lag", check_lag), ("churn", check_churn),
              ("crash", check_crash),
              ("sigterm", check_sigterm), ("sighup", check_sighup)]
    for name, check in checks:
        if only and name not in only:
            continue
        try:
            check(a, testbed)
        except Exception as error:  # a check that cannot finish is a failure, and the others still run
            report(name, False, f"could not finish: {type(error).__name__}: {error}")
    sys.exit(0 if all(RESULTS) else 1)


if __name__ == "__main__":
    main()
