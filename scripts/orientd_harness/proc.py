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

"""Readers of /proc for a running process: memory, CPU time, context switches, open files; and the CPU model."""
import os
import platform

CLK_TCK = os.sysconf("SC_CLK_TCK")


def status_field(pid, field, task=None):
    """A number field of /proc/PID/status (or of one thread's), such as VmRSS in kB; None if it cannot be read."""
    path = f"/proc/{pid}/task/{task}/status" if task else f"/proc/{pid}/status"
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def kib(pid, field):
    """A memory field of /proc/PID/status in kB (VmRSS, VmHWM), 0 if the process is gone."""
    return status_field(pid, field) or 0


def rollup(pid):
    """The memory fields of /proc/PID/smaps_rollup in kB ({"Rss": …, "Pss": …, "Private_Clean": …}); {} if gone."""
    out = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                    out[parts[0][:-1]] = int(parts[1])
    except OSError:
        return {}
    return out


def cpu_seconds(pid):
    """User and system CPU time of the process so far (utime + stime of /proc/PID/stat), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14, 15)


def major_faults(pid):
    """Page faults of the process so far that waited for the disk (majflt of /proc/PID/stat); each is a wake-up."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[9])  # majflt (field 12)


def switches(pid):
    """Context switches per thread: {tid: voluntary + nonvoluntary}."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        voluntary = status_field(pid, "voluntary_ctxt_switches", tid)
        forced = status_field(pid, "nonvoluntary_ctxt_switches", tid)
        if voluntary is not None and forced is not None:
            out[tid] = voluntary + forced
    return out


def cpu_ns(pid):
    """CPU time of all the process's threads so far, in nanoseconds (the first field of each
    /proc/PID/task/TID/schedstat: exact, unlike the clock ticks of /proc/PID/stat)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


def fd_count(pid):
    """The number of the process's open files (/proc/PID/fd)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_by_mapping(pid):
    """[(file name, Rss kB)] from /proc/PID/smaps, largest first; anonymous mappings count as [anon]."""
    totals, name = {}, "[anon]"
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                first = line.split()
                if "-" in first[0] and not first[0].endswith(":"):
                    name = os.path.basename(first[5]) if len(first) > 5 and first[5].startswith("/") else "[anon]"
                elif first[0] == "Rss:":
                    totals[name] = totals.get(name, 0) + int(first[1])
    except OSError:
        return []
    return sorted(totals.items(), key=lambda item: -item[1])


def cpu_model():
    """The CPU's model name from /proc/cpuinfo (or what the platform says)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()

