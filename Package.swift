// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "AuditStation",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "audit-station", targets: ["audit-station"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // Pure Swift: models, validation, the audit engine, report writers, service protocols.
        .target(name: "InventoryCore"),
        // SQLite through GRDB: migrations and the local implementations of the services.
        .target(
            name: "InventoryStore",
            dependencies: ["InventoryCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // MARK: scanning targets
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // Non-variadic adapters over libv4l2 (v4l2_ioctl is variadic) and the VIDIOC_* constants.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "Scanning", dependencies: ["InventoryCore", "CZBar", "CPNG", "CTurboJPEG", "CV4L2"]),
        // Decode speed (ours vs pyzbar) and read quality (ours vs zbarimg); run with -c release.
        .executableTarget(name: "decode-benchmark", dependencies: ["Scanning"], path: "Benchmarks/decode",
                         exclude: ["pyzbar_speed.py"]),

        // MARK: api targets

        // The executable: argument parsing, configuration and wiring only.
        .executableTarget(
            name: "audit-station",
            dependencies: [
                "InventoryCore", "InventoryStore", "Scanning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "InventoryCoreTests", dependencies: ["InventoryCore"]),
        .testTarget(name: "InventoryStoreTests", dependencies: ["InventoryCore", "InventoryStore"]),
        .testTarget(name: "CLITests", dependencies: [
            "audit-station", "InventoryCore", "InventoryStore", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // MARK: more test targets
        .testTarget(name: "ScanningTests", dependencies: ["Scanning"]),
        // Runs a ScanLoop on one camera and prints JSON lines: the camera tests and Benchmarks/camera use it.
        .executableTarget(name: "camera-probe", dependencies: ["Scanning"], path: "Tests/CameraProbe"),
        .testTarget(name: "CameraTests", dependencies: ["Scanning", "camera-probe"]),
    ]
)
