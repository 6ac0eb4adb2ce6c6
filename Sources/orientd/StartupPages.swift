#if canImport(Glibc)
import Glibc
#endif

/// Gives back the code and read-only data that start-up touched and serving does not need.
///
/// Parsing the command line, reading the configuration, discovering the sensor and setting up the bus run once, but
/// their pages (and the kernel's fault-around neighbours) stay resident for the daemon's life: most of the static
/// binary's resident memory. Once the daemon is set up, every read-only file mapping is advised `MADV_PAGEOUT`
/// (Linux 5.4): pages only this process maps leave memory, pages other processes share stay; what serving uses is
/// read in again at its first use. Nothing writable is touched, so no state is lost.
enum StartupPages {
    /// `MADV_PAGEOUT` of `<linux/mman.h>`, which Glibc's headers may lack.
    private static let pageOut: Int32 = 21

    /// Advises every read-only, file-backed mapping of the process; the bytes advised (0 when the kernel cannot).
    @discardableResult
    static func release() -> Int {
        guard let maps = fopen("/proc/self/maps", "re") else { return 0 }
        defer { fclose(maps) }
        var advised = 0
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            guard let mapping = Mapping(String(cString: line)), mapping.isReadOnlyFile else { continue }
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
            let length = Int(mapping.end - mapping.start)
            if madvise(start, length, pageOut) == 0 {
                advised += length
            } else if errno == EINVAL {
                return advised  // A kernel without MADV_PAGEOUT.
            }
        }
        return advised
    }

    /// One line of `/proc/self/maps`: `start-end perms offset dev inode path`.
    struct Mapping {
        var start: UInt
        var end: UInt
        var permissions: Substring
        var path: Substring

        init?(_ line: String) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start
            else { return nil }
            self.start = start
            self.end = end
            permissions = fields[1]
            path = fields.count == 6 ? fields[5].drop { $0 == " " }.prefix { $0 != "\n" } : ""
        }

        /// A private mapping of a file that cannot be written: code, read-only data.
        var isReadOnlyFile: Bool {
            path.hasPrefix("/") && permissions.count == 4 && permissions.first == "r"
                && permissions.dropFirst().first == "-" && permissions.last == "p"
        }
    }
}
