import EventLoop
import IIOSensor
import Logging

/// The daemon's sensors: ``AccelerometerSensor``s on its event loop; the base one's messages carry `sensor=base`.
struct AccelerometerSensorFactory: SensorFactory {
    let loop: EventLoop
    let logger: Logger

    func makeSensor(options: SensorOptions, delegate: any AccelerometerSensorDelegate) -> any EngineSensor {
        var logger = logger
        if options.location == .base { logger[metadataKey: "sensor"] = "base" }
        return AccelerometerSensor(loop: loop, options: options, logger: logger, delegate: delegate)
    }

    var now: Double { loop.now }
}
