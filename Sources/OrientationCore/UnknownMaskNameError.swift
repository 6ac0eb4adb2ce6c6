/// A mask or orientation name that is not one of those of ORIENTATION.md.
public struct UnknownMaskNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as written.
    public var name: String

    public var description: String {
        let known = InterfaceOrientationMask.namedMasks.map(\.name).joined(separator: ", ")
        return "unknown orientation or mask '\(name)'; expected one of \(known), or a list of them"
    }
}
