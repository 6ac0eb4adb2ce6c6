import OrientationCore

/// The identities handed to clients: one counter shared by the control socket's connections and the bus clients.
struct ClientIDs {
    private var last: UInt64 = 0

    /// A new identity, never handed out before.
    mutating func next() -> ClientID {
        last += 1
        return ClientID(last)
    }
}
