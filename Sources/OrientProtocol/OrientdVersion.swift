/// The version printed by `--version` and reported in `hello` and `status`.
public enum OrientdVersion {
    /// orientd's version.
    public static let current = "0.1.0"
}
