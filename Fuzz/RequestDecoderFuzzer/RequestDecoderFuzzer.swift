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

import OrientProtocol
import OrientationCore

/// libFuzzer's entry. The input is what a client writes to the control socket. It goes the
/// daemon's way: appended to a `LineFramer` in reads of varying sizes, every complete line
/// decoded by `RequestDecoder`, every refusal encoded as the error reply. Properties checked:
/// - the framer hands out exactly the lines a plain model of PROTOCOL.md's framing finds
///   (at most 4096 bytes before the newline, a trailing `\r` dropped), and `tooLong` exactly when
///   the model does;
/// - a refusal carries one of the decoder's four codes and a message, and its reply is one JSON
///   line echoing the id; an id is only echoed when the line was an object carrying it;
/// - an accepted request has only the fields and values PROTOCOL.md allows, reads back the same
///   from the line a client writes for it, and its id survives a reply.
@_cdecl("LLVMFuzzerTestOneInput")
public func requestDecoderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var framer = LineFramer(limit: 4096)
    var model = FramingModel(limit: 4096, bytes: bytes)
    // Read sizes vary with the input, as a socket's reads would.
    var state = UInt64(size) &* 0x9E37_79B9_7F4A_7C15 | 1
    var offset = 0
    reading: while offset < size {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let count = min(size - offset, 1 + Int(state >> 33) % 700)
        let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
        offset += count
        framer.append(chunk)
        model.received += count
        while true {
            let next = framer.nextLine()
            let expected = model.nextLine()
            check(next == expected, "the framer gave \(next), the model \(expected)")
            check(
                framer.pendingCount == model.pendingCount,
                "\(framer.pendingCount) bytes pending, not \(model.pendingCount)"
            )
            switch next {
            case .line(let line): checkLine(line)
            case .tooLong: break reading
            case .incomplete: continue reading
            }
        }
    }
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("RequestDecoderFuzzer: \(message())") }
}

/// PROTOCOL.md's framing, written plainly over the whole input: the bytes before a newline make a
/// line (a `\r` before the newline dropped) unless more than `limit` of them come before it, and
/// more than `limit` bytes received without a newline are too long.
private struct FramingModel {
    let limit: Int
    let bytes: UnsafeRawBufferPointer
    /// Where every newline of the input is.
    let newlines: [Int]
    /// How many bytes were appended, and how many of them were handed out as lines.
    var received = 0
    var consumed = 0
    /// The first of `newlines` not handed out yet.
    var nextNewline = 0

    init(limit: Int, bytes: UnsafeRawBufferPointer) {
        self.limit = limit
        self.bytes = bytes
        newlines = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
    }

    var pendingCount: Int { received - consumed }

    mutating func nextLine() -> LineFramer.Next {
        guard nextNewline < newlines.count, newlines[nextNewline] < received else {
            return received - consumed > limit ? .tooLong : .incomplete
        }
        let newline = newlines[nextNewline]
        guard newline - consumed <= limit else { return .tooLong }
        var line = Array(bytes[consumed..<newline])
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        consumed = newline + 1
        nextNewline += 1
        return .line(line)
    }
}

private func checkLine(_ line: [UInt8]) {
    let outcome = RequestDecoder.decode(line)
    check(RequestDecoder.decode(line) == outcome, "decoding \(line) twice differs")
    let parsed = try? JSONValue.parse(line)
    switch outcome {
    case .failure(let id, let error):
        let codes: [ProtocolError.Code] = [.parseError, .invalidRequest, .invalidOrientation, .emptyMask]
        check(codes.contains(error.code), "the decoder answered \(error.code)")
        check(!error.message.isEmpty, "\(error.code) without a message")
        if let id {
            guard case .object(let object)? = parsed else {
                fatalError("RequestDecoderFuzzer: echoed \(id) from a non-object")
            }
            check(object["id"] == idValue(id), "echoed \(id) for \(String(describing: object["id"]))")
        }
        if error.code == .parseError { check(id == nil, "a parse error echoes \(String(describing: id))") }
        checkReply(MessageEncoder.error(id: id, error), id: id, code: error.code)
    case .request(let request):
        guard case .object(let object)? = parsed else { fatalError("RequestDecoderFuzzer: accepted a non-object") }
        check(object.keys.allSatisfy { ["id", "method", "params"].contains($0) }, "accepted fields \(object.keys)")
        check(object["method"] == .string(request.method.rawValue), "method \(request.method) from \(object)")
        check(object["id"] ?? .null == request.id.map(idValue) ?? .null, "id \(String(describing: request.id))")
        switch request.parameters {
        case .none:
            check(![.lock, .constrain, .tabletMode].contains(request.method), "\(request.method) without parameters")
        case .lock(.orientation(let orientation)):
            check(orientation != .unknown, "accepted a lock on unknown")
        case .lock(.mask(let mask)), .constrain(let mask?, _):
            check(!mask.isEmpty, "accepted an empty mask")
        case .lock(.current), .constrain(nil, _):
            break
        case .tabletMode:
            check(request.method == .tabletMode, "tablet-mode parameters for \(request.method)")
        }
        if case .constrain(_, let holder?) = request.parameters {
            check(!holder.isEmpty && holder.count <= Request.holderLimit, "accepted the holder \(holder)")
        }
        let written = Array(request.line.utf8)
        check(written.last == UInt8(ascii: "\n"), "\(request)'s line has no newline")
        check(!written.dropLast().contains(UInt8(ascii: "\n")), "\(request)'s line is more than one line")
        check(RequestDecoder.decode(written.dropLast()) == outcome, "\(request) does not read back from its line")
        checkReply(MessageEncoder.result(id: request.id, EndResult(count: 0)), id: request.id, code: nil)
    }
}

private func idValue(_ id: RequestID) -> JSONValue {
    switch id {
    case .number(let number): .integer(number)
    case .string(let text): .string(text)
    }
}

/// A reply is one JSON object on one line, with the id and the error code given.
private func checkReply(_ reply: [UInt8], id: RequestID?, code: ProtocolError.Code?) {
    check(reply.last == UInt8(ascii: "\n"), "a reply without its newline")
    check(!reply.dropLast().contains(UInt8(ascii: "\n")), "a reply of more than one line")
    guard case .object(let object)? = try? JSONValue.parse(reply.dropLast()) else {
        fatalError("RequestDecoderFuzzer: the reply \(String(decoding: reply, as: UTF8.self)) is not a JSON object")
    }
    let echoed = object["id"]
    check(
        echoed == id.map(idValue) ?? .null,
        "the reply echoes \(String(describing: echoed)), not \(String(describing: id))"
    )
    if let code {
        guard case .object(let error)? = object["error"] else {
            fatalError("RequestDecoderFuzzer: no error in \(object)")
        }
        check(error["code"] == .string(code.rawValue), "the reply's code is \(String(describing: error["code"]))")
    }
}
