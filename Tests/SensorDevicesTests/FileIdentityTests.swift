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

import Foundation
import SystemSupport
import Testing

@testable import SensorDevices

@Suite struct FileIdentityTests {
    /// A file rewritten in place is the same file; one renamed over it (as umockdev's set_attribute does) is not,
    /// and the descriptor held on the old one still names the old one.
    @Test func replacingAFileChangesItsIdentityAndWritingItDoesNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-identity-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/in_accel_x_raw"
        try "1000\n".write(toFile: path, atomically: false, encoding: .utf8)
        let held = try FileDescriptor.open(path)
        defer { held.close() }
        let original = try FileIdentity(of: held)
        #expect(try FileIdentity(ofFileAt: path) == original)

        let file = try FileDescriptor.open(path, O_WRONLY | O_TRUNC)
        try file.writeAll("-250\n")
        file.close()
        #expect(try FileIdentity(ofFileAt: path) == original, "written in place")

        try "500\n".write(toFile: folder + "/new", atomically: false, encoding: .utf8)
        #expect(rename(folder + "/new", path) == 0)
        #expect(try FileIdentity(ofFileAt: path) != original, "replaced")
        #expect(try FileIdentity(of: held) == original)
    }

    @Test func aMissingFileIsItsErrno() throws {
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileIdentity(ofFileAt: "/nonexistent/in_accel_x_raw") }
    }
}
