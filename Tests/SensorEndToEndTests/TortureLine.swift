import Foundation

/// One random request line of the protocol torture, and what the daemon must answer to it (PROTOCOL.md).
struct TortureLine: CustomStringConvertible {
    /// What the reply must be.
    enum Expectation {
        /// An error with this code and this id (`.null` when the line's id cannot be echoed).
        case error(String, id: DaemonJSON)
        /// A result with this id.
        case result(id: DaemonJSON)
        /// Some reply, result or error (a mangled line whose meaning is not known in advance).
        case anyReply
        /// A reply with one of these ids (duplicate keys: rejected or the last value taken).
        case replyWithID([DaemonJSON])
    }

    /// The line's bytes, without its newline.
    var bytes: [UInt8]
    var expectation: Expectation

    var description: String { String(decoding: bytes.prefix(160), as: UTF8.self) }

    /// Whether `reply` is what the line must get.
    func accepts(_ reply: DaemonMessage) -> Bool {
        guard reply.isReply, !reply.isEvent, reply.json.has("result") != reply.json.has("error") else { return false }
        switch expectation {
        case .error(let code, let id):
            return reply.errorCode == code && reply.id == id
                && reply.json["error"]?["message"]?.string?.isEmpty == false
        case .result(let id):
            return reply.errorCode == nil && reply.id == id
        case .anyReply:
            return true
        case .replyWithID(let ids):
            return ids.contains(reply.id ?? .null)
        }
    }

    /// Well-formed requests that are wrong, with `ID` for the id: the code, and whether the id is echoed.
    static let wrongRequests: [(String, String, Bool)] = [
        (#"{"id": ID, "method": "fly"}"#, "invalid-request", true),
        (#"{"id": ID}"#, "invalid-request", true),
        (#"{"id": ID, "method": 7}"#, "invalid-request", true),
        (#"{"id": ID, "method": null}"#, "invalid-request", true),
        (#"{"id": ID, "method": ["get"]}"#, "invalid-request", true),
        (#"{"id": ID, "method": "get", "params": {"now": true}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "get", "params": [1]}"#, "invalid-request", true),
        (#"{"id": ID, "method": "status", "params": "all"}"#, "invalid-request", true),
        (#"{"id": ID, "method": "get", "extra": 1}"#, "invalid-request", true),
        (#"{"id": ID, "method": "hello", "params": {"x": null}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "lock", "params": {"orientation": 5}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "lock", "params": {"orientation": null}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "lock", "params": {"orientation": 1e308}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "lock", "params": {"mask": null}}"#, "invalid-request", true),
        (
            #"{"id": ID, "method": "lock", "params": {"orientation": "portrait", "mask": "all"}}"#, "invalid-request",
            true
        ),
        (#"{"id": ID, "method": "lock", "params": {"orientation": "sideways"}}"#, "invalid-orientation", true),
        (#"{"id": ID, "method": "lock", "params": {"orientation": "unknown"}}"#, "invalid-orientation", true),
        (#"{"id": ID, "method": "lock", "params": {"mask": "diagonal"}}"#, "invalid-orientation", true),
        (#"{"id": ID, "method": "lock", "params": {"mask": []}}"#, "empty-mask", true),
        (#"{"id": ID, "method": "constrain", "params": {}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "constrain", "params": {"mask": 3}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "constrain", "params": {"mask": [1]}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "constrain", "params": {"mask": {"a": 1}}}"#, "invalid-request", true),
        (#"{"id": ID, "method": "constrain", "params": {"mask": ["portrait", "up"]}}"#, "invalid-orientation", true),
        (#"{"id": ID, "method": "constrain", "params": {"mask": []}}"#, "empty-mask", true),
        (#"{"id": ID, "method": "end"}"#, "not-generating", true),
        (#"{"id": [ID], "method": "get"}"#, "invalid-request", false),
        (#"{"id": {"n": ID}, "method": "get"}"#, "invalid-request", false),
        (#"{"id": ID.5, "method": "get"}"#, "invalid-request", false),
        (#"{"id": true, "method": "get", "n": ID}"#, "invalid-request", false),
        (#"{"id": 1ID000000000000000000000, "method": "get"}"#, "invalid-request", false),
        (#"{"id": -IDe300, "method": "get"}"#, "invalid-request", false),
    ]

    /// Lines that are not JSON, or not a JSON object: `parse-error` with id null. Invalid UTF-8 among them.
    static let notJSON: [[UInt8]] = [
        Array("not json".utf8), Array("[1, 2]".utf8), Array(#""get""#.utf8), Array("42".utf8), Array("null".utf8),
        [], Array("{".utf8), Array(#"{"id": 1, "method": "get""#.utf8), Array(#"{"id": 1,, "method": "get"}"#.utf8),
        Array("{'id': 1}".utf8), Array(#"{"id": 1 "method": "get"}"#.utf8),
        Array(#"{"id": 1, "method": "get"} {"id": 2}"#.utf8),
        Array(#"{"id": 1, "method": "get"#.utf8) + [0xFF] + Array(#""}"#.utf8),
        Array(#"{"id": 1, "method": "g"#.utf8) + [0xC0, 0xAF] + Array(#"et"}"#.utf8),
        [0xC3, 0x28, 0xA0, 0xA1], [0xEF, 0xBB, 0xBF] + Array("{}".utf8), [0, 0, 0],
        Array(repeating: UInt8(ascii: "["), count: 2000) + Array(repeating: UInt8(ascii: "]"), count: 2000),
    ]

    /// Good requests that change nothing, with `ID` (and `"sID"` for a string id).
    static let goodRequests = [
        #"{"id": ID, "method": "get"}"#, #"{"id": ID, "method": "hello"}"#, #"{"id": ID, "method": "status"}"#,
        #"{"id": "sID", "method": "get", "params": null}"#, #"{"id": ID, "method": "get", "params": {}}"#,
        #"{ "method" : "hello" , "id" : ID }"#, #"{"id": ID, "method": "constrain", "params": {"mask": null}}"#,
    ]

    /// A random line with id `id`: wrong requests, lines that are not JSON, good ones, random bytes, good ones with
    /// a byte or two changed, duplicate keys, deep nesting, huge numbers.
    static func random(id: Int, using rng: inout SeededGenerator) -> TortureLine {
        func fill(_ template: String) -> [UInt8] { Array(template.replacingOccurrences(of: "ID", with: "\(id)").utf8) }
        let anyByteButNewline = { (rng: inout SeededGenerator) -> UInt8 in
            let byte = UInt8.random(in: 0...254, using: &rng)
            return byte >= 10 ? byte + 1 : byte
        }
        let kind = Double.random(in: 0..<1, using: &rng)
        switch kind {
        case ..<0.35:
            let (template, code, echoed) = wrongRequests.randomElement(using: &rng)!
            return TortureLine(
                bytes: fill(template),
                expectation: .error(code, id: echoed ? .integer(Int64(id)) : .null)
            )
        case ..<0.45:
            return TortureLine(
                bytes: notJSON.randomElement(using: &rng)!,
                expectation: .error("parse-error", id: .null)
            )
        case ..<0.60:
            let template = goodRequests.randomElement(using: &rng)!
            let expected: DaemonJSON = template.contains("\"sID\"") ? .string("s\(id)") : .integer(Int64(id))
            return TortureLine(bytes: fill(template), expectation: .result(id: expected))
        case ..<0.70:
            // Random bytes that cannot be a JSON object: none starts with `{` after whitespace, so `}` goes first.
            let bytes =
                [UInt8(ascii: "}")] + (0..<Int.random(in: 0...300, using: &rng)).map { _ in anyByteButNewline(&rng) }
            return TortureLine(bytes: bytes, expectation: .error("parse-error", id: .null))
        case ..<0.85:
            // A read-only request mangled: whatever it has become, it is answered (it cannot become a change).
            var bytes = fill(goodRequests[Int.random(in: 0..<3, using: &rng)])
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = anyByteButNewline(&rng)
                case 1: bytes.insert(anyByteButNewline(&rng), at: at)
                default: if bytes.count > 1 { bytes.remove(at: at) }
                }
            }
            return TortureLine(bytes: bytes, expectation: .anyReply)
        case ..<0.90:
            return TortureLine(
                bytes: fill(#"{"id": ID, "method": "get", "method": "fly"}"#),
                expectation: .replyWithID([.integer(Int64(id)), .null])
            )
        case ..<0.95:
            let depth = [10, 100, 400].randomElement(using: &rng)!
            let inner =
                Bool.random(using: &rng)
                ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                : String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            return TortureLine(
                bytes: fill(#"{"id": ID, "method": "get", "params": {"deep": "#) + Array(inner.utf8) + Array("}}".utf8),
                expectation: .error("invalid-request", id: .integer(Int64(id)))
            )
        default:
            let number = [
                "1e400", "-1e400", "123456789012345678901234567890", "0.0000000000000000001", "-0", "1E+2",
                "9223372036854775808",
            ]
            .randomElement(using: &rng)!
            return TortureLine(
                bytes: fill(#"{"id": ID, "method": "lock", "params": {"orientation": \#(number)}}"#),
                expectation: .error("invalid-request", id: .integer(Int64(id)))
            )
        }
    }
}
