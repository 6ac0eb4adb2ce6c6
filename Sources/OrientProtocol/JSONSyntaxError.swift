/// Why a line is not JSON, and the byte offset where that showed.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// The byte offset in the line.
    public var offset: Int

    public var description: String { "\(reason) (at byte \(offset))" }
}
