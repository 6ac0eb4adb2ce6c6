/// Where an accelerometer sits: in the lid (display) or in the base (keyboard).
public enum SensorLocation: String, Sendable, Hashable {
    case display
    case base
}
