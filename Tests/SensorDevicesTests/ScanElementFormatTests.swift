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

import OrientdTestSupport
import SensorDevices
import Testing

/// The kernel's scan element type, `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`, as real
/// drivers spell it (TESTING.md "Real drivers differ"), and the decoding of one slot.
@Suite struct ScanElementFormatTests {
    /// A format's expected parts.
    struct Parts: Sendable, CustomTestStringConvertible {
        var text: String
        var isBigEndian: Bool
        var isSigned: Bool
        var bits: Int
        var storageBits: Int
        var shift: Int
        var repeatCount = 1

        var testDescription: String { text }
    }

    static let wellFormed: [Parts] = [
        Parts(text: "le:s16/16>>0", isBigEndian: false, isSigned: true, bits: 16, storageBits: 16, shift: 0),
        Parts(text: "le:s12/16>>4", isBigEndian: false, isSigned: true, bits: 12, storageBits: 16, shift: 4),
        Parts(text: "le:s10/16>>6", isBigEndian: false, isSigned: true, bits: 10, storageBits: 16, shift: 6),
        Parts(text: "be:s12/16>>4", isBigEndian: true, isSigned: true, bits: 12, storageBits: 16, shift: 4),
        Parts(text: "le:s32/32>>0", isBigEndian: false, isSigned: true, bits: 32, storageBits: 32, shift: 0),
        Parts(text: "le:s16/32>>0", isBigEndian: false, isSigned: true, bits: 16, storageBits: 32, shift: 0),
        Parts(text: "be:u16/16>>0", isBigEndian: true, isSigned: false, bits: 16, storageBits: 16, shift: 0),
        Parts(
            text: "le:s16/16X2>>0",
            isBigEndian: false,
            isSigned: true,
            bits: 16,
            storageBits: 16,
            shift: 0,
            repeatCount: 2
        ),
        Parts(text: "le:S16/16>>0", isBigEndian: false, isSigned: true, bits: 16, storageBits: 16, shift: 0),
        Parts(text: "be:U8/8>>0", isBigEndian: true, isSigned: false, bits: 8, storageBits: 8, shift: 0),
        Parts(text: "le:s64/64>>0", isBigEndian: false, isSigned: true, bits: 64, storageBits: 64, shift: 0),
        Parts(text: "le:u64/64>>0", isBigEndian: false, isSigned: false, bits: 64, storageBits: 64, shift: 0),
        Parts(text: "be:s1/8>>7", isBigEndian: true, isSigned: true, bits: 1, storageBits: 8, shift: 7),
        Parts(text: "le:s24/32>>8", isBigEndian: false, isSigned: true, bits: 24, storageBits: 32, shift: 8),
        // sysfs ends the text with a newline.
        Parts(text: "le:s12/16>>4\n", isBigEndian: false, isSigned: true, bits: 12, storageBits: 16, shift: 4),
    ]

    @Test(arguments: wellFormed)
    func parsesTheParts(expected: Parts) throws {
        let format = try ScanElementFormat(parsing: expected.text)
        #expect(format.isBigEndian == expected.isBigEndian)
        #expect(format.isSigned == expected.isSigned)
        #expect(format.bits == expected.bits)
        #expect(format.storageBits == expected.storageBits)
        #expect(format.storageBytes == expected.storageBits / 8)
        #expect(format.shift == expected.shift)
        #expect(format.repeatCount == expected.repeatCount)
    }

    @Test(arguments: wellFormed)
    func partsInitializerAndKernelSpellingAgree(expected: Parts) throws {
        let fromParts = try ScanElementFormat(
            isBigEndian: expected.isBigEndian,
            isSigned: expected.isSigned,
            bits: expected.bits,
            storageBits: expected.storageBits,
            shift: expected.shift,
            repeatCount: expected.repeatCount
        )
        let parsed = try ScanElementFormat(parsing: expected.text)
        #expect(fromParts == parsed)
        // The description is the kernel's spelling: lower-case sign, no newline.
        let kernelText = expected.text.lowercased().filter { $0 != "\n" }.replacingX()
        #expect(parsed.description == kernelText)
        #expect(try ScanElementFormat(parsing: parsed.description) == parsed)
    }

    static let malformed: [(String, ScanElementFormatError.Reason)] = [
        ("", .missing(.endianness)),
        ("   \n", .missing(.endianness)),
        ("xe:s16/16>>0", .unknownEndianness("xe")),
        ("LE:s16/16>>0", .unknownEndianness("LE")),
        ("b:s16/16>>0", .unknownEndianness("b")),
        ("le-s16/16>>0", .missing(.colon)),
        ("le", .missing(.colon)),
        ("le:", .missing(.sign)),
        ("le:16/16>>0", .missing(.sign)),
        ("le:/16>>0", .missing(.sign)),
        ("le:x16/16>>0", .unknownSign("x")),
        ("le:s/16>>0", .missing(.bits)),
        ("le:s16>>0", .missing(.slash)),
        ("le:s16", .missing(.slash)),
        ("le:s16/>>0", .missing(.storageBits)),
        ("le:s16/16", .missing(.shiftOperator)),
        ("le:s16/16>0", .missing(.shiftOperator)),
        ("le:s16/16>>", .missing(.shift)),
        ("le:s16/16>>-1", .missing(.shift)),
        ("le:s16/16X>>0", .missing(.repeatCount)),
        ("le:s16/24>>0", .unsupportedStorageBits(24)),
        ("le:s16/128>>0", .unsupportedStorageBits(128)),
        ("le:s0/16>>0", .invalidBits(0)),
        ("le:s17/16>>0", .invalidBits(17)),
        ("le:u65/64>>0", .invalidBits(65)),
        ("le:s12/16>>5", .invalidShift(5)),
        ("le:s16/32>>17", .invalidShift(17)),
        ("le:s16/16X0>>0", .invalidRepeatCount(0)),
        ("le:s16/16X256>>0", .invalidRepeatCount(256)),
        ("le:s16/16>>0x", .trailingCharacters("x")),
        ("le:s16/16>>0>>0", .trailingCharacters(">>0")),
        ("le:s16/16>>0 le:s16/16>>0", .trailingCharacters(" le:s16/16>>0")),
        ("le:s99999999999/16>>0", .numberTooLarge(.bits)),
    ]

    @Test(arguments: malformed)
    func rejectsWithTheReason(text: String, reason: ScanElementFormatError.Reason) {
        #expect {
            try ScanElementFormat(parsing: text)
        } throws: { error in
            guard let error = error as? ScanElementFormatError else { return false }
            return error.reason == reason && error.text == text
        }
    }

    @Test func errorDescriptionQuotesTheTextAndSaysWhatIsWrong() {
        #expect {
            try ScanElementFormat(parsing: "le:s16/24>>0")
        } throws: { error in
            String(describing: error) == "scan element type 'le:s16/24>>0': storage bits 24 is not 8, 16, 32 or 64"
        }
        #expect {
            try ScanElementFormat(parsing: "le:s12/16>>5")
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix("scan element type 'le:s12/16>>5': shift 5") && text.contains("storage bits")
        }
        #expect {
            try ScanElementFormat(parsing: "le:s16/16")
        } throws: { error in
            String(describing: error) == "scan element type 'le:s16/16': missing the '>>'"
        }
    }

    /// Parts that describe no value, their kernel spelling and the reason.
    struct BadParts: Sendable {
        var bits: Int
        var storageBits: Int
        var shift: Int
        var repeatCount: Int
        var text: String
        var reason: ScanElementFormatError.Reason
    }

    static let badParts: [BadParts] = [
        BadParts(bits: 0, storageBits: 16, shift: 0, repeatCount: 1, text: "le:s0/16>>0", reason: .invalidBits(0)),
        BadParts(bits: -3, storageBits: 16, shift: 0, repeatCount: 1, text: "le:s-3/16>>0", reason: .invalidBits(-3)),
        BadParts(
            bits: 12,
            storageBits: 12,
            shift: 0,
            repeatCount: 1,
            text: "le:s12/12>>0",
            reason: .unsupportedStorageBits(12)
        ),
        BadParts(bits: 12, storageBits: 16, shift: 8, repeatCount: 1, text: "le:s12/16>>8", reason: .invalidShift(8)),
        BadParts(
            bits: 12,
            storageBits: 16,
            shift: -1,
            repeatCount: 1,
            text: "le:s12/16>>-1",
            reason: .invalidShift(-1)
        ),
        BadParts(
            bits: 16,
            storageBits: 16,
            shift: 0,
            repeatCount: 0,
            text: "le:s16/16X0>>0",
            reason: .invalidRepeatCount(0)
        ),
    ]

    @Test(arguments: badParts)
    func partsInitializerRejectsWithTheReason(bad: BadParts) {
        #expect {
            try ScanElementFormat(
                isBigEndian: false,
                isSigned: true,
                bits: bad.bits,
                storageBits: bad.storageBits,
                shift: bad.shift,
                repeatCount: bad.repeatCount
            )
        } throws: { error in
            guard let error = error as? ScanElementFormatError else { return false }
            return error.reason == bad.reason && error.text == bad.text
        }
    }

    /// Slots written by hand from the format rules, with the values they hold.
    static let slots: [(format: String, bytes: [UInt8], value: Int64)] = [
        ("le:s16/16>>0", [0x34, 0x12], 4660),
        ("le:s16/16>>0", [0xFF, 0x7F], 32767),
        ("le:s16/16>>0", [0x00, 0x80], -32768),
        ("le:s16/16>>0", [0xFF, 0xFF], -1),
        ("le:s12/16>>4", [0xF0, 0xFF], -1),
        ("le:s12/16>>4", [0x10, 0x00], 1),
        ("le:s12/16>>4", [0x0F, 0x00], 0),  // junk below the shift
        ("le:s12/16>>4", [0xF0, 0x7F], 2047),
        ("le:s12/16>>4", [0x00, 0x80], -2048),
        ("le:s10/16>>6", [0xC0, 0xFF], -1),
        ("le:s10/16>>6", [0x40, 0x00], 1),
        ("le:s10/16>>6", [0x3F, 0x00], 0),
        ("le:s10/16>>6", [0xC0, 0x7F], 511),
        ("le:s10/16>>6", [0x00, 0x80], -512),
        ("be:s12/16>>4", [0x7F, 0xF0], 2047),
        ("be:s12/16>>4", [0xFF, 0xF0], -1),
        ("be:s12/16>>4", [0x80, 0x0F], -2048),
        ("be:s12/16>>4", [0x00, 0x1F], 1),
        ("le:s32/32>>0", [0x78, 0x56, 0x34, 0x12], 305_419_896),
        ("le:s32/32>>0", [0xFF, 0xFF, 0xFF, 0x7F], 2_147_483_647),
        ("le:s32/32>>0", [0x00, 0x00, 0x00, 0x80], -2_147_483_648),
        ("le:s32/32>>0", [0xFE, 0xFF, 0xFF, 0xFF], -2),
        // The upper half of the 32-bit slot holds unrelated bytes.
        ("le:s16/32>>0", [0x34, 0x12, 0xAB, 0xCD], 4660),
        ("le:s16/32>>0", [0xFF, 0xFF, 0x00, 0x00], -1),
        ("le:s16/32>>0", [0x00, 0x80, 0xFF, 0xFF], -32768),
        ("le:s16/32>>0", [0xFE, 0x7F, 0x55, 0xAA], 32766),
        ("be:u16/16>>0", [0xFF, 0xFF], 65535),
        ("be:u16/16>>0", [0x12, 0x34], 4660),
        ("le:u16/16>>0", [0xFF, 0xFF], 65535),
        ("le:u12/16>>4", [0xF0, 0xFF], 4095),
        ("le:U16/16>>0", [0x00, 0x80], 32768),
        ("le:S16/16>>0", [0x00, 0x80], -32768),
        ("le:s8/8>>0", [0x80], -128),
        ("le:u8/8>>0", [0x80], 128),
        ("be:s1/8>>7", [0x80], -1),
        ("be:s1/8>>7", [0x7F], 0),
        ("be:s24/32>>8", [0xFF, 0xFF, 0xFE, 0x99], -2),
        ("le:s24/32>>8", [0x99, 0x01, 0x00, 0x00], 1),
        ("le:s64/64>>0", [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80], Int64.min),
        ("le:s64/64>>0", [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], Int64.max),
        ("be:s64/64>>0", [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02], 258),
        ("le:u32/64>>0", [0xFF, 0xFF, 0xFF, 0xFF, 0x12, 0x34, 0x56, 0x78], 4_294_967_295),
        // u64 above Int64.max comes back with its bit pattern.
        ("le:u64/64>>0", [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], -1),
        ("be:u64/64>>0", [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], Int64.min),
        // A repeat decodes its first slot.
        ("le:s16/16X2>>0", [0x02, 0x00, 0x03, 0x00], 2),
    ]

    @Test(arguments: slots)
    func decodesTheSlot(format text: String, bytes: [UInt8], value: Int64) throws {
        let format = try ScanElementFormat(parsing: text)
        // At every alignment, with neighbours that must not leak in.
        for misalignment in 0..<8 {
            let buffer = [UInt8](repeating: 0xA5, count: misalignment) + bytes + [0x5A, 0x5A]
            let decoded = buffer.withUnsafeBytes { format.decode($0.baseAddress! + misalignment) }
            #expect(decoded == value, "at offset \(misalignment)")
        }
    }

    /// Every valid format on random slots decodes to the value a slow bit-by-bit reading gives,
    /// within the format's range.
    @Test func decodingMatchesABitByBitReading() throws {
        var random = SeededGenerator(seed: 0x5CA1_AB1E)
        var checked = 0
        for storageBits in [8, 16, 32, 64] {
            for bits in 1...storageBits {
                for shift in 0...(storageBits - bits) where shift % 3 == 0 || shift == storageBits - bits {
                    for isSigned in [false, true] {
                        for isBigEndian in [false, true] {
                            let format = try ScanElementFormat(
                                isBigEndian: isBigEndian,
                                isSigned: isSigned,
                                bits: bits,
                                storageBits: storageBits,
                                shift: shift
                            )
                            for _ in 0..<4 {
                                let bytes = (0..<storageBits / 8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                                let decoded = bytes.withUnsafeBytes { format.decode($0.baseAddress!) }
                                #expect(decoded == Self.slowDecode(format, bytes), "\(format) \(bytes)")
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    /// Mangled texts never trap: each either parses to a format that spells itself back, or is
    /// rejected with an error that quotes it.
    @Test func mangledTextsParseOrAreRejected() {
        var random = SeededGenerator(seed: 0xF0_22ED)
        let alphabet = Array("belsuSUX:/>0123456789 \n-é")
        var accepted = 0
        var rejected = 0
        for _ in 0..<20_000 {
            var characters = Array(Self.wellFormed[Int(random.next() % UInt64(Self.wellFormed.count))].text)
            for _ in 0...(random.next() % 3) {
                let position = Int(random.next() % UInt64(characters.count + 1))
                let character = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: characters.insert(character, at: position)
                case 1 where position < characters.count: characters[position] = character
                default: if position < characters.count { characters.remove(at: position) }
                }
            }
            let text = String(characters)
            do {
                let format = try ScanElementFormat(parsing: text)
                #expect(try ScanElementFormat(parsing: format.description) == format, "\(text)")
                accepted += 1
            } catch {
                #expect(error.text == text)
                rejected += 1
            }
        }
        #expect(accepted > 1_000)
        #expect(rejected > 1_000)
    }

    /// The value as the format rules state it, one bit at a time.
    static func slowDecode(_ format: ScanElementFormat, _ bytes: [UInt8]) -> Int64 {
        let ordered = format.isBigEndian ? Array(bytes.reversed()) : bytes  // least significant first
        var value: Int64 = 0
        for bit in 0..<format.bits {
            let position = format.shift + bit
            if ordered[position / 8] >> (position % 8) & 1 == 1 { value |= Int64(1) << bit }
        }
        let isNegative = format.isSigned && value >> (format.bits - 1) & 1 == 1
        if isNegative && format.bits < 64 { value &-= Int64(1) << format.bits }
        return value
    }
}

extension String {
    /// The text with the kernel's upper-case repeat marker kept: `lowercased()` turned it into `x`.
    fileprivate func replacingX() -> String {
        String(map { $0 == "x" ? "X" : $0 })
    }
}
