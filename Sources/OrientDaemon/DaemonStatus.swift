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

import EventLoop
import OrientProtocol
import OrientationCore
import SensorDevices
import TabletMode

/// The `status` result, from the parts that own what it reports, each given when it is made: the engine's state,
/// generation counts, sensors and settings in force, the control socket's connections, the tablet-mode switches,
/// the virtual tablet-mode switch and the D-Bus service.
final class DaemonStatus: StatusSource {
    private let loop: EventLoop
    /// The loop's clock at start, for the uptime.
    private let startTime: Double
    private let engine: Engine
    private let connections: ControlConnections
    private let tabletModeMonitor: TabletModeMonitor
    /// iio-sensor-proxy's D-Bus API, with `[DBus] Compat=yes`.
    private let sensorProxy: SensorProxyPublisher?

    init(
        loop: EventLoop,
        startTime: Double,
        engine: Engine,
        connections: ControlConnections,
        tabletModeMonitor: TabletModeMonitor,
        sensorProxy: SensorProxyPublisher?
    ) {
        self.loop = loop
        self.startTime = startTime
        self.engine = engine
        self.connections = connections
        self.tabletModeMonitor = tabletModeMonitor
        self.sensorProxy = sensorProxy
    }

    func statusReport() -> StatusReport {
        let settings = engine.settings
        let (report, base) = Self.sensorReports(of: engine)
        return StatusReport(
            version: OrientdVersion.current,
            uptime: max(0, loop.now - startTime),
            sensor: report,
            clients: connections.count,
            generatingConnections: engine.generatingConnections,
            generationTotal: engine.generationTotal,
            state: engine.state,
            tabletMode: StatusReport.TabletMode(
                autoRotate: settings.autoRotate.rawValue,
                followsDevice: engine.followsDevice,
                switches: tabletModeMonitor.switches.map {
                    StatusReport.TabletMode.Switch(device: $0.device, name: $0.name, tabletMode: $0.tabletMode)
                },
                virtualSwitchKeepsSensorsOn: engine.virtualSwitchKeepsSensorsOn
            ),
            baseSensor: base,
            bus: sensorProxy?.statusReport
        )
    }

    /// What `status` says of the display's sensor, and of the base's when there is one (or it failed).
    static func sensorReports(of engine: Engine) -> (display: StatusReport.Sensor, base: StatusReport.Sensor?) {
        let rate = engine.settings.sensor.rate
        let sensors = engine.sensors
        let findings = engine.axesFindings
        let display = report(
            of: sensors.display,
            status: engine.sensorState,
            rate: rate,
            findings: findings.filter { $0.sensor == .display },
            reading: engine.sensors.reading(at: .display)
        )
        // The base sensor is named only when there is one (or it failed): most machines have none.
        let baseStatus = sensors.base.status
        let base =
            sensors.base.accelerometer == nil && baseStatus != .failed
            ? nil
            : report(
                of: sensors.base,
                status: baseStatus,
                rate: rate,
                findings: findings.filter { $0.sensor == .base },
                reading: engine.sensors.reading(at: .base)
            )
        return (display, base)
    }

    /// What `status` says of one sensor: its device, calibration, mode, counters and last reading.
    private static func report(
        of sensor: any EngineSensor,
        status: SensorState,
        rate: Double,
        findings: [AxesCheck.Finding],
        reading: Vector3?
    ) -> StatusReport.Sensor {
        let accelerometer = sensor.accelerometer
        let calibration = accelerometer?.calibration
        // A hand-written matrix that cannot be right, then what the readings showed, each with what to do.
        var axes: [String] = []
        if let broken = accelerometer?.brokenMatrix {
            axes.append("\(broken): the identity is used, a guess; run 'orientd calibrate'")
        } else if let matrix = calibration?.matrix, let problem = AxesCheck.problem(with: matrix) {
            axes.append(problem)
        }
        axes += findings.map { finding in
            finding.text + (finding.suggested.map { " (suggested: MountMatrix=\($0))" } ?? "")
        }
        // Said from the file at once; the readings' finding, when it comes, says it with what they showed.
        if let entry = accelerometer?.oldFrameEntry, !findings.contains(where: { $0.kind == .oldBaseFrame }) {
            axes.append(OldBaseEntry.advice(entry))
        }
        return StatusReport.Sensor(
            status: status,
            device: accelerometer?.id,
            driver: accelerometer?.name,
            mode: sensor.mode?.rawValue,
            fellBack: sensor.fellBack,
            rate: rate,
            scale: calibration.map { [$0.scale.x, $0.scale.y, $0.scale.z] },
            offset: calibration.map { [$0.offset.x, $0.offset.y, $0.offset.z] },
            matrix: calibration.map { "\($0.matrix)" },
            matrixSource: accelerometer?.matrixSource,
            location: accelerometer.map { "\($0.location.rawValue) (\($0.locationSource))" },
            samplesRead: sensor.samplesRead,
            lastError: sensor.lastError,
            axes: axes.isEmpty ? nil : axes,
            reading: reading.map { [$0.x, $0.y, $0.z] }
        )
    }
}
