#if canImport(Glibc)
import Glibc
#endif

/// A failure to read an input device's switches, naming the call, the device and the error number.
public struct SwitchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed (`open`, `libevdev_new_from_fd`, `libevdev_next_event`).
    public var operation: String
    /// The device node (`/dev/input/event5`).
    public var device: String
    /// The error number (positive).
    public var errorNumber: Int32

    init(_ operation: String, device: String, errorNumber: Int32) {
        self.operation = operation
        self.device = device
        self.errorNumber = abs(errorNumber)
    }

    /// Whether the device is no longer there (unplugged, or its driver unbound).
    public var isDeviceGone: Bool {
        errorNumber == ENODEV || errorNumber == ENOENT || errorNumber == ENXIO
    }

    public var description: String {
        var text = "\(device): \(operation): \(String(cString: strerror(errorNumber)))"
        if errorNumber == EACCES || errorNumber == EPERM {
            text += " (input devices are readable by root and the input group: run orientd as root, as its unit does)"
        }
        return text
    }
}
