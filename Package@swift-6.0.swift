// swift-tools-version: 6.0
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

// The programs and their libraries for Swift 6.0 and 6.1 (Debian 13's swiftlang is 6.0.3, Ubuntu 26.04's 6.1.3): the
// targets of Package.swift without the tests and the benchmarks, which need Swift 6.2 (Swift 6.2 and later read
// Package.swift). swift-log from 1.6.0: its newest releases need a newer Swift to read their manifests (1.16.2: tools
// 6.2), and SwiftPM resolves the newest release whose manifest it can read.
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
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
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
        // D-Bus service, sd_notify, sd-login) and orientctl (sd-bus for kwin-focus); no target wraps sd-bus.
        .systemLibrary(name: "CLibIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
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
    ]
)

// A distribution's build from a source package that carries the dependencies' sources (the Debian source package's
// vendor/ folder, debian/rules): ORIENTD_VENDOR_DIR names the folder, and SwiftPM takes each dependency from it, with
// no network and no git.
if let vendor = Context.environment["ORIENTD_VENDOR_DIR"] {
    package.dependencies = [
        .package(path: "\(vendor)/swift-argument-parser"),
        .package(path: "\(vendor)/swift-log"),
    ]
}

// As in Package.swift, without the release builds' function sections (the order file of `make release` needs Swift 6.2).
for target in package.targets where [.executable, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
