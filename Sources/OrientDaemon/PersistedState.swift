import OrientProtocol
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
    /// interface orientation wire names (in any order). Other keys are ignored.
    init(fileContents: [UInt8]) throws(PersistedStateFormatError) {
        guard let file = try? JSONValue.parse(fileContents) else {
            throw PersistedStateFormatError(reason: "not valid JSON")
        }
        guard case .object(let members) = file else { throw PersistedStateFormatError(reason: "not a JSON object") }
        // The version first: a later format may give `lock` another shape, and that must read as "wrong version".
        switch members["version"] {
        case nil:
            throw PersistedStateFormatError(reason: "no 'version' key")
        case .null?:
            throw PersistedStateFormatError(reason: "'version' is null")
        case .integer(let version)? where version != Int64(Self.formatVersion):
            throw PersistedStateFormatError(
                reason: "unsupported version \(version); this daemon reads version \(Self.formatVersion)"
            )
        case .integer?:
            break
        case _?:
            throw PersistedStateFormatError(reason: "'version' has the wrong type")
        }
        let names: [JSONValue]
        switch members["lock"] {
        case nil:
            // A file without `lock` was not written by the daemon.
            throw PersistedStateFormatError(reason: "no 'lock' key")
        case .null?:
            self.init(lock: nil)
            return
        case .array(let items)?:
            names = items
        case _?:
            throw PersistedStateFormatError(reason: "'lock' has the wrong type")
        }
        guard !names.isEmpty else {
            throw PersistedStateFormatError(reason: "the lock is an empty list; unlocked is written as null")
        }
        var mask: InterfaceOrientationMask = []
        for item in names {
            guard case .string(let name) = item else {
                throw PersistedStateFormatError(reason: "'lock' holds \(item.typeName), not an orientation name")
            }
            guard let orientation = InterfaceOrientation(wireName: name), orientation != .unknown else {
                throw PersistedStateFormatError(reason: "unknown orientation '\(name)' in the lock")
            }
            mask.insert(InterfaceOrientationMask(orientation))
        }
        self.init(lock: mask)
    }
}

/// Why the bytes of a state file are not a state.
struct PersistedStateFormatError: Error, CustomStringConvertible {
    /// What is wrong, in words, for the log.
    var reason: String

    var description: String { reason }
}
