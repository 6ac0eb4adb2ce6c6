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

"""One client of orientd's control socket: JSON lines (docs/protocol.md), read with timeouts.

The client never exits the program: a connection the daemon closes is noted in `closed`, a reply that does not
come raises `NoReply`, and the caller decides what that means for its check.
"""
import json
import select
import socket
import time


class NoReply(Exception):
    """A request got no reply in time, or the connection closed first."""


class Message(dict):
    """A message as received: the decoded JSON object, with the time it arrived (`arrived`, monotonic ns) and its
    size on the wire (`size`, newline included)."""

    def __init__(self, value, arrived, size):
        super().__init__(value)
        self.arrived = arrived
        self.size = size

    @property
    def is_event(self):
        return "event" in self


class Client:
    """A connection to the daemon's socket. Messages read while waiting for something else are kept in order in
    `pending` and returned first by the next read."""

    def __init__(self, path, timeout=10):
        """Connects, retrying for `timeout` seconds while the socket does not exist or does not listen yet (a daemon
        just started, or one started on the socket file of a killed one)."""
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock.connect(path)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                if time.monotonic() > deadline:
                    self.sock.close()
                    raise
                time.sleep(0.005)
        self.buffer = b""
        self.pending = []
        self.closed = False  # the daemon closed the connection (EOF or reset)
        self.received = 0  # bytes, newlines included
        self.arrived = 0  # when the last bytes were read (monotonic ns)
        self.next_id = 1000

    def send(self, data):
        """Sends a request (a dict, as one JSON line) or raw bytes or text as they are; False if the daemon has
        closed the connection."""
        if isinstance(data, dict):
            data = json.dumps(data) + "\n"
        try:
            self.sock.sendall(data if isinstance(data, bytes) else data.encode())
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False

    def call(self, method, params=None, ident=None, timeout=10):
        """Sends a request and returns its reply; the events read on the way stay pending."""
        if ident is None:
            self.next_id += 1
            ident = self.next_id
        request = {"id": ident, "method": method}
        if params is not None:
            request["params"] = params
        self.send(request)
        others = []
        for message in self.messages(timeout, until=lambda m: m.get("id") == ident and not m.is_event):
            if message.get("id") == ident and not message.is_event:
                self.pending = others + self.pending
                return message
            others.append(message)
        self.pending = others + self.pending
        raise NoReply(f"no reply to {method} within {timeout} s" + (" (the daemon closed the connection)"
                                                                      if self.closed else ""))

    def result(self, method, params=None, timeout=10):
        """The result of a request; NoReply if it got an error instead."""
        reply = self.call(method, params, timeout=timeout)
        if "result" not in reply:
            raise NoReply(f"{method} failed: {reply.get('error')}")
        return reply["result"]

    def receive(self, timeout):
        """The messages that have arrived or arrive within `timeout` seconds, as soon as there are any."""
        return self.messages(timeout, until=lambda _: True, all_ready=True)

    def messages(self, timeout, until=None, count=None, all_ready=False):
        """The messages read within `timeout` seconds (or until the connection closes), stopping early once `count`
        replies have been read or at a message matching `until` (with `all_ready`, after the rest of what has
        arrived with it)."""
        if count == 0:
            return []
        out, replies, deadline = [], 0, time.monotonic() + timeout
        batch, self.pending = self.pending, []
        while True:
            batch += self._take()
            stop = None
            for index, message in enumerate(batch):
                replies += not message.is_event
                if (until and until(message)) or (count is not None and replies >= count):
                    stop = len(batch) - 1 if all_ready else index
                    break
            if stop is not None:
                out += batch[:stop + 1]
                self.pending = batch[stop + 1:]
                return out
            out += batch
            batch = []
            if self.closed:
                return out
            remaining = max(0, deadline - time.monotonic())
            if not select.select([self.sock], [], [], remaining)[0]:
                return out
            self._read()

    def wait_for(self, condition, timeout, alive=lambda: True):
        """The first message (events included) that satisfies `condition`, skipping the others; None if none comes
        within `timeout` or once `alive()` is false."""
        deadline = time.monotonic() + timeout
        while True:
            while self.pending:
                message = self.pending.pop(0)
                if condition(message):
                    return message
            left = deadline - time.monotonic()
            if left <= 0 or not alive() or self.closed:
                return None
            self.pending += self.receive(min(left, 0.2))

    def _read(self):
        try:
            data = self.sock.recv(1 << 20)
        except ConnectionResetError:
            data = b""
        self.arrived = time.monotonic_ns()
        if not data:
            self.closed = True
        self.received += len(data)
        self.buffer += data

    def _take(self):
        out = []
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            out.append(Message(json.loads(line), self.arrived, len(line) + 1))
        return out

    def shutdown_write(self):
        """Closes the sending side: the daemon reads EOF after what was sent."""
        self.sock.shutdown(socket.SHUT_WR)

    def close(self):
        self.sock.close()
