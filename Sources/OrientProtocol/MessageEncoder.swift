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

/// Writes the daemon's replies and events as JSON lines, ending in a newline, with ``JSONWriter``: the text
/// `JSONEncoder` would write with `.sortedKeys` and `.withoutEscapingSlashes`, in one allocation per line.
public enum MessageEncoder {
    /// Room for an event line (about 330 bytes) without growing; a status report may grow it once.
    private static let lineCapacity = 512

    /// `{"id": …, "result": …}`.
    public static func result(id: RequestID?, _ result: some JSONWritable) -> [UInt8] {
        line { json in
            json.member("id", id)
            json.member("result", result)
        }
    }

    /// `{"error": {"code": …, "message": …}, "id": …}`.
    public static func error(id: RequestID?, _ error: ProtocolError) -> [UInt8] {
        line { json in
            json.member("error", error)
            json.member("id", id)
        }
    }

    /// `{"event": …, "previous": …, "state": …}`.
    public static func event(_ event: OrientationEvent) -> [UInt8] {
        var json = JSONWriter(capacity: lineCapacity)
        json.value(event)
        json.newline()
        return json.bytes
    }

    private static func line(_ members: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter(capacity: lineCapacity)
        json.object(members)
        json.newline()
        return json.bytes
    }
}
