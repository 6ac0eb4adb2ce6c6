/// A malformed line in a trace.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, counting from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String

    public var description: String { "line \(line): \(message)" }
}
