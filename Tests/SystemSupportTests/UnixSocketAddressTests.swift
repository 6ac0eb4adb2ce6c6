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

@Suite struct UnixSocketAddressTests {
    /// `sun_path` holds 107 bytes and the NUL: a longer path is refused, not cut to another one.
    @Test func refusesAPathThatDoesNotFit() throws {
        _ = try UnixSocketAddress(path: "/" + String(repeating: "a", count: 106))
        #expect(throws: Errno.nameTooLong) { try UnixSocketAddress(path: "/" + String(repeating: "a", count: 107)) }
        #expect(throws: Errno.invalidArgument) { try UnixSocketAddress(path: "") }
        #expect(throws: Errno.invalidArgument) { try UnixSocketAddress(path: "/run/a\0b") }
    }

    /// The address binds a socket that a second address of the same path connects to.
    @Test func bindsAndConnectsAtThePath() throws {
        var template = Array("/tmp/unix-address-XXXXXX".utf8CString)
        let created = try #require(mkdtemp(&template))
        let directory = String(cString: created)
        let path = directory + "/socket"
        defer {
            unlink(path)
            rmdir(directory)
        }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        let address = try UnixSocketAddress(path: path)
        #expect(address.withSocketAddress { bind(listener, $0, $1) } == 0)
        #expect(listen(listener, 1) == 0)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        #expect(try UnixSocketAddress(path: path).withSocketAddress { connect(client, $0, $1) } == 0)
    }
}
