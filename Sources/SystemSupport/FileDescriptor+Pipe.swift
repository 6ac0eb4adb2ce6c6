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

#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// pipe2(2), which Swift's Glibc module does not declare (it is a GNU extension); every Linux C library has it.
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

    /// A new pipe whose two ends are close-on-exec from the moment they exist.
    ///
    /// A pipe made with pipe(2) and marked close-on-exec afterwards can leak into a program that another thread
    /// starts in between; that program then holds the write end open, and whoever reads the pipe to its end waits
    /// for that unrelated program to end (a `follow` whose `xrandr` never seemed to finish while
    /// `xprop -spy`, started at that moment, held its output pipe). pipe2(2) with `O_CLOEXEC` leaves no such
    /// moment. The ends of the pair are the caller's to close.
    /// - Returns: the end to read from and the end to write to.
    /// - Throws: the errno of pipe2(2) (`EMFILE` and the like); `ENOSYS` where the C library lacks pipe2.
    public static func makePipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        guard let pipe2 = Self.pipe2 else { throw Errno(ENOSYS) }
        var ends: [Int32] = [-1, -1]
        // Through a Result: Swift 6.0 takes what a standard-library closure throws as `any Error`.
        _ = try ends.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(Errno) in try valueOrErrno { pipe2(buffer.baseAddress!, O_CLOEXEC) } }
        }
        .get()
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }
}
