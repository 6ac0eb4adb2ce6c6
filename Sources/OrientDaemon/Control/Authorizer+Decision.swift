extension Authorizer {
    /// The outcome of the rules for one peer, in words.
    struct Decision: CustomStringConvertible {
        var isAdmitted: Bool
        var description: String

        init(who: String, admittedBy rule: String) {
            isAdmitted = true
            description = "\(who) \(rule)"
        }

        init(who: String, denial: String) {
            isAdmitted = false
            description = "\(who) \(denial)"
        }
    }
}
