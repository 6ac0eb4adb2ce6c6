import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The orientd command: the daemon and the tools around it (CLI.md).
@main
struct Orientd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Screen-orientation daemon for convertible laptops and tablets.",
        discussion: """
            orientd reads the display's accelerometer through libiio, classifies it with hysteresis \
            into seven device orientations (portrait, portrait-upside-down, landscape-left, \
            landscape-right, face-up, face-down, unknown), maps them to the interface orientation \
            and tells subscribed programs over a Unix socket (/run/orientd/socket). The sensor runs \
            only while a program is listening. orientctl is its client.

            The classifier can be tried on recorded or generated traces with 'orientd classify'.
            """,
        version: OrientdVersion.current,
        subcommands: [Classify.self]
    )

    /// Runs the command; a usage error exits with status 2, like every orientd and orientctl command.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            let message = fullMessage(for: error) + "\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            Glibc.exit(2)
        }
    }
}
