/// The result of `begin`: this connection's count after the call and the state.
public struct BeginResult: Sendable, Hashable, Codable {
    public var count: Int
    public var state: OrientationState

    /// A result from its parts.
    public init(count: Int, state: OrientationState) {
        self.count = count
        self.state = state
    }
}

extension BeginResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("count", count)
            json.member("state", state)
        }
    }
}
