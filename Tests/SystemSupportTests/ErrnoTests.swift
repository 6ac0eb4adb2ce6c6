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

import Glibc
import SystemSupport
import Testing

@Suite struct ErrnoTests {
    /// The text is strerror's, and a negative result of a C library gives the same error as errno would.
    @Test(arguments: [(ENOENT, "No such file or directory"), (EACCES, "Permission denied"), (ENODEV, "No such device")])
    func describesTheErrorAsStrerrorDoes(number: Int32, text: String) {
        #expect(Errno(number).description == text)
        #expect(Errno(-number) == Errno(rawValue: number))
    }

    @Test func namesWhatCallersAskAbout() {
        #expect(Errno(ENXIO).isDeviceGone)
        #expect(Errno(ENOENT).isDeviceGone)
        #expect(!Errno(EIO).isDeviceGone)
        #expect(Errno(EPERM).isPermissionDenied)
        #expect(!Errno(ENOENT).isPermissionDenied)
    }

    @Test func currentIsTheThreadsErrno() {
        #expect(close(-1) == -1)
        #expect(Errno.current == .badFileDescriptor)
    }
}
