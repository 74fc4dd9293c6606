import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// Gathers the chunks a report writes, which come from the database's thread.
final class ReportSink: @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [Data] = []
    func write(_ chunk: Data) { lock.withLock { chunks.append(chunk) } }
    var data: Data { lock.withLock { chunks.reduce(Data(), +) } }
    var chunkCount: Int { lock.withLock { chunks.count } }
}

@Suite("Reports")
struct ReportTests {
    static let summaryKeys: Set<String> = [
        "audit_id", "country", "total_assets", "scanned_count", "missing_count",
        "unexpected_count", "completion_percentage", "started_at", "ended_at",
        "started_by", "ended_by", "locations", "by_location", "by_station", "by_user", "late_scans"
    ]
    static let assetKeys: Set<String> = [
        "identifier", "asset_tag", "serial_num", "name", "model", "status", "location", "country", "asset_type", "company",
        "outcome", "reason", "found_location", "first_scanned_at", "scan_count", "voided_scans", "station", "user", "source", "arrived_late_at"
    ]
    /// The outcome's column in the CSV.
    static let outcome = ReportWriter.columns.firstIndex(of: "outcome") ?? -1
    static let awkwardName = "Desk, \"big\"\r\nsecond line"

    /// Seven SG assets whose text a spreadsheet or a CSV reader could trip on, two of them
    /// scanned (one twice), and two unexpected entries.
    static func audited() async throws -> (TemporaryStore, SQLiteAuditService, AuditID) {
        let store = try TemporaryStore()
        for (tag, name, serial) in [
            ("+SG-1", "Laptop", nil), ("-SG-2", "Laptop", nil), ("@SG-3", "Laptop", nil),
            ("=SG-4", "Laptop", nil), ("SG-5", awkwardName, nil),
            ("SG-6", "=HYPERLINK(\"http://x\",\"y\")", nil), ("SG-7", "Plain", "SN,7")
        ] {
            try await store.addAsset(tag, serial: serial, name: name)
        }
        try await store.addAsset("MY-1", country: "MY")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        let scans = [
            ("+SG-1", "Kiosk, Hall \"A\"", "O'Brien"), ("SN,7", "kiosk-2", "bob"), ("=cmd|' /C calc'!A0", "kiosk-2", "bob"),
            ("MY-1", "kiosk-2", "bob"), ("+SG-1", "kiosk-2", "bob")
        ]
        for (n, (identifier, station, user)) in scans.enumerated() {
            _ = try await service.record(
                ScanRequest(
                    identifier: identifier, auditId: audit, source: .camera,
                    scannedAt: RulesFixture.t0.addingTimeInterval(Double(n)), deviceName: station, user: user))
        }
        return (store, service, audit)
    }

    static func report(_ service: SQLiteAuditService, _ audit: AuditID, _ format: ReportFormat) async throws -> (Data, Int) {
        let sink = ReportSink()
        try await service.report(auditID: audit, format: format) { sink.write($0) }
        return (sink.data, sink.chunkCount)
    }

    @Test func csvIsRFC4180WithFormulaCellsEscaped() async throws {
        let (_, service, audit) = try await Self.audited()
        let records = try await StrictCSV.parse(Self.report(service, audit, .csv).0)
        #expect(records.first == ReportWriter.columns)
        #expect(records.count == 1 + 7 + 2)
        #expect(records.allSatisfy { $0.count == ReportWriter.columns.count })
        let rows = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(ReportWriter.columns, $0)) }
        for row in rows {
            for (column, cell) in row {
                #expect(
                    !["=", "+", "-", "@", "\t", "\r"].contains(cell.first.map(String.init) ?? ""),
                    "\(column) '\(cell)' would run as a formula")
            }
        }
        let first = try #require(rows.first { $0["asset_tag"] == "'+SG-1" })
        #expect(
            first == [
                "identifier": "'+SG-1", "asset_tag": "'+SG-1", "serial_num": "", "name": "Laptop", "model": "", "status": "IN_STOCK",
                "location": "", "country": "SG", "asset_type": "", "company": "", "outcome": "scanned", "reason": "", "found_location": "",
                "first_scanned_at": ISOTime.string(RulesFixture.t0), "scan_count": "2", "voided_scans": "0",
                "station": "Kiosk, Hall \"A\"", "user": "O'Brien", "source": "camera", "arrived_late_at": ""
            ])
        #expect(rows.map { $0["asset_tag"] ?? "?" }.prefix(4) == ["'+SG-1", "'-SG-2", "'@SG-3", "'=SG-4"])
        let awkward = try #require(rows.first { $0["asset_tag"] == "SG-5" })
        #expect(awkward["name"] == Self.awkwardName && awkward["outcome"] == "missing" && awkward["scan_count"] == "0")
        #expect(awkward["first_scanned_at"] == "" && awkward["station"] == "" && awkward["user"] == "")
        #expect(rows.first { $0["asset_tag"] == "SG-6" }?["name"] == "'=HYPERLINK(\"http://x\",\"y\")")
        let bySerial = try #require(rows.first { $0["asset_tag"] == "SG-7" })
        #expect(bySerial["serial_num"] == "SN,7" && bySerial["outcome"] == "scanned" && bySerial["user"] == "bob")
        let unexpected = rows.filter { $0["outcome"] == "unexpected" }
        #expect(unexpected.map { $0["identifier"] } == ["'=cmd|' /C calc'!A0", "MY-1"])
        #expect(unexpected.map { $0["reason"] } == ["unknown", "other_country"])
        #expect(unexpected.map { $0["asset_tag"] } == ["", "MY-1"])
    }

    @Test func jsonHasTheSummaryAndAssetFieldsOfTheSpec() async throws {
        let (_, service, audit) = try await Self.audited()
        let object = try await JSONSerialization.jsonObject(with: Self.report(service, audit, .json).0)
        let root = try #require(object as? [String: Any])
        // The spec's two parts, and the audit's counted accessories (none here: an empty list).
        #expect(Set(root.keys) == ["summary", "assets", "accessories"])
        #expect((root["accessories"] as? [Any])?.isEmpty == true)
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(Set(summary.keys) == Self.summaryKeys)
        #expect(summary["audit_id"] as? String == audit && summary["country"] as? String == "SG")
        #expect(summary["total_assets"] as? Int == 7 && summary["scanned_count"] as? Int == 2)
        #expect(summary["missing_count"] as? Int == 5 && summary["unexpected_count"] as? Int == 2)
        #expect(summary["completion_percentage"] as? Double == 28.57)
        #expect((summary["started_at"] as? String).flatMap(ISOTime.parse) != nil && summary["started_by"] as? String == "alice")
        #expect(summary["ended_at"] is NSNull && summary["ended_by"] is NSNull, "a running audit has no end yet")
        let assets = try #require(root["assets"] as? [[String: Any]])
        #expect(assets.count == 9)
        #expect(assets.allSatisfy { Set($0.keys) == Self.assetKeys })
        let first = try #require(assets.first { $0["asset_tag"] as? String == "+SG-1" })
        #expect(first["scan_count"] as? Int == 2 && first["station"] as? String == "Kiosk, Hall \"A\"")
        #expect(first["first_scanned_at"] as? String == ISOTime.string(RulesFixture.t0) && first["source"] as? String == "camera")
        #expect(first["serial_num"] is NSNull && first["reason"] is NSNull && first["outcome"] as? String == "scanned")
        #expect(assets.contains { $0["name"] as? String == Self.awkwardName && $0["outcome"] as? String == "missing" })
        let unknown = try #require(assets.first { $0["identifier"] as? String == "=cmd|' /C calc'!A0" })
        #expect(unknown["asset_tag"] is NSNull && unknown["name"] is NSNull && unknown["reason"] as? String == "unknown")
        #expect(unknown["outcome"] as? String == "unexpected" && unknown["user"] as? String == "bob")
    }

    @Test func theReportOfAnEndedAuditCarriesTheEnd() async throws {
        let (_, service, audit) = try await Self.audited()
        let running = try await JSONSerialization.jsonObject(with: Self.report(service, audit, .json).0) as? [String: Any]
        _ = try await service.end(auditID: audit, by: bob)
        let ended = try #require(try await JSONSerialization.jsonObject(with: Self.report(service, audit, .json).0) as? [String: Any])
        let summary = try #require(ended["summary"] as? [String: Any])
        #expect(Set(summary.keys) == Self.summaryKeys)
        #expect(summary["ended_by"] as? String == "bob")
        let endedAt = try #require((summary["ended_at"] as? String).flatMap(ISOTime.parse))
        let startedAt = try #require((summary["started_at"] as? String).flatMap(ISOTime.parse))
        #expect(endedAt >= startedAt)
        // The rows are the same before and after the end.
        let before = try #require(running?["assets"] as? [[String: Any]]).map { NSDictionary(dictionary: $0) }
        let after = try #require(ended["assets"] as? [[String: Any]]).map { NSDictionary(dictionary: $0) }
        #expect(before == after)
        let csv = try await StrictCSV.parse(Self.report(service, audit, .csv).0)
        #expect(csv.count == 10 && csv.dropFirst().filter { $0[Self.outcome] == "missing" }.count == 5)
    }

    @Test func aLargeReportIsStreamedInChunksThatJoinIntoOneDocument() async throws {
        let store = try TemporaryStore()
        let rows = (0..<20_000).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "BULK-\($0)", name: "Laptop \($0), 14\"", country: "SG")) }
        _ = try await store.assets.importAssets(rows) { _, _ in }
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        for n in stride(from: 0, to: 20_000, by: 1_000) { _ = try await service.record(ScanRequest(identifier: "BULK-\(n)", auditId: audit)) }
        let (csv, csvChunks) = try await Self.report(service, audit, .csv)
        #expect(csvChunks > 1)
        let records = try StrictCSV.parse(csv)
        #expect(records.count == 20_001 && records.dropFirst().filter { $0[Self.outcome] == "scanned" }.count == 20)
        let (json, jsonChunks) = try await Self.report(service, audit, .json)
        #expect(jsonChunks > 1)
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((root["assets"] as? [Any])?.count == 20_000)
    }

    /// What a person walks the list with: locations, misplaced finds, voids, the summary's
    /// counts per location, station and user, and the file name.
    @Test func aReportCarriesLocationsMisplacedAndVoids() async throws {
        let store = try TemporaryStore()
        for (tag, location) in [("A-1", "Dock A"), ("A-2", "Dock A"), ("B-1", "Dock B")] {
            _ = try await store.assets.create(
                AssetInput(assetTag: tag, name: "Laptop", model: "T14", assetType: "laptop", country: "SG", location: location, company: "Acme"))
        }
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice)
        _ = try await service.record(
            ScanRequest(identifier: "A-1", auditId: audit.id, scanId: "s1", deviceName: "kiosk-1", user: "ann", location: "Dock B"))
        _ = try await service.record(
            ScanRequest(identifier: "B-1", auditId: audit.id, scanId: "s2", deviceName: "kiosk-1", user: "ann", location: "Dock B"))
        _ = try await service.record(ScanRequest(identifier: "A-2", auditId: audit.id, scanId: "s3", deviceName: "kiosk-2", user: "bob"))
        _ = try await service.void(VoidRequest(scanId: "s3", user: "bob"))
        let records = try StrictCSV.parse(try await Self.report(service, audit.id, .csv).0)
        let rows = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(ReportWriter.columns, $0)) }
        let a1 = try #require(rows.first { $0["asset_tag"] == "A-1" })
        #expect(a1["outcome"] == "misplaced" && a1["location"] == "Dock A" && a1["found_location"] == "Dock B")
        #expect(a1["model"] == "T14" && a1["asset_type"] == "laptop" && a1["company"] == "Acme" && a1["status"] == "IN_STOCK")
        let a2 = try #require(rows.first { $0["asset_tag"] == "A-2" })
        #expect(a2["outcome"] == "missing" && a2["voided_scans"] == "1" && a2["scan_count"] == "0")
        #expect(rows.first { $0["asset_tag"] == "B-1" }?["outcome"] == "scanned")

        let root = try #require(try JSONSerialization.jsonObject(with: try await Self.report(service, audit.id, .json).0) as? [String: Any])
        let summary = try #require(root["summary"] as? [String: Any])
        let byLocation = try #require(summary["by_location"] as? [[String: Any]])
        #expect(byLocation.map { $0["location"] as? String } == ["Dock A", "Dock B"])
        #expect(byLocation.map { $0["found"] as? Int } == [1, 1] && byLocation.map { $0["missing"] as? Int } == [1, 0])
        #expect(byLocation.map { $0["misplaced"] as? Int } == [1, 0])
        let byStation = try #require(summary["by_station"] as? [[String: Any]])
        #expect(byStation.map { $0["name"] as? String } == ["kiosk-1"], "the voided scan counts for no station")
        #expect((summary["by_user"] as? [[String: Any]])?.first?["found"] as? Int == 2)
        let day = String(ISOTime.string(audit.startedAt).prefix(10))
        #expect(ReportSummary.fileName(audit, format: .csv) == "audit-SG-\(day)-\(audit.id.prefix(8)).csv")
    }

    @Test func anAuditWithNothingExpectedReportsCompletion() async throws {
        let store = try TemporaryStore()
        let service = store.audits()
        let audit = try await service.start(country: "BN", by: alice)
        #expect(audit.totalAssets == 0 && audit.completionPercentage == 100)
        let root = try #require(try await JSONSerialization.jsonObject(with: Self.report(service, audit.id, .json).0) as? [String: Any])
        #expect((root["summary"] as? [String: Any])?["completion_percentage"] as? Double == 100)
        #expect((root["assets"] as? [Any])?.isEmpty == true)
        #expect(try await StrictCSV.parse(Self.report(service, audit.id, .csv).0) == [ReportWriter.columns])
    }
}
