import CUdev

#if canImport(Glibc)
import Glibc
#endif

/// An owned libudev context: device properties from the hwdb (`ACCEL_MOUNT_MATRIX`,
/// `ACCEL_LOCATION`) and sysfs paths of IIO devices. Other targets of the package (the tablet-mode
/// switch) use it for their own devices through ``pointer``.
package final class Udev {
    package let pointer: OpaquePointer

    /// Opens libudev (`udev_new`).
    package init() throws(SensorError) {
        guard let created = udev_new() else { throw SensorError.call("udev_new", errorNumber: errno) }
        pointer = created
    }

    deinit {
        udev_unref(pointer)
    }

    /// What udev knows of one IIO device.
    struct DeviceRecord {
        /// The sysfs path (`/sys/devices/…/iio:device0`).
        var syspath: String
        /// Its properties (`ACCEL_MOUNT_MATRIX`, `ACCEL_LOCATION`, `DEVNAME`…).
        var properties: [String: String]
    }

    /// The record of the IIO device `sysname` (`iio:device0`); nil when udev does not know it.
    func iioDevice(_ sysname: String) -> DeviceRecord? {
        guard let device = udev_device_new_from_subsystem_sysname(pointer, "iio", sysname) else { return nil }
        defer { udev_device_unref(device) }
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current), let value = udev_list_entry_get_value(current) {
                properties[String(cString: name)] = String(cString: value)
            }
            entry = udev_list_entry_get_next(current)
        }
        let syspath = udev_device_get_syspath(device).map { String(cString: $0) } ?? "/sys/bus/iio/devices/\(sysname)"
        return DeviceRecord(syspath: syspath, properties: properties)
    }
}
