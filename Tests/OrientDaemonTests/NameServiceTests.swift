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

import Testing

@testable import OrientDaemon

@Suite struct NameServiceTests {
    /// Every Linux system has root, user 0 in group 0.
    @Test func findsRoot() throws {
        let root = try #require(try NameService.user(id: 0))
        #expect(root.name == "root")
        #expect(root.groupID == 0)
        #expect(NameService.groupIDs(of: root).contains(0))
        #expect(try NameService.group(named: "root")?.groupID == 0)
    }

    /// A name or ID that is not there is nil, not an error.
    @Test func findsNothingForWhatIsNotThere() throws {
        #expect(try NameService.group(named: "no-such-group-orientd-test") == nil)
        #expect(try NameService.user(id: 4_000_000_123) == nil)
    }

    /// An entry larger than the buffer (ERANGE) is looked up again with a larger one, not reported missing.
    @Test(arguments: [1, 7, 64])
    func aBufferTooSmallIsEnlarged(bufferSize: Int) throws {
        #expect(try NameService.user(id: 0, bufferSize: bufferSize)?.name == "root")
        #expect(try NameService.group(named: "root", bufferSize: bufferSize)?.groupID == 0)
    }
}
