//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import OrientdTestKit

/// The protocol torture corpus, `Tests/Corpus/protocol-torture.json`: the lines the torture test sends, and the mix
/// it draws them from. A line added to the file is sent by the test.
struct TortureCorpus: Decodable {
    /// One kind of line and its share of the lines drawn.
    struct Share: Decodable {
        var kind: String
        var percent: Double
    }
    /// A well-formed request that is wrong: the error code it gets, and whether its id is echoed.
    struct WrongRequest: Decodable {
        var line: String
        var code: String
        var echoesID: Bool
    }
    /// Lines that are not JSON, or not a JSON object, and lines of that many nested arrays.
    struct NotJSON: Decodable {
        var code: String
        var lines: [String]
        var nestedArrays: [Int]
    }
    /// Random bytes after a first byte that keeps them from being a JSON object.
    struct RandomBytes: Decodable {
        var code: String
        var first: String
        var maxLength: Int
    }
    /// Read-only requests with a few bytes changed, added or removed.
    struct Mangled: Decodable {
        var changes: [Int]
        var lines: [String]
    }
    /// A request whose params nest `depths` levels deep, at `NESTED`.
    struct Nested: Decodable {
        var line: String
        var code: String
        var depths: [Int]
    }
    /// A request with an odd number, at `NUMBER`.
    struct OddNumbers: Decodable {
        var line: String
        var code: String
        var numbers: [String]
    }

    var mix: [Share]
    var wrongRequests: [WrongRequest]
    var notJSON: NotJSON
    var goodRequests: [String]
    var randomBytes: RandomBytes
    var mangledRequests: Mangled
    var duplicateKeys: [String]
    var nestedParams: Nested
    var oddNumbers: OddNumbers

    /// The corpus file, found from this source file's place in the repository.
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Corpus/protocol-torture.json").standardized.path

    /// Reads the corpus; an error names the file and what is wrong with it.
    static func load() throws -> TortureCorpus {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let corpus = try JSONDecoder().decode(TortureCorpus.self, from: data)
        guard corpus.mix.map(\.percent).reduce(0, +) == 100 else {
            throw CorpusError(description: "\(path): the mix does not add up to 100 %")
        }
        return corpus
    }

    /// A corpus line's bytes: each character stands for one byte (Latin-1), so that invalid UTF-8 can be written.
    static func bytes(_ text: String) throws -> [UInt8] {
        try text.unicodeScalars.map { scalar in
            guard scalar.value <= 0xFF else {
                throw CorpusError(description: "\(path): U+\(String(scalar.value, radix: 16)) is not a byte")
            }
            return UInt8(scalar.value)
        }
    }
}

/// A corpus file that cannot be used.
struct CorpusError: Error, CustomStringConvertible {
    var description: String
}

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

    /// A random line of `corpus` with id `id`, of a kind drawn by the corpus's mix: wrong requests, lines that are
    /// not JSON, good ones, random bytes, good ones with a byte or two changed, duplicate keys, deep nesting, odd
    /// numbers.
    static func random(id: Int, from corpus: TortureCorpus, using rng: inout SeededGenerator) throws -> TortureLine {
        func fill(_ template: String) throws -> [UInt8] {
            try TortureCorpus.bytes(template.replacingOccurrences(of: "ID", with: "\(id)"))
        }
        func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
        let anyByteButNewline = { (rng: inout SeededGenerator) -> UInt8 in
            let byte = UInt8.random(in: 0...254, using: &rng)
            return byte >= 10 ? byte + 1 : byte
        }
        let ownID = DaemonJSON.integer(Int64(id))
        var draw = Double.random(in: 0..<100, using: &rng)
        var kind = corpus.mix[corpus.mix.count - 1].kind
        for share in corpus.mix {
            if draw < share.percent {
                kind = share.kind
                break
            }
            draw -= share.percent
        }
        switch kind {
        case "wrongRequests":
            let request = pick(corpus.wrongRequests)
            return TortureLine(
                bytes: try fill(request.line),
                expectation: .error(request.code, id: request.echoesID ? ownID : .null)
            )
        case "notJSON":
            let lines = try corpus.notJSON.lines.map(TortureCorpus.bytes)
            let nested = corpus.notJSON.nestedArrays.map {
                Array(repeating: UInt8(ascii: "["), count: $0) + Array(repeating: UInt8(ascii: "]"), count: $0)
            }
            return TortureLine(bytes: pick(lines + nested), expectation: .error(corpus.notJSON.code, id: .null))
        case "goodRequests":
            let template = pick(corpus.goodRequests)
            let expected: DaemonJSON = template.contains("\"sID\"") ? .string("s\(id)") : ownID
            return TortureLine(bytes: try fill(template), expectation: .result(id: expected))
        case "randomBytes":
            // Bytes that cannot be a JSON object: the first one is not `{`.
            let part = corpus.randomBytes
            let count = Int.random(in: 0...part.maxLength, using: &rng)
            let bytes = try TortureCorpus.bytes(part.first) + (0..<count).map { _ in anyByteButNewline(&rng) }
            return TortureLine(bytes: bytes, expectation: .error(part.code, id: .null))
        case "mangledRequests":
            // A read-only request mangled: whatever it has become, it is answered (it cannot become a change).
            let part = corpus.mangledRequests
            var bytes = try fill(pick(part.lines))
            for _ in 0..<Int.random(in: part.changes[0]...part.changes[1], using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = anyByteButNewline(&rng)
                case 1: bytes.insert(anyByteButNewline(&rng), at: at)
                default: if bytes.count > 1 { bytes.remove(at: at) }
                }
            }
            return TortureLine(bytes: bytes, expectation: .anyReply)
        case "duplicateKeys":
            return TortureLine(bytes: try fill(pick(corpus.duplicateKeys)), expectation: .replyWithID([ownID, .null]))
        case "nestedParams":
            let part = corpus.nestedParams
            let depth = pick(part.depths)
            let inner =
                Bool.random(using: &rng)
                ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                : String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
            return TortureLine(
                bytes: try fill(part.line.replacingOccurrences(of: "NESTED", with: inner)),
                expectation: .error(part.code, id: ownID)
            )
        case "oddNumbers":
            let part = corpus.oddNumbers
            return TortureLine(
                bytes: try fill(part.line.replacingOccurrences(of: "NUMBER", with: pick(part.numbers))),
                expectation: .error(part.code, id: ownID)
            )
        default:
            throw CorpusError(description: "\(TortureCorpus.path): no such kind of line: \(kind)")
        }
    }
}
