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

package import OrientProtocol
package import OrientationCore

/// Daemon lines for the scripted peer, encoded as the daemon encodes them.
package enum Fixture {
    package static func state(
        device: DeviceOrientation = .landscapeLeft,
        interface: InterfaceOrientation = .landscapeRight,
        lock: InterfaceOrientationMask? = nil,
        sensor: SensorState = .active,
        seq: UInt64 = 1
    ) -> OrientationState {
        OrientationState(
            device: device,
            interface: interface,
            rotation: interface.panelRotation(natural: .landscape),
            allowed: lock ?? .all,
            lock: lock,
            sensor: sensor,
            generating: true,
            seq: seq
        )
    }

    package static let hello = HelloResult(version: "9.9.9", sensor: .init(status: .active, device: "accel_3d"))

    package static let status = StatusReport(
        version: "9.9.9",
        uptime: 3723,
        sensor: .init(
            status: .active,
            device: "iio:device0",
            driver: "accel_3d",
            mode: "buffer",
            fellBack: false,
            rate: 10,
            scale: [0.5, 0.5, 0.5],
            offset: nil,
            matrix: "1, 0, 0; 0, 1, 0; 0, 0, 1",
            matrixSource: "hwdb",
            location: "display",
            samplesRead: 42,
            lastError: nil
        ),
        clients: 2,
        generatingConnections: 1,
        generationTotal: 1,
        state: state()
    )

    package static func result(_ id: Int64, _ value: some JSONWritable) -> [UInt8] {
        MessageEncoder.result(id: .number(id), value)
    }

    package static func error(_ id: Int64?, _ code: ProtocolError.Code, _ message: String = "scripted") -> [UInt8] {
        MessageEncoder.error(id: id.map(RequestID.number), ProtocolError(code, message))
    }

    package static func event(
        _ name: OrientationEvent.Name,
        _ state: OrientationState,
        previous: String? = nil
    ) -> [UInt8] {
        MessageEncoder.event(OrientationEvent(name: name, previous: previous, state: state))
    }

    /// The reply a daemon would send to a request line, by method.
    package static func reply(to line: String) -> [UInt8] {
        guard case .request(let request) = RequestDecoder.decode(Array(line.utf8)),
            case .number(let id)? = request.id
        else { return error(nil, .parseError) }
        switch request.method {
        case .hello: return result(id, hello)
        case .get, .lock, .unlock, .constrain: return result(id, state())
        case .begin: return result(id, BeginResult(count: 1, state: state()))
        case .end: return result(id, EndResult(count: 0))
        case .status: return result(id, status)
        case .tabletMode:
            // As a daemon without a switch or a hinge: `auto` leaves tablet mode unknown.
            var state = state()
            if case .tabletMode(let setting) = request.parameters, let manual = setting.manualTabletMode {
                state.tabletMode = manual
                state.tabletModeSource = .manual
            }
            return result(id, state)
        }
    }
}
