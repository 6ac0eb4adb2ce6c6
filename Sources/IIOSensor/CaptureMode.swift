/// How orientd reads an accelerometer.
public enum CaptureMode: String, Sendable, Hashable {
    /// Scans pushed by the kernel through the IIO buffer (preferred: no polling).
    case buffer
    /// `in_accel_*_raw` read at a fixed rate from a timer.
    case poll
}
