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

"""What every figure sheet says first, and the one statistic they all use."""
import os
import platform

from . import proc


def machine():
    """The machine the figures come from: CPUs, model, kernel, and how loaded it is now."""
    return (f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {proc.cpu_model()}; "
            f"kernel {platform.release()} {platform.machine()}; load average {os.getloadavg()[0]:.1f}")


def percentile(values, p):
    """The p-th percentile of `values`, interpolated between the two nearest ranks."""
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)
