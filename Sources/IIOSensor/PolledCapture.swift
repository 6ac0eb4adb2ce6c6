import CLibIIO
import EventLoop
import Logging
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reads `in_accel_{x,y,z}_raw` at a fixed rate from a timer of the loop, only while running.
final class PolledCapture {
    private let device: IIODevice
    private let channels: (IIOChannel, IIOChannel, IIOChannel)
    private let calibration: Calibration
    private let loop: EventLoop
    private let logger: Logger
    private let sink: (Sample, ReadingQuality) -> Void
    private let failure: (SensorError) -> Void
    private let trouble: (SensorError) -> Void
    private let check: RawReadingCheck
    private let giveUpAfter: Double
    private var timer: TimerSource?
    /// When reading started to fail; nil while it works.
    private var failingSince: Double?
    /// How many samples were handed on.
    private(set) var samplesRead = 0

    /// Starts polling at `rate` samples per second.
    ///
    /// A read that fails is logged once and handed to `trouble`; polling goes on, and the next good read
    /// recovers. Reads that keep failing for `giveUpAfter` seconds (or a device that is gone) end in `failure`.
    /// - Throws: ``SensorError`` when the raw attributes cannot be read at all, or no timer can be made.
    init(
        device: IIODevice,
        accelerometer: Accelerometer,
        rate: Double,
        loop: EventLoop,
        logger: Logger,
        giveUpAfter: Double,
        sink: @escaping (Sample, ReadingQuality) -> Void,
        trouble: @escaping (SensorError) -> Void,
        failure: @escaping (SensorError) -> Void
    ) throws(SensorError) {
        guard let x = device.channel("accel_x"), let y = device.channel("accel_y"), let z = device.channel("accel_z")
        else {
            throw SensorError(
                .badAttribute,
                operation: "in_accel_*_raw",
                device: device.id,
                detail: "no x/y/z channels"
            )
        }
        self.device = device
        channels = (x, y, z)
        calibration = accelerometer.calibration
        self.loop = loop
        self.logger = logger
        self.sink = sink
        self.failure = failure
        self.trouble = trouble
        self.giveUpAfter = giveUpAfter
        check = RawReadingCheck(
            x: x.isScanElement ? x.format : nil,
            y: y.isScanElement ? y.format : nil,
            z: z.isScanElement ? z.format : nil
        )
        _ = try Self.read(x, device: device.id)
        do {
            timer = try loop.addRepeatingTimer(interval: 1 / rate) { [unowned self] in self.tick() }
        } catch {
            throw SensorError.call("sd_event_add_time", device: device.id, errno: error.errno)
        }
    }

    deinit {
        stop()
    }

    /// Stops polling: the timer is gone, nothing wakes the process.
    func stop() {
        timer = nil
    }

    private func tick() {
        do {
            let x = try Self.read(channels.0, device: device.id)
            let y = try Self.read(channels.1, device: device.id)
            let z = try Self.read(channels.2, device: device.id)
            if failingSince != nil {
                logger.notice("reading the accelerometer works again", metadata: ["device": "\(device.id)"])
                failingSince = nil
            }
            samplesRead += 1
            sink(
                Sample(time: loop.now, acceleration: calibration.apply(x: x, y: y, z: z)),
                check.quality(x: x, y: y, z: z)
            )
        } catch {
            if error.isDeviceGone {
                failure(error)
            } else if let since = failingSince {
                guard loop.now - since >= giveUpAfter else { return }
                failingSince = nil
                var lasting = error
                lasting.detail = "reads failed for \(giveUpAfter) s"
                failure(lasting)
            } else {
                // EIO and the like: say it once, keep polling; the next good read recovers.
                failingSince = loop.now
                logger.warning(
                    "cannot read the accelerometer, still trying for \(giveUpAfter) s: \(error)",
                    metadata: ["device": "\(device.id)"]
                )
                trouble(error)
            }
        }
    }

    /// Reads one raw attribute as an integer.
    private static func read(_ channel: IIOChannel, device: String) throws(SensorError) -> Int64 {
        var value: Int64 = 0
        let result = iio_channel_attr_read_longlong(channel.pointer, "raw", &value)
        guard result >= 0 else {
            throw SensorError.call(
                "iio_channel_attr_read_longlong(\(channel.id) raw)",
                device: device,
                errno: Errno(result)
            )
        }
        return value
    }
}
