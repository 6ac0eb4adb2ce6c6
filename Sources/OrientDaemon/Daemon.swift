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
public import Logging
import OrientProtocol
import OrientationCore
import SensorDevices
import SystemSupport
import TabletMode

#if canImport(Glibc)
import Glibc
#endif

/// orientd's daemon: one sd-event loop with the sensors' sources, the control socket and its
/// connections, and the signal sources; see docs/architecture.md.
///
/// Its `init` is the one place where the parts are made and put together, each given its neighbours when it is
/// made. What the engine's changes go to is made first: the control socket's connections, the D-Bus publisher and
/// the virtual tablet-mode switch, in the ``Engine``'s ``EngineOutput`` (``DaemonEngineOutput``); then the engine,
/// with its sensors' factory (the engine is their delegate) and the loop's timers (``LoopScheduler``); then what
/// feeds the engine: the control server (with the connections and ``ControlRequests``), the D-Bus service (with the
/// publisher) and the tablet-mode switch; ``DaemonStatus`` answers `status` from the parts that own what it reports.
/// It hands a reloaded configuration to each of them.
public final class Daemon {
    let loop: EventLoop
    private let logger: Logger
    let engine: Engine
    private let output: DaemonEngineOutput
    private let requests: ControlRequests
    /// The `SW_TABLET_MODE` switches.
    let tabletModeMonitor: TabletModeMonitor
    private(set) var server: ControlServer?
    /// iio-sensor-proxy's D-Bus API, with `[DBus] Compat=yes`.
    private(set) var sensorProxy: SensorProxyService?
    /// orientd's own tablet-mode switch (`[Policy] VirtualTabletSwitch=`), driven by the engine's output.
    private let virtualSwitch: VirtualSwitchPublisher
    private var signals: [SignalSource] = []
    private(set) var settings: DaemonSettings
    private let logLevel: ConfigurationLogHandler.Level
    private let reloadConfiguration: (() throws(ConfigurationErrors) -> Configuration)?

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
        let startTime = loop.now
        let connections = ControlConnections()
        let busPublisher =
            settings.sensorProxyCompat
            ? SensorProxyPublisher(loop: loop, pollFallback: settings.sensor.pollFallback, logger: logger) : nil
        virtualSwitch = VirtualSwitchPublisher(mode: settings.virtualTabletSwitch, logger: logger)
        output = DaemonEngineOutput(
            connections: connections,
            sensorProxy: busPublisher,
            virtualSwitch: virtualSwitch
        )
        do {
            engine = try Engine(
                settings: settings,
                store: StateStore(directory: settings.stateDirectory, logger: logger),
                logger: logger,
                output: output,
                scheduler: LoopScheduler(loop: loop),
                sensorFactory: AccelerometerSensorFactory(loop: loop, logger: logger)
            )
        } catch {
            throw DaemonError(.policy, "bad policy settings: \(error)")
        }
        tabletModeMonitor = TabletModeMonitor(loop: loop, logger: logger) { [unowned engine] tabletMode in
            engine.switchChanged(to: tabletMode)
        }
        let status = DaemonStatus(
            loop: loop,
            startTime: startTime,
            engine: engine,
            connections: connections,
            tabletModeMonitor: tabletModeMonitor,
            sensorProxy: busPublisher
        )
        let authorizer = Authorizer(group: settings.controlGroup, seatUsers: settings.seatUsers, logger: logger)
        requests = ControlRequests(engine: engine, authorizer: authorizer, status: status, logger: logger)

        let (listener, ownedPath) = try Self.listeningSocket(settings.socketPath, logger: logger)
        do {
            server = try ControlServer(
                listener: listener,
                ownedPath: ownedPath,
                settings: settings,
                loop: loop,
                connections: connections,
                requests: requests,
                logger: logger
            )
        } catch {
            throw DaemonError(.controlSocket, "cannot watch the control socket: \(error)")
        }
        if let busPublisher {
            sensorProxy = SensorProxyService(
                publisher: busPublisher,
                engine: engine,
                claimPolicy: ClaimPolicy(users: settings.claimUsers),
                logger: logger
            )
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
        // Nobody is connected yet: this sends nothing, and leaves no event waiting for the first client.
        engine.start(switchPosition: tabletModeMonitor.tabletMode)
    }

    /// Serves until SIGTERM or SIGINT; then stops the sensor (restoring the device), closes the
    /// connections and the socket.
    /// - Returns: the exit status (0 after a signal).
    public func run() -> Int32 {
        sd_notify(0, "READY=1\nSTATUS=serving; nobody generating")
        logger.info("serving", metadata: ["sensor": "\(engine.state.sensor.rawValue)"])
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
        if new.claimUsers != old.claimUsers { sensorProxy?.claimPolicy = ClaimPolicy(users: new.claimUsers) }
        sensorProxy?.publisher.pollFallback = new.sensor.pollFallback
        virtualSwitch.reconfigure(new.virtualTabletSwitch)
        server?.maxClients = new.maxClients
        server?.outputLimit = new.outputLimit
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
        logger.info("configuration reloaded")
    }

    private func shutDown(signal: Int32) {
        logger.info("stopping", metadata: ["signal": "\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"])
        sd_notify(0, "STOPPING=1")
        shutDownNow()
        loop.exit(code: 0)
    }

    /// Stops the sensors (the clients hear that the display's stopped), restoring the devices, then closes the
    /// connections and the socket; removes the virtual tablet-mode switch. Nothing goes to sd_notify, the bus or the
    /// virtual switch any more.
    private func shutDownNow() {
        output.stopPublishing()
        engine.releaseVirtualSwitchClaim()
        virtualSwitch.close()
        sensorProxy?.shutDown()
        sensorProxy = nil
        engine.sensors.display.stop()
        engine.sensors.close()
        server?.shutDown()
        server = nil
    }

    /// The listening socket: systemd's (socket activation, fd 3) or one made at `path`.
    private static func listeningSocket(
        _ path: String,
        logger: Logger
    ) throws(DaemonError) -> (FileDescriptor, String?) {
        let count = sd_listen_fds(1)
        if count >= 1 {
            let fd = FileDescriptor(rawValue: SD_LISTEN_FDS_START)
            do {
                try SocketCalls.setNonBlocking(fd, subject: "the socket systemd passed")
            } catch {
                throw DaemonError(.listen, "cannot serve on the socket systemd passed: \(error)")
            }
            logger.info("serving on the socket systemd passed (socket activation)")
            return (fd, nil)
        }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty, mkdir(folder, 0o755) != 0, errno != EEXIST {
            throw DaemonError(
                .listen,
                "cannot listen on \(path): cannot create its folder \(folder): \(Errno.current)"
            )
        }
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
}

/// Why the daemon could not start, or its loop failed: the step, and what went wrong and what to do.
public struct DaemonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Sendable, Hashable {
            case eventLoop
            case policy
            case listen
            case controlSocket
            case signals
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        /// Creating or running the event loop.
        public static let eventLoop = Step(.eventLoop)
        /// Taking the `[Policy]` settings.
        public static let policy = Step(.policy)
        /// Listening on the control socket.
        public static let listen = Step(.listen)
        /// Watching the control socket on the loop.
        public static let controlSocket = Step(.controlSocket)
        /// Handling SIGTERM, SIGINT and SIGHUP, and the watchdog.
        public static let signals = Step(.signals)

        public var description: String {
            switch code {
            case .eventLoop: "event loop"
            case .policy: "policy"
            case .listen: "listen"
            case .controlSocket: "control socket"
            case .signals: "signals"
            }
        }
    }

    /// The step that failed.
    public let step: Step
    /// What went wrong and what to do.
    public let description: String

    init(_ step: Step, _ description: String) {
        self.step = step
        self.description = description
    }
}
