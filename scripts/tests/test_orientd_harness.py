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

"""Tests of the scripts' harness (scripts/orientd_harness): what the figure scripts rely on.

    python3 -m unittest discover -s scripts/tests      (make test-scripts; make test runs them)

They need no daemon build: a daemon that cannot start is played by a missing file and by /bin/false.
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

from orientd_harness.client import Client  # noqa: E402
from orientd_harness.daemon import Daemon, DaemonStartError  # noqa: E402
from orientd_harness.proc import (USS_GROUPS, by_group, by_mapping, rollup, unreclaimable_kib,  # noqa: E402
                                  unreclaimable_pages, uss_by_group)


class ImportTests(unittest.TestCase):
    def test_importing_the_harness_changes_nothing(self):
        """No folder made, no signal handler or exit hook installed, umockdev's bindings not loaded."""
        probe = """
import atexit, os, signal, sys, tempfile
before = set(os.listdir(tempfile.gettempdir()))
handler = signal.getsignal(signal.SIGTERM)
import orientd_harness.client, orientd_harness.daemon, orientd_harness.device, orientd_harness.figures
import orientd_harness.proc
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


def smaps_mapping(start, end, perms, path, clean, dirty, anonymous=0):
    """The lines of one mapping of /proc/PID/smaps, with its private clean and dirty kB and its anonymous kB."""
    return [f"{start:x}-{end:x} {perms} 00000000 fd:01 1234 {path}".rstrip(),
            f"Size: {(end - start) // 1024} kB", f"Rss: {clean + dirty + 4} kB", f"Pss: {clean + dirty + 2} kB",
            "Shared_Clean: 4 kB", "Shared_Dirty: 0 kB", f"Private_Clean: {clean} kB",
            f"Private_Dirty: {dirty} kB", f"Anonymous: {anonymous} kB", "VmFlags: rd mr mw me"]


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
        groups = by_mapping(os.getpid())
        self.assertGreater(groups["heap"] + groups["anonymous"], 0)
        self.assertAlmostEqual(sum(groups.values()), fields["Private_Clean"] + fields["Private_Dirty"], delta=64)

    def test_a_process_that_is_gone_has_no_breakdown(self):
        process = subprocess.Popen(["/bin/true"])
        process.wait()
        self.assertEqual(by_mapping(process.pid), {})


class UnreclaimableTests(unittest.TestCase):
    """What the system pays for a daemon (anonymous + private dirty), which make side-by-side leads with."""

    def test_a_page_both_anonymous_and_private_dirty_counts_once_and_each_kind_alone_counts(self):
        self.assertEqual(unreclaimable_kib({"Anonymous": 300, "Private_Dirty": 300}), 300)
        self.assertEqual(unreclaimable_kib({"Anonymous": 500, "Private_Dirty": 520}), 520)
        self.assertEqual(unreclaimable_kib({"Anonymous": 40, "Shared_Dirty": 40, "Private_Dirty": 0}), 40)
        self.assertEqual(unreclaimable_kib({"Private_Clean": 900, "Shared_Clean": 400}), 0)

    def test_code_and_read_only_pages_cost_nothing_and_written_pages_go_to_their_group(self):
        lines = (smaps_mapping(0x20000, 0x90000, "r-xp", UssByGroupTests.EXE, 900, 0)
                 + smaps_mapping(0x90000, 0xa0000, "r--p", UssByGroupTests.EXE, 12, 500, anonymous=500)
                 + smaps_mapping(0xa0000, 0xa4000, "rw-p", UssByGroupTests.EXE, 4, 16, anonymous=16)
                 + smaps_mapping(0xa4000, 0xa8000, "rw-p", "", 0, 8, anonymous=8)
                 + smaps_mapping(0xb0000, 0xc0000, "rw-p", "[heap]", 0, 300, anonymous=300)
                 + smaps_mapping(0xe0000, 0xe4000, "rw-p", "/usr/lib/x86_64-linux-gnu/libiio.so.0", 0, 20,
                                 anonymous=20))
        groups = by_group(lines, UssByGroupTests.EXE, unreclaimable_pages)
        self.assertEqual({group: kb for group, kb in groups.items() if kb}, {
            "binary: relocated data (relro)": 500, "binary: data, written": 16, "binary: bss": 8,
            "other libraries": 20, "heap": 300})

    def test_this_process_adds_up_to_what_smaps_rollup_says(self):
        fields = rollup(os.getpid())
        total = sum(by_mapping(os.getpid(), unreclaimable_pages).values())
        self.assertGreater(total, 0)
        self.assertAlmostEqual(total, unreclaimable_kib(fields), delta=64)


if __name__ == "__main__":
    unittest.main()
