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
        // The one reader of the INI files (the daemon's configuration, follow.conf): lines, sections and keys, with
        // their numbers; and the one whitespace trim of the text the other targets read (kernel attributes, a
        // program's output). Standard library only; each caller judges its own names and values.
        .target(name: "IniFormat"),

        // C libraries, imported internally everywhere: no C type is in a public API (libevdev's handle leaves
        // EvdevSupport only as an OpaquePointer). Who calls them directly (docs/architecture.md): libiio SensorDevices
        // alone; libudev UdevSupport alone; libevdev EvdevSupport, which opens a node and makes its handle, and on that
        // handle SensorDevices and TabletMode, which read their own events (TabletMode also makes the virtual switch
        // through libevdev's uinput); libsystemd EventLoop (sd-event, wrapped whole), OrientDaemon (sd-bus for its
        // D-Bus service, sd_notify, sd-login), orientctl (sd-bus for kwin-focus) and the test kit (sd-bus, a private
        // bus); no target wraps sd-bus. libumockdev: the test kit alone.
        .systemLibrary(name: "CLibIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CUmockdev", pkgConfig: "umockdev-1.0", providers: [.apt(["libumockdev-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),

        // The C-facing pieces the daemon and the clients (OrientClient, orientctl) share: Errno, FileDescriptor (open,
        // read, write, whole files, connect), retryingInterrupts (the one EINTR retry), UnixSocketAddress. What one
        // target alone needs lives in that target (FileIdentity in SensorDevices, NameService in OrientDaemon). Glibc only.
        .target(name: "SystemSupport"),
        // The one event loop of the daemon: sd-event with owned IO, time and signal sources.
        .target(name: "EventLoop", dependencies: ["CSystemd", "SystemSupport"]),
        // libudev behind Swift values: device records and the hotplug monitor, for the sensor and the tablet switch.
        .target(name: "UdevSupport", dependencies: ["CUdev", "EventLoop", "SystemSupport"]),
        // An evdev node open for libevdev (its descriptor and handle, owned together), for the switches and the input
        // accelerometers.
        .target(name: "EvdevSupport", dependencies: ["CEvdev", "SystemSupport"]),
        // The display accelerometer through libiio and libudev: discovery, calibration, capture, hotplug; and the
        // accelerometers of the input subsystem (lis3lv02d and the like) through libevdev, when there is no IIO one.
        .target(
            name: "SensorDevices",
            dependencies: [
                "OrientationCore", "CLibIIO", "CEvdev", "EvdevSupport", "UdevSupport", "EventLoop", "SystemSupport",
                "IniFormat", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The tablet-mode switch (SW_TABLET_MODE) through libevdev, found and followed through libudev.
        .target(
            name: "TabletMode",
            dependencies: [
                "CEvdev", "EvdevSupport", "UdevSupport", "EventLoop", "SystemSupport",
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
                "OrientationCore", "OrientProtocol", "SensorDevices", "TabletMode", "EventLoop", "CSystemd",
                "SystemSupport", "IniFormat",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // An async Swift client for apps, over a plain socket; it decodes the daemon's lines with FoundationEssentials.
        .target(name: "OrientClient", dependencies: ["OrientProtocol", "OrientationCore", "SystemSupport"]),
        .executableTarget(
            name: "orientctl",
            dependencies: [
                "OrientClient", "OrientProtocol", "OrientationCore", "SystemSupport", "IniFormat", "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "orientd",
            dependencies: [
                "OrientationCore", "SensorDevices", "EventLoop", "OrientDaemon", "OrientProtocol", "SystemSupport",
                "UdevSupport", "IniFormat",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the unit tests, the end-to-end tests and the benchmarks share, with no C library: the seeded random
        // generator, the runner of a short program (and the spawning rules of every child), a process's resources, a
        // scripted daemon peer and the fixtures of the client tests.
        .target(
            name: "OrientdTestSupport",
            dependencies: ["SystemSupport", "OrientProtocol", "OrientationCore"],
            path: "Tests/OrientdTestSupport"
        ),
        // The engine's fakes, shared by its unit tests and its benchmark: a sensor and its factory, an output that
        // drops what it is told.
        .target(
            name: "EngineFakes",
            dependencies: ["OrientDaemon", "SensorDevices", "OrientProtocol", "OrientationCore"],
            path: "Tests/EngineFakes"
        ),
        .testTarget(name: "OrientationCoreTests", dependencies: ["OrientationCore", "OrientdTestSupport"]),
        .testTarget(name: "IniFormatTests", dependencies: ["IniFormat"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "SystemSupport"]),
        .testTarget(
            name: "SensorDevicesTests",
            dependencies: [
                "SensorDevices", "OrientationCore", "UdevSupport", "EventLoop", "SystemSupport", "OrientdTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "TabletModeTests", dependencies: ["TabletMode", "UdevSupport"]),
        .testTarget(name: "EvdevSupportTests", dependencies: ["EvdevSupport", "SystemSupport"]),
        .testTarget(
            name: "OrientProtocolTests",
            dependencies: ["OrientProtocol", "OrientClient", "OrientationCore", "OrientdTestSupport"]
        ),
        .testTarget(
            name: "OrientDaemonTests",
            dependencies: [
                "OrientDaemon", "OrientationCore", "OrientProtocol", "OrientClient", "SensorDevices", "EventLoop",
                "SystemSupport", "EngineFakes",
            ]
        ),
        .testTarget(
            name: "OrientClientTests",
            dependencies: ["OrientClient", "OrientProtocol", "OrientationCore", "SystemSupport", "OrientdTestSupport"]
        ),
        // `orientctl` against a scripted peer and stand-in desktop tools: its commands, follow, suggest.
        .testTarget(
            name: "OrientctlTests",
            dependencies: ["orientctl", "OrientClient", "OrientProtocol", "OrientationCore", "OrientdTestSupport"]
        ),
        .testTarget(name: "orientdTests", dependencies: ["orientd", "SystemSupport", "OrientdTestSupport"]),

        // The end-to-end tests: the real binaries on devices emulated by umockdev (`make test`; `make check` leaves
        // them out). Their rigs: the testbed, emulated accelerometers and tablet switches, child processes, the
        // daemon under test and connections to it, a private system bus, the resources of a process.
        .target(
            name: "OrientdTestKit",
            dependencies: [
                "CUmockdev", "CSystemd", "SystemSupport", "OrientProtocol", "OrientationCore", "OrientdTestSupport",
            ],
            path: "Tests/OrientdTestKit"
        ),
        // The rigs themselves: what a child process gets, how it is stopped, the emulated scans.
        .testTarget(name: "OrientdTestKitTests", dependencies: ["OrientdTestKit", "orientd"]),
        // `orientd run` through its socket: rotation, locks, pace, reloads, hotplug, faults, signals, permissions,
        // crash safety, slow clients, protocol torture.
        .testTarget(name: "DaemonEndToEndTests", dependencies: ["OrientdTestKit", "orientd", "SystemSupport"]),
        // iio-sensor-proxy's D-Bus API of the daemon, on a private system bus.
        .testTarget(name: "SensorProxyBusTests", dependencies: ["OrientdTestKit", "orientd"]),
        // `orientctl` and `orientctl follow` against the real daemon.
        .testTarget(
            name: "OrientctlEndToEndTests",
            dependencies: [
                "OrientdTestKit", "orientd", "orientctl", "OrientClient", "OrientationCore", "SystemSupport",
            ]
        ),
        // Capture and discovery through libiio and libudev: buffered and polled capture, hotplug, `orientd sensors`,
        // `orientd record`, iio_info's view of the emulated devices.
        .testTarget(name: "SensorCaptureTests", dependencies: ["OrientdTestKit", "orientd"]),
        .executableTarget(
            name: "HotPathBenchmarks",
            dependencies: [
                "OrientationCore", "SensorDevices",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HotPathBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DaemonBenchmarks",
            dependencies: [
                "OrientDaemon", "OrientProtocol", "OrientationCore", "SensorDevices", "EngineFakes",
                "OrientdTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DaemonBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

// The unit tests alone (`make check` sets ORIENTD_TESTS=unit): the end-to-end test targets (the real binaries on
// devices emulated by umockdev), their kit (which links umockdev) and the benchmarks leave the build, so that the one test bundle SwiftPM links on
// Linux holds the unit-test targets only, and building it builds nothing else.
if Context.environment["ORIENTD_TESTS"] == "unit" {
    let endToEnd: Set = [
        "OrientdTestKit", "OrientdTestKitTests", "DaemonEndToEndTests", "SensorProxyBusTests",
        "OrientctlEndToEndTests", "SensorCaptureTests",
    ]
    package.targets.removeAll { endToEnd.contains($0.name) || $0.name.hasSuffix("Benchmarks") }
}

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
        .executableTarget(name: "ScanDecoderFuzzer", dependencies: ["SensorDevices"], path: "Fuzz/ScanDecoderFuzzer"),
        .executableTarget(name: "TraceReaderFuzzer", dependencies: ["OrientationCore"], path: "Fuzz/TraceReaderFuzzer"),
    ]
}

// A distribution's build from a source package that carries the dependencies' sources (the Debian source package's
// vendor/ folder, debian/rules): ORIENTD_VENDOR_DIR names the folder, and SwiftPM takes swift-argument-parser and
// swift-log from it, with no network and no git. The benchmarks, whose package is not carried, leave the build.
if let vendor = Context.environment["ORIENTD_VENDOR_DIR"] {
    package.targets.removeAll { $0.name.hasSuffix("Benchmarks") }
    package.dependencies = [
        .package(path: "\(vendor)/swift-argument-parser"),
        .package(path: "\(vendor)/swift-log"),
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
