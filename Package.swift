// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// What `pkg-config` says of pangocairo: the include folders and the libraries, which differ
/// between distributions and architectures. Only the -I and -l flags are taken: SwiftPM refuses
/// the -pthread that glib's adds (and warns when a system library target's pkg-config has it).
func pangoCairo(_ option: String) -> [String] { pkgConfig(option, "pangocairo") }

/// What `pkg-config OPTION PACKAGE` prints, as arguments; none when it fails.
func pkgConfig(_ option: String, _ package: String) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", option, package]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return [] }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return [] }
    return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
}

let package = Package(
    name: "AuditStation",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "audit-station", targets: ["audit-station"]),
        // For the benchmarks' own package (Benchmarks/Package.swift), which depends on this one by path.
        .library(name: "InventoryCore", targets: ["InventoryCore"]),
        .library(name: "InventoryStore", targets: ["InventoryStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "Scanning", targets: ["Scanning"]),
        .library(name: "AuditAPI", targets: ["AuditAPI"]),
        .library(name: "AuditServer", targets: ["AuditServer"]),
        .library(name: "AuditClient", targets: ["AuditClient"]),
        .library(name: "ConnectedStation", targets: ["ConnectedStation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // Pure Swift: models, validation, the audit engine, report writers, service protocols.
        .target(name: "InventoryCore"),
        // SQLite through GRDB: migrations and the local implementations of the services.
        .target(
            name: "InventoryStore",
            dependencies: ["InventoryCore", "CSQLiteSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // sqlite3_config (variadic) for Swift: the process-wide settings made before SQLite is first used.
        .target(name: "CSQLiteSupport", linkerSettings: [.linkedLibrary("sqlite3")]),
        // A connected station's outbox and copy of its audits, in the station's SQLite file with migrations of their own.
        .target(
            name: "ConnectedStore",
            dependencies: ["InventoryCore", "InventoryStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The server's services over PostgreSQL (postgres-nio): migrations, the same audit rules.
        .target(
            name: "PostgresStore",
            dependencies: [
                "InventoryCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // MARK: scanning targets
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // Non-variadic adapters over libv4l2 (v4l2_ioctl is variadic) and the VIDIOC_* constants.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // zxing-cpp 1.4 (C++) behind an extern "C" shim that catches every exception. Optimized in debug
        // builds too: its binarizer runs on every image zxing reads.
        .target(
            name: "CZXing", cxxSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))],
            linkerSettings: [.linkedLibrary("ZXing")]),
        // libheif (HEIC, AVIF) behind an extern "C" shim that catches every exception; its include folder
        // from pkg-config.
        .target(
            name: "CHeif", cxxSettings: [.unsafeFlags(pkgConfig("--cflags-only-I", "libheif"))],
            linkerSettings: [.linkedLibrary("heif")]),
        // The first pass's per-frame pixel loops (halving, the region finder's counts), in C for clang's
        // vectorizer; optimized in debug builds too.
        .target(name: "CPixels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // Optimized in debug builds too, as all our targets are (the end of this file): its pixel loops
        // (resizing, thresholds, box means, rotations) run 10–30 times slower unoptimized.
        .target(name: "Scanning", dependencies: ["CZBar", "CZXing", "CPixels", "CPNG", "CTurboJPEG", "CWebP", "CHeif", "CV4L2"]),

        // MARK: document targets
        // Plain C over cairo's PDF surface, pango (pangocairo) and libzint (Debian libcairo2-dev, libpango1.0-dev,
        // libzint-dev): text runs, table rows, lines, rects and barcode symbols as vectors.
        .target(
            name: "CDocument",
            cSettings: [.unsafeFlags(pangoCairo("--cflags-only-I"))],
            linkerSettings: (pangoCairo("--libs-only-l").map { String($0.dropFirst(2)) } + ["zint", "m"]).map { .linkedLibrary($0) }),
        // The signed PDF audit report (drawn from the JSON report's stream) and asset labels (PDF sheets and ZPL).
        .target(name: "DocumentKit", dependencies: ["CDocument", "InventoryCore"]),

        // MARK: api targets
        // The wire format shared by server and client: envelope, error codes, bodies, routes.
        .target(name: "AuditAPI", dependencies: ["InventoryCore"]),
        // The guard on every HTTP connection of the server and the kiosk: caps, deadlines, bodies cut off;
        // the spooled download both give; and HTTPS for both (PEM files, and a certificate for a LAN).
        .target(
            name: "HTTPGuard",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The audit API over the store's services (Hummingbird 2), with bcrypt logins and JWTs.
        .target(
            name: "AuditServer",
            dependencies: [
                "InventoryCore", "AuditAPI", "HTTPGuard", "DocumentKit", "PageScripts", "Scanning",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.embedInCode("openapi.yaml")]
                + ["index.html", "office.css", "js/main.js", "js/api.js", "js/dom.js", "js/views.js", "js/chart.js", "js/form.js", "js/records.js", "js/users.js", "js/labels.js",
                   "js/plans.js", "js/webhooks.js"]
                .map { Resource.embedInCode("Office/\($0)") }
                + ["scan.html", "scan.css", "js/phone.js", "js/server.js", "js/camera.js", "js/outcome.js", "js/count.js", "js/worker.js"].map { Resource.embedInCode("Scan/\($0)") }
        ),
        // The HTTP client of the audit API and the remote services over it.
        .target(
            name: "AuditClient",
            dependencies: [
                "InventoryCore", "InventoryStore", "AuditAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The connected station: its copy of the audit (ConnectedStore), its outbox and their sync
        // with a server through AuditClient.
        .target(
            name: "ConnectedStation",
            dependencies: [
                "InventoryCore", "InventoryStore", "ConnectedStore", "AuditAPI", "AuditClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),


        // MARK: front-end targets
        // The one scan path every front end drives (typed lines, images, camera → ScanSession),
        // the station configuration, and the station context with its connection capability.
        .target(name: "Station", dependencies: ["InventoryCore", "InventoryStore", "Scanning", "AuditClient", "ConnectedStation"]),
        // The kiosk: a local web page (embedded HTML, CSS and JS), its JSON calls, pushed events
        // and the camera preview, over Station.
        // Script modules both pages load (the kiosk and the back office): one file, one rule.
        .target(name: "PageScripts", resources: ["elements.js", "burst.js", "format.js", "words.js", "sound.js", "queue.js", "login.js"].map { .embedInCode($0) }),
        .target(
            name: "Kiosk",
            dependencies: [
                "Station", "InventoryCore", "AuditAPI", "AuditClient", "ConnectedStation", "Scanning", "HTTPGuard", "PageScripts",
                "DocumentKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The page's files, served by WebAssets.files; the script is ES modules in Web/js.
            resources: [
                "index.html", "kiosk.css", "js/main.js", "js/app.js", "js/dom.js", "js/api.js", "js/screens.js",
                "js/connection.js", "js/pin.js", "js/start.js", "js/scanqueue.js", "js/outcomes.js", "js/progress.js", "js/recent.js",
                "js/lists.js", "js/focus.js", "js/dialogs.js", "js/summary.js", "js/camera.js", "js/gun.js", "js/place.js",
                "js/bus.js", "js/dialog.js", "js/mute.js", "js/count.js",
            ].map { Resource.embedInCode("Web/\($0)") }
        ),

        // The executable: argument parsing, configuration and wiring only.
        .executableTarget(
            name: "audit-station",
            dependencies: [
                "InventoryCore", "InventoryStore", "Scanning", "AuditAPI", "AuditServer", "AuditClient", "ConnectedStation", "Station", "Kiosk", "PostgresStore",
                "HTTPGuard", "DocumentKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // MARK: fuzz targets
        // libFuzzer targets over the image loaders and decoder, the CSV import and the JSON bodies
        // (scripts/fuzz.sh builds them with -sanitize=fuzzer,address and -DFUZZING in .build-fuzz).
        // Built plainly, each replays files through the same step and reports peak memory.
        .target(name: "FuzzEntries", dependencies: ["Scanning", "InventoryCore", "AuditAPI"], path: "Fuzz/Entries"),
        .systemLibrary(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(name: "fuzz-images", dependencies: ["FuzzEntries", "CFuzzDriver"], path: "Fuzz/images"),
        .executableTarget(name: "fuzz-csv", dependencies: ["FuzzEntries", "CFuzzDriver"], path: "Fuzz/csv"),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzEntries", "CFuzzDriver"], path: "Fuzz/json"),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzEntries", "fuzz-images", "AuditTestSupport", "TestKit"], exclude: ["FuzzRegressions"]),
        // The in-memory audit engine: the tests' reference model of the audit rules.
        .target(name: "AuditModel", dependencies: ["InventoryCore"], path: "Tests/AuditModel"),
        .testTarget(name: "InventoryCoreTests", dependencies: ["InventoryCore", "AuditModel", "TestKit"]),
        .testTarget(name: "InventoryStoreTests", dependencies: ["TestKit",
            "InventoryCore", "InventoryStore", "ConnectedStore", "PostgresStore", "AuditTestSupport", "AuditModel",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "CLITests", dependencies: [
            "audit-station", "TestKit", "InventoryCore", "InventoryStore", "ConnectedStore", "AuditTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            "PostgresStore", .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"), "HTTPGuard",
        ]),
        // MARK: more test targets
        // What every test target shares: child processes through swift-subprocess (nothing
        // blocks a thread of the concurrency pool), loopback stand-ins for dead servers, `Locked`.
        .target(name: "TestKit", dependencies: [
            .product(name: "Subprocess", package: "swift-subprocess"),
            .product(name: "SystemPackage", package: "swift-system"),
        ], path: "Tests/TestKit"),
        // The real server on 127.0.0.1 that the server, client and kiosk tests share, one that
        // speaks only SPEC's audit API (SpecServer), and a connected station logged in to either
        // (TestStation).
        .target(name: "AuditTestSupport", dependencies: [
            "TestKit", "AuditServer", "InventoryCore", "InventoryStore", "PostgresStore", "AuditAPI", "AuditClient", "ConnectedStation",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Crypto", package: "swift-crypto"),
        ], path: "Tests/AuditTestSupport"),
        .testTarget(name: "AuditServerTests", dependencies: [
            "TestKit", "AuditServer", "InventoryCore", "InventoryStore", "PostgresStore", "AuditTestSupport", "HTTPGuard",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The HTTP client of the API, and the connected station kept in step with a server through it.
        .testTarget(name: "AuditClientTests", dependencies: [
            "TestKit", "AuditClient", "ConnectedStation", "AuditServer", "AuditAPI", "InventoryCore", "InventoryStore", "ConnectedStore", "AuditTestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The one scan path (`ScanSession`): batches, the server's news and refusals, evidence photos.
        .testTarget(name: "StationTests", dependencies: [
            "Station", "TestKit", "AuditTestSupport", "AuditAPI", "AuditClient", "ConnectedStation", "InventoryCore", "InventoryStore", "Scanning",
        ]),
        .testTarget(name: "ScanningTests", dependencies: ["Scanning", "TestKit"]),
        // The PDF report and labels read back with poppler (pdftotext, pdfinfo, pdftoppm) and our decoder; the CLI and the API.
        .testTarget(name: "DocumentTests", dependencies: [
            "DocumentKit", "Scanning", "TestKit", "AuditTestSupport", "AuditServer", "InventoryCore", "InventoryStore", "audit-station",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Runs a ScanLoop on one camera and prints JSON lines: the camera tests and Benchmarks/camera use it.
        .executableTarget(name: "camera-probe", dependencies: ["Scanning"], path: "Tests/CameraProbe"),
        // The emulated V4L2 camera (Tests/FakeCamera, loaded with LD_PRELOAD into a child process).
        .target(name: "CameraTestSupport", dependencies: ["TestKit"], path: "Tests/CameraTestSupport"),
        .testTarget(name: "CameraTests", dependencies: ["Scanning", "camera-probe", "CameraTestSupport", "TestKit"]),
        // What the browser tests of every page share: a WebDriver client of chromedriver and headless
        // Chromium, the gun's keys (DevTools key events), the shared browser of each chain,
        // screenshots, and the built `audit-station` run as a kiosk, a server or a back office.
        .target(name: "BrowserTestSupport", dependencies: ["TestKit"], path: "Tests/BrowserTestSupport"),
        // The kiosk in headless Chromium over WebDriver, in standalone and connected mode.
        .testTarget(name: "KioskTests", dependencies: [
            "audit-station", "TestKit", "BrowserTestSupport", "Kiosk", "CameraTestSupport", "AuditTestSupport", "InventoryCore", "InventoryStore",
            "Station", "ConnectedStation",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The server's pages in headless Chromium: the back office (`serve`, and `office` over a
        // station's file) and the phone page.
        .testTarget(name: "OfficeTests", dependencies: [
            "audit-station", "TestKit", "BrowserTestSupport", "AuditTestSupport", "AuditServer", "InventoryCore", "InventoryStore", "Scanning",
        ]),
    ],
    cxxLanguageStandard: .cxx17
)

// Our own Swift is compiled with optimization in debug builds too (as Scanning always was):
// the tests spend most of their time in it and in the child processes of the built tool, and
// unoptimized Swift runs several times slower there (generic code through the runtime). Only
// our targets: the packages we depend on keep the configuration's settings.
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}
