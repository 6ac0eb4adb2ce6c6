/// A sensor's status: what the sensor itself reports, and what PROTOCOL.md's `sensor` field says.
public enum SensorState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Capturing: someone is generating.
    case active
    /// Nobody is generating.
    case stopped
    /// No display accelerometer.
    case absent
    /// The last error is in `status`.
    case failed
}
