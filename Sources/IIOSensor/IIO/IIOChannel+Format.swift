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

import CLibIIO

extension IIOChannel {
    /// The scan element format libiio parsed from `scan_elements/*_type`.
    var format: ScanElementFormat? {
        guard let format = iio_channel_get_data_format(pointer)?.pointee else { return nil }
        return try? ScanElementFormat(
            isBigEndian: format.is_be,
            isSigned: format.is_signed,
            bits: Int(format.bits),
            storageBits: Int(format.length),
            shift: Int(format.shift),
            repeatCount: max(1, Int(format.repeat))
        )
    }
}
