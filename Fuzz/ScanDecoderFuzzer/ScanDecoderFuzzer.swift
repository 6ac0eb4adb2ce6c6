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

import SensorDevices

/// libFuzzer's entry. The input is five text lines and then raw buffer bytes:
///
/// ```
/// le:s12/16>>4        the x channel's scan_elements type
/// le:s12/16>>4        y
/// be:s16/16>>0        z
/// le:s64/64>>0        the timestamp's (an empty line: no timestamp)
/// 0 1 2 3             the scan indices of x, y, z and the timestamp
/// <bytes of one or more scans>
/// ```
///
/// Properties checked, besides not crashing and not reading outside the scan (AddressSanitizer):
/// - `ScanElementFormat(parsing:)` accepts exactly the texts a separate reading of the kernel's
///   grammar accepts, with the same parts, and its `description` parses back to the same format;
/// - `decode` equals a bit-by-bit reference (byte order, shift, mask, sign extension) at any
///   alignment;
/// - `ScanLayout` refuses exactly the negative and shared scan indices; otherwise its elements
///   follow the scan index order without overlapping, lie inside `scanSize`, and every scan of
///   the input decodes to the reference values.
@_cdecl("LLVMFuzzerTestOneInput")
public func scanDecoderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var lines: [ArraySlice<UInt8>] = []
    var rest = bytes[...]
    while lines.count < 5, let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(rest[..<newline])
        rest = rest[(newline + 1)...]
    }
    if lines.count < 5 {
        lines.append(rest)
        rest = []
    }
    let formats = lines.prefix(4).map { checkedFormat(String(decoding: $0, as: UTF8.self)) }
    for format in formats.compactMap({ $0 }) {
        for offset in 0..<min(rest.count, 16) { checkDecode(format, Array(rest.dropFirst(offset))) }
    }
    guard formats.count >= 3, let x = formats[0], let y = formats[1], let z = formats[2] else { return 0 }
    let timestamp = formats.count > 3 && !lines[3].isEmpty ? formats[3] : nil
    if formats.count > 3, !lines[3].isEmpty, timestamp == nil { return 0 }
    let given = lines.count > 4 ? String(decoding: lines[4], as: UTF8.self).split(separator: " ").map { Int($0) } : []
    let indices = (0..<4).map { rank in rank < given.count ? given[rank] ?? rank : rank }
    checkLayout(formats: [x, y, z] + (timestamp.map { [$0] } ?? []), indices: indices, scans: Array(rest))
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("ScanDecoderFuzzer: \(message())") }
}

/// The parts of a scan element type, read by a separate reading of the grammar.
private struct Parts: Equatable {
    var isBigEndian: Bool
    var isSigned: Bool
    var bits: Int
    var storageBits: Int
    var repeatCount: Int
    var shift: Int
}

/// `[be|le]:[s|u|S|U]bits/storagebits[Xrepeat]>>shift` around ASCII whitespace, numbers of 1 to 9
/// digits, and parts that describe a value; nil for anything else.
private func referenceParts(_ text: String) -> Parts? {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
    var rest = Array(text.utf8).drop(while: isSpace)
    while let last = rest.last, isSpace(last) { rest.removeLast() }
    func take(_ literal: String) -> Bool {
        guard rest.starts(with: literal.utf8) else { return false }
        rest.removeFirst(literal.utf8.count)
        return true
    }
    func number() -> Int? {
        let digits = rest.prefix { (0x30...0x39).contains($0) }
        guard (1...9).contains(digits.count) else { return nil }
        rest.removeFirst(digits.count)
        return Int(String(decoding: digits, as: UTF8.self))
    }
    let isBigEndian: Bool
    if take("be:") {
        isBigEndian = true
    } else if take("le:") {
        isBigEndian = false
    } else {
        return nil
    }
    guard let signLetter = rest.first, "sSuU".utf8.contains(signLetter) else { return nil }
    rest.removeFirst()
    guard let bits = number(), take("/"), let storageBits = number() else { return nil }
    var repeatCount = 1
    if take("X") {
        guard let count = number() else { return nil }
        repeatCount = count
    }
    guard take(">>"), let shift = number(), rest.isEmpty else { return nil }
    guard [8, 16, 32, 64].contains(storageBits), (1...storageBits).contains(bits),
        shift <= storageBits - bits, (1...255).contains(repeatCount)
    else { return nil }
    let isSigned = signLetter == UInt8(ascii: "s") || signLetter == UInt8(ascii: "S")
    return Parts(
        isBigEndian: isBigEndian,
        isSigned: isSigned,
        bits: bits,
        storageBits: storageBits,
        repeatCount: repeatCount,
        shift: shift
    )
}

private func checkedFormat(_ text: String) -> ScanElementFormat? {
    let expected = referenceParts(text)
    let format: ScanElementFormat
    do throws(ScanElementFormatError) {
        format = try ScanElementFormat(parsing: text)
    } catch {
        check(expected == nil, "refused '\(text)', which is \(String(describing: expected)): \(error)")
        check(error.text == text, "the error quotes '\(error.text)' for '\(text)'")
        check(!error.description.isEmpty, "an empty error for '\(text)'")
        return nil
    }
    let parts = Parts(
        isBigEndian: format.isBigEndian,
        isSigned: format.isSigned,
        bits: format.bits,
        storageBits: format.storageBits,
        repeatCount: format.repeatCount,
        shift: format.shift
    )
    check(parts == expected, "parsed '\(text)' as \(parts), expected \(String(describing: expected))")
    check(format.storageBytes * 8 == format.storageBits, "storage bytes \(format.storageBytes) of '\(text)'")
    do throws(ScanElementFormatError) {
        check(try ScanElementFormat(parsing: format.description) == format, "'\(format)' parses differently")
        let built = try ScanElementFormat(
            isBigEndian: parts.isBigEndian,
            isSigned: parts.isSigned,
            bits: parts.bits,
            storageBits: parts.storageBits,
            shift: parts.shift,
            repeatCount: parts.repeatCount
        )
        check(built == format, "the parts of '\(text)' give \(built)")
    } catch {
        fatalError("ScanDecoderFuzzer: '\(format)' from '\(text)' is refused when written back: \(error)")
    }
    return format
}

/// The value of the slot at the start of `bytes`, bit by bit.
private func referenceValue(_ format: ScanElementFormat, _ bytes: some Collection<UInt8>) -> Int64 {
    let slot = Array(bytes.prefix(format.storageBytes))
    var word: UInt64 = 0
    for byte in format.isBigEndian ? slot : slot.reversed() { word = word << 8 | UInt64(byte) }
    var value: UInt64 = 0
    for bit in 0..<format.bits where (word >> UInt64(format.shift + bit)) & 1 == 1 { value |= 1 << UInt64(bit) }
    let isNegative = format.isSigned && (value >> UInt64(format.bits - 1)) & 1 == 1
    return isNegative ? Int64(Int128(value) - (Int128(1) << format.bits)) : Int64(bitPattern: value)
}

/// Runs `body` on a copy of `bytes` that ends exactly where its allocation ends and starts one
/// byte after an aligned address: AddressSanitizer reports any read past the end.
private func withUnalignedCopy<Result>(_ bytes: [UInt8], _ body: (UnsafeRawPointer) -> Result) -> Result {
    let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count + 1, alignment: 16)
    defer { memory.deallocate() }
    bytes.withUnsafeBytes { (memory + 1).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
    return body(memory + 1)
}

private func checkDecode(_ format: ScanElementFormat, _ bytes: [UInt8]) {
    guard bytes.count >= format.storageBytes else { return }
    let slot = Array(bytes.prefix(format.storageBytes))
    let decoded = withUnalignedCopy(slot) { format.decode($0) }
    let expected = referenceValue(format, slot)
    check(decoded == expected, "'\(format)' decodes \(slot) as \(decoded), expected \(expected)")
}

private func checkLayout(formats: [ScanElementFormat], indices: [Int], scans: [UInt8]) {
    let channels = zip(indices, formats).map { ScanLayout.Channel(scanIndex: $0, format: $1) }
    let used = Array(indices.prefix(formats.count))
    let mustRefuse = used.contains { $0 < 0 } || Set(used).count != used.count
    let layout: ScanLayout
    do throws(ScanLayoutError) {
        layout = try ScanLayout(
            x: channels[0],
            y: channels[1],
            z: channels[2],
            timestamp: channels.count > 3 ? channels[3] : nil
        )
    } catch {
        check(mustRefuse, "refused the scan indices \(used): \(error)")
        check(!error.channels.isEmpty, "an error naming no channel for \(used)")
        return
    }
    check(!mustRefuse, "accepted the scan indices \(used)")
    let axes = [layout.x, layout.y, layout.z]
    var elements = zip(used.prefix(3), axes).sorted { $0.0 < $1.0 }.map(\.1)
    if let timestamp = layout.timestamp { elements.append(timestamp) }
    check(elements.count == formats.count, "the layout has \(elements.count) of \(formats.count) channels")
    var end = 0
    var largest = 1
    for element in elements {
        let length = element.format.storageBytes * element.format.repeatCount
        check(element.offset >= end, "element at \(element.offset) overlaps the one ending at \(end)")
        if length & (length - 1) == 0 { check(element.offset % length == 0, "\(element) is not aligned") }
        end = element.offset + length
        largest = max(largest, length)
    }
    check(layout.scanSize >= end, "scan size \(layout.scanSize) ends before the last element at \(end)")
    if largest & (largest - 1) == 0 {
        check(layout.scanSize % largest == 0, "scan size \(layout.scanSize) is not a multiple of \(largest)")
    }
    guard layout.scanSize > 0 else { return }
    var start = 0
    while start + layout.scanSize <= scans.count {
        let scan = Array(scans[start..<(start + layout.scanSize)])
        let raw = withUnalignedCopy(scan) { layout.decode($0) }
        check(raw.x == referenceValue(layout.x.format, scan.dropFirst(layout.x.offset)), "x of \(scan)")
        check(raw.y == referenceValue(layout.y.format, scan.dropFirst(layout.y.offset)), "y of \(scan)")
        check(raw.z == referenceValue(layout.z.format, scan.dropFirst(layout.z.offset)), "z of \(scan)")
        let expected = layout.timestamp.map { referenceValue($0.format, scan.dropFirst($0.offset)) }
        check(raw.timestamp == expected, "timestamp of \(scan)")
        start += layout.scanSize
    }
}
