/// Every mistake found in the configuration files, in the order they were read.
public struct ConfigurationErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The mistakes; never empty.
    public var errors: [ConfigurationError]

    /// The mistakes found.
    public init(_ errors: [ConfigurationError]) {
        self.errors = errors
    }

    /// One line per mistake.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
