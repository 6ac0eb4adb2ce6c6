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

@Suite struct RetryingInterruptsTests {
    /// A call interrupted twice is made a third time, and its result is the caller's; any other failure is returned
    /// at once, whichever way the call reports it.
    @Test(arguments: [FailureReporting.minusOneAndErrno, .negatedErrno, .errorNumber])
    func makesAnInterruptedCallAgain(reporting: FailureReporting) {
        func failure(_ number: Int32) -> Int32 {
            switch reporting {
            case .minusOneAndErrno:
                errno = number
                return -1
            case .negatedErrno: return -number
            case .errorNumber: return number
            }
        }
        var calls = 0
        let result = retryingInterrupts(reporting) {
            calls += 1
            return calls < 3 ? failure(EINTR) : 7
        }
        #expect(result == 7)
        #expect(calls == 3)

        calls = 0
        let failed = retryingInterrupts(reporting) {
            calls += 1
            return failure(EIO)
        }
        #expect(failed == failure(EIO))
        #expect(calls == 1)
    }

    @Test func valueOrErrnoThrowsTheCallsError() {
        #expect(throws: Errno.badFileDescriptor) { try valueOrErrno { close(-1) } }
        var calls = 0
        #expect(
            (try? valueOrErrno {
                calls += 1
                errno = EINTR
                return calls == 1 ? -1 : 0
            }) == 0
        )
    }
}
