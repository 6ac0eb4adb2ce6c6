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

"""`orientd run` as the scripts start it: on a private socket and state directory, seeing the emulated device."""
import os
import resource
import signal
import subprocess
import sys
import time

from .client import Client

# How long a daemon is given to settle, so that a figure measures the state that lasts: a claimed daemon drops to
# its idle pace after a second still (IdleRate=), and iio-sensor-proxy is given the same time.
SETTLE_SEC = 5


class Failure(Exception):
    """Something a check or a figure needs did not happen: the message says what, and is printed as its result."""


class DaemonStartError(Failure):
    """The daemon could not be run, or exited or stayed silent before it listened; the message says which, with
    the end of its log."""


class Daemon:
    """One `orientd run` in the folder `work`: its socket `work/NAME.socket`, its log `work/NAME.log`, its state
    directory `work/NAME-state` unless given. As a context manager it is started on entry (DaemonStartError if it
    does not listen) and stopped on exit, SIGTERM first.

    `args` are more options of `orientd run`; `config` is the text of a configuration file, written to
    `config_path` and given with --config;
    `environment` adds variables; `nofile` raises its RLIMIT_NOFILE."""

    def __init__(self, orientd, work, name, *args, device=None, config=None, state_dir=None, environment=None,
                 nofile=None, timeout=10):
        self.orientd, self.work, self.name, self.args = orientd, work, name, list(args)
        self.device, self.config, self.environment, self.nofile = device, config, environment, nofile
        self.timeout = timeout
        self.socket = os.path.join(work, name + ".socket")
        self.config_path = os.path.join(work, name + ".conf")
        self.log_path = os.path.join(work, name + ".log")
        self.state_dir = state_dir or os.path.join(work, name + "-state")
        self.process = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *_):
        self.stop()

    @property
    def pid(self):
        return self.process.pid

    @property
    def returncode(self):
        return self.process.returncode

    def command(self):
        command = [self.orientd, "run", "--socket", self.socket, "--state-dir", self.state_dir]
        if self.config is not None:
            with open(self.config_path, "w") as f:
                f.write(self.config)
            command += ["--config", self.config_path]
        return command + self.args

    def start(self):
        """Starts the daemon (the device reset to upright, buffer off) and waits until its socket exists."""
        if self.device is not None:
            self.device.reset()
        base = self.device.environment() if self.device is not None else dict(os.environ)
        nofile = self.nofile
        try:
            with open(self.log_path, "w") as log:
                self.process = subprocess.Popen(self.command(), env={**base, **(self.environment or {})},
                                                stdin=subprocess.DEVNULL, stderr=log,
                                                preexec_fn=(lambda: raise_nofile(nofile)) if nofile else None)
        except OSError as error:
            raise DaemonStartError(f"the daemon did not start: cannot run {self.orientd}: "
                                   f"{error.strerror or error}") from None
        deadline = time.monotonic() + self.timeout
        while not os.path.exists(self.socket):
            if self.process.poll() is not None:
                raise DaemonStartError(f"the daemon did not start: it exited with status {self.process.returncode} "
                                       f"before it listened{self.log_tail()}")
            if time.monotonic() > deadline:
                self.stop()
                raise DaemonStartError(f"the daemon did not start: no socket after {self.timeout} s"
                                       f"{self.log_tail()}")
            time.sleep(0.01)
        return self

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log(self):
        """Everything the daemon has logged (its standard error)."""
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def log_tail(self, limit=400):
        """'; its log ends: ...' with the last lines of the log on one line, or nothing if it is empty."""
        text = " / ".join(line for line in self.log().strip().splitlines() if line.strip())
        if not text:
            return "; its log is empty"
        return "; its log ends: " + ("…" + text[-limit:] if len(text) > limit else text)

    def connect(self, timeout=10):
        return Client(self.socket, timeout)

    def begin(self, client, buffered=True):
        """Begins generating on `client` and, if `buffered`, waits until the daemon has enabled the device's buffer;
        the reply."""
        reply = client.call("begin")
        if buffered and not self.device.wait_for_buffer(True, 10, self.alive):
            raise Failure("the daemon did not enable the buffer")
        return reply

    def signal(self, number):
        self.process.send_signal(number)

    def kill(self):
        """SIGKILL, and the exit collected."""
        self.process.kill()
        self.process.wait()

    def stop(self, timeout=10):
        """SIGTERM and waits for the exit (SIGKILL after `timeout` s); its exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


class Run:
    """What the checks (or sections) of one script share: its options `a` (`a.orientd` the binary), the emulated
    device, the work folder, and the options every daemon of the script gets (`defaults`)."""

    def __init__(self, a, device, work, *defaults):
        self.a, self.device, self.work, self.defaults = a, device, work, list(defaults)

    def daemon(self, name, *args, **options):
        """A daemon of this run, not started: `with run.daemon(...) as daemon:` starts and stops it."""
        return Daemon(self.a.orientd, self.work, name, *self.defaults, *args, device=self.device, **options)


def raise_nofile(n):
    """Raises this process's RLIMIT_NOFILE soft limit to `n` (or the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(n, hard) if hard != resource.RLIM_INFINITY else n
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))


def exit_on_sigterm(program):
    """Makes SIGTERM end the program through SystemExit, so that the daemons it runs are stopped and its folders
    removed on the way out (the context managers' exits run)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(f"{program}: terminated"))
