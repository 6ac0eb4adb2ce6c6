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

import EvdevSupport
import Glibc
import SystemSupport
import Testing

@Suite struct EvdevNodeTests {
    /// A node that is not there is named with the call and the errno, so that the switch and the sensor can say why.
    @Test func aMissingNodeIsAnOpenError() {
        let path = "/dev/input/orientd-no-such-event-node"
        #expect {
            _ = try EvdevNode(opening: path)
        } throws: { error in
            guard let error = error as? EvdevNodeError else { return false }
            return error.operation == "open" && error.path == path && error.errno == .noSuchFileOrDirectory
                && error.description == "\(path): open: \(Errno.noSuchFileOrDirectory)"
        }
    }

    /// A file that is no input device is refused by libevdev, and the descriptor opened for it does not stay open.
    @Test func aNodeThatIsNoInputDeviceIsRefusedAndClosed() throws {
        let free = try FileDescriptor.open("/dev/null")
        free.close()
        #expect {
            _ = try EvdevNode(opening: "/dev/null")
        } throws: { error in
            guard let error = error as? EvdevNodeError else { return false }
            return error.operation == "libevdev_new_from_fd" && error.errno == Errno(rawValue: ENOTTY)
        }
        // The lowest free number is the one the failed open took: it was given back.
        let next = try FileDescriptor.open("/dev/null")
        next.close()
        #expect(next == free)
    }
}
