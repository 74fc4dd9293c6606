import AsyncHTTPClient
import AuditAPI
import AuditClient
import AuditServer
import Foundation
import Hummingbird
import InventoryCore
import InventoryStore
import Logging
import NIOCore

/// `server-benchmark late [assets=1000000] [scans=5000]`: the cost of a scan that arrives after
/// its audit ended (`LateScans`) beside an ordinary one, on audits of `assets` expected assets
/// over a fresh SQLite server on 127.0.0.1:
/// 1. `scans` ordinary scans into a running audit from 32 connections (`POST /scan`, each with
///    its `scanned_at`), p50 and p99;
/// 2. the same number of late scans into an ended audit of the same size;
/// 3. one batch of 500 late scans (`POST /scans` with the station's clock) into that audit.
enum LateBenchmark {
    static func main() async {
        do { try await run() } catch {
            print("benchmark failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let arguments = CommandLine.arguments.dropFirst(2).compactMap { Int($0) }
        let assetCount = arguments.first ?? 1_000_000
        let scans = min(arguments.dropFirst().first ?? 5_000, assetCount / 3)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("late-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let settings = ServerSettings(host: "127.0.0.1", port: 0)
        let database = try AppDatabase(path: folder.appendingPathComponent("server.sqlite").path)
        let parts = try await ServerParts(backend: .sqlite(database), settings: settings)
        let importStart = ContinuousClock.now
        let rows = (0..<assetCount).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "LA-\($0)", name: "Laptop", country: "LA")) }
        _ = try await SQLiteAssetService(database: database).importAssets(rows) { _, _ in }
        print(String(format: "imported %d assets in %.1f s", assetCount, ServerBenchmark.seconds(ContinuousClock.now - importStart)))
        guard let (base, login, serverTask) = try await ServerBenchmark.serve(parts, settings: settings) else { return }
        print("server on \(base); audits of \(assetCount) assets; synchronous=FULL; build: \(ServerBenchmark.isDebug ? "debug" : "release")")
        let api = APIClient(baseURL: base, token: login.token)
        let actor = Actor(user: "Bench", station: "bench")

        // 1. Ordinary scans, into a running audit.
        let running = try await api.send(.POST, Routes.auditStart, body: StartRequest(country: "LA"), as: AuditResponse.self).audit
        let made = ISOTime.string(Date())
        try await ServerBenchmark.loadTest(bases: [base], token: login.token, auditID: running.id, total: scans, label: "on-time scans") {
            index, worker in
            (Routes.auditScan, scanBody("LA-\(index)", auditID: running.id, scanID: "on-time-\(index)", at: made, worker: worker))
        }
        _ = try await parts.audits.end(auditID: running.id, by: actor)

        // 2. Late scans, made before the end, into an ended audit of the same size.
        let ended = try await api.send(.POST, Routes.auditStart, body: StartRequest(country: "LA"), as: AuditResponse.self).audit
        let before = ISOTime.string(Date())
        _ = try await parts.audits.end(auditID: ended.id, by: actor)
        try await ServerBenchmark.loadTest(bases: [base], token: login.token, auditID: ended.id, total: scans, label: "late scans") {
            index, worker in
            let tag = "LA-\(scans + index)"
            return (Routes.auditScan, scanBody(tag, auditID: ended.id, scanID: "late-\(index)", at: before, worker: worker))
        }

        // 3. One batch of 500 late scans, with the station's clock.
        let batch = BatchScanRequest(
            scans: (0..<BatchScanRequest.limit).map {
                ScanRequest(
                    identifier: "LA-\(2 * scans + $0)", auditId: ended.id, scanId: "late-batch-\($0)", source: .camera,
                    scannedAt: ISOTime.parse(before), deviceName: "bench-station")
            }, stationClock: Date(), deviceName: "bench-station", waiting: 0)
        let batchStart = ContinuousClock.now
        let answer = try await api.send(.POST, Routes.auditScans, body: batch, as: BatchScanResponse.self)
        let batchTime = ServerBenchmark.seconds(ContinuousClock.now - batchStart)
        let taken = answer.results.filter { $0.success && $0.data?.late == true }.count
        print(
            String(
                format: "batch: 500 late scans into an ended audit of %d assets in %.1f ms (%d taken as late)", assetCount, batchTime * 1000, taken))
        let check = try await parts.audits.audit(id: ended.id)
        print(
            "ended audit after the late scans: scanned \(check.scannedCount) of \(check.totalAssets), late \(check.lateScanCount ?? 0) (expected \(scans + 500))"
        )
        serverTask.cancel()
        _ = try? await serverTask.value
    }

    static func scanBody(_ tag: String, auditID: AuditID, scanID: String, at time: String, worker: Int) -> String {
        #"{"identifier":"\#(tag)","audit_id":"\#(auditID)","scan_id":"\#(scanID)","scanned_at":"\#(time)","device_name":"bench-\#(worker)"}"#
    }
}
