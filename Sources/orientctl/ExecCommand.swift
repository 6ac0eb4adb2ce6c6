import FoundationEssentials
import OrientClient
import OrientProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `watch --exec`'s command with `sh -c`, the state in `ORIENTD_*` variables.
enum ExecCommand {
    /// Runs `command` for `state` and waits for it; nothing while the interface orientation is unknown.
    /// A command that fails is reported on standard error; watching goes on.
    static func run(_ command: String, for state: OrientationState) {
        guard let variables = state.hookEnvironment else { return }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in variables { environment[name] = value }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // orientctl ignores SIGINT and SIGTERM (it takes them from a dispatch source); the command must not.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Nor blocked: this may run on a dispatch thread, which blocks signals, and a child inherits the mask.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let words: [String] = ["sh", "-c", command]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let environmentStrings: [UnsafeMutablePointer<CChar>?] =
            environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments + environmentStrings { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, "/bin/sh", nil, &attributes, arguments, environmentStrings)
        guard result == 0 else {
            StandardStreams.error("orientctl: cannot run /bin/sh: \(String(cString: strerror(result)))")
            return
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        if status & 0x7f != 0 {
            StandardStreams.error("orientctl: the --exec command ended by signal \(status & 0x7f)")
        } else if (status >> 8) & 0xff != 0 {
            StandardStreams.error("orientctl: the --exec command exited with status \((status >> 8) & 0xff)")
        }
    }
}
