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
              parses and holds the last acknowledged lock or the one in flight; then `full` (run with
              `crash`): the state directory full (a 4 KiB tmpfs), state-not-saved, the old state kept;
  sigterm     SIGTERM under load: exit 0, the device restored, the socket file removed; the time
              to exit against the 2 s target;
  sighup      SIGHUP under load reloads the configuration without dropping a client.

Usage: scripts/reliability.py ORIENTD [--lines 10000] [--events 10000] [--cycles 10000]
                                      [--rounds 500] [--term-rounds 20] [--only torture,slow,...]
                                      [--seed N]
Each check starts its own daemon; one that does not start fails that check, with the reason, and the
others still run. The last line counts the checks that passed, failed and were skipped; the exit status
is 1 if one failed. `full` needs root (it mounts a tmpfs); without it it says SKIP.

--seed N gives every check its own random generator (and each crash round its own), so the same seed
makes the same random choices in the same order whatever else runs or however long anything takes: the
torture lines and their batches, the churn cycles, each crash round's kill time and lock choices. Only
how many of its requests a crash round sends before the kill is a matter of time (and so the lock the
next round starts from).
The torture lines come from Tests/Corpus/protocol-torture.json, the corpus the Swift test reads too.
Needs /usr/bin/python3 with python3-gi and gir1.2-umockdev-1.0 (make deps installs them).
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

from orientd_harness import checks, torture
from orientd_harness.checks import Skip
from orientd_harness.daemon import Run, exit_on_sigterm
from orientd_harness.device import EmulatedAccelerometer, Feed
from orientd_harness.figures import machine
from orientd_harness.proc import fd_count, kib

KIB = 1024
OUTPUT_LIMIT = 256 * KIB  # [Server] OutputLimitKiB= default (PROTOCOL.md)


def generating(daemon, count):
    """`count` connections that all generate (the buffer enabled once the first has begun)."""
    clients = [daemon.connect() for _ in range(count)]
    daemon.begin(clients[0])
    for conn in clients[1:]:
        conn.call("begin")
    return clients


def seq_gaps(events):
    seqs = sorted({e["state"]["seq"] for e in events})
    return [s for s in range(seqs[0], seqs[-1] + 1) if s not in set(seqs)] if seqs else []


# ---------------------------------------------------------------------------------------------
# Protocol torture

def check_torture(run):
    a, rng, lines = run.a, checks.rng(run.a.seed, "torture"), torture.Lines()
    with run.daemon("torture") as daemon:
        pid, started = daemon.pid, time.monotonic()
        generator = daemon.connect()
        daemon.begin(generator)
        feed = Feed(run.device)
        feed.turn()
        events = [m for m in generator.messages(1.0) if m.is_event]
        slots = [daemon.connect() for _ in range(50)]
        for conn in slots:
            conn.call("hello")
        rss_before = kib(pid, "VmRSS")
        sent, bad, closing, connections, turns, ident = 0, [], 0, 50, 1, 100
        events += [m for m in generator.messages(0.2) if m.is_event]
        while sent < a.lines:
            # Every slot gets a batch, then every reply is read and checked in order.
            batches = []
            for conn in slots:
                batch = []
                for _ in range(min(rng.randint(5, 30), a.lines - sent)):
                    ident += 1
                    batch.append(lines.line(rng, ident))
                sent += len(batch)
                if batch:
                    conn.send(b"".join(line + (b"\r\n" if rng.random() < 0.05 else b"\n") for line, _ in batch))
                batches.append(batch)
            for conn, batch in zip(slots, batches):
                replies = [m for m in conn.messages(20, count=len(batch)) if not m.is_event]
                if len(replies) != len(batch) or conn.closed:
                    bad.append(f"{len(replies)} replies to {len(batch)} lines (closed: {conn.closed})")
                for (line, expectation), reply in zip(batch, replies):
                    if not torture.accepts(reply, expectation):
                        bad.append(f"{line[:120]!r} -> {reply}")
            # The lines that end a connection, each on a fresh one that then takes the slot.
            for _ in range(min(3, a.lines - sent)):
                index = rng.randrange(len(slots))
                slots[index].close()
                conn = daemon.connect()
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
                    conn.shutdown_write()
                    replies = conn.messages(10)
                    if [m.get("id") for m in replies] != [5] or not conn.closed:
                        bad.append(f"bytes after the newline -> {replies} (closed: {conn.closed})")
                else:  # a request, then close without reading the reply
                    conn.send(b'{"id": 7, "method": "status"}\n')
                conn.close()
                sent += 1
                closing += 1
                slots[index] = daemon.connect()
                connections += 1
            if sent // 400 > turns - 1:
                feed.turn()
                turns += 1
            events += [m for m in generator.messages(0) if m.is_event]
        # The last turn's event, then a barrier: every event before the reply to get has arrived.
        time.sleep(0.5)
        final = generator.call("get", ident=99999)
        events += [m for m in generator.messages(0.2) if m.is_event]
        device_events = sum(1 for e in events if e["event"] == "device")
        gaps = seq_gaps(events + [{"state": final["result"]}])
        rss_after, hwm = kib(pid, "VmRSS"), kib(pid, "VmHWM")
        bound = rss_before + 50 * (OUTPUT_LIMIT // KIB + 8) + 4096
        alive = daemon.alive() and generator.call("hello", ident=100000).get("result") is not None
        ok = alive and not bad and not gaps and device_events >= turns and hwm <= bound and not generator.closed
    return ok, (f"{sent} lines over {connections} connections ({closing} ending one: partial, "
                f"1 MiB, bytes after the newline, unread reply) in {time.monotonic() - started:.1f} s; "
                f"{len(bad)} wrong replies; daemon {'up' if alive else 'DOWN'}; generating client: {len(events)} "
                f"events, {device_events} device events for {turns} turns, seq gaps {len(gaps)}; "
                f"VmRSS {rss_before} -> {rss_after} kB, VmHWM {hwm} kB (bound {bound} kB)"), bad


# ---------------------------------------------------------------------------------------------
# Slow consumer

def check_slow(run):
    with run.daemon("slow") as daemon:
        pid = daemon.pid
        sluggard = daemon.connect()
        begin_bytes = sluggard.call("begin").size
        reader = daemon.connect()
        reader.call("begin")
        controller = daemon.connect()
        rss_before = kib(pid, "VmRSS")
        masks = [{"mask": "portrait"}, {"mask": "landscape"}]
        seqs, events, dropped_at, toggles, ident = [], [], None, 0, 10
        started = time.monotonic()
        while len([e for e in events if seqs and e["state"]["seq"] >= seqs[0]]) < run.a.events:
            ident += 1
            reply = controller.call("constrain", masks[toggles % 2], ident=ident)
            seqs.append(reply["result"]["seq"])
            toggles += 1
            events += [m for m in reader.messages(0) if m.is_event]
            if dropped_at is None:
                ident += 1
                if controller.call("status", ident=ident)["result"]["clients"] == 2:
                    dropped_at = toggles - 1  # dropped while this toggle's events were sent
        elapsed = time.monotonic() - started
        final = reader.call("get", ident=1_000_000, timeout=30)
        events += [m for m in reader.messages(0.2) if m.is_event]
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
        owed = begin_bytes + sum(m.size for m in slug if m.get("state", {}).get("seq", 0) < seqs[0]
                                 or not m.is_event)
        queued, following = [], 0
        for s in seqs:
            while following < len(every) and every[following]["state"]["seq"] <= s:
                owed += every[following].size
                following += 1
            queued.append(owed - received)
        queued_at = queued[dropped_at] if dropped_at is not None else None
        queued_before = queued[dropped_at - 1] if dropped_at else 0
        at_bound = dropped_at is not None and queued_before <= OUTPUT_LIMIT < queued_at
        ok = (dropped_at is not None and got == expected and others_ok and at_bound and sluggard.closed
              and daemon.alive() and hwm - rss_before <= 3 * (OUTPUT_LIMIT // KIB + 8) + 4096
              and final.get("result"))
    return ok, (f"{len(mine)} events in {toggles} changes ({elapsed:.1f} s); the non-reader dropped "
                f"at change {dropped_at} with {queued_at} B queued (over {OUTPUT_LIMIT} B; {queued_before} B one "
                f"change earlier) after {received} B reached its socket; the reader got {len(got)} of "
                f"{len(expected)} events in order; VmRSS {rss_before} -> {rss_after} kB, VmHWM {hwm} kB")


def check_lag(run):
    """A generating client that reads, but 3 % less than it is sent: it is dropped at its bound, and until then
    the daemon holds its unsent bytes only, not everything sent since it last caught up."""
    with run.daemon("lag") as daemon:
        pid = daemon.pid
        lagger, reader, controller = daemon.connect(), daemon.connect(), daemon.connect()
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
        ok = clients == 2 and hwm <= bound and daemon.alive() and not reader.closed
    return ok, (f"a client reading 97 % of what it is sent: dropped after {produced / 1e6:.1f} MB in "
                f"{batches * 50} changes ({time.monotonic() - started:.1f} s); VmRSS {rss_before} kB before, VmHWM "
                f"{hwm} kB (bound {bound} kB: twice the 256 KiB queue + 1 MiB)")


# ---------------------------------------------------------------------------------------------
# Churn

def killed_client(path, reads):
    """A forked client that connects, begins (and reads the reply if `reads`) and waits to be killed; its pid."""
    child = os.fork()
    if child == 0:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            s.sendall(b'{"id": 1, "method": "begin"}\n')
            if reads:
                s.recv(65536)
            time.sleep(60)
        finally:
            os._exit(0)
    return child


def check_churn(run):
    a, device, rng = run.a, run.device, checks.rng(run.a.seed, "churn")
    with run.daemon("churn") as daemon:
        pid = daemon.pid
        observer = daemon.connect()
        observer.call("hello")
        fds_start = fd_count(pid)
        # The baseline comes after one start and stop of the sensor: sd-event makes its timerfd for the monotonic
        # clock at the first timer (the poll fallback) and keeps it for the loop's life.
        warm_up = daemon.connect()
        daemon.begin(warm_up)
        warm_up.close()
        device.wait_for_buffer(False, 10, daemon.alive)
        observer.call("status", ident=2)  # a round trip: the warm-up connection's close is complete, its fd closed
        fds_before, rss_before = fd_count(pid), kib(pid, "VmRSS")
        open_conns, children, started = [], [], time.monotonic()
        kinds = {"end": 0, "no-end": 0, "unread": 0, "killed": 0, "twice": 0}
        for _ in range(a.cycles):
            if len(open_conns) >= rng.randint(1, 8):
                conn, kind = open_conns.pop(rng.randrange(len(open_conns)))
                if kind in ("end", "twice"):
                    conn.call("end", ident=3)
                conn.close()
            kind = rng.choices(list(kinds), weights=[30, 30, 15, 10, 15])[0]
            kinds[kind] += 1
            if kind == "killed":
                child = killed_client(daemon.socket, reads=rng.random() < 0.5)
                time.sleep(rng.random() * 0.003)
                os.kill(child, signal.SIGKILL)
                children.append(child)
                if len(children) > 20:
                    os.waitpid(children.pop(0), 0)
                continue
            conn = daemon.connect()
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
            if status["clients"] == 1 and device.attribute("buffer/enable") == "0":
                break
            time.sleep(0.05)
        time.sleep(0.1)
        fds_after, rss_after = fd_count(pid), kib(pid, "VmRSS")
        samples = status["sensor"]["samples_read"] if "sensor" in status else None
        buffer_enable = device.attribute("buffer/enable")
        ok = (status.get("generation_total") == 0 and status["state"]["sensor"] == "stopped"
              and buffer_enable == "0" and fds_after == fds_before and daemon.alive())
    return ok, (f"{a.cycles} cycles in {time.monotonic() - started:.1f} s ("
                + ", ".join(f"{n} {k}" for k, n in kinds.items()) + f"); generation total "
                f"{status.get('generation_total')}, sensor {status['state']['sensor']}, buffer/enable "
                f"{buffer_enable}; open files {fds_before} -> {fds_after} ({fds_start} before the sensor first ran); "
                f"VmRSS {rss_before} -> {rss_after} kB; samples read {samples}")


# ---------------------------------------------------------------------------------------------
# Crash safety

LOCKS = [None, ["portrait"], ["landscape-left", "landscape-right"], ["portrait-upside-down"],
         ["landscape-left"], ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]]
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
        assert value["version"] == 1 and set(value) == {"version", "lock", "tablet_mode"}
        assert value["tablet_mode"] == "auto"
        return value["lock"]
    except (ValueError, AssertionError, KeyError, TypeError):
        return f"unparsable {data[:80]!r}"


def check_crash(run):
    state_dir = os.path.join(run.work, "crash-state")
    state_file = os.path.join(state_dir, "state.json")
    acked, failures, in_flight_seen, locks_total, started = None, [], 0, 0, time.monotonic()
    temporaries = 0
    for round_ in range(run.a.rounds):
        # Each round draws from its own generator: how many requests a round sent does not change the next one's.
        rng = checks.rng(run.a.seed, "crash", round_)
        with run.daemon("crash", state_dir=state_dir) as daemon:
            conn = daemon.connect()
            restored = conn.call("get", ident=1)["result"]["lock"]
            if restored != read_state(state_file) and not (restored is None and not os.path.exists(state_file)):
                failures.append(f"round {round_}: restored {restored}, file {read_state(state_file)}")
            acked = restored
            # The round's times first, then one draw per request: the same seed gives the same draws in the same
            # order, only how many requests go out before the kill depends on time.
            deadline, pause = time.monotonic() + rng.random() * 0.08, rng.random() * 0.002
            in_flight = NOTHING
            ident = 1
            while True:
                choice = [lock for lock in LOCKS if lock != acked][rng.randrange(len(LOCKS) - 1)]
                method, params = lock_request(choice)
                ident += 1
                request = {"id": ident, "method": method}
                if params:
                    request["params"] = params
                conn.send(request)
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
            time.sleep(pause)  # the request in flight is being handled, or its save is under way
            daemon.kill()
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
    with run.daemon("crash", state_dir=state_dir) as daemon:
        daemon.connect().call("hello")
        leftovers = [n for n in os.listdir(state_dir) if n.startswith(".state.json.")]
    ok = not failures and not leftovers
    return ok, (f"{run.a.rounds} SIGKILL rounds in {time.monotonic() - started:.1f} s, {locks_total} lock "
                f"changes acknowledged; the file held the last acknowledged lock or the one in flight every time "
                f"({in_flight_seen} times the one in flight); {len(failures)} failures; temporary files of saves "
                f"cut short found after {temporaries} kills, {len(leftovers)} left after the next start"), failures


def check_full_disk(run):
    directory = os.path.join(run.work, "full")
    os.makedirs(directory, exist_ok=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k,mode=0755", "tmpfs", directory],
                      capture_output=True).returncode != 0:
        raise Skip("a tmpfs cannot be mounted here (needs root)")
    try:
        with run.daemon("full", state_dir=directory) as daemon:
            generator, conn = daemon.connect(), daemon.connect()
            generator.call("begin")
            first = conn.call("lock", {"orientation": "portrait"}, ident=2)
            with open(os.path.join(directory, "state.json"), "rb") as f:
                before = f.read()
            # One 4 KiB page, taken by state.json: the next save has no room for its new file.
            refused = conn.call("lock", {"mask": "landscape"}, ident=3)
            with open(os.path.join(directory, "state.json"), "rb") as f:
                after = f.read()
            state = conn.call("get", ident=4)["result"]
            events = [m for m in generator.messages(0.3) if m.is_event]
            code = refused.get("error", {}).get("code")
            subprocess.run(["mount", "-o", "remount,size=64k", directory], check=True)
            retried = conn.call("lock", {"mask": "landscape"}, ident=5)
            ok = (first.get("result", {}).get("lock") == ["portrait"] and code == "state-not-saved"
                  and before == after and state["lock"] == ["portrait"] and daemon.alive()
                  and not [e for e in events if e["event"] == "allowed" and e["state"]["lock"] != ["portrait"]]
                  and retried.get("result", {}).get("lock") == ["landscape-left", "landscape-right"])
            daemon.stop()
        return ok, (f"4 KiB tmpfs: lock -> {code} (…{refused.get('error', {}).get('message', '')[-40:]}); "
                    f"state.json unchanged {before == after}; get shows lock {state['lock']}; daemon "
                    f"{'up' if daemon.returncode == 0 else 'exit ' + str(daemon.returncode)}; after growing the "
                    f"tmpfs the lock is saved: {retried.get('result', {}).get('lock')}")
    finally:
        subprocess.run(["umount", "-l", directory], capture_output=True)


# ---------------------------------------------------------------------------------------------
# Signals

def check_sigterm(run):
    times, problems, device = [], [], run.device
    for round_ in range(run.a.term_rounds):
        with run.daemon("sigterm") as daemon:
            clients = generating(daemon, 8)
            feed = Feed(device)
            for _ in range(5):
                feed.turn()
            # Load: every client has requests queued and unread events; scans keep arriving.
            for conn in clients:
                conn.send(b"".join(b'{"id": %d, "method": "status"}\n' % i for i in range(50)))
            time.sleep(0.05)
            feed.turn()
            sent = time.monotonic()
            daemon.signal(signal.SIGTERM)
            try:
                code = daemon.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                code = daemon.returncode
            times.append(time.monotonic() - sent)
        restored = {name: device.attribute(name) for name in
                    ["buffer/enable", "sampling_frequency", "trigger/current_trigger", "scan_elements/in_accel_x_en"]}
        if code != 0 or restored != {"buffer/enable": "0", "sampling_frequency": "10",
                                     "trigger/current_trigger": "", "scan_elements/in_accel_x_en": "0"}:
            problems.append(f"round {round_}: exit {code}, device {restored}")
        if os.path.exists(daemon.socket):
            problems.append(f"round {round_}: the socket file is still there")
        for conn in clients:
            conn.messages(5)
            if not conn.closed:
                problems.append(f"round {round_}: a client was not closed")
            conn.close()
    ok = not problems and max(times) <= 2
    return ok, (f"{len(times)} rounds with 8 generating clients, 400 queued requests and scans "
                f"arriving: exit 0, device restored (buffer, frequency, trigger, channels), socket removed: "
                f"{'all rounds' if not problems else f'{len(problems)} problems'}; time to exit max "
                f"{max(times) * 1000:.0f} ms, median {sorted(times)[len(times) // 2] * 1000:.0f} ms (target 2 s)"), \
        problems


def check_sighup(run):
    with run.daemon("sighup", config="[Policy]\nSupported=all\n") as daemon:
        clients = generating(daemon, 8)
        feed, problems, reloads = Feed(run.device), [], 20
        landscape = ["landscape-left", "landscape-right"]
        every = ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]
        for conn in clients:
            conn.messages(0.3)
        for index in range(reloads):
            want = landscape if index % 2 == 0 else every
            with open(daemon.config_path, "w") as f:
                f.write(f"[Policy]\nSupported={'landscape' if index % 2 == 0 else 'all'}\n")
            feed.turn()
            for conn in clients:
                conn.send(b'{"id": 5, "method": "status"}\n')
            daemon.signal(signal.SIGHUP)
            for number, conn in enumerate(clients):
                got = conn.messages(10, until=lambda m: m.get("event") == "allowed" and m["state"]["allowed"] == want)
                if not got or got[-1].get("event") != "allowed":
                    problems.append(f"reload {index}: client {number} got no allowed event {want}")
        status = clients[0].call("status", ident=77)["result"]
        ok = not problems and status["clients"] == 8 and daemon.alive() and not any(c.closed for c in clients)
        daemon.stop()
    return ok, (f"{reloads} reloads (Supported= landscape/all) with 8 generating clients and the "
                f"device turning: each client got each allowed event, {status['clients']} clients still connected, "
                f"exit {daemon.returncode} on SIGTERM"), problems


# (name, check, the --only names that select it)
CHECKS = [("torture", check_torture, {"torture"}), ("slow", check_slow, {"slow"}), ("lag", check_lag, {"lag"}),
          ("churn", check_churn, {"churn"}), ("crash", check_crash, {"crash"}),
          ("full", check_full_disk, {"crash", "full"}), ("sigterm", check_sigterm, {"sigterm"}),
          ("sighup", check_sighup, {"sighup"})]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("orientd", help="the orientd binary (a release build for figures worth quoting)")
    ap.add_argument("--lines", type=int, default=10000, help="torture lines (default 10000)")
    ap.add_argument("--events", type=int, default=10000, help="events made for the slow consumer (default 10000)")
    ap.add_argument("--cycles", type=int, default=10000, help="churn cycles (default 10000)")
    ap.add_argument("--rounds", type=int, default=500, help="SIGKILL rounds (default 500)")
    ap.add_argument("--term-rounds", type=int, default=20, help="SIGTERM rounds (default 20)")
    ap.add_argument("--only", default="",
                    help="comma-separated checks: torture,slow,lag,churn,crash,full,sigterm,sighup (crash runs full)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    a = ap.parse_args()
    a.orientd = os.path.abspath(a.orientd)
    only = set(filter(None, a.only.split(",")))
    unknown = only - set().union(*(names for _, _, names in CHECKS))
    if unknown:
        ap.error(f"no such check: {', '.join(sorted(unknown))}")
    exit_on_sigterm("reliability")
    print(f"machine: {machine()}")
    print(f"daemon: {a.orientd} under umockdev (an emulated HID accelerometer, scans written to its PTY); "
          f"clients are this script's Unix sockets; memory from /proc/PID/status, open files from /proc/PID/fd; "
          f"seed {a.seed}", flush=True)
    device = EmulatedAccelerometer()
    results = checks.Checks(width=8)
    with tempfile.TemporaryDirectory(prefix="orientd-reliability-") as work:
        # Every daemon at 100 Hz, its poll fallback (10 s) out of the way.
        run = Run(a, device, work, "--rate", "100", "--poll-fallback-sec", "10")
        for name, check, selected_by in CHECKS:
            if not only or only & selected_by:
                results.run(name, check, run)
    sys.exit(results.summary())


if __name__ == "__main__":
    main()
