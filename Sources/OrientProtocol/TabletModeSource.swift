/// What tablet mode comes from (PROTOCOL.md `tablet_mode_source`), strongest first.
public enum TabletModeSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// `orientctl tablet-mode on|off`: wins over everything else.
    case manual
    /// A `SW_TABLET_MODE` switch.
    case `switch`
    /// The hinge angle between two accelerometers.
    case hinge
}

extension TabletModeSource: JSONWritable {
    public func write(to json: inout JSONWriter) { json.string(rawValue) }
}
