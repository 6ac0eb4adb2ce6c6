/// One scan's raw channel values, before scale and mount matrix.
public struct RawScan: Sendable, Hashable {
    /// The raw x value.
    public var x: Int64
    /// The raw y value.
    public var y: Int64
    /// The raw z value.
    public var z: Int64
    /// The timestamp in nanoseconds on the buffer's clock, when the scan carries one.
    public var timestamp: Int64?

    /// A scan from its values.
    @inlinable
    public init(x: Int64, y: Int64, z: Int64, timestamp: Int64? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.timestamp = timestamp
    }
}
