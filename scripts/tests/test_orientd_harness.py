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

"""Tests of the scripts' harness (scripts/orientd_harness): what the reliability and figure scripts rely on.

    python3 -m unittest discover -s scripts/tests      (make reliability runs them first)

They need no daemon build: a daemon that cannot start is played by a missing file and by /bin/false, and the
checks' runner by plain functions. The reliability script's own failure path runs it on those two.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, SCRIPTS)

from orientd_harness import checks, torture  # noqa: E402
from orientd_harness.client import Client  # noqa: E402
from orientd_harness.daemon import Daemon, DaemonStartError  # noqa: E402
from orientd_harness.proc import USS_GROUPS, rollup, uss_by_group, uss_by_mapping  # noqa: E402


class ImportTests(unittest.TestCase):
    def test_importing_the_harness_changes_nothing(self):
        """No folder made, no signal handler or exit hook installed, umockdev's bindings not loaded."""
        probe = """
import atexit, os, signal, sys, tempfile
before = set(os.listdir(tempfile.gettempdir()))
handler = signal.getsignal(signal.SIGTERM)
import orientd_harness.checks, orientd_harness.client, orientd_harness.daemon, orientd_harness.device
import orientd_harness.figures, orientd_harness.proc, orientd_harness.torture
after = set(os.listdir(tempfile.gettempdir()))
print(sorted(after - before), signal.getsignal(signal.SIGTERM) is handler, atexit._ncallbacks(), "gi" in sys.modules)
"""
        with tempfile.TemporaryDirectory() as private:  # a temporary folder of its own: others use the shared one
            out = subprocess.run([sys.executable, "-c", probe], cwd=SCRIPTS, capture_output=True, text=True,
                                 check=True, env=dict(os.environ, TMPDIR=private))
        self.assertEqual(out.stdout.split(), ["[]", "True", "0", "False"], out.stderr)


class DaemonStartTests(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.addCleanup(self.work.cleanup)

    def test_a_missing_binary_is_a_start_error_naming_it(self):
        missing = os.path.join(self.work.name, "no-such-orientd")
        with self.assertRaises(DaemonStartError) as caught:
            with Daemon(missing, self.work.name, "missing"):
                self.fail("a missing binary started")
        self.assertIn(f"cannot run {missing}: No such file or directory", str(caught.exception))

    def test_a_daemon_that_exits_at_once_is_a_start_error_with_its_status_and_log(self):
        quitter = os.path.join(self.work.name, "quitter")
        with open(quitter, "w") as f:
            f.write("#!/bin/sh\necho 'orientd: cannot open the control socket' >&2\nexit 3\n")
        os.chmod(quitter, 0o755)
        with self.assertRaises(DaemonStartError) as caught:
            Daemon(quitter, self.work.name, "quitter").start()
        message = str(caught.exception)
        self.assertIn("exited with status 3 before it listened", message)
        self.assertIn("its log ends: orientd: cannot open the control socket", message)


class ChecksTests(unittest.TestCase):
    def run_checks(self, *functions):
        results, lines = checks.Checks(width=8), []
        real_print = print

        def capture(*args, **_):
            lines.append(" ".join(map(str, args)))
        import builtins
        builtins.print = capture
        try:
            for number, function in enumerate(functions):
                results.run(f"c{number}", function)
            status = results.summary()
        finally:
            builtins.print = real_print
        return status, lines

    def test_a_daemon_that_does_not_start_fails_its_check_and_the_others_run(self):
        def refused():
            raise DaemonStartError("the daemon did not start: it exited with status 1 before it listened")

        def skipped():
            raise checks.Skip("needs root")
        status, lines = self.run_checks(lambda: (True, "fine"), refused, lambda: 1 / 0, skipped,
                                        lambda: (False, "figures", ["detail"]))
        self.assertEqual(status, 1)
        self.assertEqual(lines, [
            "c0       PASS  fine",
            "c1       FAIL  the daemon did not start: it exited with status 1 before it listened",
            "c2       FAIL  could not finish: ZeroDivisionError: division by zero",
            "c3       SKIP  needs root",
            "c4       FAIL  figures",
            "    detail",
            "summary  5 checks: 1 passed, 3 failed (c1, c2, c4), 1 skipped",
        ])

    def test_all_passing_exits_0(self):
        status, lines = self.run_checks(lambda: (True, "a"), lambda: (True, "b"))
        self.assertEqual((status, lines[-1]), (0, "summary  2 checks: 2 passed, 0 failed, 0 skipped"))

    def test_a_seed_gives_each_check_the_same_draws_whatever_ran_before(self):
        first = [checks.rng(7, "crash", 3).random() for _ in range(3)]
        other = checks.rng(7, "torture")
        [other.random() for _ in range(1000)]
        self.assertEqual([checks.rng(7, "crash", 3).random() for _ in range(3)], first)
        self.assertNotEqual([checks.rng(8, "crash", 3).random() for _ in range(3)], first)
        self.assertNotEqual([checks.rng(7, "crash", 4).random() for _ in range(3)], first)


class TortureCorpusTests(unittest.TestCase):
    corpus = torture.load()

    def test_every_wrong_request_is_a_json_object(self):
        """Wrong requests must reach the request checks, not the parser: each is a JSON object."""
        for request in self.corpus["wrongRequests"]:
            self.assertIsInstance(json.loads(torture.fill(request["line"], 42)), dict, request["line"])

    def test_no_line_that_is_not_json_parses_as_an_object(self):
        for line in torture.not_json_lines(self.corpus):
            try:
                value = json.loads(line.decode("utf-8"))
            except (ValueError, RecursionError):
                continue
            # Python reads a byte order mark and nesting deeper than 512 levels; the daemon does not.
            self.assertTrue(not isinstance(value, dict) or line.startswith(b"\xef\xbb\xbf"), line[:40])

    def test_every_good_request_is_a_json_object_with_the_id(self):
        for template in self.corpus["goodRequests"]:
            value = json.loads(torture.fill(template, 42))
            self.assertIn(value["id"], (42, "s42"), template)

    def test_the_same_seed_draws_the_same_lines_and_another_seed_others(self):
        lines = torture.Lines(self.corpus)

        def draw(seed):
            rng = checks.rng(seed, "torture")
            return [lines.line(rng, ident) for ident in range(2000)]
        first = draw(1)
        self.assertEqual(draw(1), first)
        self.assertNotEqual(draw(2), first)
        kinds = {expectation[0] for _, expectation in first}
        self.assertEqual(kinds, {"error", "result", "any", "one-of"})
        self.assertTrue(all(b"\n" not in line for line, _ in first))


class ClientTests(unittest.TestCase):
    def test_a_call_returns_its_reply_and_keeps_the_events_before_it(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "socket")
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(path)
            server.listen()

            def serve():
                peer, _ = server.accept()
                request = json.loads(peer.makefile().readline())
                peer.sendall(b'{"event": "device", "state": {"seq": 1}}\n{"id": %d, "result": {}}\n'
                             % request["id"])
                peer.close()
            thread = threading.Thread(target=serve)
            thread.start()
            client = Client(path)
            reply = client.call("get")
            self.assertEqual(reply["result"], {})
            self.assertEqual(reply.size, len(b'{"id": 1001, "result": {}}\n'))
            self.assertEqual([m["event"] for m in client.messages(1)], ["device"])
            self.assertTrue(client.closed)
            client.close()
            thread.join()
            server.close()


class FailurePathTests(unittest.TestCase):
    """The reliability script on a daemon that does not start: every check fails with the reason, none is left
    out, and the exit status is 1."""

    def run_reliability(self, orientd):
        return subprocess.run([os.path.join(SCRIPTS, "reliability.py"), orientd, "--only", "torture,churn,sighup"],
                              capture_output=True, text=True, timeout=120)

    def test_a_missing_daemon_fails_every_check(self):
        out = self.run_reliability("/nonexistent/orientd")
        lines = out.stdout.splitlines()[2:]
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertEqual([line.split()[:2] for line in lines],
                         [["torture", "FAIL"], ["churn", "FAIL"], ["sighup", "FAIL"], ["summary", "3"]])
        self.assertIn("cannot run /nonexistent/orientd: No such file or directory", lines[0])
        self.assertEqual(lines[-1], "summary  3 checks: 0 passed, 3 failed (torture, churn, sighup), 0 skipped")

    def test_a_daemon_that_exits_at_once_fails_every_check(self):
        out = self.run_reliability("/bin/false")
        self.assertEqual(out.returncode, 1, out.stderr)
        fails = [line for line in out.stdout.splitlines() if " FAIL " in line]
        self.assertEqual(len(fails), 3, out.stdout)
        self.assertTrue(all("exited with status 1 before it listened" in line for line in fails), out.stdout)


def smaps_mapping(start, end, perms, path, clean, dirty):
    """The lines of one mapping of /proc/PID/smaps, with its private clean and dirty kB."""
    return [f"{start:x}-{end:x} {perms} 00000000 fd:01 1234 {path}".rstrip(),
            f"Size: {(end - start) // 1024} kB", f"Rss: {clean + dirty + 4} kB", f"Pss: {clean + dirty + 2} kB",
            "Shared_Clean: 4 kB", "Shared_Dirty: 0 kB", f"Private_Clean: {clean} kB",
            f"Private_Dirty: {dirty} kB", "VmFlags: rd mr mw me"]


class UssByGroupTests(unittest.TestCase):
    """The breakdown of a daemon's private memory that docs/performance.md quotes (make side-by-side)."""

    EXE = "/usr/bin/orientd"

    def test_each_mapping_counts_in_its_group_and_the_groups_add_up_to_the_uss(self):
        lines = (smaps_mapping(0x10000, 0x20000, "r--p", self.EXE, 8, 0)
                 + smaps_mapping(0x20000, 0x90000, "r-xp", self.EXE, 900, 0)
                 + smaps_mapping(0x90000, 0xa0000, "r--p", self.EXE, 12, 500)
                 + smaps_mapping(0xa0000, 0xa4000, "rw-p", self.EXE, 4, 16)
                 + smaps_mapping(0xa4000, 0xa8000, "rw-p", "", 0, 8)
                 + smaps_mapping(0xb0000, 0xc0000, "rw-p", "[heap]", 0, 300)
                 + smaps_mapping(0xc0000, 0xd0000, "rw-p", "", 0, 40)
                 + smaps_mapping(0xd0000, 0xe0000, "r-xp", "/usr/lib/x86_64-linux-gnu/libsystemd.so.0.35.0", 400, 0)
                 + smaps_mapping(0xe0000, 0xe4000, "rw-p", "/usr/lib/x86_64-linux-gnu/libsystemd.so.0.35.0", 0, 20)
                 + smaps_mapping(0xf0000, 0xf8000, "r-xp", "/usr/lib/x86_64-linux-gnu/libc.so.6", 30, 0)
                 + smaps_mapping(0xf8000, 0xfc000, "rw-p", "/usr/lib/x86_64-linux-gnu/libm.so.6", 0, 4)
                 + smaps_mapping(0x100000, 0x110000, "rw-p", "[stack]", 0, 24)
                 + smaps_mapping(0x110000, 0x112000, "r-xp", "[vdso]", 0, 0)
                 + smaps_mapping(0x120000, 0x130000, "r--s", "/usr/lib/locale/locale-archive", 6, 0))
        groups = uss_by_group(lines, self.EXE)
        self.assertEqual(list(groups), USS_GROUPS)
        self.assertEqual(groups, {
            "binary: code": 900, "binary: read-only data, as read": 20, "binary: relocated data (relro)": 500,
            "binary: data, as read": 4, "binary: data, written": 16, "binary: bss": 8, "libsystemd": 420, "libc": 30, "other libraries": 4, "heap": 300,
            "stack": 24, "anonymous": 40, "other": 6})

    def test_an_anonymous_mapping_that_does_not_follow_the_binary_is_not_its_bss(self):
        lines = (smaps_mapping(0xa0000, 0xa4000, "rw-p", self.EXE, 0, 16)
                 + smaps_mapping(0xa8000, 0xac000, "rw-p", "", 0, 8))
        groups = uss_by_group(lines, self.EXE)
        self.assertEqual((groups["binary: data, written"], groups["binary: bss"], groups["anonymous"]), (16, 0, 8))

    def test_this_process_adds_up_to_what_smaps_rollup_says(self):
        fields = rollup(os.getpid())
        groups = uss_by_mapping(os.getpid())
        self.assertGreater(groups["heap"] + groups["anonymous"], 0)
        self.assertAlmostEqual(sum(groups.values()), fields["Private_Clean"] + fields["Private_Dirty"], delta=64)

    def test_a_process_that_is_gone_has_no_breakdown(self):
        process = subprocess.Popen(["/bin/true"])
        process.wait()
        self.assertEqual(uss_by_mapping(process.pid), {})


if __name__ == "__main__":
    unittest.main()
