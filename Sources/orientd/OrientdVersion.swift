/// The version printed by `--version` and reported in `hello`.
enum OrientdVersion {
    static let current = "0.1.0"
}
