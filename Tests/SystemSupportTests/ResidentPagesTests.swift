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

@Suite struct ResidentPagesTests {
    @Test func aMappingLineIsParsed() throws {
        let line = "7f0000000000-7f0000004000 r-xp 00001000 fd:01 123   /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        var mapping = try #require(ResidentPages.Mapping(line))
        #expect(mapping.start == 0x7f00_0000_0000 && mapping.end == 0x7f00_0000_4000)
        #expect(mapping.permissions == "r-xp" && mapping.path == "/usr/lib/x86_64-linux-gnu/libc.so.6")
        #expect(mapping.isPrivateFile && mapping.isReadable && mapping.isNeverWritten)
        mapping.read(field: "Rss:                  16 kB\n")
        mapping.read(field: "Anonymous:             4 kB\n")
        #expect(mapping.residentKilobytes == 16 && mapping.anonymousKilobytes == 4)
        #expect(!mapping.isNeverWritten, "a page of it was written (a breakpoint, a relocation)")
    }

    @Test func otherLinesAreNotMappings() throws {
        #expect(ResidentPages.Mapping("Rss:                  16 kB\n") == nil)
        #expect(ResidentPages.Mapping("VmFlags: rd ex mr mw me sd\n") == nil)
        #expect(ResidentPages.Mapping("garbage\n") == nil)
        #expect(ResidentPages.Mapping("3000-1000 r-xp 00000000 fd:01 1 /bin/x\n") == nil)
        let anonymous = try #require(ResidentPages.Mapping("1000-3000 rw-p 00000000 00:00 0\n"))
        #expect(!anonymous.isPrivateFile, "the heap and anonymous memory are never advised")
        let shared = try #require(ResidentPages.Mapping("1000-3000 r--s 00000000 fd:01 1 /memfd:x\n"))
        #expect(!shared.isPrivateFile)
    }

    /// Only a mapping that cannot be written and holds no written page, in memory or in swap, may be unmapped.
    @Test func onlyAMappingNeverWrittenIsUnmapped() throws {
        var relocated = try #require(ResidentPages.Mapping("1000-3000 r--p 00000000 fd:01 1 /bin/x\n"))
        relocated.read(field: "Swap:                  4 kB\n")
        relocated.read(field: "SwapPss:               0 kB\n")
        #expect(relocated.swappedKilobytes == 4 && !relocated.isNeverWritten)
        let data = try #require(ResidentPages.Mapping("1000-3000 rw-p 00000000 fd:01 1 /bin/x\n"))
        #expect(!data.isNeverWritten, "writable: a page may be written while it is looked at")
    }

    /// A file mapped privately, read and written the ways a program's segments are: code never written, data
    /// written, read-only data written and then protected (relocations). Unmapping gives back the pages never
    /// written and loses no byte of any of them; evicting does the same.
    @Test(arguments: [ResidentPages.Mode.unmap, .evict])
    func releasingLosesNothing(mode: ResidentPages.Mode) throws {
        let file = try ScratchFile(pages: 16, multiplier: 31, offset: 7)
        defer { file.remove() }
        let (pageSize, length, contents) = (file.pageSize, file.length, file.contents)

        let code = try file.map(PROT_READ)
        let data = try file.map(PROT_READ | PROT_WRITE)
        let relro = try file.map(PROT_READ | PROT_WRITE)
        defer { for mapping in [code, data, relro] { munmap(mapping, length) } }
        var sum = 0
        for offset in stride(from: 0, to: length, by: pageSize) {
            sum &+= Int(code.load(fromByteOffset: offset, as: UInt8.self))
        }
        #expect(sum != 0)
        data.storeBytes(of: 0xAB, toByteOffset: pageSize, as: UInt8.self)
        relro.storeBytes(of: 0xCD, toByteOffset: 2 * pageSize, as: UInt8.self)
        try #require(mprotect(relro, length, PROT_READ) == 0)
        let before = try #require(Self.mapping(at: code))
        #expect(before.residentKilobytes * 1024 == length, "every page of the code was read")

        let outcome = ResidentPages.release(mode)

        #expect(outcome.advised >= length)
        let after = try #require(Self.mapping(at: code))
        #expect(after.residentKilobytes == 0, "the code never written leaves the process")
        #expect(data.load(fromByteOffset: pageSize, as: UInt8.self) == 0xAB, "a written data page is kept")
        #expect(relro.load(fromByteOffset: 2 * pageSize, as: UInt8.self) == 0xCD, "a written page now read-only")
        #expect(Array(UnsafeRawBufferPointer(start: code, count: length)) == contents, "read again from the file")
        var expected = contents
        expected[2 * pageSize] = 0xCD
        #expect(Array(UnsafeRawBufferPointer(start: relro, count: length)) == expected)
    }

    /// A data mapping (private, writable) with every page read and one written: the pages only read leave the
    /// process, the written one stays with its byte, and the others read the file's bytes again.
    @Test func theReadPagesOfAWrittenMappingAreGivenBack() throws {
        let file = try ScratchFile(pages: 16, multiplier: 17, offset: 3)
        defer { file.remove() }
        let (pageSize, length, contents) = (file.pageSize, file.length, file.contents)
        let data = try file.map(PROT_READ | PROT_WRITE)
        defer { munmap(data, length) }
        var sum = 0
        for offset in stride(from: 0, to: length, by: pageSize) {
            sum &+= Int(data.load(fromByteOffset: offset, as: UInt8.self))
        }
        #expect(sum != 0)
        data.storeBytes(of: 0xEF, toByteOffset: 3 * pageSize + 1, as: UInt8.self)
        let before = try #require(Self.mapping(at: data))
        #expect(before.residentKilobytes * 1024 == length && before.anonymousKilobytes * 1024 == pageSize)

        let given = ResidentPages.releaseReadPages(of: before)

        #expect(given == length - pageSize, "every page but the written one")
        let after = try #require(Self.mapping(at: data))
        #expect(after.residentKilobytes * 1024 == pageSize, "only the written page stays")
        var expected = contents
        expected[3 * pageSize + 1] = 0xEF
        #expect(Array(UnsafeRawBufferPointer(start: data, count: length)) == expected, "nothing lost")
    }

    /// A file's code and data mappings registered so that their pages come one by one: reading three pages maps
    /// those three and not their neighbours, and nothing is lost: the bytes read are the file's, a byte written stays.
    @Test func aRegisteredMappingMapsOnlyThePagesUsed() throws {
        let file = try ScratchFile(pages: 64, multiplier: 13, offset: 5)
        defer { file.remove() }
        let (pageSize, length, contents) = (file.pageSize, file.length, file.contents)
        let code = try file.map(PROT_READ)
        let data = try file.map(PROT_READ | PROT_WRITE)
        defer { for mapping in [code, data] { munmap(mapping, length) } }
        let registered = try [code, data].map { ResidentPages.mapsPagesOneByOne(try #require(Self.mapping(at: $0))) }
        #expect(registered[0] == registered[1])

        var sum = 0
        for page in [3, 20, 41] { sum &+= Int(code.load(fromByteOffset: page * pageSize + 7, as: UInt8.self)) }
        data.storeBytes(of: 0x99, toByteOffset: 30 * pageSize + 1, as: UInt8.self)
        sum &+= Int(data.load(fromByteOffset: 50 * pageSize, as: UInt8.self))

        let expectedSum = [3, 20, 41].reduce(Int(contents[50 * pageSize])) { $0 &+ Int(contents[$1 * pageSize + 7]) }
        #expect(sum == expectedSum, "the file's bytes")
        #expect(data.load(fromByteOffset: 30 * pageSize + 1, as: UInt8.self) == 0x99, "a byte written stays")
        let codeAfter = try #require(Self.mapping(at: code))
        let dataAfter = try #require(Self.mapping(at: data))
        if registered[0] {
            #expect(codeAfter.residentKilobytes * 1024 == 3 * pageSize, "the three pages read, no neighbour")
            #expect(dataAfter.residentKilobytes * 1024 == 2 * pageSize, "the page written and the page read")
        } else {
            // A kernel before 6.7, or userfaultfd(2) forbidden (a container's seccomp filter): the pages come with
            // their neighbours, as without registering.
            #expect(codeAfter.residentKilobytes * 1024 >= 3 * pageSize)
        }
        var expected = contents
        expected[30 * pageSize + 1] = 0x99
        #expect(Array(UnsafeRawBufferPointer(start: data, count: length)) == expected, "nothing lost")
        #expect(Array(UnsafeRawBufferPointer(start: code, count: length)) == contents)
    }

    /// A new file in /tmp of `pages` pages, byte i holding i · multiplier + offset, open until ``remove()``.
    private struct ScratchFile {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length: Int
        let contents: [UInt8]
        private let fd: Int32
        private let path: [CChar]

        init(pages: Int, multiplier: Int, offset: Int) throws {
            length = pages * pageSize
            contents = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* multiplier &+ offset) }
            var template = Array("/tmp/resident-pages-XXXXXX".utf8CString)
            let fd = mkstemp(&template)
            try #require(fd >= 0)
            do {
                try FileDescriptor(rawValue: fd).writeAll(contents)
            } catch {
                close(fd)
                unlink(template)
                throw error
            }
            (self.fd, path) = (fd, template)
        }

        /// The whole file mapped privately with `protection`.
        func map(_ protection: Int32) throws -> UnsafeMutableRawPointer {
            let address = mmap(nil, length, protection, MAP_PRIVATE, fd, 0)
            try #require(address != nil && address != MAP_FAILED, "mmap: \(Errno.current)")
            return address!
        }

        /// Closes and unlinks the file (its mappings stay until unmapped).
        func remove() {
            close(fd)
            unlink(path)
        }
    }

    private static func mapping(at address: UnsafeMutableRawPointer) -> ResidentPages.Mapping? {
        let start = UInt(bitPattern: address)
        return ResidentPages.mappings().first { $0.start == start }
    }
}
