#if canImport(Glibc)
import Glibc
#endif

/// A failed socket call: the call, the path or fd it was about, and errno.
struct SocketError: Error, CustomStringConvertible {
    var operation: String
    var subject: String
    var errorNumber: Int32

    var description: String {
        "\(operation)(\(subject)): \(String(cString: strerror(errorNumber)))"
    }
}

/// Thin wrappers over the socket calls the server makes, retrying EINTR.
enum SocketCalls {
    /// A listening Unix stream socket at `path` (non-blocking, close-on-exec, mode 0666: who may
    /// do what is decided per request from the peer's credentials). A stale socket file left by a
    /// crash is replaced; one another daemon is listening on is an error.
    static func listen(at path: String, backlog: Int32 = 64) throws(SocketError) -> Int32 {
        var address = sockaddr_un()
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SocketError(operation: "bind", subject: path, errorNumber: ENAMETOOLONG)
        }
        if isListening(at: path) {
            throw SocketError(
                operation: "bind",
                subject: path + " (another orientd is listening there)",
                errorNumber: EADDRINUSE
            )
        }
        unlink(path)
        let fd = socket(
            AF_UNIX,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard fd >= 0 else { throw SocketError(operation: "socket", subject: "AF_UNIX", errorNumber: errno) }
        fill(&address, path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw SocketError(operation: "bind", subject: path, errorNumber: error)
        }
        chmod(path, 0o666)
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = errno
            close(fd)
            unlink(path)
            throw SocketError(operation: "listen", subject: path, errorNumber: error)
        }
        return fd
    }

    /// Whether a daemon answers at `path`.
    static func isListening(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        fill(&address, path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    private static func fill(_ address: inout sockaddr_un, _ path: String) {
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
    }

    /// Accepts one connection, non-blocking and close-on-exec; nil when none is waiting.
    static func acceptConnection(_ listener: Int32) throws(SocketError) -> Int32? {
        while true {
            // accept4 is not in Swift's Glibc module: accept, then make it non-blocking and close-on-exec.
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return fd
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN: return nil
            default: throw SocketError(operation: "accept", subject: "fd \(listener)", errorNumber: errno)
            }
        }
    }
}
