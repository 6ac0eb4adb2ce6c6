// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "orientd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OrientationCore", targets: ["OrientationCore"]),
        .executable(name: "orientd", targets: ["orientd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The pure heart: the orientation model, the classifier and the policy. Standard library only.
        .target(name: "OrientationCore"),
        .executableTarget(
            name: "orientd",
            dependencies: [
                "OrientationCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "OrientationCoreTests", dependencies: ["OrientationCore"]),
        .testTarget(name: "orientdTests", dependencies: ["orientd"]),
        .executableTarget(
            name: "ClassifierBenchmarks",
            dependencies: [
                "OrientationCore",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ClassifierBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

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
