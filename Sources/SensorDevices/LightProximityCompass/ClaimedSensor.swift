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
import OrientationCore
import SystemSupport
import UdevSupport

#if canImport(Glibc)
import Glibc
#endif

/// One of the sensors iio-sensor-proxy serves besides the accelerometer (light, proximity, compass): found among
/// the IIO devices (and, for light, the `applesmc` platform device of Apple's SMC, a hwmon device with a
/// `light` attribute, or a platform device udev marks `IIO_SENSOR_PROXY_TYPE=hwmon-als`) through libudev, a device
/// udev marks as a sensor of the kind (``SensorProxyType``) before one it does not, followed through hotplug, and read by polling one sysfs attribute on a timer
/// of the event loop while it runs; an `acpi-als` light sensor with a buffer and a trigger is read through its
/// buffer instead (``BufferedLightCapture``), and polled when the buffer cannot be set up or fails. Without an IIO
/// proximity sensor, an input device with the switch `SW_FRONT_PROXIMITY` is the proximity sensor, read through its
/// evdev node's events (``ProximitySwitchCapture``).
///
/// Stopped, it holds no timer, no open device and reads nothing. Each reading opens, reads and closes the attribute
/// (a few system calls at a pace below 2 Hz), so that a file a test rig replaces (umockdev's `set_attribute`) is read
/// afresh. Started, it reads at once, so that the owner has a value before ``start()`` returns, then at the
/// channel's pace, or whenever the kernel pushes a scan.
///
/// It is not on the accelerometers' ``SensorLifecycle``: it has no status, no retry policy and no settle delay, because
/// what they are for does not arise here.
/// - No status: iio-sensor-proxy's API shows only whether the sensor is there (`Has…`) and its reading, so its owner
///   hears only of readings and of a device found or gone (``ClaimedSensorDelegate``); a failure has no one to tell.
/// - No retries of an opening: there is no device to open. A polled reading opens its attribute afresh each time, so
///   a failed read is tried again at the next tick, at the channel's pace (0.1 to 5 s, most often 0.7 or 0.8 s); the
///   last value stands meanwhile, and a lasting failure is logged once. Backing off as the lifecycle does (10 s after five
///   failures, each of its attempts a libiio context and a look at every IIO device) would save nothing: a failed
///   read costs no more than the tick it stands for. A buffer that cannot be set up, or fails, is polled at once
///   instead: polling is its retry. A proximity switch whose node cannot be opened, or fails while read, is opened
///   again at the sensor's next start (a new claim) or when hotplug finds it again: its node fails when its device
///   goes, and the uevents of its going and coming back make the sensor look again.
/// - No settle delay: the lifecycle's tenth of a second lets a device's attributes and node appear before libiio opens
///   it. A look here reads udev's database and sysfs only, and udev's monitor hands on an event once udev has handled
///   it; an attribute a driver adds when it binds comes with the `bind` uevent, which makes the sensor look again.
public final class ClaimedSensor {
    /// What the sensor measures.
    public let kind: ClaimedSensorKind
    private let loop: EventLoop
    private let logger: Logger
    private unowned let delegate: any ClaimedSensorDelegate
    private var monitors: [HotplugMonitor] = []
    /// How the sensor is read while it runs, with the source that serves it; nil while stopped.
    private var reading: Reading?
    /// The device found, and its channel; nil while there is none.
    public private(set) var device: (syspath: String, channel: ClaimedSensorChannel)?
    /// The error of the last failed reading, so that a lasting failure is logged once.
    private var lastFailure: Errno?
    /// Readings taken since the process started (for `status` and the tests' figures).
    public private(set) var readings = 0

    /// A stopped sensor reporting to `delegate`, held unowned (the owner outlives it): it looks for its device now
    /// and listens for hotplug.
    public init(kind: ClaimedSensorKind, loop: EventLoop, logger: Logger, delegate: any ClaimedSensorDelegate) {
        self.kind = kind
        self.loop = loop
        self.logger = logger
        self.delegate = delegate
        for subsystem in Self.subsystems(kind) {
            do {
                monitors.append(
                    try HotplugMonitor(loop: loop, subsystem: subsystem) { [unowned self] action, sysname in
                        self.hotplug(action, sysname: sysname, subsystem: subsystem)
                    }
                )
            } catch {
                logger.warning(
                    "hotplug is not followed",
                    metadata: ["sensor": "\(kind.rawValue)", "subsystem": "\(subsystem)", "error": "\(error)"]
                )
            }
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
    public var channel: ClaimedSensorChannel? { device?.channel }

    /// How a running sensor is read: each way holds the source that wakes it, released when the way ends.
    private enum Reading {
        /// A timer at the channel's pace.
        case polling(TimerSource)
        /// The buffer of a light sensor that has one.
        case buffered(BufferedLightCapture)
        /// The events of a proximity sensor of the input subsystem.
        case switchEvents(ProximitySwitchCapture)
    }

    /// Whether the sensor is being read.
    public var isRunning: Bool { reading != nil }

    /// Reads now (the delegate hears the reading before this returns) and then at the channel's pace, or as the
    /// buffer delivers. Does nothing while running or without a device.
    public func start() {
        guard !isRunning, let device else { return }
        if let node = device.channel.switchNode {
            startSwitch(node, syspath: device.syspath)
            return
        }
        if let buffer = device.channel.buffer {
            do {
                reading = .buffered(
                    try BufferedLightCapture(
                        syspath: device.syspath,
                        buffer: buffer,
                        loop: loop,
                        owner: self
                    )
                )
                logger.info(
                    "sensor started",
                    metadata: [
                        "sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)", "mode": "buffer",
                        "trigger": "\(buffer.trigger)",
                    ]
                )
                read()
                return
            } catch {
                logger.warning(
                    "the sensor's buffer cannot be read: polling it instead",
                    metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)", "error": "\(error)"]
                )
            }
        }
        startPolling(device)
    }

    /// Reads the switch's state now and then each change the kernel sends; a node that cannot be read is logged, and
    /// waits for hotplug.
    private func startSwitch(_ node: String, syspath: String) {
        let capture: ProximitySwitchCapture
        do {
            capture = try ProximitySwitchCapture(devnode: node, loop: loop, owner: self)
        } catch {
            logger.warning(
                "cannot read the sensor",
                metadata: ["sensor": "\(kind.rawValue)", "node": "\(node)", "error": "\(error)"]
            )
            return
        }
        reading = .switchEvents(capture)
        logger.info(
            "sensor started",
            metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(syspath)", "node": "\(node)", "mode": "evdev"]
        )
        captured(capture.initial)
    }

    /// Reads now and then on a timer at the channel's pace.
    private func startPolling(_ device: (syspath: String, channel: ClaimedSensorChannel)) {
        do {
            let timer = try loop.addRepeatingTimer(interval: device.channel.interval, accuracy: 0.05) {
                [unowned self] in self.read()
            }
            reading = .polling(timer)
        } catch {
            logger.error("cannot poll the sensor", metadata: ["sensor": "\(kind.rawValue)", "error": "\(error)"])
            return
        }
        logger.info(
            "sensor started",
            metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)", "mode": "poll"]
        )
        read()
    }

    /// Stops reading: no timer and no open device remain, and a buffer's device is put back as it was.
    public func stop() {
        guard isRunning else { return }
        endReading()
        lastFailure = nil
        logger.info("sensor stopped", metadata: ["sensor": "\(kind.rawValue)"])
    }

    /// A reading of the buffer (the last scan of a wake-up, after the channel's offset and scale), or of a switch.
    func captured(_ value: Double) {
        readings += 1
        lastFailure = nil
        delegate.claimedSensor(self, read: value)
    }

    /// The buffer or the switch failed while read: a buffer's device is put back and polled instead (or, gone, waits
    /// for hotplug); a switch's node is closed and waits for hotplug.
    func captureFailed(_ error: SensorError) {
        guard let device else { return }
        if case .switchEvents = reading {
            endReading()
            logger.warning(
                "the sensor cannot be read: waiting for it to come back",
                metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)", "error": "\(error)"]
            )
            return
        }
        guard case .buffered = reading else { return }
        endReading()
        logger.warning(
            "the sensor's buffer failed: polling it instead",
            metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(device.syspath)", "error": "\(error)"]
        )
        startPolling(device)
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
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = device.channel.value(ofText: text) else {
            if lastFailure != .invalidArgument {
                let why: String
                switch device.channel.encoding {
                case .decimal: why = "not a number"
                case .appleSMCLight:
                    do {
                        _ = try AppleSMCLight(parsing: text)
                        why = "not a reading"
                    } catch {
                        why = error.description
                    }
                }
                logger.warning(
                    "the sensor's reading is not served",
                    metadata: ["path": "\(path)", "reason": "\(why)"]
                )
            }
            lastFailure = .invalidArgument
            return
        }
        lastFailure = nil
        delegate.claimedSensor(self, read: value)
    }

    /// A device `sysname` of `subsystem` came, went or changed: looks again (unless the event cannot change what is
    /// found), and tells the delegate when the answer changed. A sensor whose device went stops; one that runs keeps
    /// running on a new device.
    private func hotplug(_ action: HotplugAction, sysname: String, subsystem: String) {
        guard
            Self.eventMayChangeDiscovery(
                action,
                sysname: sysname,
                subsystem: subsystem,
                kind: kind,
                inUse: device?.syspath
            )
        else { return }
        let found = Self.discover(kind)
        guard found?.syspath != device?.syspath || found?.channel != device?.channel else { return }
        let wasRunning = isRunning
        endReading()
        device = found
        logger.info(
            found == nil ? "sensor gone" : "sensor found",
            metadata: ["sensor": "\(kind.rawValue)", "syspath": "\(found?.syspath ?? "-")"]
        )
        delegate.claimedSensorDiscoveryChanged(self)
        if wasRunning { start() }
    }

    /// Ends the way the sensor is read: its source is released, and a buffer's device is put back as it was.
    private func endReading() {
        switch reading {
        case .buffered(let capture): capture.stop()
        case .switchEvents(let capture): capture.stop()
        case .polling, nil: break
        }
        reading = nil
    }

    /// Whether a uevent (`action` on `sysname`, of `subsystem`) can change what ``discover(_:)`` finds for `kind`, the
    /// device in use being at `syspath` (nil: none). A look goes through every IIO device (and, for light and
    /// proximity, more), so the events that cannot change its answer are left out:
    /// - `move`, `online` and `offline`;
    /// - of the input subsystem, any but an event node's: only an event node can be a proximity switch, and it comes
    ///   and goes with uevents of its own (its `inputN` parent comes before it and goes after it; `mouseN` and `jsN`
    ///   are never the switch);
    /// - a device removed or unbound that is not the one in use: a device that goes takes nothing to find with it
    ///   but itself, and the one in use, found first, stays first. For light, a trigger that goes may be the one its
    ///   buffer is read on, and counts.
    static func eventMayChangeDiscovery(
        _ action: HotplugAction,
        sysname: String,
        subsystem: String,
        kind: ClaimedSensorKind,
        inUse syspath: String?
    ) -> Bool {
        if subsystem == "input", !sysname.hasPrefix("event") { return false }
        switch action {
        case .add, .change, .bind:
            return true
        case .remove, .unbind:
            let inUse = syspath?.hasSuffix("/" + sysname) ?? false
            return inUse || (kind == .light && sysname.hasPrefix("trigger"))
        case .other:
            return false
        }
    }

    /// The udev subsystems whose devices can be a sensor of `kind`.
    static func subsystems(_ kind: ClaimedSensorKind) -> [String] {
        switch kind {
        case .light: ["iio", "platform", "hwmon"]
        case .proximity: ["iio", "input"]
        case .compass: ["iio"]
        }
    }

    /// The first IIO device (by sysfs path) with a channel of `kind` (for light, with its buffer when it is an
    /// `acpi-als` that has one), else for light Apple's SMC: its sysfs path and the channel read, as a sensor would
    /// find it now (for `orientd sensors`).
    public static func discover(_ kind: ClaimedSensorKind) -> (syspath: String, channel: ClaimedSensorChannel)? {
        guard let udev = try? Udev() else { return nil }
        let devices = udev.devices(subsystem: "iio").sorted(by: { $0.syspath < $1.syspath })
        // A device udev marks as a sensor of this kind (IIO_SENSOR_PROXY_TYPE) goes before one it does not mark.
        let marked = { (device: UdevDevice) in SensorProxyType.marks(device.properties, as: kind.sensorProxyMeasure) }
        for device in devices.filter(marked) + devices.filter({ !marked($0) }) {
            let sysfs = SysfsAttributes(path: device.syspath)
            let exists = { (name: String) in access(device.syspath + "/" + name, F_OK) == 0 }
            guard
                var channel = ClaimedSensorChannel.find(
                    kind,
                    exists: exists,
                    attribute: sysfs.read,
                    property: {
                        device.properties[$0]
                    }
                )
            else { continue }
            if kind == .light, let name = sysfs.read("name"), LightBuffer.drivers.contains(name) {
                let triggers = Set(devices.compactMap { SysfsAttributes(path: $0.syspath).read("name") })
                channel.buffer = LightBuffer.find(
                    deviceName: name,
                    sysname: device.sysname,
                    devnode: device.devnode,
                    exists: exists,
                    attribute: sysfs.read,
                    triggers: triggers
                )
            }
            return (device.syspath, channel)
        }
        if kind == .proximity { return proximitySwitch(udev) }
        guard kind == .light else { return nil }
        // iio-sensor-proxy's hwmon light: Apple's SMC, whose kernel driver shows `light` on its platform device
        // (modalias platform:applesmc), on a hwmon device (where iio-sensor-proxy's udev rule looks), or any platform
        // or hwmon device udev marks IIO_SENSOR_PROXY_TYPE=hwmon-als; marked ones first.
        let hwmonALS = { (device: UdevDevice) in SensorProxyType.types(in: device.properties).contains(.hwmonALS) }
        let platform = udev.devices(subsystem: "platform").filter { isAppleSMC($0) || hwmonALS($0) }
        let candidates = (platform + udev.devices(subsystem: "hwmon"))
            .filter { access($0.syspath + "/light", F_OK) == 0 }
            .sorted(by: { $0.syspath < $1.syspath })
        guard let device = candidates.first(where: hwmonALS) ?? candidates.first else { return nil }
        return (device.syspath, .hwmonLight)
    }

    /// The first evdev node (by number) of an input device with the switch `SW_FRONT_PROXIMITY` (its
    /// `capabilities/sw`), as iio-sensor-proxy's input proximity driver finds it; nil without one.
    private static func proximitySwitch(_ udev: Udev) -> (syspath: String, channel: ClaimedSensorChannel)? {
        let nodes = udev.devices(subsystem: "input", parentAttributes: ["capabilities/sw"])
            .filter { $0.sysname.hasPrefix("event") && $0.devnode != nil }
            .sorted { InputAccelerometerDiscovery.nodeOrder($0.sysname, $1.sysname) }
        guard
            let found = nodes.first(where: {
                ClaimedSensorChannel.hasFrontProximity(switches: $0.parentAttributes["capabilities/sw"] ?? "")
            }),
            let node = found.devnode
        else { return nil }
        return (found.syspath, .frontProximitySwitch(node: node))
    }

    /// Whether a platform device is Apple's SMC (its modalias or its driver).
    private static func isAppleSMC(_ device: UdevDevice) -> Bool {
        device.properties["MODALIAS"] == "platform:applesmc" || device.properties["DRIVER"] == "applesmc"
    }
}

/// What a ``ClaimedSensor`` tells its owner, given to the sensor when it is made.
public protocol ClaimedSensorDelegate: AnyObject {
    /// A reading of the running sensor: the channel's value after its scale and offset (lux or a vendor value for
    /// light, the raw value for proximity, degrees for the compass).
    func claimedSensor(_ sensor: ClaimedSensor, read value: Double)
    /// The sensor's device appeared or went (hotplug); ``ClaimedSensor/channel`` tells which.
    func claimedSensorDiscoveryChanged(_ sensor: ClaimedSensor)
}
