/// Reads the trace format of CLASSIFIER.md one line at a time.
///
/// ```
/// # orientd-trace 1
/// # rate_hz=25
/// t,x,y,z
/// 0.000000,0.1200,-9.7900,0.3000
/// ```
/// Lines starting with `#` are comments (the version and rate lines are read from them); the
/// `t,x,y,z` header may come before the data; blank lines are skipped. A malformed line is an
/// error that names its line number.
public struct TraceReader: Sendable {
    /// The trace format version this reader understands.
    public static let version = 1

    /// The number of the last line read, counting from 1.
    public private(set) var lineNumber = 0
    /// The rate from a `# rate_hz=` comment, if the trace has one.
    public private(set) var rateHz: Double?
    private var sawData = false

    /// A reader at the start of a trace.
    public init() {}

    /// Reads the next line (without its newline).
    /// - Returns: the sample on the line, or nil for a comment, header or blank line.
    /// - Throws: ``TraceError`` naming the line when it is malformed.
    public mutating func read(line rawLine: some StringProtocol) throws(TraceError) -> Sample? {
        lineNumber += 1
        let line = rawLine.trimmingWhitespace()
        if line.isEmpty { return nil }
        if line.hasPrefix("#") {
            try readComment(line)
            return nil
        }
        if line.lowercased().filter({ $0 != " " }) == "t,x,y,z" {
            guard !sawData else { throw error("the header 't,x,y,z' comes after data") }
            return nil
        }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 4 else {
            throw error(
                "expected 4 comma-separated numbers (t,x,y,z), found \(fields.count) field\(fields.count == 1 ? "" : "s")"
            )
        }
        var values: (Double, Double, Double, Double) = (0, 0, 0, 0)
        for (index, field) in fields.enumerated() {
            let text = field.trimmingWhitespace()
            guard let value = Self.finiteNumber(text) else {
                let name = ["t", "x", "y", "z"][index]
                throw error("\(name) '\(text)' is not a finite number (the decimal point is '.')")
            }
            switch index {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: values.3 = value
            }
        }
        sawData = true
        return Sample(time: values.0, x: values.1, y: values.2, z: values.3)
    }

    private mutating func readComment(_ line: String) throws(TraceError) {
        let body = line.dropFirst().trimmingWhitespace()
        if body.hasPrefix("orientd-trace") {
            let versionText = body.dropFirst("orientd-trace".count).trimmingWhitespace()
            guard let version = Int(versionText) else { throw error("unreadable trace version '\(versionText)'") }
            guard version == Self.version else {
                throw error("trace version \(version) is not supported; this orientd reads version \(Self.version)")
            }
        } else if body.hasPrefix("rate_hz=") {
            let text = body.dropFirst("rate_hz=".count).trimmingWhitespace()
            guard let rate = Self.finiteNumber(text), rate > 0 else {
                throw error("rate_hz '\(text)' is not a positive number")
            }
            rateHz = rate
        }
    }

    /// The finite number `text` spells, or nil.
    ///
    /// `Double(_:)` reads a C string, so it would stop at a NUL byte and take `0<NUL>junk` for 0:
    /// text with a NUL is no number.
    private static func finiteNumber(_ text: String) -> Double? {
        guard !text.utf8.contains(0), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private func error(_ message: String) -> TraceError {
        TraceError(line: lineNumber, message: message)
    }
}

/// A malformed line in a trace.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, counting from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String

    public var description: String { "line \(line): \(message)" }
}
