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

"""What the measurement scripts share: the real orientd under umockdev, driven as clients do.

  device   the emulated accelerometer (umockdev): its description, scans, attributes, removal and return;
  daemon   `orientd run` as a context manager on a private socket and state directory;
  client   one JSON-lines client of the control socket;
  proc     readers of /proc: memory, CPU time, context switches, open files, the machine;
  figures  the machine a figure was measured on, percentiles.

Importing any of them changes nothing: no folder is made, no handler installed, no device made, and
umockdev's Python bindings are loaded only when a device is made.
"""
