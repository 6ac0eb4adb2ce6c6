import CUdev
package import EventLoop

#if canImport(Glibc)
import Glibc
#endif

/// Watches udev for the devices of one subsystem coming and going (IIO for the accelerometer, input for
/// the tablet-mode switch); its fd is a source of the loop.
package final class HotplugMonitor {
    private let udev: Udev
    private let monitor: OpaquePointer
    private var source: IOSource?
    private let handler: (_ action: String, _ sysname: String) -> Void

    /// Starts listening to udev's events of `subsystem`.
    /// - Throws: ``SensorError`` naming the libudev call that failed.
    package init(
        loop: EventLoop,
        subsystem: String = "iio",
        handler: @escaping (_ action: String, _ sysname: String) -> Void
    ) throws(SensorError) {
        udev = try Udev()
        guard let monitor = udev_monitor_new_from_netlink(udev.pointer, "udev") else {
            throw SensorError.call("udev_monitor_new_from_netlink", errorNumber: errno)
        }
        self.monitor = monitor
        self.handler = handler
        var result = udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        if result >= 0 { result = udev_monitor_enable_receiving(monitor) }
        guard result >= 0 else {
            udev_monitor_unref(monitor)
            throw SensorError.call("udev_monitor_enable_receiving", errorNumber: result)
        }
        let fd = udev_monitor_get_fd(monitor)
        do {
            source = try loop.addIO(fd: fd, events: .readable) { [unowned self] _ in self.receive() }
        } catch {
            udev_monitor_unref(monitor)
            throw SensorError.call("sd_event_add_io", errorNumber: error.errorNumber)
        }
    }

    deinit {
        source = nil
        udev_monitor_unref(monitor)
    }

    /// One event per wake-up: the fd is level-triggered, so more events wake the loop again, and
    /// a monitor socket that happens to be blocking can never stall the loop.
    private func receive() {
        guard let device = udev_monitor_receive_device(monitor) else { return }
        let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
        let sysname = udev_device_get_sysname(device).map { String(cString: $0) } ?? ""
        udev_device_unref(device)
        handler(action, sysname)
    }
}
