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

import CSystemd
import EventLoop
import IIOSensor
public import Logging
import OrientProtocol
import OrientationCore
import TabletMode

#if canImport(Glibc)
import Glibc
#endif

/// orientd's daemon: one sd-event loop with the sensor's sources, the control socket and its
/// connections, and the signal sources; see ARCHITECTURE.md.
///
/// It makes the parts and wires them: the sensor's samples, status and discoveries and the tablet-mode switch go
/// to the ``Engine``; the control server's requests to ``ControlRequests``; the engine's events to the control
/// server; its changes to sd_notify and the D-Bus service. It builds `status` from the parts that own what it
/// reports, and applies a reloaded configuration to each of them.
public final class Daemon {
    let loop: EventLoop
    private let logger: Logger
    let engine: Engine
    private let requests: ControlRequests
    private(set) var sensor: AccelerometerSensor
    /// The base accelerometer of a convertible with two, for the hinge angle: started and stopped with ``sensor``.
    private(set) var baseSensor: AccelerometerSensor
    /// The base sensor's sample times on the display's clock, for the hinge.
    private let clocks = SensorClocks()
    private(set) var tabletModeMonitor: TabletModeMonitor?
    /// Whether the daemon said that `AutoRotate=tablet-mode` rotates as `always` for want of a switch.
    private var saidNoSwitch = false
    private(set) var server: ControlServer?
    /// iio-sensor-proxy's D-Bus API, with `[DBus] Compat=yes`.
    private(set) var sensorProxy: SensorProxyService?
    private var signals: [SignalSource] = []
    private(set) var settings: DaemonSettings
    private let logLevel: ConfigurationLogHandler.Level
    private let reloadConfiguration: (() throws(ConfigurationErrors) -> Configuration)?
    /// The loop's clock at start, for `status`'s uptime.
    let startTime: Double
    /// Gives back the code pages the daemon has stopped using, once set up and whenever it settles.
    let trimmer: PageTrimmer

    /// Sets everything up: the state directory, the socket (inherited from systemd or made at
    /// `settings.socketPath`), the sensor (stopped until someone begins generating).
    /// - Parameters:
    ///   - settings: what to run with; `logLevel` applies to `logger` and every logger made from it.
    ///   - logger: where messages go.
    ///   - reload: re-reads the configuration files on SIGHUP, with the command-line overrides
    ///     applied to its settings; nil: SIGHUP is ignored with a notice.
    /// - Throws: ``DaemonError`` saying what could not be set up.
    public init(
        settings: DaemonSettings,
        logger: Logger,
        reload: (() throws(ConfigurationErrors) -> Configuration)? = nil
    ) throws(DaemonError) {
        logLevel = ConfigurationLogHandler.Level(settings.logLevel)
        let logger = logger.following(logLevel)
        self.logger = logger
        self.settings = settings
        reloadConfiguration = reload
        do {
            loop = try EventLoop()
        } catch {
            throw DaemonError(.eventLoop, "cannot create the event loop: \(error)")
        }
        startTime = loop.now
        trimmer = PageTrimmer(loop: loop, logger: logger)
        let store = StateStore(directory: settings.stateDirectory, logger: logger)
        do {
            engine = try Engine(settings: settings, store: store, logger: logger)
        } catch {
            throw DaemonError(.policy, "bad policy settings: \(error)")
        }
        let authorizer = Authorizer(group: settings.controlGroup, seatUsers: settings.seatUsers, logger: logger)
        requests = ControlRequests(engine: engine, authorizer: authorizer, logger: logger)
        sensor = Self.makeSensor(
            .display,
            options: settings.sensor,
            loop: loop,
            engine: engine,
            clocks: clocks,
            logger: logger
        )
        baseSensor = Self.makeSensor(
            .base,
            options: settings.sensor,
            loop: loop,
            engine: engine,
            clocks: clocks,
            logger: logger
        )

        let (listener, ownedPath) = try Self.listeningSocket(settings.socketPath, logger: logger)
        do {
            let server = try ControlServer(
                listener: listener,
                ownedPath: ownedPath,
                settings: settings,
                loop: loop,
                engine: engine,
                requests: requests,
                logger: logger
            )
            self.server = server
            engine.broadcast = { [unowned server] line in server.broadcast(line) }
        } catch {
            throw DaemonError(.controlSocket, "cannot watch the control socket: \(error)")
        }
        engine.onStateChange = { state in Self.notify(status: state) }
        engine.onSettle = { [unowned trimmer] in trimmer.request() }
        if settings.sensorProxyCompat {
            let service = SensorProxyService(loop: loop, engine: engine, logger: logger)
            sensorProxy = service
            engine.onStateChange = { [unowned service] state in
                Self.notify(status: state)
                service.refresh()
            }
            engine.onTiltChange = { [unowned service] in service.refresh() }
        }
        do {
            for signal in [SIGTERM, SIGINT] {
                signals.append(try loop.addSignal(signal) { [unowned self] in self.shutDown(signal: signal) })
            }
            signals.append(try loop.addSignal(SIGHUP) { [unowned self] in self.reload() })
            _ = try loop.setWatchdog(true)
        } catch {
            throw DaemonError(.signals, "cannot handle signals: \(error)")
        }
        let monitor = TabletModeMonitor(loop: loop, logger: logger) { [unowned self] tabletMode in
            self.engine.tabletModeChanged(to: tabletMode)
            self.sayIfNoSwitch()
        }
        tabletModeMonitor = monitor
        // Nobody is connected yet: this sends nothing, and leaves no event waiting for the first client.
        engine.tabletModeChanged(to: monitor.tabletMode)
        sayIfNoSwitch()
        requests.status = self
    }

    /// With `AutoRotate=tablet-mode` and nothing telling tablet mode (no switch, no decision from the hinge, no
    /// manual setting), rotation follows the device as with `always`: said once, the first time it happens (at
    /// start, on reload, or when the last source goes).
    private func sayIfNoSwitch() {
        guard settings.autoRotate == .tabletMode, engine.tabletMode == nil, !saidNoSwitch else { return }
        saidNoSwitch = true
        let hinge =
            baseSensor.accelerometer == nil
            ? "no base accelerometer for the hinge angle"
            : "the hinge angle has not decided yet"
        logger.notice(
            "AutoRotate=tablet-mode, but no tablet-mode switch (SW_TABLET_MODE) is found and \(hinge): rotating as with 'always' until tablet mode is known"
        )
    }

    /// The sensor of the accelerometer at `location` for the display's `options`, feeding `engine`, discovered but
    /// stopped: the display one drives the orientation (each sample's delay, from the loop's cached clock with no
    /// system call, goes to `clocks`); the base one feeds the hinge, its times put on the display's clock, and its
    /// messages carry `sensor=base`.
    private static func makeSensor(
        _ location: SensorLocation,
        options: SensorOptions,
        loop: EventLoop,
        engine: Engine,
        clocks: SensorClocks,
        logger: Logger
    ) -> AccelerometerSensor {
        let isBase = location == .base
        var logger = logger
        if isBase { logger[metadataKey: "sensor"] = "base" }
        let sensor = AccelerometerSensor(loop: loop, options: isBase ? options.forBase : options, logger: logger) {
            [unowned engine, unowned loop] sample in
            if isBase {
                engine.handleBase(clocks.base(sample, now: loop.now))
            } else {
                clocks.display(sample, now: loop.now)
                engine.handle(sample)
            }
        }
        if isBase { engine.baseSensor = sensor } else { engine.sensor = sensor }
        sensor.onStatusChange = { [unowned engine] _, current in
            if current != .active { clocks.reset() }
            if isBase { engine.baseSensorStatusChanged(to: current) } else { engine.sensorStatusChanged(to: current) }
        }
        sensor.onDiscovery = { [unowned engine] in
            if isBase { engine.baseSensorDiscoveryChanged() } else { engine.sensorDiscoveryChanged() }
        }
        sensor.refreshDiscovery()
        return sensor
    }

    /// Serves until SIGTERM or SIGINT; then stops the sensor (restoring the device), closes the
    /// connections and the socket.
    /// - Returns: the exit status (0 after a signal).
    public func run() -> Int32 {
        sd_notify(0, "READY=1\nSTATUS=serving; nobody generating")
        logger.info("serving", metadata: ["sensor": "\(engine.state.sensor.rawValue)"])
        // Set up: the start-up code's pages are not needed while serving.
        trimmer.request()
        do {
            return try loop.run()
        } catch {
            logger.critical("the event loop failed", metadata: ["error": "\(error)"])
            shutDownNow()
            return 1
        }
    }

    /// Runs one iteration of the loop on the caller's thread: waits up to `timeout` seconds (nil:
    /// until something happens) and dispatches what is ready. For driving the daemon in-process,
    /// as the benchmarks do; ``run()`` is the daemon's own loop.
    /// - Returns: `false` once the loop has finished (after SIGTERM or SIGINT).
    /// - Throws: ``DaemonError`` when the iteration fails.
    @discardableResult
    package func step(timeout: Double?) throws(DaemonError) -> Bool {
        do {
            return try loop.runOnce(timeout: timeout)
        } catch {
            throw DaemonError(.eventLoop, "the event loop failed: \(error)")
        }
    }

    /// SIGHUP: re-reads the configuration. A good one applies without dropping a client; a bad
    /// one, or a `Supported=` that would leave nothing allowed, changes nothing and says why.
    private func reload() {
        guard let reloadConfiguration else {
            logger.notice("SIGHUP: there is no configuration to re-read")
            return
        }
        let configuration: Configuration
        do {
            configuration = try reloadConfiguration()
        } catch {
            for problem in error.errors {
                logger.warning("configuration not reloaded, the old one stays", metadata: ["problem": "\(problem)"])
            }
            return
        }
        let new = configuration.settings
        do {
            try engine.reconfigure(new)
        } catch {
            let supported = configuration.entry("Supported", in: "Policy")
            let source = supported?.source.description ?? "default"
            logger.warning(
                "configuration not reloaded, the old one stays: Supported= must intersect the lock and every constraint",
                metadata: ["problem": "\(source): [Policy] Supported=\(supported?.value ?? "all"): \(error)"]
            )
            return
        }
        let old = settings
        settings = new
        logLevel.current = new.logLevel
        if new.controlGroup != old.controlGroup || new.seatUsers != old.seatUsers {
            requests.authorizer = Authorizer(group: new.controlGroup, seatUsers: new.seatUsers, logger: logger)
        }
        server?.maxClients = new.maxClients
        server?.outputLimit = new.outputLimit
        if !Self.sameSensorOptions(old.sensor, new.sensor) { restartSensor(options: new.sensor) }
        if new.socketPath != old.socketPath {
            logger.notice(
                "Socket= changed: it takes effect at the next restart",
                metadata: ["socket": "\(new.socketPath)"]
            )
        }
        if new.sensorProxyCompat != old.sensorProxyCompat {
            logger.notice("[DBus] Compat= changed: it takes effect at the next restart")
        }
        if new.stateDirectory != old.stateDirectory {
            logger.notice("the state directory changed: it takes effect at the next restart")
        }
        sayIfNoSwitch()
        logger.info("configuration reloaded")
    }

    /// Replaces the sensor with one using `options`, running if someone is generating.
    private func restartSensor(options: SensorOptions) {
        let running = engine.generatingConnections > 0
        for old in [sensor, baseSensor] {
            old.onStatusChange = nil
            old.onDiscovery = nil
            old.stop()
        }
        sensor = Self.makeSensor(.display, options: options, loop: loop, engine: engine, clocks: clocks, logger: logger)
        baseSensor = Self.makeSensor(
            .base,
            options: options,
            loop: loop,
            engine: engine,
            clocks: clocks,
            logger: logger
        )
        if running {
            sensor.start()
            baseSensor.start()
        }
        logger.info(
            "the sensor options changed",
            metadata: ["sensor": "\(running ? "restarted" : "stopped, starts with them")"]
        )
    }

    private static func sameSensorOptions(_ a: SensorOptions, _ b: SensorOptions) -> Bool {
        a.uri == b.uri && a.device == b.device && a.rate == b.rate && a.idleRate == b.idleRate
            && a.pollFallback == b.pollFallback
            && a.mountMatrix == b.mountMatrix && a.forcePolling == b.forcePolling
    }

    private func shutDown(signal: Int32) {
        logger.info("stopping", metadata: ["signal": "\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"])
        sd_notify(0, "STOPPING=1")
        shutDownNow()
        loop.exit(code: 0)
    }

    private func shutDownNow() {
        engine.onStateChange = { _ in }
        engine.onTiltChange = {}
        sensor.onDiscovery = nil
        baseSensor.onStatusChange = nil
        baseSensor.onDiscovery = nil
        sensorProxy = nil
        sensor.stop()
        baseSensor.stop()
        server?.shutDown()
        server = nil
    }

    /// The listening socket: systemd's (socket activation, fd 3) or one made at `path`.
    private static func listeningSocket(_ path: String, logger: Logger) throws(DaemonError) -> (Int32, String?) {
        let count = sd_listen_fds(1)
        if count >= 1 {
            let fd = SD_LISTEN_FDS_START
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            logger.info("serving on the socket systemd passed (socket activation)")
            return (fd, nil)
        }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty { mkdir(folder, 0o755) }
        do {
            return (try SocketCalls.listen(at: path), path)
        } catch {
            throw DaemonError(
                .listen,
                "cannot listen on \(path): \(error). Run it as root or through orientd.socket "
                    + "(systemctl start orientd.socket), or try it unprivileged with "
                    + "--socket /tmp/orientd.sock --state-dir /tmp/orientd-state"
            )
        }
    }

    private static func notify(status state: OrientationState) {
        let text =
            "STATUS=device \(state.device.wireName), interface \(state.interface.wireName), sensor \(state.sensor.rawValue)"
            + (state.lock.map { ", locked to \($0)" } ?? "")
        sd_notify(0, text)
    }
}
