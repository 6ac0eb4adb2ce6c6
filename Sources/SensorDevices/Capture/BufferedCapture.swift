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
import EventLoop
import Logging
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Captures scans through the IIO buffer: the kernel pushes them, the loop wakes on the buffer's
/// poll fd, and every complete scan is decoded, calibrated and handed on. No thread, no timer:
/// between samples the process sleeps in the kernel.
///
/// At the idle pace (``setPace(_:)``) the device samples at the lowest frequency it offers at or above the idle
/// rate, and the buffer (whose size libiio also writes as the FIFO's `buffer/watermark`) holds that frequency's
/// scans of one idle period, so that the kernel wakes the process about `IdleRate=` times a second. A device whose
/// driver can hold back the scans of a still device (``MotionGate``: a HID hub's hysteresis, an any-motion trigger)
/// is gated at the idle pace instead, with a buffer of one scan: the kernel wakes the process only when it moves.
/// Then the sensor asks now and then for one scan with the gate open (``probe()``) to see that the buffer still
/// delivers.
final class BufferedCapture: Capture {
    /// The longest the scans of one wake-up may wait in the FIFO at the full pace: the buffer (and so the watermark)
    /// holds this much of the full frequency's scans, at least one and at most ``maximumFullScans``.
    private static let fullPaceWait = 0.05
    private static let maximumFullScans = 16
    /// The most scans one wake-up may gather at the idle pace.
    private static let maximumIdleScans = 64

    /// The device captured.
    let device: IIODevice
    var mode: CaptureMode { .buffer }
    private let layout: ScanLayout
    private let calibration: Calibration
    private let loop: EventLoop
    /// The sensor that made this capture: it takes every scan, and the capture's failure.
    private unowned let owner: AccelerometerSensor
    private let check: RawReadingCheck
    private let settings: DeviceSettings
    private let accelerometer: Accelerometer
    private let logger: Logger
    /// The full rate and the idle rate asked for.
    private let rate: Double
    private let idleRate: Double
    private var buffer: OpaquePointer?
    /// Counts the buffers made: scans of a buffer replaced while they are decoded are dropped.
    private var bufferGeneration = 0
    /// Scans per wake-up at the full pace: at most ``fullPaceWait`` of them.
    private var fullScans: Int {
        let frequency = accelerometer.chooseFrequency(atLeast: rate)
        return max(1, min(Self.maximumFullScans, Int((frequency * Self.fullPaceWait).rounded(.down))))
    }
    /// The pace the device is configured for now.
    private(set) var pace = SensorPace.full
    /// What can hold back the scans of a still device at the idle pace; nil when the driver has nothing.
    let gate: MotionGate?
    /// Whether the gate holds back the scans of a still device now (the idle pace, the gate set, no probe).
    private(set) var motionGated = false
    /// Whether the gate is open for one scan (``probe()``).
    private(set) var probing = false
    private var source: IOSource?
    /// A failure to enable the buffer again after a change of pace, reported at the next loop iteration.
    private var pendingFailure: TimerSource?
    /// The start of a scan split across two reads, kept until the rest arrives.
    private var carry: [UInt8]
    private var carryCount = 0

    /// Configures the device (scan elements, trigger, sampling frequency, hysteresis 0), creates a
    /// non-blocking buffer and watches its poll fd.
    /// - Throws: ``SensorError`` naming the step that failed; the device is restored then.
    init(
        device: IIODevice,
        accelerometer: Accelerometer,
        rate: Double,
        idleRate: Double,
        loop: EventLoop,
        logger: Logger,
        owner: AccelerometerSensor
    ) throws(SensorError) {
        self.device = device
        self.calibration = accelerometer.calibration
        self.loop = loop
        self.owner = owner
        self.accelerometer = accelerometer
        self.logger = logger
        self.rate = rate
        self.idleRate = min(max(idleRate, 1), rate)
        settings = DeviceSettings.save(device, accelerometer: accelerometer)
        gate = MotionGate.find(
            device,
            dataReadyTrigger: accelerometer.triggerName,
            savedHysteresis: settings.savedHysteresis
        )

        guard let x = device.accelerometerChannel("x"), let y = device.accelerometerChannel("y"),
            let z = device.accelerometerChannel("z"),
            let xFormat = x.format, let yFormat = y.format, let zFormat = z.format
        else {
            throw SensorError(
                .badAttribute,
                operation: "scan_elements",
                device: device.id,
                detail: "x, y or z has no scan format"
            )
        }
        check = RawReadingCheck(x: xFormat, y: yFormat, z: zFormat)
        let timestamp = device.channel("timestamp").flatMap { $0.isScanElement ? $0 : nil }
        do {
            layout = try ScanLayout(
                x: ScanLayout.Channel(scanIndex: x.index, format: xFormat),
                y: ScanLayout.Channel(scanIndex: y.index, format: yFormat),
                z: ScanLayout.Channel(scanIndex: z.index, format: zFormat),
                timestamp: timestamp.flatMap { channel in
                    channel.format.map { ScanLayout.Channel(scanIndex: channel.index, format: $0) }
                }
            )
        } catch {
            throw SensorError(.badAttribute, operation: "scan_elements", device: device.id, detail: "\(error)")
        }
        carry = [UInt8](repeating: 0, count: layout.scanSize)

        do throws(SensorError) {
            for channel in device.channels { channel.setEnabled(false) }
            for channel in [x, y, z] { channel.setEnabled(true) }
            timestamp?.setEnabled(true)
            try settings.configure(device, accelerometer: accelerometer, rate: rate, logger: logger)
            try makeBuffer(scans: fullScans)
        } catch {
            stop()
            throw error
        }
    }

    /// Creates the non-blocking buffer of `scans` scans (libiio writes `buffer/length` and `buffer/watermark`,
    /// and enables it) and watches its poll fd.
    private func makeBuffer(scans: Int) throws(SensorError) {
        guard let created = iio_device_create_buffer(device.pointer, scans, false) else {
            throw SensorError.call("iio_device_create_buffer", device: device.id, errno: .current)
        }
        buffer = created
        bufferGeneration &+= 1
        carryCount = 0
        let blocking = iio_buffer_set_blocking_mode(created, false)
        guard blocking == 0 else {
            throw SensorError.call("iio_buffer_set_blocking_mode", device: device.id, errno: Errno(blocking))
        }
        let step = iio_buffer_step(created)
        guard step == layout.scanSize else {
            throw SensorError(
                .badAttribute,
                operation: "scan layout",
                device: device.id,
                detail: "libiio's scan is \(step) bytes, the scan elements' layout \(layout.scanSize)"
            )
        }
        let fd = iio_buffer_get_poll_fd(created)
        guard fd >= 0 else { throw SensorError.call("iio_buffer_get_poll_fd", device: device.id, errno: Errno(fd)) }
        do {
            source = try loop.addIO(fd: fd, events: .readable) { [unowned self] _ in self.drain() }
        } catch {
            throw SensorError.call("sd_event_add_io", device: device.id, errno: error.errno)
        }
    }

    /// Disables the buffer (it must be off for the frequency, the trigger and the watermark to change), sets the
    /// sampling frequency of `new` (and at the idle pace, closes the gate when there is one) and enables a buffer
    /// sized for it. May be called while a scan is handed on: the rest of the old buffer's scans are dropped.
    ///
    /// - Returns: false when the driver refuses the frequency of the idle pace (a write error, or it reads back
    ///   another value) and has no gate: the capture is at the full pace then. A failure to enable the buffer again
    ///   ends in the sensor's `captureFailed(_:)`.
    @discardableResult
    func setPace(_ new: SensorPace) -> Bool {
        guard new != pace, buffer != nil else { return true }
        probing = false
        return configure(new, gated: new == .idle)
    }

    /// Opens the gate for one scan, at the idle pace, to see that the buffer still delivers while the device is
    /// still; the first scan closes it again. Does nothing unless the gate holds the scans back now.
    /// A hub's hysteresis changes with the buffer on (two attribute writes, no re-configuration); the any-motion
    /// trigger only with the buffer off (``switchGate(closed:)``), which is why its probes are rarer
    /// (``MotionGate/looksPerProbe``).
    func probe() {
        guard motionGated, buffer != nil else { return }
        probing = true
        if case .hysteresis = gate, settings.setHysteresis(device, "0") {
            motionGated = false
            return
        }
        switchGate(closed: false)
    }

    /// The probe's scan came: the gate closes again, with the buffer on when it is a hub's hysteresis.
    private func endProbe() {
        probing = false
        if case .hysteresis(let value) = gate, settings.setHysteresis(device, value) {
            motionGated = true
            return
        }
        switchGate(closed: true)
    }

    /// Opens or closes the gate with the buffer off (an any-motion trigger), at the idle pace: the buffer disabled,
    /// the trigger set, the buffer of one scan enabled again. The sampling frequency stays as it is (a probe does not
    /// change the pace): no write but the trigger's and the buffer's own.
    private func switchGate(closed: Bool) {
        source = nil
        if let buffer { iio_buffer_destroy(buffer) }
        buffer = nil
        motionGated = setGate(closed: closed)
        enableBuffer(scans: 1)
    }

    /// Configures the pace `new`, the gate closed when `gated` and the pace idle, and a buffer to match.
    @discardableResult
    private func configure(_ new: SensorPace, gated: Bool) -> Bool {
        source = nil
        if let buffer { iio_buffer_destroy(buffer) }
        buffer = nil
        let full = accelerometer.chooseFrequency(atLeast: rate)
        var accepted = true
        var scans = fullScans
        if new == .idle {
            let frequency = accelerometer.chooseFrequency(atLeast: idleRate)
            let lowered = settings.setFrequency(device, frequency)
            if !lowered { settings.setFrequency(device, full) }
            if lowered || gate != nil {
                pace = .idle
                // Gated, every scan means motion (or is the probe's): each one wakes the process at once.
                scans =
                    gate != nil ? 1 : max(1, min(Self.maximumIdleScans, Int((frequency / idleRate).rounded(.down))))
            } else {
                accepted = false
                pace = .full
            }
        } else {
            pace = .full
            settings.setFrequency(device, full)
        }
        motionGated = setGate(closed: pace == .idle && gated)
        enableBuffer(scans: scans)
        return accepted
    }

    /// Enables a buffer of `scans` scans again after a change with the buffer off; a failure ends in the sensor's
    /// `captureFailed(_:)` at the next loop iteration.
    private func enableBuffer(scans: Int) {
        do {
            try makeBuffer(scans: scans)
        } catch {
            source = nil
            if let buffer { iio_buffer_destroy(buffer) }
            buffer = nil
            motionGated = false
            // Not from inside the sample's delivery: at the next loop iteration.
            pendingFailure = try? loop.addNextTurnAction { [unowned self] in
                self.pendingFailure = nil
                self.owner.captureFailed(error)
            }
        }
    }

    /// Closes the gate (the hub's hysteresis, the any-motion trigger) or opens it (hysteresis 0, the data-ready
    /// trigger); with the buffer off. Returns whether the gate is closed now: a driver that refuses it is read at
    /// the idle frequency, as one with no gate.
    private func setGate(closed: Bool) -> Bool {
        switch gate {
        case nil:
            return false
        case .hysteresis(let value):
            if closed, settings.setHysteresis(device, value) { return true }
            settings.setHysteresis(device, "0")
            return false
        case .anyMotionTrigger(let name):
            if closed, settings.setTrigger(device, name) { return true }
            if let dataReady = accelerometer.triggerName { settings.setTrigger(device, dataReady) }
            return false
        }
    }

    deinit {
        stop()
    }

    /// Stops capture: no source, no buffer, the device's settings restored. Safe to call twice.
    func stop() {
        source = nil
        pendingFailure = nil
        motionGated = false
        probing = false
        if let buffer {
            iio_buffer_destroy(buffer)
            self.buffer = nil
        }
        settings.restore(device)
    }

    /// Reads every complete scan the buffer has, until it would block.
    ///
    /// A sample handed on can end in this capture being stopped (the last generating client went
    /// away), which destroys the buffer: after every scan the buffer is looked at again, and its
    /// memory is never touched once it is gone.
    private func drain() {
        while let buffer {
            let count = retryingInterrupts(.negatedErrno) { iio_buffer_refill(buffer) }
            if count == -Int(EAGAIN) { return }
            guard count > 0, let start = iio_buffer_start(buffer) else {
                let code = count == 0 ? EIO : Int32(-count)
                owner.captureFailed(SensorError.call("iio_buffer_refill", device: device.id, errno: Errno(code)))
                return
            }
            consume(UnsafeRawPointer(start), count: count, generation: bufferGeneration)
        }
    }

    /// Decodes the scans in `bytes` (read from the buffer of `generation`), joining one split across reads; stops
    /// once that buffer is gone or replaced (a sample handed on changed the pace or stopped the capture).
    private func consume(_ bytes: UnsafeRawPointer, count: Int, generation: Int) {
        var current: Bool { buffer != nil && bufferGeneration == generation }
        let size = layout.scanSize
        var offset = 0
        if carryCount > 0 {
            let take = min(size - carryCount, count)
            carry.withUnsafeMutableBytes { carried in
                carried.baseAddress!.advanced(by: carryCount).copyMemory(from: bytes, byteCount: take)
            }
            carryCount += take
            offset = take
            guard carryCount == size else { return }
            carryCount = 0
            carry.withUnsafeBytes { carried in emit(carried.baseAddress!) }
        }
        while offset + size <= count {
            guard current else { return }
            emit(bytes.advanced(by: offset))
            offset += size
        }
        guard current else { return }
        if offset < count {
            carry.withUnsafeMutableBytes { carried in
                carried.baseAddress!.copyMemory(from: bytes.advanced(by: offset), byteCount: count - offset)
            }
            carryCount = count - offset
        }
    }

    private func emit(_ scan: UnsafeRawPointer) {
        let raw = layout.decode(scan)
        let time = raw.timestamp.map { Double($0) / 1_000_000_000 } ?? loop.now
        owner.captured(
            Sample(time: time, acceleration: calibration.apply(x: raw.x, y: raw.y, z: raw.z)),
            quality: check.quality(x: raw.x, y: raw.y, z: raw.z),
            gated: motionGated || probing
        )
        // The probe's scan came, and the device is still (the sample did not bring the full pace back): the gate
        // closes again.
        if probing, pace == .idle, buffer != nil { endProbe() }
    }
}
