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

/// An IIO scan element type (`scan_elements/in_accel_x_type`), e.g. `le:s12/16>>4`, and how a value is stored in it.
///
/// Written from the kernel's ABI (Documentation/ABI/testing/sysfs-bus-iio, `iio_show_fixed_type`), independently of
/// any decoder: `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`; the value occupies `bits` bits starting `shift`
/// bits above the least significant bit of a `storagebits`-wide word in the given byte order.
package struct ScanElementType: Equatable, Sendable, CustomStringConvertible {
    /// Byte order of the storage word.
    package enum Endianness: String {
        case little = "le"
        case big = "be"
    }

    package var endianness: Endianness
    package var isSigned: Bool
    /// Significant bits of the value.
    package var bits: Int
    /// Bits of the storage word (8, 16, 32 or 64).
    package var storageBits: Int
    /// Right shift that brings the value to bit 0.
    package var shift: Int
    /// How many words the channel holds (`X<repeat>`); 1 for accelerometers.
    package var repeatCount: Int = 1

    /// Parses the sysfs text (`le:s16/16>>0`, `be:u12/16X2>>4`); nil when it is not a type.
    package init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let endianness = Endianness(rawValue: String(parts[0])) else { return nil }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        rest = rest.dropFirst()
        let shiftParts = rest.components(separatedBy: ">>")
        guard shiftParts.count == 2, let shift = Int(shiftParts[1]) else { return nil }
        let sizeParts = shiftParts[0].split(separator: "/")
        guard sizeParts.count == 2, let bits = Int(sizeParts[0]) else { return nil }
        let storageParts = sizeParts[1].split(separator: "X")
        guard let storageBits = Int(storageParts[0]) else { return nil }
        let repeatCount = storageParts.count > 1 ? Int(storageParts[1]) : 1
        guard let repeatCount else { return nil }
        self.init(
            endianness: endianness,
            isSigned: sign == "s",
            bits: bits,
            storageBits: storageBits,
            shift: shift,
            repeatCount: repeatCount
        )
    }

    /// A type from its parts.
    package init(endianness: Endianness, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1)
    {
        precondition([8, 16, 32, 64].contains(storageBits), "storage bits must be 8, 16, 32 or 64")
        precondition(bits >= 1 && bits + shift <= storageBits, "bits + shift must fit the storage word")
        self.endianness = endianness
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// The sysfs text, as the kernel prints it.
    package var description: String {
        let repeatText = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(endianness.rawValue):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatText)>>\(shift)"
    }

    /// Bytes the channel occupies in a scan; also its alignment.
    package var storageBytes: Int { storageBits / 8 }

    /// The values this type can hold.
    package var range: ClosedRange<Int64> {
        if isSigned {
            return bits == 64 ? Int64.min...Int64.max : -(Int64(1) << (bits - 1))...((Int64(1) << (bits - 1)) - 1)
        }
        return 0...(bits >= 63 ? Int64.max : (Int64(1) << bits) - 1)
    }

    /// The storage word for `value`, in byte order, with `unusedBits` filling the bits the value does not cover
    /// (real devices leave other data there; a decoder must ignore it).
    package func encode(_ value: Int64, unusedBits: UInt64 = 0) -> [UInt8] {
        precondition(repeatCount == 1, "repeated channels are not emulated")
        precondition(range.contains(value), "\(value) does not fit \(description)")
        let valueMask: UInt64 = bits == 64 ? ~0 : (UInt64(1) << bits) - 1
        let storageMask: UInt64 = storageBits == 64 ? ~0 : (UInt64(1) << storageBits) - 1
        let used = valueMask << shift
        let word = ((UInt64(bitPattern: value) & valueMask) << shift) | (unusedBits & ~used & storageMask)
        let littleEndian = (0..<storageBytes).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
        return endianness == .little ? littleEndian : littleEndian.reversed()
    }
}
