/// What applying one rotation takes: the commands to run, and what already failed while finding them.
struct ApplyPlan: Sendable {
    var commands: [ExternalCommand] = []
    /// Failures of the queries (no output found, the input list unreadable), one text each.
    var failures: [String] = []
}
