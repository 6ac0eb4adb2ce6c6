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

public import EventLoop
public import Logging
import SystemSupport
import UdevSupport

#if canImport(Glibc)
import Glibc
#endif

/// One of the sensors iio-sensor-proxy serves besides the accelerometer (light, proximity, compass): found among
/// the IIO devices through libudev, followed through hotplug, and read by polling one sysfs attribute on a timer of
/// the event loop while it runs.
///
/// Stopped, it holds no timer and reads nothing. Each reading opens, reads and closes the attribute (a few system
/// calls at a pace below 2 Hz), so that a file a test rig replaces (umockdev's `set_attribute`) is read afresh.
/// Started, it reads at once, so that the owner has a value before ``start()`` returns, then at the channel's pace.
public final class PolledSensor {
    /// What the sensor measures.
    public let kind: PolledSensorKind
    private let loop: EventLoop
    private let logger: Logger
    private unowned let delegate: any PolledSensorDelegate
    private var monitor: HotplugMonitor?
    private var timer: TimerSource?
    /// The device found, and its channel; nil while there is none.
    public private(set) var device: (syspath: String, channel: PolledChannel)?
    /// The error of the last failed reading, so that a lasting failure is logged once.
    private var lastFailure: Errno?
    /// Readings taken since the process started (for `status` and the tests' figures).
    public private(set) var readings = 0

    /// A stopped sensor reporting to `delegate`, held unowned (the owner outlives it): it looks for its device now
    /// and listens for hotplug.
    public init(kind: PolledSensorKind, loop: EventLoop, logger: Logger, delegate: any PolledSensorDelegate) {
        self.kind = kind
        self.loop = loop
        self.logger = logger
        self.delegate = delegate
        do {
            monitor = try HotplugMonitor(loop: loop, subsystem: "iio") { [unowned self] action, _ in
                self.hotplug(action)
            }
        } catch {
            logger.warning("hotplug is not followed", metadata: ["sensor": "\(kind.rawValue)", "error": "\(error)"])
        }
        device = Self.discover(kind)
        if let device {
            logger.info(
                "sensor found",
                metadata: [
                    "sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)",
                    "attribute": "\(device.channel.attribute)",
                ]
            )
        }
    }

    /// The channel of the device found; nil while there is none.
    public var channel: PolledChannel? { device?.channel }

    /// Whether the sensor is being read.
    public var isRunning: Bool { timer != nil }

    /// Reads now (the delegate hears the reading before this returns) and then at the channel's pace. Does nothing
    /// while running or without a device.
    public func start() {
        guard timer == nil, let device else { return }
        do {
            timer = try loop.addRepeatingTimer(interval: device.channel.interval, accuracy: 0.05) {
                [unowned self] in self.read()
            }
        } catch {
            logger.error("cannot poll the sensor", metadata: ["sensor": "\(kind.rawValue)", "error": "\(error)"])
            return
        }
        logger.info("sensor started", metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)"])
        read()
    }

    /// Stops reading: no timer remains.
    public func stop() {
        guard timer != nil else { return }
        timer = nil
        lastFailure = nil
        logger.info("sensor stopped", metadata: ["sensor": "\(kind.rawValue)"])
    }

    /// One reading, handed to the delegate; a failure is logged when it first happens and the value is kept.
    private func read() {
        guard let device else { return }
        readings += 1
        let path = device.syspath + "/" + device.channel.attribute
        let bytes: [UInt8]
        do throws(Errno) {
            bytes = try FileDescriptor.contents(ofFile: path, maximumSize: 64)
        } catch {
            if lastFailure != error {
                logger.warning("cannot read the sensor", metadata: ["path": "\(path)", "error": "\(error)"])
            }
            lastFailure = error
            return
        }
        guard let value = device.channel.value(ofText: String(decoding: bytes, as: UTF8.self)) else {
            if lastFailure != .invalidArgument {
                logger.warning("the sensor's reading is not a number", metadata: ["path": "\(path)"])
            }
            lastFailure = .invalidArgument
            return
        }
        lastFailure = nil
        delegate.polledSensor(self, read: value)
    }

    /// A device of the subsystem came or went: looks again, and tells the delegate when the answer changed. A sensor
    /// whose device went stops; one that runs keeps running on a new device.
    private func hotplug(_ action: HotplugAction) {
        switch action {
        case .add, .remove, .bind, .unbind, .change: break
        case .other: return
        }
        let found = Self.discover(kind)
        guard found?.syspath != device?.syspath || found?.channel != device?.channel else { return }
        let wasRunning = isRunning
        timer = nil
        device = found
        logger.info(
            found == nil ? "sensor gone" : "sensor found",
            metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(found?.syspath ?? "-")"]
        )
        delegate.polledSensorDiscoveryChanged(self)
        if wasRunning { start() }
    }

    /// The first IIO device (by sysfs path) with a channel of `kind`: its sysfs path and the channel read, as a
    /// sensor would find it now (for `orientd sensors`).
    public static func discover(_ kind: PolledSensorKind) -> (syspath: String, channel: PolledChannel)? {
        guard let udev = try? Udev() else { return nil }
        for device in udev.devices(subsystem: "iio").sorted(by: { $0.syspath < $1.syspath }) {
            let channel = PolledChannel.find(
                kind,
                exists: { name in access(device.syspath + "/" + name, F_OK) == 0 },
                attribute: { name in
                    (try? FileDescriptor.contents(ofFile: device.syspath + "/" + name, maximumSize: 4096))
                        .map { String(decoding: $0, as: UTF8.self) }
                },
                property: { device.properties[$0] }
            )
            if let channel { return (device.syspath, channel) }
        }
        return nil
    }
}
