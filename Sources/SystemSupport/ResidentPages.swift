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

import CSystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// Gives back the pages of files (code, read-only data, data never written) that the process has stopped using.
///
/// A daemon's resident memory is mostly the code it has run once: start-up, parsing, set-up, the first claim. Its
/// pages, and the kernel's fault-around neighbours (64 kB around each faulting page), stay mapped for the process's
/// life although serving runs a small part of them. Giving them back costs nothing but a fault at their next use:
/// the kernel maps them again from the page cache, or reads them from the file, so nothing is lost.
///
/// Only private file mappings are advised, never anonymous memory (the heap, stacks). A written page is never
/// discarded: of a mapping with one, only the pages still the file's are given back, or the mapping is paged out
/// (which keeps the written pages, in memory or in swap).
public enum ResidentPages {
    /// How the pages leave.
    ///
    /// Either way a mapping never written (no anonymous page in it, in memory or swapped out: code, read-only data)
    /// is unmapped with `MADV_DONTNEED`: its pages stay in the page cache, so that their next use is a minor fault
    /// (microseconds, no disk), and the kernel reclaims them from the cache as memory is needed.
    public enum Mode: Sendable {
        /// The mappings never written, and in the others (data, relocated read-only data) the pages only read, still
        /// the file's (``releaseReadPages(of:)``), when the process has one thread. For code and data that may be
        /// used again soon (the next tick, the next turn, the next claim).
        case unmap
        /// The mappings never written as with ``unmap``, and `MADV_PAGEOUT` (Linux 5.4) on the others (data,
        /// relocated read-only data): their pages never written (data read once at start-up) leave memory and the
        /// page cache, written pages stay (or go to swap, if there is one). Once, after start-up.
        case evict
    }

    /// What ``release(_:)`` did.
    public struct Outcome: Sendable, Equatable {
        /// Bytes of mappings advised.
        public var advised = 0
        /// Resident bytes of the advised mappings just before, as `/proc/self/smaps` counted them (of a mapping
        /// with written pages, the pages only read that were given back).
        public var residentBefore = 0

        public init(advised: Int = 0, residentBefore: Int = 0) {
            self.advised = advised
            self.residentBefore = residentBefore
        }
    }

    /// `MADV_PAGEOUT` of `<linux/mman.h>`, which Glibc's headers may lack.
    static let pageOut: Int32 = 21

    /// Advises every private file mapping of the process as `mode` says.
    /// - Returns: what was advised; nothing when `/proc/self/smaps` cannot be read, which is not an error: the pages
    ///   merely stay (as those of ``Mode/evict`` stay on a kernel without `MADV_PAGEOUT`, before 5.4).
    @discardableResult
    public static func release(_ mode: Mode) -> Outcome {
        // Everything is read and decided first, in a function of its own, and the advice comes last in a loop of
        // nothing but madvise(2): code that ran after the advice (parsing the next mapping's lines, reading a
        // pagemap, even destroying the arrays and strings the look made) would be faulted in again at once, each page
        // with its fault-around neighbours (64 kB), and would stay until the next trim. So the plan is a C array
        // whose arrays are gone before the first advice, and what follows the loop is free(3), whose code is
        // libc's, shared with every other process.
        guard let plan = plan(mode) else { return Outcome() }
        var outcome = Outcome()
        for index in 0..<plan.count
        where madvise(plan.runs[index].start, plan.runs[index].length, plan.runs[index].advice) == 0 {
            outcome.advised += plan.runs[index].length
            outcome.residentBefore += plan.runs[index].resident
        }
        free(plan.runs)
        return outcome
    }

    /// One advice to give: a run of pages, the advice, and how many of its bytes were resident.
    struct Advice {
        var start: UnsafeMutableRawPointer?
        var length: Int
        var advice: Int32
        var resident: Int
    }

    /// What ``release(_:)`` advises, in memory of malloc(3) that the caller frees; nil when there is nothing to
    /// advise or no memory.
    private static func plan(_ mode: Mode) -> (runs: UnsafeMutablePointer<Advice>, count: Int)? {
        // The array's storage is made before any pagemap is read, so that no type is instantiated after a look.
        var advice: [Advice] = []
        advice.reserveCapacity(64)
        var written: [Mapping] = []
        for mapping in mappings() where mapping.isPrivateFile && mapping.isReadable {
            // What comes back after the advice comes page by page, not in blocks of 16 (fault-around).
            mapsPagesOneByOne(mapping)
            // A mapping with no page in memory has nothing to give back.
            guard mapping.residentKilobytes > 0 else { continue }
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
            let length = Int(mapping.end - mapping.start)
            if mapping.isNeverWritten {
                advice.append(
                    Advice(
                        start: start,
                        length: length,
                        advice: MADV_DONTNEED,
                        resident: mapping.residentKilobytes * 1024
                    )
                )
            } else if mode == .evict {
                advice.append(
                    Advice(start: start, length: length, advice: pageOut, resident: mapping.residentKilobytes * 1024)
                )
            } else {
                written.append(mapping)
            }
        }
        // Of a mapping with written pages, the pages only read: only with no other thread, which could write one
        // between the look and the advice. This thread writes none in between: the look reads into memory of its
        // own (malloc'd) and appends to `advice`, whose type is in use already; the plan is copied to malloc'd memory
        // too, and the arrays are destroyed (heap memory) before the first advice.
        if !written.isEmpty, threads() == 1 {
            for mapping in written { appendReadPages(of: mapping, to: &advice) }
        }
        guard !advice.isEmpty,
            let memory = malloc(advice.count * MemoryLayout<Advice>.stride)?.bindMemory(
                to: Advice.self,
                capacity: advice.count
            )
        else { return nil }
        advice.withUnsafeBufferPointer { runs in memory.initialize(from: runs.baseAddress!, count: runs.count) }
        return (memory, advice.count)
    }

    /// Turns off the kernel's fault-around in `mapping` (a private file mapping, whole): a read fault there maps the
    /// page it faults on, and not the 15 pages around it (64 kB, `fault_around_bytes`), which a process that runs
    /// a few functions, or reads a few type descriptors, keeps mapped with them. The mapping is registered with a
    /// userfaultfd(2) of the process for write protection in the mode the kernel resolves alone (Linux 6.7): no page
    /// is protected and no event is sent, so that nothing else changes; the kernel maps pages one by one in a
    /// mapping so registered. Its next use after ``release(_:)`` costs a minor fault per page instead of one per 16.
    /// - Returns: whether the mapping is registered; false on a kernel without it (before 6.7), or where
    ///   userfaultfd(2) is forbidden: the pages then come back with their neighbours, as before.
    @discardableResult
    public static func mapsPagesOneByOne(_ mapping: Mapping) -> Bool {
        faultTracker >= 0
            && orientd_fault_tracker_register(faultTracker, mapping.start, mapping.end - mapping.start) == 0
    }

    /// Opens the userfaultfd that ``mapsPagesOneByOne(_:)`` registers mappings with, if it is not open yet: a
    /// daemon calls it while it sets up, so that its descriptors are all open once it serves (the first trim comes
    /// later).
    public static func prepare() {
        _ = faultTracker
    }

    /// The userfaultfd the mappings are registered with, open for the process's life (closing it would end the
    /// registrations); -1 where there is none.
    private static let faultTracker: Int32 = orientd_fault_tracker_open()

    /// Gives back the pages of a private file mapping that are in memory and still the file's (read, never written:
    /// `/proc/self/pagemap` says "file page" of them; a written page of a private mapping is the process's own copy)
    /// with `MADV_DONTNEED`, and keeps every written page. The file's pages stay in the page cache: their next use is
    /// a minor fault, no disk read.
    ///
    /// The caller sees that nothing else writes the mapping meanwhile (another thread): a page written between the
    /// look and the advice would be lost.
    /// - Returns: the bytes given back; 0 when the pagemap cannot be read (nothing is advised then).
    @discardableResult
    public static func releaseReadPages(of mapping: Mapping) -> Int {
        var runs: [Advice] = []
        runs.reserveCapacity(64)
        appendReadPages(of: mapping, to: &runs)
        var given = 0
        for run in runs where madvise(run.start, run.length, run.advice) == 0 { given += run.length }
        return given
    }

    /// Appends to `advice` the runs of pages of `mapping` that are in memory and still the file's, as
    /// `MADV_DONTNEED`; nothing when the pagemap cannot be read.
    static func appendReadPages(
        of mapping: Mapping,
        to advice: inout [Advice]
    ) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = Int(mapping.end - mapping.start) / pageSize
        guard pages > 0 else { return }
        let fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let entries = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: pages)
        defer { entries.deallocate() }
        let read = pread(fd, entries.baseAddress, pages * 8, off_t(Int(mapping.start) / pageSize * 8))
        guard read == pages * 8 else { return }
        // Bit 63: present; bit 61: a page of the file (or shared), not the process's own copy.
        let fileAndPresent: UInt64 = 1 << 63 | 1 << 61
        var index = 0
        while index < pages {
            guard entries[index] & fileAndPresent == fileAndPresent else {
                index += 1
                continue
            }
            let first = index
            while index < pages, entries[index] & fileAndPresent == fileAndPresent { index += 1 }
            let length = (index - first) * pageSize
            advice.append(
                Advice(
                    start: UnsafeMutableRawPointer(bitPattern: mapping.start + UInt(first * pageSize)),
                    length: length,
                    advice: MADV_DONTNEED,
                    resident: length
                )
            )
        }
    }

    /// The process's threads (the entries of `/proc/self/task`); 0 when it cannot be read.
    static func threads() -> Int {
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count
    }

    /// The process's mappings, as `/proc/self/smaps` describes them now; empty when it cannot be read.
    public static func mappings() -> [Mapping] {
        guard let smaps = fopen("/proc/self/smaps", "re") else { return [] }
        defer { fclose(smaps) }
        var result: [Mapping] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, smaps) > 0, let line {
            // About 25 field lines per mapping: only three are read, and without making a string of each.
            switch UInt8(bitPattern: line[0]) {
            case UInt8(ascii: "R"), UInt8(ascii: "A"), UInt8(ascii: "S"):
                if !result.isEmpty { result[result.count - 1].read(field: line) }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                if let mapping = Mapping(String(cString: line)) { result.append(mapping) }
            default:
                break
            }
        }
        return result
    }

    /// One mapping of `/proc/self/smaps`: its line `start-end perms offset dev inode path`, and the fields after it
    /// that ``release(_:)`` needs.
    public struct Mapping: Sendable, Equatable {
        public var start: UInt
        public var end: UInt
        /// `rwxp`-style: read, write, execute, private (`p`) or shared (`s`).
        public var permissions: Substring
        public var path: Substring
        /// `Rss:` in kB.
        public var residentKilobytes = 0
        /// `Anonymous:` in kB: pages written since they were mapped (copied out of the file), or never from a file.
        public var anonymousKilobytes = 0
        /// `Swap:` in kB: written pages that were swapped out (no longer counted in `Anonymous:`).
        public var swappedKilobytes = 0

        /// Parses a mapping's first line; nil for anything else (a field line, garbage).
        public init?(_ line: String) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[1].count == 4 else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start
            else { return nil }
            self.start = start
            self.end = end
            permissions = fields[1]
            path = fields.count == 6 ? fields[5].drop { $0 == " " }.prefix { $0 != "\n" } : ""
        }

        /// Takes in a field line (`Rss:   120 kB`) that follows the mapping's first line.
        public mutating func read(field line: String) {
            var line = line
            line.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { read(field: $0.baseAddress!, count: bytes.count) }
            }
        }

        /// Takes in a field line, a C string as getline(3) reads it.
        mutating func read(field line: UnsafePointer<CChar>, count: Int? = nil) {
            let length = count ?? strlen(line)
            if let kilobytes = Self.number(in: line, length: length, after: "Rss:") {
                residentKilobytes = kilobytes
            } else if let kilobytes = Self.number(in: line, length: length, after: "Anonymous:") {
                anonymousKilobytes = kilobytes
            } else if let kilobytes = Self.number(in: line, length: length, after: "Swap:") {
                swappedKilobytes = kilobytes
            }
        }

        /// The number after `name` and spaces in a line that begins with `name`; nil for another line.
        private static func number(in line: UnsafePointer<CChar>, length: Int, after name: StaticString) -> Int? {
            let nameLength = name.utf8CodeUnitCount
            guard length > nameLength, memcmp(line, name.utf8Start, nameLength) == 0 else { return nil }
            var index = nameLength
            while index < length, line[index] == 0x20 { index += 1 }
            let digits = index
            var number = 0
            while index < length, line[index] >= 0x30, line[index] <= 0x39, number < Int.max / 10 - 9 {
                number = number * 10 + Int(line[index] - 0x30)
                index += 1
            }
            return index > digits ? number : nil
        }

        /// A private (copy-on-write) mapping of a file: code, read-only data, the data segments.
        public var isPrivateFile: Bool { path.hasPrefix("/") && permissions.last == "p" }
        public var isReadable: Bool { permissions.first == "r" }
        /// Not writable and without a written page, in memory or swapped out: every page is the file's, so
        /// unmapping one loses nothing.
        public var isNeverWritten: Bool {
            permissions.dropFirst().first == "-" && anonymousKilobytes == 0 && swappedKilobytes == 0
        }
    }
}
