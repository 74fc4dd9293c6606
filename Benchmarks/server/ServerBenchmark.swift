import AsyncHTTPClient
import AuditAPI
import AuditClient
import ConnectedStation
import AuditServer
import Foundation
import Hummingbird
import InventoryCore
import InventoryStore
import Logging
import NIOCore

/// Runs the server on 127.0.0.1 over a fresh database and measures, from the same process:
/// 1. scans/s from 32 concurrent connections (POST /api/v1/audit/scan), with p50/p99 latency;
/// 2. voids of half of those scans from 32 connections (POST /api/v1/audit/scans/{id}/void),
///    with the same latencies, to set beside the scans';
/// 3. the time a connected station takes to sync 10,000 queued scans.
/// Run: swift run -c release --package-path Benchmarks server-benchmark [scans=20000] [queued=10000]
enum ServerBenchmark {
    static func main() async {
        do { try await run() } catch {
            print("benchmark failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let totalScans = arguments.first ?? 20_000
        let queued = arguments.dropFirst().first ?? 10_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("server-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let settings = ServerSettings(host: "127.0.0.1", port: 0)
        let database = try AppDatabase(path: folder.appendingPathComponent("server.sqlite").path)
        let parts = try await ServerParts(backend: .sqlite(database), settings: settings)
        let assets = SQLiteAssetService(database: database)
        let rows = (0..<totalScans).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "SG-\($0)", name: "Laptop", country: "SG")) }
            + (0..<queued).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "MY-\($0)", name: "Laptop", country: "MY")) }
            + (0..<queued).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "TH-\($0)", name: "Laptop", country: "TH")) }
            + (0..<min(queued, 2_000)).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "VN-\($0)", name: "Laptop", country: "VN")) }
        _ = try await assets.importAssets(rows) { _, _ in }
        guard let (base, login, serverTask) = try await serve(parts, settings: settings) else { return }
        print("server on \(base); \(totalScans + queued) assets; synchronous=FULL; build: \(isDebug ? "debug" : "release")")
        let api = APIClient(baseURL: base, token: login.token)
        let audit = try await api.send(.POST, Routes.auditStart, body: StartRequest(country: "SG"), as: AuditResponse.self).audit

        try await loadTest(bases: [base], token: login.token, auditID: audit.id, total: totalScans)
        let check = try await parts.audits.audit(id: audit.id)
        print("server counts after the load: scanned \(check.scannedCount) of \(check.totalAssets) (expected \(totalScans))")
        let voids = totalScans / 2
        try await loadTest(bases: [base], token: login.token, auditID: audit.id, total: voids, label: "voids") { index, worker in
            (Routes.path(Routes.auditVoid, ["scan_id": "load-\(index * 2)"]), #"{"device_name":"bench-\#(worker)","reason":"benchmark"}"#)
        }
        let afterVoids = try await parts.audits.audit(id: audit.id)
        print("server counts after the voids: scanned \(afterVoids.scannedCount) of \(afterVoids.totalAssets) (expected \(totalScans - voids))")

        let batchAudit = try await api.send(.POST, Routes.auditStart, body: StartRequest(country: "TH"), as: AuditResponse.self).audit
        try await batchTest(base: base, token: login.token, auditID: batchAudit.id, total: queued)
        let batchCheck = try await parts.audits.audit(id: batchAudit.id)
        print("server counts after the batches: scanned \(batchCheck.scannedCount) of \(batchCheck.totalAssets) (expected \(queued))")

        for (country, count, size) in [("MY", queued, 500), ("VN", min(queued, 2_000), 1)] {
            let synced = try await syncTest(base: base, login: login, folder: folder, queued: count, country: country, batchSize: size)
            let onServer = try await parts.audits.audit(id: synced)
            print("server counts after the sync: scanned \(onServer.scannedCount) of \(onServer.totalAssets) (expected \(count))")
        }
        serverTask.cancel()
        _ = try? await serverTask.value
    }

    /// Makes the benchmark's admin, serves `parts` on 127.0.0.1 and logs the admin in: the
    /// server's address, the login, and the task that runs the server (cancel it to stop).
    static func serve(_ parts: ServerParts, settings: ServerSettings) async throws -> (String, LoginResponse, Task<Void, any Error>)? {
        _ = try await parts.users.create(email: "bench@example.com", password: "benchmark-pass", name: "Bench", type: .admin)
        var logger = Logger(label: "server-benchmark")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = try buildApplication(parts, settings: settings, logger: logger) { continuation.yield($0) }
        let serverTask = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { return nil }
        let base = "http://127.0.0.1:\(port)"
        let login = try await APIClient(baseURL: base).send(
            .POST, Routes.login, body: LoginRequest(email: "bench@example.com", password: "benchmark-pass", deviceName: "bench"),
            as: LoginResponse.self)
        return (base, login, serverTask)
    }

    static var isDebug: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// 32 connections, each sending its share of scans one after another; connection i goes to
    /// `bases[i % bases.count]`, so several servers on one database share the load.
    /// `call(index, worker)` gives the path and body of each call (default: a scan of SG-index).
    static func loadTest(
        bases: [String], token: String, auditID: AuditID, total: Int, scanPrefix: String = "load", label: String = "scans",
        call: (@Sendable (Int, Int) -> (path: String, body: String))? = nil
    ) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        defer { _ = client.shutdown() }
        let connections = 32
        let started = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<connections {
                group.addTask {
                    var times: [Double] = []
                    let base = bases[worker % bases.count]
                    for index in stride(from: worker, to: total, by: connections) {
                        let (path, body) =
                            call?(index, worker)
                            ?? (
                                Routes.auditScan,
                                #"{"identifier":"SG-\#(index)","audit_id":"\#(auditID)","scan_id":"\#(scanPrefix)-\#(index)","device_name":"bench-\#(worker)"}"#
                            )
                        var request = HTTPClientRequest(url: base + path)
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: body))
                        let begin = ContinuousClock.now
                        let response = try await client.execute(request, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .ok else { throw InventoryError.unavailable("\(label) answered \(response.status)") }
                        times.append(seconds(ContinuousClock.now - begin) * 1000)
                    }
                    return times
                }
            }
            var all: [Double] = []
            for try await times in group { all += times }
            return all.sorted()
        }
        let elapsed = seconds(ContinuousClock.now - started)
        print("load: \(latencies.count) \(label) " + String(format: "from %d connections to %d server(s) in %.2f s = %.0f/s; latency p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                     connections, bases.count, elapsed, Double(latencies.count) / elapsed,
                     percentile(latencies, 0.50), percentile(latencies, 0.99), latencies.last ?? 0))
    }

    /// POST /api/v1/audit/scans: `total` scans in batches of 500, from 4 connections.
    static func batchTest(base: String, token: String, auditID: AuditID, total: Int) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        let batches = stride(from: 0, to: total, by: BatchScanRequest.limit).map { $0..<min($0 + BatchScanRequest.limit, total) }
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for batch in batches.enumerated() where batch.offset % 4 == worker {
                        let items = batch.element.map { #"{"identifier":"TH-\#($0)","audit_id":"\#(auditID)","scan_id":"batch-\#($0)"}"# }
                        var request = HTTPClientRequest(url: base + Routes.auditScans)
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: #"{"scans":[\#(items.joined(separator: ","))]}"#))
                        let response = try await client.execute(request, timeout: .seconds(60))
                        _ = try await response.body.collect(upTo: 16 << 20)
                        guard response.status == .ok else { throw InventoryError.unavailable("batch answered \(response.status)") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = seconds(ContinuousClock.now - started)
        print(String(format: "batches: %d scans in %d calls of up to %d from 4 connections in %.2f s = %.0f scans/s",
                     total, batches.count, BatchScanRequest.limit, elapsed, Double(total) / elapsed))
    }

    /// A station queues `queued` scans offline-style (outbox only), then pushes them.
    static func syncTest(base: String, login: LoginResponse, folder: URL, queued: Int, country: String, batchSize: Int) async throws -> AuditID {
        let database = try AppDatabase(path: folder.appendingPathComponent("station-\(country).sqlite").path)
        let station = try ConnectedAuditService(client: APIClient(baseURL: base, token: login.token), database: database,
                                                actor: Actor(user: login.user.name, station: "bench-station"),
                                                policy: SyncPolicy(batchSize: batchSize), autoSync: false)
        let audit = try await station.start(country: country, by: Actor(user: login.user.name, station: "bench-station"))
        // Queue the scans: record() stores each in the outbox (one durable transaction each).
        let queueStart = ContinuousClock.now
        for index in 0..<queued { _ = try await station.record(ScanRequest(identifier: "\(country)-\(index)", auditId: audit.id)) }
        let queueTime = seconds(ContinuousClock.now - queueStart)
        let pending = try await station.connectedStatus().pendingScans
        let syncStart = ContinuousClock.now
        let report = await station.syncNow()
        let syncTime = seconds(ContinuousClock.now - syncStart)
        print(String(format: "station: recorded %d scans locally in %.2f s (%.0f/s); %d were queued", queued, queueTime, Double(queued) / queueTime, pending))
        print(String(format: "sync (%@): pushed %d queued scans in %.2f s (%.0f scans/s); %d remaining, %d rejected",
                     batchSize > 1 ? "batches of \(batchSize)" : "one by one", report.pushed, syncTime, Double(report.pushed) / syncTime,
                     report.remaining, report.rejected))
        return audit.id
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
}
