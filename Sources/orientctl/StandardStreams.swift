#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Lines written straight to the standard streams with write(2), so that each line is out at once
/// (`watch` piped into a script) and no C `stdout` global is needed.
enum StandardStreams {
    /// Writes `text` and a newline to standard output.
    static func output(_ text: String) {
        write(Array(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes JSON text as it came and a newline to standard output.
    static func output(json: some Collection<UInt8>) {
        write(Array(json), to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        write(Array(text.utf8), to: STDERR_FILENO)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        let line = bytes.last == UInt8(ascii: "\n") ? bytes : bytes + [UInt8(ascii: "\n")]
        var offset = 0
        while offset < line.count {
            let written = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // The reader went away: nothing more to say.
            }
            offset += written
        }
    }
}
