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
import Logging
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reads a light sensor through its IIO buffer while a ``ClaimedSensor`` runs on one (`acpi-als`): only the
/// illuminance scan element enabled, the device's own trigger set, the buffer enabled, and the device node watched
/// by the event loop, so that the process wakes only when the kernel pushes a scan (the firmware reports a change).
///
/// Of each wake-up's scans only the last is handed on, as iio-sensor-proxy does: it is the light now. Reading
/// allocates nothing: the scans go into a buffer made once. Stopping puts back the scan elements, the trigger and
/// the buffer's state as they were.
final class BufferedLightCapture {
    /// The most scans one read takes.
    private static let scansPerRead = 16

    private let buffer: LightBuffer
    private let sysfs: SysfsAttributes
    private let device: String
    private unowned let owner: ClaimedSensor
    private var file: FileDescriptor?
    private var source: IOSource?
    /// The settings found before configuring, to put back.
    private var savedEnables: [(String, String)] = []
    private var savedTrigger: String?
    private var savedEnable: String?
    /// Whether the device was changed and is to be put back.
    private var changed = false
    /// The scans read.
    private var reader: RecordReader

    /// Configures the device and watches its node.
    /// - Parameters:
    ///   - syspath: the device's sysfs folder.
    ///   - owner: takes each reading and the failure that ends the capture.
    /// - Throws: ``SensorError`` naming the step that failed; the device is put back then.
    init(
        syspath: String,
        buffer: LightBuffer,
        loop: EventLoop,
        owner: ClaimedSensor
    ) throws(SensorError) {
        self.buffer = buffer
        self.sysfs = SysfsAttributes(path: syspath)
        self.device = syspath.split(separator: "/").last.map(String.init) ?? syspath
        self.owner = owner
        reader = RecordReader(recordSize: buffer.scanSize, recordsPerRead: Self.scansPerRead)
        savedEnables = sysfs.list("scan_elements").filter { $0.hasSuffix("_en") }.compactMap { name in
            sysfs.read("scan_elements/" + name).map { ("scan_elements/" + name, $0) }
        }
        savedTrigger = sysfs.read("trigger/current_trigger")
        savedEnable = sysfs.read("buffer/enable")
        do throws(SensorError) {
            changed = true
            try write("buffer/enable", "0")
            for (name, value) in savedEnables where value != "0" { try write(name, "0") }
            try write("scan_elements/\(buffer.element)_en", "1")
            try write("trigger/current_trigger", buffer.trigger)
            try write("buffer/enable", "1")
            let file: FileDescriptor
            do {
                file = try FileDescriptor.open(buffer.node, O_RDONLY | O_NONBLOCK)
            } catch {
                throw SensorError.call("open(\(buffer.node))", device: device, errno: error)
            }
            self.file = file
            do {
                source = try loop.addIO(fd: file.rawValue, events: .readable) { [unowned self] _ in self.drain() }
            } catch {
                throw SensorError.call("sd_event_add_io", device: device, errno: error.errno)
            }
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Stops reading and puts the device back as it was. Safe to call twice.
    func stop() {
        source = nil
        file?.close()
        file = nil
        guard changed else { return }
        changed = false
        try? write("buffer/enable", "0")
        for (name, value) in savedEnables { try? write(name, value) }
        if let savedTrigger { try? write("trigger/current_trigger", savedTrigger) }
        if let savedEnable, savedEnable != "0" { try? write("buffer/enable", savedEnable) }
    }

    /// Writes an attribute as `echo` does (the file truncated, a newline after the value: an empty value clears
    /// the trigger).
    private func write(_ name: String, _ value: String) throws(SensorError) {
        do throws(Errno) {
            let file = try FileDescriptor.open(sysfs.path + "/" + name, O_WRONLY | O_TRUNC)
            defer { file.close() }
            try file.writeAll(value + "\n")
        } catch {
            throw SensorError.call("write \(name)=\(value)", device: device, errno: error)
        }
    }

    /// Reads until the node would block, and hands on the last complete scan read.
    private func drain() {
        guard let file else { return }
        var last: Int64?
        let format = buffer.format
        let outcome = reader.drain(file, { last = format.decode($0) })
        if let failure = outcome.failure(of: "read(\(buffer.node))", device: device) {
            owner.captureFailed(failure)
            return
        }
        if let last { owner.captured(buffer.value(ofRaw: last)) }
    }
}
