import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A connected `AF_UNIX` stream socket: owns the descriptor and closes it exactly once, so that a write
/// racing a close never reaches a descriptor number the process has reused meanwhile.
final class UnixSocket: Sendable {
    /// The descriptor, for the read source; valid until ``close()``.
    let descriptor: Int32
    private let isClosed = Mutex(false)

    /// Connects to `path`.
    /// - Throws: the errno of socket(2) or connect(2); `ENAMETOOLONG` for a path that does not fit `sun_path`.
    init(connectingTo path: String) throws(SystemError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path), !pathBytes.contains(0) else {
            throw SystemError(ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }

        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError(errno) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = SystemError(errno)
            Glibc.close(descriptor)
            throw error
        }
        // Non-blocking for reading until EAGAIN (a read source reports readiness, not how much).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// Writes all of `bytes` with send(2), without SIGPIPE, retrying `EINTR`.
    /// - Throws: the errno of send(2); `EBADF` once closed.
    func send(_ bytes: some Collection<UInt8>) throws(SystemError) {
        try isClosed.withLock { closed throws(SystemError) in
            guard !closed else { throw SystemError(EBADF) }
            let array = Array(bytes)
            var offset = 0
            while offset < array.count {
                let sent = array.withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 {
                    switch errno {
                    case EINTR:
                        continue
                    case EAGAIN, EWOULDBLOCK:
                        // The daemon reads slowly: wait until it has room (it bounds its own queue, not ours).
                        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&entry, 1, -1)
                        continue
                    default:
                        throw SystemError(errno)
                    }
                }
                offset += sent
            }
        }
    }

    /// Reads what is available with read(2) into `buffer`: the byte count, 0 at the end of the stream.
    /// - Throws: the errno of read(2), `EAGAIN` when nothing is left to read.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        guard count >= 0 else { throw SystemError(errno) }
        return count
    }

    /// Closes the descriptor (once).
    func close() {
        isClosed.withLock { closed in
            guard !closed else { return }
            closed = true
            Glibc.close(descriptor)
        }
    }
}

/// An errno value from a system call.
struct SystemError: Error, Hashable {
    var errno: Int32

    init(_ errno: Int32) {
        self.errno = errno
    }
}
