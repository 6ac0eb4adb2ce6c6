"""An accelerometer emulated with umockdev, for the demo and the measurement scripts.

A HID-style IIO accelerometer: x, y, z as le:s16 at scan indices 0-2, a le:s64 timestamp at 3,
1 g = 1000 counts (scale 0.00980665), trigger accel_3d-dev0, a PTY as its device node so that
libiio reads whatever is written to the testbed's end of it.
"""
import os
import struct
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

PARENT = "/devices/platform/emulated-tablet"
SYSPATH = PARENT + "/iio:device0"
NODE = "/dev/iio:device0"


def description(frequency=10):
    attributes = [
        ("name", "accel_3d"), ("dev", "241:0"),
        ("in_accel_x_raw", "0"), ("in_accel_y_raw", "-1000"), ("in_accel_z_raw", "0"),
        ("in_accel_scale", "0.009806650"), ("in_accel_hysteresis", "3"),
        ("sampling_frequency", str(frequency)), ("sampling_frequency_available", "10 20 50 100"),
        ("buffer/enable", "0"), ("buffer/length", "128"), ("buffer/watermark", "1"),
        ("trigger/current_trigger", ""),
    ]
    for index, channel in enumerate(["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"]):
        kind = "le:s64/64>>0" if channel == "in_timestamp" else "le:s16/16>>0"
        attributes += [(f"scan_elements/{channel}_en", "0"), (f"scan_elements/{channel}_index", str(index)),
                       (f"scan_elements/{channel}_type", kind)]
    lines = [f"P: {SYSPATH}", "N: iio:device0", f"E: DEVNAME={NODE}", "E: DEVTYPE=iio_device",
             "E: SUBSYSTEM=iio", "E: ACCEL_LOCATION=display"]
    # Every value ends in a newline: libiio overwrites the last byte it reads.
    lines += [f"A: {name}={value}\\n" for name, value in attributes]
    trigger = [f"P: {PARENT}/trigger0", "E: SUBSYSTEM=iio", "A: name=accel_3d-dev0\\n"]
    return "\n".join(lines) + "\n\n" + "\n".join(trigger) + "\n"


def testbed():
    """A testbed holding the accelerometer (it sets UMOCKDEV_DIR for this process)."""
    bed = UMockdev.Testbed.new()
    bed.add_from_string(description())
    return bed


def child_environment(bed):
    """The environment a child needs to see the emulated device through libiio and libudev."""
    return dict(os.environ, LD_PRELOAD="libumockdev-preload.so.0", UMOCKDEV_DIR=bed.get_root_dir())


def attribute(bed, name):
    """An attribute's text as the daemon left it, or None if it cannot be read."""
    try:
        with open(os.path.join(bed.get_root_dir(), "sys" + SYSPATH, name), "rb") as f:
            return f.read().rstrip(b"\n\0").decode()
    except OSError:
        return None


def wait_for_buffer(bed, enabled=True, timeout=10, alive=lambda: True):
    """Waits until the daemon has enabled (or disabled) the buffer; False on timeout."""
    want = "1" if enabled else "0"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and alive():
        if attribute(bed, "buffer/enable") == want:
            return True
        time.sleep(0.01)
    return attribute(bed, "buffer/enable") == want


def scan(x, y, z, t_ns):
    """One scan's bytes: x, y, z counts, two bytes of padding, the timestamp in nanoseconds."""
    return struct.pack("<hhhxxq", x, y, z, t_ns)
