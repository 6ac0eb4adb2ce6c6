import FoundationEssentials
public import OrientationCore

/// What the daemon keeps across restarts and reboots: the lock.
///
/// Saved by ``StateStore`` as `{"version": 1, "lock": ["landscape-left", "landscape-right"]}` or
/// `{"version": 1, "lock": null}`, the lock as wire names in the mask's listing order.
public struct PersistedState: Sendable, Hashable {
    /// The locked interface orientations; nil when unlocked. An empty mask is stored as nil: no lock allows nothing.
    public var lock: InterfaceOrientationMask? {
        didSet { if lock?.isEmpty == true { lock = nil } }
    }

    /// A state with the given lock (unlocked by default); an empty mask means unlocked.
    public init(lock: InterfaceOrientationMask? = nil) {
        self.lock = lock?.isEmpty == true ? nil : lock
    }

    /// The state of a fresh install, and of a lost or corrupt file: unlocked.
    public static let defaults = PersistedState()
}

extension PersistedState {
    /// The version of the file format written, and the only one read.
    static let formatVersion = 1

    /// The file's bytes: one line of JSON, keys in a fixed order so that the file reads well and diffs cleanly.
    var fileContents: [UInt8] {
        // Wire names are fixed ASCII words, so writing the JSON by hand needs no escaping.
        let lock = lock.map { "[" + $0.wireNames.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } ?? "null"
        return Array("{\"version\": \(Self.formatVersion), \"lock\": \(lock)}\n".utf8)
    }

    /// Reads a file's bytes strictly: the version must be 1, `lock` present, null or a non-empty list of
    /// interface orientation wire names (in any order).
    init(fileContents: [UInt8]) throws(PersistedStateFormatError) {
        let file: StateFile
        do {
            file = try JSONDecoder().decode(StateFile.self, from: Data(fileContents))
        } catch let error as PersistedStateFormatError {
            throw error
        } catch let error as DecodingError {
            throw PersistedStateFormatError(error)
        } catch {
            throw .unreadable(error)
        }
        guard let names = file.lock else {
            self.init(lock: nil)
            return
        }
        guard !names.isEmpty else {
            throw .emptyLock
        }
        var mask: InterfaceOrientationMask = []
        for name in names {
            guard let orientation = InterfaceOrientation(wireName: name), orientation != .unknown else {
                throw .unknownOrientation(name)
            }
            mask.insert(InterfaceOrientationMask(orientation))
        }
        self.init(lock: mask)
    }
}

/// Why the bytes of a state file are not a state.
struct PersistedStateFormatError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case notJSON
        case notAnObject
        case unreadable(String)
        case missingKey(String)
        case malformed(path: String)
        case wrongType(path: String)
        case null(path: String)
        case unsupportedVersion(Int)
        case emptyLock
        case unknownOrientation(String)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// JSON could not read the bytes for a reason its errors do not name.
    static func unreadable(_ error: any Error) -> Self { Self(.unreadable("\(error)")) }
    /// A version this daemon does not read.
    static func unsupportedVersion(_ version: Int) -> Self { Self(.unsupportedVersion(version)) }
    /// `"lock": []`: unlocked is written as null.
    static let emptyLock = Self(.emptyLock)
    /// A name in the lock that is no interface orientation.
    static func unknownOrientation(_ name: String) -> Self { Self(.unknownOrientation(name)) }

    /// What JSON decoding found wrong.
    init(_ error: DecodingError) {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            code = .notJSON
        case .dataCorrupted(let context):
            code = .malformed(path: path(context))
        case .keyNotFound(let key, _):
            code = .missingKey(key.stringValue)
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            code = .notAnObject
        case .typeMismatch(_, let context):
            code = .wrongType(path: path(context))
        case .valueNotFound(_, let context):
            code = .null(path: path(context))
        @unknown default:
            code = .unreadable("\(error)")
        }
    }

    /// What is wrong, in words, for the log.
    var reason: String { description }

    var description: String {
        switch code {
        case .notJSON: "not valid JSON"
        case .notAnObject: "not a JSON object"
        case .unreadable(let detail): "not readable as JSON (\(detail))"
        case .missingKey(let key): "no '\(key)' key"
        case .malformed(let path): "'\(path)' is malformed"
        case .wrongType(let path): "'\(path)' has the wrong type"
        case .null(let path): "'\(path)' is null"
        case .unsupportedVersion(let version):
            "unsupported version \(version); this daemon reads version \(PersistedState.formatVersion)"
        case .emptyLock: "the lock is an empty list; unlocked is written as null"
        case .unknownOrientation(let name): "unknown orientation '\(name)' in the lock"
        }
    }
}

/// The file as JSON sees it, before the names are checked.
private struct StateFile: Decodable {
    var lock: [String]?

    private enum CodingKeys: String, CodingKey {
        case version
        case lock
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // The version first: a later format may give `lock` another shape, and that must read as "wrong version".
        let version = try container.decode(Int.self, forKey: .version)
        guard version == PersistedState.formatVersion else {
            throw PersistedStateFormatError.unsupportedVersion(version)
        }
        // `decode` of an optional requires the key: a file without `lock` was not written by the daemon.
        lock = try container.decode([String]?.self, forKey: .lock)
    }
}
