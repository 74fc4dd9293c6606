// swift-tools-version: 6.0
import PackageDescription

// The benchmarks that print figures (docs/FIGURES.md), apart from the product, as swift-nio
// keeps its own: `swift build` and `swift test` at the root never build them. Build one with
// `swift build -c release --package-path Benchmarks --product NAME` and run it from the
// repository's root as `Benchmarks/.build/release/NAME` (the sample images and the product's
// build are found from there).
/// Products of the root package (AuditStation), by name, and any others.
func station(_ names: String..., with others: [Target.Dependency] = []) -> [Target.Dependency] {
    names.map { .product(name: $0, package: "AuditStation") } + others
}

let package = Package(
    name: "AuditStationBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "AuditStation", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // Decode speed (ours vs pyzbar) and read quality (ours vs zbarimg and zxing-cpp).
        .executableTarget(
            name: "decode-benchmark", dependencies: station("Scanning"), path: "decode",
            exclude: ["pyzbar_speed.py"]),
        // Evidence photo storage per 1,000 unexpected scans.
        .executableTarget(
            name: "photo-benchmark",
            dependencies: station("Scanning", "InventoryCore", "InventoryStore"),
            path: "photos"),
        // Reconciling an ended audit of 1,000,000 assets with 100,000 changes, on SQLite or PostgreSQL.
        .executableTarget(
            name: "reconcile-benchmark",
            dependencies: station("InventoryCore", "InventoryStore", "PostgresStore", with: [
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
            path: "reconcile"),
        // `assets list --not-audited-since 180d` over 1,000,000 assets, on SQLite or PostgreSQL.
        .executableTarget(
            name: "last-audited-benchmark",
            dependencies: station("InventoryCore", "InventoryStore", "PostgresStore", with: [
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
            path: "lastaudited"),
        // `audit due` over 10,000 plans, and what webhooks add to ending an audit (SQLite).
        .executableTarget(
            name: "plans-benchmark",
            dependencies: station("InventoryCore", "InventoryStore", with: [
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
            path: "plans"),
        // Scans/s of the server from 32 connections, the time to sync 10,000 queued scans, and
        // frames/s and reads of POST /api/v1/decode (`server-benchmark decode`).
        .executableTarget(
            name: "server-benchmark",
            dependencies: station(
                "AuditServer", "AuditClient", "ConnectedStation", "AuditAPI", "InventoryCore", "InventoryStore", "Scanning",
                with: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
            path: "server"),
    ]
)
