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
import OrientDaemon
import OrientProtocol
import OrientationCore
import SensorDevices
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The accelerometers' readings taken through the running daemon, for `orientd calibrate` when a driver refuses it
/// raw readings while the daemon reads the buffer for a client (bmc150, kxcjk-1013, st_accel: the kernel answers
/// `EBUSY`).
///
/// It connects to the daemon's control socket, `begin`s (so that the sensors keep running for the calibration) and
/// asks for `status` at about the sensors' rate on the calibration's loop: each sensor's `reading` (its last sample
/// before the mount matrix, in m/s²) that comes with a new `samples_read` is handed to the sink as a sample of that
/// sensor, timed by the calibration's own clock. ``stop()`` ends its generation and closes the connection.
final class DaemonStatusReadings {
    /// The daemon's control socket: `[Server] Socket=` of its configuration when set, else `$ORIENTD_SOCKET` when
    /// set and not empty (as clients take it), else `/run/orientd/socket`.
    static var socketPath: String {
        if let configuration = try? Configuration.load(), let entry = configuration.entry("Socket", in: "Server"),
            entry.source != .defaultValue
        {
            return entry.value
        }
        if let value = getenv("ORIENTD_SOCKET"), value.pointee != 0 { return String(cString: value) }
        return DaemonSettings().socketPath
    }

    /// How long the daemon has to answer the first `begin` and `status`.
    static let answerTimeout = 2.0

    private let loop: EventLoop
    /// The connection, non-blocking; closed by ``stop()``.
    private let socket: FileDescriptor
    private let socketPath: String
    /// The accelerometers read, by location, with the device each must be in the daemon's `status`.
    private let devices: [SensorLocation: String]
    private unowned let sink: any AccelerometerSampleSink
    private let failed: (String) -> Void
    private var framer = LineFramer(limit: 1 << 20)
    private var source: IOSource?
    private var timer: TimerSource?
    /// Whether a `status` was sent and not answered yet.
    private var asking = false
    /// Each sensor's `samples_read` at the reading handed on last.
    private var seen: [SensorLocation: Int] = [:]
    private var stopped = false

    /// Connects, begins, and checks that the daemon reads each of `devices` (by location) and captures it.
    /// - Parameters:
    ///   - failed: called once on the loop when the readings stop coming: the daemon went away, or its sensor did.
    /// - Throws: ``Unavailable`` with why the daemon cannot give the readings (nothing listens at the socket, it
    ///   does not answer, it reads another accelerometer).
    init(
        loop: EventLoop,
        socketPath: String = DaemonStatusReadings.socketPath,
        devices: [SensorLocation: String],
        sink: any AccelerometerSampleSink,
        failed: @escaping (String) -> Void
    ) throws(Unavailable) {
        self.loop = loop
        self.socketPath = socketPath
        self.devices = devices
        self.sink = sink
        self.failed = failed
        do {
            socket = try FileDescriptor.connect(toUnixSocketAt: socketPath, nonBlocking: true)
        } catch {
            throw Unavailable(description: "nothing answers at \(socketPath) (\(error))")
        }
        let deadline = Self.clock() + Self.answerTimeout
        _ = try exchange(.begin, until: deadline)
        // The sensors may still be starting for this begin: asked again until each captures, or the time is up.
        var rate = 20.0
        while true {
            let report = try decode(try exchange(.status, until: deadline))
            rate = report.sensor.rate
            if let problem = problem(with: report) {
                guard problem.passing, Self.clock() < deadline else {
                    throw Unavailable(description: problem.text)
                }
                var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
                _ = nanosleep(&pause, nil)
                continue
            }
            for (location, reading) in readings(report) { seen[location] = reading.samplesRead }
            break
        }
        let interval = 1 / min(max(rate, 5), 50)
        do {
            source = try loop.addIO(fd: socket.rawValue, events: .readable) { [unowned self] _ in self.readReplies() }
            timer = try loop.addRepeatingTimer(interval: interval) { [unowned self] in self.ask() }
        } catch {
            throw Unavailable(description: "\(error)")
        }
    }

    deinit {
        stop()
    }

    /// Why the daemon cannot give the readings.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Ends this connection's generation and closes it: the daemon's sensors stop unless others generate.
    func stop() {
        guard !stopped else { return }
        stopped = true
        source = nil
        timer = nil
        try? socket.writeAll(Request(method: .end).line, using: .send)
        socket.close()
    }

    // MARK: The first exchange, waited for

    /// CLOCK_MONOTONIC now, read (the loop's clock stands still within one of its callbacks).
    private static func clock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Sends `method` and waits (poll(2)) for its reply line until `deadline` (``clock()``); events are skipped.
    private func exchange(_ method: Request.Method, until deadline: Double) throws(Unavailable) -> [UInt8] {
        do {
            try socket.writeAll(Request(method: method).line, using: .send)
        } catch {
            throw Unavailable(description: "orientd at \(socketPath) closed the connection (\(error))")
        }
        while true {
            while case .line(let line) = framer.nextLine() {
                switch try? ServerMessage.parse(line) {
                case .result?: return line
                case .error(_, let error)?:
                    throw Unavailable(description: "orientd at \(socketPath) answered \(method.rawValue) with \(error)")
                case .event?: continue
                case nil: throw Unavailable(description: "orientd at \(socketPath) sent a line that is not a reply")
                }
            }
            let left = deadline - Self.clock()
            guard left > 0 else {
                throw Unavailable(description: "orientd at \(socketPath) did not answer \(method.rawValue)")
            }
            var descriptor = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
            _ = retryingInterrupts { poll(&descriptor, 1, Int32(left * 1000) + 1) }
            switch readAvailable() {
            case .open: continue
            case .closed(let why): throw Unavailable(description: "orientd at \(socketPath) \(why)")
            }
        }
    }

    // MARK: On the loop

    /// Asks for `status`, unless the last one is still unanswered.
    private func ask() {
        guard !asking, !stopped else { return }
        asking = true
        do {
            try socket.writeAll(Request(method: .status).line, using: .send)
        } catch {
            fail("orientd closed the connection (\(error))")
        }
    }

    private func readReplies() {
        if case .closed(let why) = readAvailable() {
            fail("orientd \(why)")
            return
        }
        while !stopped, case .line(let line) = framer.nextLine() {
            switch try? ServerMessage.parse(line) {
            case .result?:
                asking = false
                do throws(Unavailable) {
                    try take(decode(line))
                } catch {
                    fail(error.description)
                }
            case .error(_, let error)?:
                fail("orientd answered status with \(error)")
            case .event?:
                continue
            case nil:
                fail("orientd sent a line that is not a reply")
            }
        }
    }

    /// Hands on each sensor's reading if it is a new one.
    private func take(_ report: StatusReport) throws(Unavailable) {
        if let problem = problem(with: report) { throw Unavailable(description: problem.text) }
        let now = loop.now
        for (location, reading) in readings(report) where reading.samplesRead != seen[location] {
            seen[location] = reading.samplesRead
            guard let values = reading.reading, values.count == 3 else { continue }
            sink.take(
                Sample(time: now, acceleration: Vector3(x: values[0], y: values[1], z: values[2])),
                from: location
            )
        }
    }

    private func fail(_ why: String) {
        guard !stopped else { return }
        stop()
        failed(why)
    }

    // MARK: The daemon's replies

    private enum Connection {
        case open
        case closed(String)
    }

    /// Reads what the socket holds into the framer.
    private func readAvailable() -> Connection {
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let read = bytes.withUnsafeMutableBytes { buffer -> Result<Int, Errno> in
                do throws(Errno) {
                    return .success(try socket.read(into: buffer))
                } catch {
                    return .failure(error)
                }
            }
            let count: Int
            switch read {
            case .success(let value): count = value
            case .failure(let error):
                return error == .wouldBlock ? .open : .closed("closed the connection (\(error))")
            }
            guard count > 0 else { return .closed("closed the connection: it stopped") }
            bytes.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    private func decode(_ line: [UInt8]) throws(Unavailable) -> StatusReport {
        do {
            return try ServerMessage.parseResult(StatusReport.self, from: line)
        } catch {
            throw Unavailable(description: "orientd's status could not be read (\(error))")
        }
    }

    /// The daemon's report of each sensor read.
    private func readings(_ report: StatusReport) -> [(SensorLocation, StatusReport.Sensor)] {
        devices.keys.sorted { $0 == .display && $1 == .base }.compactMap { location in
            (location == .display ? report.sensor : report.baseSensor).map { (location, $0) }
        }
    }

    /// What keeps the daemon from giving a sensor's readings; `passing` while its sensor may still be starting.
    private func problem(with report: StatusReport) -> (text: String, passing: Bool)? {
        for (location, device) in devices {
            let name = location == .base ? "the base accelerometer" : "the accelerometer"
            guard let sensor = location == .display ? report.sensor : report.baseSensor, sensor.device == device else {
                return ("orientd does not read \(device) as \(name)", false)
            }
            switch sensor.status {
            case .active: continue
            case .stopped: return ("orientd's sensor \(device) is stopped", true)
            case .absent: return ("orientd's sensor \(device) went away", false)
            case .failed:
                return ("orientd cannot read \(device) either" + (sensor.lastError.map { ": \($0)" } ?? ""), false)
            }
        }
        return nil
    }
}
