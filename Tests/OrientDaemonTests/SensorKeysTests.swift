import IIOSensor
import Testing

@testable import OrientDaemon

/// The `[Sensor]` keys are the sensor options' own spelling (``SensorOptions/Setting``), not a second copy.
@Suite struct SensorKeysTests {
    @Test func theSensorSectionHoldsExactlyTheSensorOptionsWithAKeyAndTheirDefaults() {
        let keys = ConfigurationKey.all.filter { $0.section == "Sensor" }
        let settings = SensorOptions.Setting.allCases.filter { $0.configurationKey != nil }
        #expect(keys.map(\.name) == settings.compactMap(\.configurationKey))
        for setting in settings {
            let key = ConfigurationKey.named(setting.configurationKey ?? "", in: "Sensor")
            #expect(key?.defaultValue == setting.defaultText)
        }
    }
}
