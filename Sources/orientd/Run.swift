import ArgumentParser
import Logging
import OrientDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `orientd run`: the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon (the default command).",
        discussion: """
            Serves the control socket (PROTOCOL.md: JSON lines; 'orientctl' is its client) and \
            runs the accelerometer only while a client is generating. Under systemd, the socket \
            comes from orientd.socket and the state directory from StateDirectory=; to try it \
            unprivileged: orientd run --socket /tmp/orientd.sock --state-dir /tmp/orientd-state
            """
    )

    @Option(help: ArgumentHelp("The control socket (default /run/orientd/socket).", valueName: "path"))
    var socket: String?

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Where the lock is kept (default $STATE_DIRECTORY, else /var/lib/orientd).",
            valueName: "dir"
        )
    )
    var stateDirectory: String?

    @OptionGroup var sensor: SensorOptionGroup

    func run() throws {
        var settings = DaemonSettings()
        if let socket { settings.socketPath = socket }
        if let stateDirectory {
            settings.stateDirectory = stateDirectory
        } else if let fromSystemd = getenv("STATE_DIRECTORY").map({ String(cString: $0) }), !fromSystemd.isEmpty {
            settings.stateDirectory = String(fromSystemd.split(separator: ":").first ?? "/var/lib/orientd")
        }
        settings.sensor = sensor.sensorOptions
        settings.logLevel = sensor.verbose ? .debug : .info
        let logger = Logger(label: "orientd")
        let daemon: Daemon
        do {
            daemon = try Daemon(settings: settings, logger: logger)
        } catch {
            throw CommandFailure("\(error)")
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }
}
