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


# The groups of uss_by_group, in the order the figure sheets print them.
USS_GROUPS = [
    "binary: code",
    "binary: read-only data, as read",
    "binary: relocated data (relro)",
    "binary: data, as read",
    "binary: data, written",
    "binary: bss",
    "libsystemd",
    "libc",
    "other libraries",
    "heap",
    "stack",
    "anonymous",
    "other",
]


def unreclaimable_kib(fields):
    """What the kernel cannot reclaim without swap, in kB, of one mapping's fields of /proc/PID/smaps (or of
    smaps_rollup's totals): its anonymous pages (Anonymous: the heap, stacks, and the copies of a file's pages the
    process wrote, such as relocated data) and its private dirty pages (Private_Dirty), each page once.

    A page a process writes is anonymous, private and dirty at once: for the daemons measured (neither forks, no
    swap is in use) Anonymous is part of Private_Dirty. What Private_Dirty holds beyond it is dirty page cache
    mapped by this process alone (a file not yet written back, a shared mapping written); what Anonymous holds
    beyond it is anonymous memory shared with a forked child, or clean after a swap-in. The larger of the two
    counts each page once whichever of these a mapping holds (make side-by-side syncs the page cache before it
    starts the daemons, so that no file page of theirs is dirty)."""
    return max(fields.get("Anonymous", 0), fields.get("Private_Dirty", 0))


def private_pages(fields):
    """(Private_Clean, Private_Dirty) kB of one mapping: its USS, clean and dirty."""
    return fields.get("Private_Clean", 0), fields.get("Private_Dirty", 0)


def unreclaimable_pages(fields):
    """(0, unreclaimable_kib) of one mapping: by_group's measure of what the system pays; all of it is dirty."""
    return 0, unreclaimable_kib(fields)


def mappings(smaps_lines):
    """The mappings of the lines of a /proc/PID/smaps: (start, end, permissions, path, {field: kB}), in order."""
    current = None
    for line in smaps_lines:
        fields = line.split()
        if not fields:
            continue
        if "-" in fields[0] and not fields[0].endswith(":"):
            if current is not None:
                yield current
            start, end = (int(part, 16) for part in fields[0].split("-"))
            current = (start, end, fields[1], " ".join(fields[5:]), {})
        elif current is not None and fields[0].endswith(":") and len(fields) > 1 and fields[1].isdigit():
            current[4][fields[0][:-1]] = int(fields[1])
    if current is not None:
        yield current


def by_group(smaps_lines, exe, measure):
    """A process's memory by what it maps, from the lines of its /proc/PID/smaps and the path of its executable:
    {group: kB} over USS_GROUPS, each mapping's (clean, dirty) kB given by `measure` (private_pages: the USS;
    unreclaimable_pages: what the system pays).

    The executable's mappings split by their permissions and pages: code (r-x); read-only data whose pages were
    only read (r--, clean); read-only data the loader wrote before making it read-only, the relocated data of
    RELRO (r--, dirty); writable data (rw-) only read (clean) and written (dirty); the anonymous mapping right
    after it, the bss. Libraries go by
    name (libsystemd, libc, the others), then the heap, the main stack, other anonymous memory (thread stacks,
    allocations mapped on their own) and anything else (the vDSO, other files)."""
    totals = dict.fromkeys(USS_GROUPS, 0)
    exe_end = None  # where the executable's last mapping ends: an anonymous mapping there is its bss
    for start, end, perms, path, fields in mappings(smaps_lines):
        name = os.path.basename(path)
        if path == exe:
            if "x" in perms:
                groups = ("binary: code", "binary: code")
            elif "w" in perms:
                groups = ("binary: data, as read", "binary: data, written")
            else:
                groups = ("binary: read-only data, as read", "binary: relocated data (relro)")
        elif path == "" and start == exe_end:
            groups = ("binary: bss", "binary: bss")
        elif name.startswith("libsystemd.so"):
            groups = ("libsystemd", "libsystemd")
        elif name.startswith("libc.so"):
            groups = ("libc", "libc")
        elif ".so" in name:
            groups = ("other libraries", "other libraries")
        elif path == "[heap]":
            groups = ("heap", "heap")
        elif path == "[stack]":
            groups = ("stack", "stack")
        elif path == "":
            groups = ("anonymous", "anonymous")
        else:
            groups = ("other", "other")
        exe_end = end if path == exe else None
        clean, dirty = measure(fields)
        totals[groups[0]] += clean
        totals[groups[1]] += dirty
    return totals


def uss_by_group(smaps_lines, exe):
    """by_group of the USS (Private_Clean + Private_Dirty)."""
    return by_group(smaps_lines, exe, private_pages)


def by_mapping(pid, measure=private_pages):
    """by_group of a running process ({group: kB}; the USS unless `measure` says otherwise); {} if it is gone."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
        with open(f"/proc/{pid}/smaps") as f:
            return by_group(f, exe, measure)
    except OSError:
        return {}


def by_library(pid, measure=private_pages):
    """[(library file name, kB)] of a running process's shared libraries (/proc/PID/smaps), largest first: the USS
    unless `measure` says otherwise (its clean and dirty kB are added)."""
    totals = {}
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for _, _, _, path, fields in mappings(f):
                name = os.path.basename(path)
                if path.startswith("/") and ".so" in name:
                    totals[name] = totals.get(name, 0) + sum(measure(fields))
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
