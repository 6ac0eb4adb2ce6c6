/// `end` from a client whose count is already 0.
public struct NotGeneratingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client that called `end`.
    public var client: ClientID

    public var description: String { "not generating: end without a matching begin" }
}
