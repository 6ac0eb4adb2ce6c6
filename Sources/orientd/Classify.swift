import ArgumentParser
import OrientationCore

/// `orientd classify TRACE|-`: runs the classifier over a trace and prints each change.
struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify a recorded accelerometer trace and print each change of orientation.",
        discussion: """
            Reads a trace (the format 'orientd record' writes: '# orientd-trace 1', a 't,x,y,z' \
            header, then one sample per line in seconds and m/s² after the mount matrix) and \
            prints one JSON line each time the device or interface orientation changes:

              {"t": 3.52, "device": "face-up", "interface": "landscape-right", "rotation": 0}

            'rotation' is the panel rotation in degrees, null while the interface orientation \
            is unknown. The classifier is the daemon's own, with the same settings.
            """
    )

    @Argument(help: ArgumentHelp("The trace file, or '-' for standard input.", valueName: "trace"))
    var trace: String

    @Option(
        help: ArgumentHelp(
            "The panel's natural orientation: landscape (laptops) or portrait (phones, some tablets).",
            valueName: "landscape|portrait"
        ),
        transform: { (text: String) throws -> NaturalOrientation in
            guard let natural = NaturalOrientation(wireName: text) else {
                throw ValidationError("'\(text)' is not a natural orientation; use landscape or portrait")
            }
            return natural
        }
    )
    var natural: NaturalOrientation = .landscape

    @Option(
        name: .customLong("filter-ms"),
        help: "Low-pass filter time constant in ms, 10–1000 ([Classifier] FilterMs=)."
    )
    var filterMilliseconds = 100

    @Option(name: .customLong("dwell-ms"), help: "How long a new pose must hold in ms, 0–2000 ([Classifier] DwellMs=).")
    var dwellMilliseconds = 150

    @Option(
        name: .customLong("face-up-angle"),
        help: "Tilt in degrees beyond which the device lies flat, 45–89 ([Classifier] FaceUpAngle=)."
    )
    var faceAngle = 70

    func validate() throws {
        do {
            _ = try classifierConfiguration()
        } catch {
            throw ValidationError(error.description)
        }
    }

    private func classifierConfiguration() throws(ClassifierConfigurationError) -> ClassifierConfiguration {
        try ClassifierConfiguration(
            filterMilliseconds: filterMilliseconds,
            dwellMilliseconds: dwellMilliseconds,
            faceAngleDegrees: faceAngle,
            natural: natural
        )
    }

    func run() throws {
        Signals.unblockForForegroundCommand()
        let source = try LineSource(path: trace)
        var reader = TraceReader()
        var classifier = OrientationClassifier(configuration: try classifierConfiguration())
        var policy = try RotationPolicy(natural: natural)
        let output = StandardOutput()
        do {
            try source.forEachLine { line in
                guard let sample = try reader.read(line: line) else { return }
                guard classifier.update(sample) else { return }
                let change = policy.setDevice(classifier.deviceOrientation)
                guard change.previousDevice != nil || change.previousInterface != nil else { return }
                output.write(Self.changeLine(time: sample.time, policy: policy))
            }
        } catch let error as TraceError {
            throw CommandFailure("\(source.name): \(error)")
        }
        output.flush()
    }

    static func changeLine(time: Double, policy: RotationPolicy) -> String {
        let rotation = policy.rotation.map { String($0.degrees) } ?? "null"
        return "{\"t\": \(time), \"device\": \"\(policy.device.wireName)\", "
            + "\"interface\": \"\(policy.interface.wireName)\", \"rotation\": \(rotation)}\n"
    }
}
