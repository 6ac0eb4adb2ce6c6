import CSystemd
public import EventLoop
import IIOSensor
public import Logging
import OrientProtocol
import OrientationCore

#if canImport(Glibc)
import Glibc
#endif

/// orientd's daemon: one sd-event loop with the sensor's sources, the control socket and its
/// connections, and the signal sources; see ARCHITECTURE.md.
public final class Daemon {
    private let loop: EventLoop
    private let logger: Logger
    private let engine: Engine
    private let sensor: AccelerometerSensor
    private var server: ControlServer?
    private var signals: [SignalSource] = []

    /// Sets everything up: the state directory, the socket (inherited from systemd or made at
    /// `settings.socketPath`), the sensor (stopped until someone begins generating).
    /// - Throws: ``DaemonError`` saying what could not be set up.
    public init(settings: DaemonSettings, logger: Logger) throws(DaemonError) {
        self.logger = logger
        do {
            loop = try EventLoop()
        } catch {
            throw DaemonError("cannot create the event loop: \(error)")
        }
        let store = StateStore(directory: settings.stateDirectory, logger: logger)
        let authorizer = Authorizer(group: settings.controlGroup, seatUsers: settings.seatUsers, logger: logger)
        do {
            engine = try Engine(settings: settings, store: store, authorizer: authorizer, logger: logger, now: loop.now)
        } catch {
            throw DaemonError("bad policy settings: \(error)")
        }
        sensor = AccelerometerSensor(loop: loop, options: settings.sensor, logger: logger) { [unowned engine] sample in
            engine.handle(sample)
        }
        engine.sensor = sensor
        sensor.onStatusChange = { [unowned engine] _, current in
            engine.sensorStatusChanged(to: current)
            if !engine.inRequest { engine.flush() }
        }
        sensor.refreshDiscovery()

        let (listener, ownedPath) = try Self.listeningSocket(settings.socketPath, logger: logger)
        do {
            let server = try ControlServer(
                listener: listener,
                ownedPath: ownedPath,
                settings: settings,
                loop: loop,
                engine: engine,
                logger: logger
            )
            self.server = server
            engine.broadcast = { [unowned server] line in server.broadcast(line) }
            engine.clientCount = { [unowned server] in server.clientCount }
        } catch {
            throw DaemonError("cannot watch the control socket: \(error)")
        }
        engine.now = { [unowned loop] in loop.now }
        engine.onStateChange = { state in Self.notify(status: state) }
        do {
            for signal in [SIGTERM, SIGINT] {
                signals.append(try loop.addSignal(signal) { [unowned self] in self.shutDown(signal: signal) })
            }
            _ = try loop.setWatchdog(true)
        } catch {
            throw DaemonError("cannot handle signals: \(error)")
        }
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
            logger.critical("the event loop failed: \(error)")
            shutDownNow()
            return 1
        }
    }

    private func shutDown(signal: Int32) {
        logger.info("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
        sd_notify(0, "STOPPING=1")
        shutDownNow()
        loop.exit(code: 0)
    }

    private func shutDownNow() {
        sensor.stop()
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
            throw DaemonError("cannot listen on \(path): \(error)")
        }
    }

    private static func notify(status state: OrientationState) {
        let text =
            "STATUS=device \(state.device.wireName), interface \(state.interface.wireName), sensor \(state.sensor.rawValue)"
            + (state.lock.map { ", locked to \($0)" } ?? "")
        sd_notify(0, text)
    }
}

/// Why the daemon could not start.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
