import SystemSupport

/// A failed socket call: the call, the path or fd it was about, and errno.
struct SocketError: Error, CustomStringConvertible {
    var operation: String
    var subject: String
    var errno: Errno

    var description: String {
        "\(operation)(\(subject)): \(errno)"
    }
}
