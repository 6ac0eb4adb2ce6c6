/// An event of PROTOCOL.md: `{"event": "device", "previous": "portrait", "state": {…}}`.
public struct OrientationEvent: Sendable, Hashable, Codable {
    /// The events, in the order one change sends them.
    public enum Name: String, Sendable, Hashable, Codable, CaseIterable {
        case sensor
        case allowed
        case device
        case interface
    }

    /// Which part of the state changed.
    public var name: Name
    /// The value before, for `device`, `interface` and `sensor`.
    public var previous: String?
    /// The whole state after the change.
    public var state: OrientationState

    /// An event from its parts.
    public init(name: Name, previous: String? = nil, state: OrientationState) {
        self.name = name
        self.previous = previous
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case name = "event"
        case previous
        case state
    }
}

extension OrientationEvent: JSONWritable {
    /// Writes the event as its `Encodable` conformance does, keys sorted.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("event", name.rawValue)
            json.memberIfPresent("previous", previous)
            json.member("state", state)
        }
    }
}
