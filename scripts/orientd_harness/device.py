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

"""The accelerometer emulated with umockdev that every script drives.

A HID-style IIO accelerometer: x, y, z as le:s16 at scan indices 0-2, a le:s64 timestamp at 3,
1 g = 1000 counts (scale 0.00980665), trigger accel_3d-dev0, a PTY as its device node so that
libiio reads whatever is written to the testbed's end of it. It can be removed and added again,
with the uevents the kernel would send, for hotplug checks.
"""
import os
import socket
import struct
import time

PARENT = "/devices/platform/emulated-tablet"
SYSPATH = PARENT + "/iio:device0"
NODE = "/dev/iio:device0"
# Raw counts (1 g = 1000) of the four upright poses, in the order a hand turns the device:
# normal, left edge up, upside down, right edge up.
POSES = [(0, -1000, 0), (1000, 0, 0), (0, 1000, 0), (-1000, 0, 0)]
# The attribute values a daemon starts from (upright, buffer off).
RESTING = [("buffer/enable", "0"), ("in_accel_x_raw", "0"), ("in_accel_y_raw", "-1000"), ("in_accel_z_raw", "0")]


def description(frequency=10, properties=(), hysteresis="0"):
    """The umockdev description of the accelerometer and of its trigger; `properties` are more udev properties
    (NAME, VALUE) of the accelerometer. `hysteresis` is the hub's own `in_accel_hysteresis`: 0, a hub that reports
    every sample (the scripts' checks of the buffer assume it); not 0, one that orientd gates while it is still
    (it then reports only changes beyond it), as a feeder must emulate."""
    attributes = [
        ("name", "accel_3d"), ("dev", "241:0"),
        ("in_accel_x_raw", "0"), ("in_accel_y_raw", "-1000"), ("in_accel_z_raw", "0"),
        ("in_accel_scale", "0.009806650"), ("in_accel_hysteresis", hysteresis),
        ("sampling_frequency", str(frequency)), ("sampling_frequency_available", "10 20 50 100"),
        ("buffer/enable", "0"), ("buffer/length", "128"), ("buffer/watermark", "1"),
        ("trigger/current_trigger", ""),
    ]
    for index, channel in enumerate(["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"]):
        kind = "le:s64/64>>0" if channel == "in_timestamp" else "le:s16/16>>0"
        attributes += [(f"scan_elements/{channel}_en", "0"), (f"scan_elements/{channel}_index", str(index)),
                       (f"scan_elements/{channel}_type", kind)]
    lines = [f"P: {SYSPATH}", "N: iio:device0", f"E: DEVNAME={NODE}", "E: DEVTYPE=iio_device",
             "E: SUBSYSTEM=iio", "E: ACCEL_LOCATION=display"] + [f"E: {name}={value}" for name, value in properties]
    # Every value ends in a newline: libiio overwrites the last byte it reads.
    lines += [f"A: {name}={value}\\n" for name, value in attributes]
    trigger = [f"P: {PARENT}/trigger0", "E: SUBSYSTEM=iio", "A: name=accel_3d-dev0\\n"]
    return "\n".join(lines) + "\n\n" + "\n".join(trigger) + "\n"


def scan(x, y, z, t_ns):
    """One scan's bytes: x, y, z counts, two bytes of padding, the timestamp in nanoseconds."""
    return struct.pack("<hhhxxq", x, y, z, t_ns)


def tour(changes, rate=100, hold=0.6):
    """Samples (raw x, y, z, t in ns) turning through POSES, one pose per `hold` seconds, `changes` changes."""
    samples, per_hold = [], int(hold * rate)
    for pose in range(changes + 1):
        x, y, z = POSES[pose % len(POSES)]
        for i in range(per_hold):
            wobble = ((i * 7) % 5 - 2) * 3  # a few counts of hand tremor
            samples.append((x + wobble, y - wobble, z, (pose * per_hold + i) * 1_000_000_000 // rate))
    return samples


class EmulatedAccelerometer:
    """A umockdev testbed holding the accelerometer. Making one sets UMOCKDEV_DIR for this process (umockdev's
    bindings do); a daemon sees the device through `environment()`."""

    def __init__(self, properties=(), hysteresis="0"):
        import gi  # loaded here, not at import: the other parts of the harness work without umockdev

        gi.require_version("UMockdev", "1.0")
        from gi.repository import UMockdev

        self.testbed = UMockdev.Testbed.new()
        self.hysteresis = hysteresis
        self.testbed.add_from_string(description(properties=properties, hysteresis=hysteresis))
        self.root = self.testbed.get_root_dir()
        self.sysfs = os.path.join(self.root, "sys" + SYSPATH)
        self._pty = None
        self.slave = os.readlink(os.path.join(self.root, "dev/iio:device0"))
        self.seqnum = 0

    def environment(self, extra=None):
        """The environment a child needs to see the device through libiio and libudev."""
        return dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=self.root, **(extra or {}))

    @property
    def pty(self):
        """The testbed's end of the device node: what is written there, the daemon reads as scans."""
        if self._pty is None:
            self._pty = self.testbed.get_dev_fd(NODE)
        return self._pty

    def attribute(self, name):
        """An attribute's text as the daemon left it, or None if it cannot be read."""
        try:
            with open(os.path.join(self.sysfs, name), "rb") as f:
                return f.read().rstrip(b"\n\0").decode()
        except OSError:
            return None

    def set(self, name, value):
        """Writes an attribute as the driver would show it, in place: a daemon holding it open reads the new value.
        The new text goes over the old before the file is cut to length, so a read in between finds a whole
        number followed by a newline."""
        path = os.path.join(self.sysfs, name)
        data = f"{value}\n".encode()
        try:
            fd = os.open(path, os.O_WRONLY)
        except FileNotFoundError:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.pwrite(fd, data, 0)
            os.ftruncate(fd, len(data))
        finally:
            os.close(fd)

    def reset(self):
        """Upright, buffer off: where each daemon starts."""
        for name, value in RESTING:
            self.set(name, value)

    def present(self):
        return os.path.exists(os.path.join(self.sysfs, "uevent"))

    def wait_for_buffer(self, enabled=True, timeout=10, alive=lambda: True):
        """Waits until the daemon has enabled (or disabled) the buffer; False on timeout or once `alive()` is
        false."""
        want = "1" if enabled else "0"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and alive():
            if self.attribute("buffer/enable") == want:
                return True
            time.sleep(0.01)
        return self.attribute("buffer/enable") == want

    def write(self, data):
        """Writes scans' bytes to the device node (blocking until the PTY takes them)."""
        os.write(self.pty, data)

    # Removal and return, with the uevents the kernel sends (umockdev's own need its preload in this process).

    def properties(self):
        with open(os.path.join(self.sysfs, "uevent")) as f:
            return [tuple(line.rstrip("\n").split("=", 1)) for line in f if "=" in line]

    def monitors(self):
        """The sockets of the libudev monitors listening in the testbed (a daemon's, once it watches)."""
        return [os.path.join(self.root, n) for n in os.listdir(self.root) if n.startswith("event") and n[5:].isdigit()]

    def uevent(self, action, properties):
        """Sends one libudev monitor message (systemd's device_monitor_send_device format) to every monitor."""
        self.seqnum += 1
        lookup = dict(properties)
        ordered = [("ACTION", action), ("DEVPATH", SYSPATH), ("SUBSYSTEM", lookup["SUBSYSTEM"]),
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
        """Removes the accelerometer, with a `remove` uevent."""
        properties = self.properties()
        self.testbed.remove_device("/sys" + SYSPATH)
        self.uevent("remove", properties)

    def add(self):
        """Adds the accelerometer again (its node linked to the old PTY), with an `add` uevent; returns the time of
        the uevent (monotonic ns)."""
        lines = [line for line in description(hysteresis=self.hysteresis).split("\n\n")[0].split("\n")
                 if line != "N: iio:device0"]
        self.testbed.add_from_string("\n".join(lines) + "\n")
        os.symlink(self.slave, os.path.join(self.root, "dev/iio:device0"))
        self.uevent("add", self.properties())
        return time.monotonic_ns()


class Feed:
    """Scans written to the device with timestamps that count on from one write to the next."""

    def __init__(self, device, start_ns=1_000_000_000):
        self.device = device
        self.t = start_ns
        self.pose = 0

    def hold(self, pose, seconds, rate=50):
        """`seconds` of scans of one raw reading at `rate` Hz."""
        count = int(seconds * rate)
        step = 1_000_000_000 // rate
        data = b"".join(scan(*pose, self.t + i * step) for i in range(count))
        self.t += count * step
        self.device.write(data)

    def turn(self):
        """Turns the device to the next of POSES and holds it 0.6 s at 100 Hz."""
        self.pose += 1
        self.hold(POSES[self.pose % len(POSES)], 0.6, rate=100)

    def skip(self, seconds):
        """Makes the next timestamps jump ahead, as a suspend seen by the IIO timestamp clock does."""
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
