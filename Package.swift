// swift-tools-version: 6.2
//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PackageDescription

let package = Package(
    name: "orientd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OrientationCore", targets: ["OrientationCore"]),
        .executable(name: "orientd", targets: ["orientd"]),
        .executable(name: "orientctl", targets: ["orientctl"]),
        .library(name: "OrientClient", targets: ["OrientClient"]),
        .library(name: "OrientProtocol", targets: ["OrientProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The pure heart: the orientation model, the classifier and the policy. Standard library only.
        .target(name: "OrientationCore"),

        // C libraries, wrapped thinly by the targets below; none of their types leaves them.
        .systemLibrary(name: "CLibIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CUmockdev", pkgConfig: "umockdev-1.0", providers: [.apt(["libumockdev-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),

        // The C-facing pieces every target shares: Errno, FileDescriptor's writeAll, UnixSocketAddress, NameService.
        // Glibc only.
        .target(name: "SystemSupport"),
        // The one event loop of the daemon: sd-event with owned IO, time and signal sources.
        .target(name: "EventLoop", dependencies: ["CSystemd", "SystemSupport"]),
        // libudev behind Swift values: device records and the hotplug monitor, for the sensor and the tablet switch.
        .target(name: "UdevSupport", dependencies: ["CUdev", "EventLoop", "SystemSupport"]),
        // The display accelerometer through libiio and libudev: discovery, calibration, capture, hotplug.
        .target(
            name: "IIOSensor",
            dependencies: [
                "OrientationCore", "CLibIIO", "UdevSupport", "EventLoop", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The tablet-mode switch (SW_TABLET_MODE) through libevdev, found and followed through libudev.
        .target(
            name: "TabletMode",
            dependencies: [
                "CEvdev", "UdevSupport", "EventLoop", "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The wire messages of PROTOCOL.md, read and written by its own JSON parser and writer: standard library
        // only, so that the daemon's replies and events need no Foundation.
        .target(name: "OrientProtocol", dependencies: ["OrientationCore"]),
        // The daemon: engine, control server, authorisation, state persistence.
        .target(
            name: "OrientDaemon",
            dependencies: [
                "OrientationCore", "OrientProtocol", "IIOSensor", "TabletMode", "EventLoop", "CSystemd",
                "SystemSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // An async Swift client for apps, over a plain socket; it decodes the daemon's lines with FoundationEssentials.
        .target(name: "OrientClient", dependencies: ["OrientProtocol", "OrientationCore", "SystemSupport"]),
        .executableTarget(
            name: "orientctl",
            dependencies: [
                "OrientClient", "OrientProtocol", "OrientationCore", "SystemSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "orientd",
            dependencies: [
                "OrientationCore", "IIOSensor", "EventLoop", "OrientDaemon", "OrientProtocol", "SystemSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "OrientationCoreTests", dependencies: ["OrientationCore"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "SystemSupport"]),
        .testTarget(name: "IIOSensorTests", dependencies: ["IIOSensor", "OrientationCore"]),
        .testTarget(name: "TabletModeTests", dependencies: ["TabletMode", "UdevSupport"]),
        .testTarget(
            name: "OrientProtocolTests",
            dependencies: ["OrientProtocol", "OrientClient", "OrientationCore"]
        ),
        .testTarget(
            name: "OrientDaemonTests",
            dependencies: [
                "OrientDaemon", "OrientationCore", "OrientProtocol", "OrientClient", "IIOSensor", "EventLoop",
                "SystemSupport",
            ]
        ),
        .testTarget(
            name: "OrientClientTests",
            dependencies: ["OrientClient", "OrientProtocol", "OrientationCore", "SystemSupport"]
        ),
        // Emulated accelerometers (umockdev) driving the real orientd binary through libiio and libudev.
        .testTarget(
            name: "SensorEndToEndTests",
            dependencies: [
                "orientd", "orientctl", "CUmockdev", "CSystemd", "OrientationCore", "OrientClient", "OrientProtocol",
                "SystemSupport",
            ]
        ),
        .testTarget(name: "orientdTests", dependencies: ["orientd", "SystemSupport"]),
        .executableTarget(
            name: "HotPathBenchmarks",
            dependencies: [
                "OrientationCore", "IIOSensor",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HotPathBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DaemonBenchmarks",
            dependencies: [
                "OrientDaemon", "OrientProtocol", "OrientationCore", "IIOSensor",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DaemonBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

// libFuzzer targets (Fuzz/, `make fuzz`): only when ORIENTD_FUZZ is set, because libFuzzer supplies
// their `main` and they link only with `-sanitize=fuzzer`. scripts/fuzz builds and runs them. The
// benchmarks leave that build: their plugin's tool has a `main` of its own.
if Context.environment["ORIENTD_FUZZ"] != nil {
    package.targets.removeAll { $0.name.hasSuffix("Benchmarks") }
    package.targets += [
        .executableTarget(
            name: "RequestDecoderFuzzer",
            dependencies: ["OrientProtocol", "OrientationCore"],
            path: "Fuzz/RequestDecoderFuzzer"
        ),
        .executableTarget(name: "ScanDecoderFuzzer", dependencies: ["IIOSensor"], path: "Fuzz/ScanDecoderFuzzer"),
        .executableTarget(name: "TraceReaderFuzzer", dependencies: ["OrientationCore"], path: "Fuzz/TraceReaderFuzzer"),
    ]
}

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    // Require `any` for existential types.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // A file sees only the members of modules it imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Imports are internal unless marked public, so no C type leaks into a public API.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
