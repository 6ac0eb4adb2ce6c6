import ArgumentParser

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
}
