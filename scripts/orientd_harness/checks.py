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

"""Checks run one after another, each printing one line: its name, PASS, FAIL or SKIP, and its figures.

A check is a function returning (ok, figures) or (ok, figures, details), details being lines printed under it,
indented; it raises Skip when it cannot run here, and Failure (or DaemonStartError) when it cannot go on: that is a
FAIL line with the reason, and the next check still runs. Any other exception is a FAIL too ("could not finish").
"""
import random

from .daemon import Failure

__all__ = ["Checks", "Failure", "Skip", "rng"]


class Skip(Exception):
    """A check that cannot run here: its reason is printed after SKIP."""


class Checks:
    """The checks of one program and their outcome; `width` is the width of the name column."""

    def __init__(self, width):
        self.width = width
        self.outcomes = []  # (name, "PASS" | "FAIL" | "SKIP")

    def report(self, name, outcome, text, details=()):
        self.outcomes.append((name, outcome))
        print(f"{name:<{self.width}} {outcome}  {text}", flush=True)
        for line in list(details)[:5]:
            print("    " + line, flush=True)

    def run(self, name, check, *args):
        """Runs one check and prints its line, whatever happens in it."""
        try:
            ok, figures, *details = check(*args)
        except Skip as skip:
            self.report(name, "SKIP", str(skip))
        except Failure as failure:  # a daemon that did not start among them
            self.report(name, "FAIL", str(failure))
        except Exception as error:  # a check that cannot finish is a failure, and the others still run
            self.report(name, "FAIL", f"could not finish: {type(error).__name__}: {error}")
        else:
            self.report(name, "PASS" if ok else "FAIL", figures, details[0] if details else ())

    def summary(self):
        """Prints the count of each outcome; the exit status: 1 if a check failed."""
        count = {outcome: sum(1 for _, o in self.outcomes if o == outcome) for outcome in ("PASS", "FAIL", "SKIP")}
        failed = [name for name, outcome in self.outcomes if outcome == "FAIL"]
        print(f"{'summary':<{self.width}} {len(self.outcomes)} checks: {count['PASS']} passed, {count['FAIL']} failed"
              f"{' (' + ', '.join(failed) + ')' if failed else ''}, {count['SKIP']} skipped", flush=True)
        return 1 if failed else 0


def rng(seed, *names):
    """The random generator of one check (or of one round of it): the same seed and names give the same draws,
    whatever the other checks drew and however long anything took."""
    return random.Random("/".join([str(seed), *map(str, names)]))
