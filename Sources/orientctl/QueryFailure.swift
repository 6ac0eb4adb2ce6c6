/// A failure of one query, as the text to report.
struct QueryFailure: Error {
    var message: String
}
