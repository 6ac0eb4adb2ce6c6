//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef ORIENTD_CSYSTEMCALLS_H
#define ORIENTD_CSYSTEMCALLS_H

/// A userfaultfd(2) of the process's own faults in user mode (UFFD_USER_MODE_ONLY, which needs no privilege), whose
/// write protection the kernel resolves itself (UFFD_FEATURE_WP_ASYNC, Linux 6.7): registering a mapping with it
/// changes nothing of its contents, and turns off the kernel's fault-around there (a read fault maps the page it
/// faults on, not the 16 around it). -1 with errno set when the kernel cannot (before 6.7: EINVAL; userfaultfd(2)
/// forbidden: EPERM or ENOSYS).
int orientd_fault_tracker_open(void);

/// Registers the mapping [start, start + length) (page-aligned, whole mappings) with `fd` for write protection, in
/// the asynchronous mode: no page is protected, no event is ever sent. 0, or -1 with errno set.
int orientd_fault_tracker_register(int fd, unsigned long start, unsigned long length);

#endif
