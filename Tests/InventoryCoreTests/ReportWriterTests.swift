import Foundation
import InventoryCore
import Testing
import TestKit

@Suite("Report writers")
struct ReportWriterTests {
    static let started = Date(timeIntervalSince1970: 1_778_581_800)
    static let summary = ReportSummary(
        AuditSession(
            id: "3f2a", country: "SG", progress: AuditProgress(totalAssets: 2, scannedCount: 1, unexpectedCount: 1),
            startedAt: started, startedBy: "alice"))

    static func row(name: String, identifier: String = "SG-1", station: String = "kiosk") -> AuditAsset {
        AuditAsset(
            asset: AssetBrief(id: 1, assetTag: identifier, name: name, country: "SG"), identifier: identifier, outcome: .scanned,
            firstScan: FirstScan(scannedAt: started, station: station, user: "bob", source: .camera), scanCount: 1)
    }

    static func csv(_ rows: [AuditAsset]) throws -> [UInt8] {
        var writer = try ReportWriter(format: .csv, summary: summary)
        for row in rows { writer.append(row) }
        writer.finish()
        return [UInt8](writer.drain())
    }

    @Test(
        "A CSV cell reads back exactly, quoted where RFC 4180 needs it, defused where a spreadsheet would compute it",
        arguments: [
            ("plain", "plain", false), ("a,b", "a,b", true), ("say \"hi\"", "say \"hi\"", true), ("two\r\nlines", "two\r\nlines", true),
            ("lf\nonly", "lf\nonly", true), ("cr\ronly", "cr\ronly", true), ("=1+2", "'=1+2", false), ("+1", "'+1", false),
            ("-1", "'-1", false), ("@SUM(A1)", "'@SUM(A1)", false), ("\tx", "'\tx", false), ("\rx", "'\rx", true),
            ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")", true), ("a=b", "a=b", false), ("", "", false),
            ("ünïcode ✓", "ünïcode ✓", false), (" lead", " lead", false)
        ])
    func csvCell(text: String, readsBack: String, quoted: Bool) throws {
        var buffer: [UInt8] = []
        CSV.appendCell(text, to: &buffer)
        #expect((buffer.first == UInt8(ascii: "\"")) == quoted)
        #expect(try StrictCSV.parse(buffer + [13, 10]) == [[readsBack]])
    }

    @Test func csvReportHasAHeaderAndOneRecordPerRow() throws {
        let rows = [
            Self.row(name: "Desk, \"big\"\r\nsecond"), Self.row(name: "=cmd|' /C calc'!A0", identifier: "SG-2", station: "Hall, A"),
            AuditAsset(
                asset: nil, identifier: "@ghost", outcome: .unexpected, reason: .unknown,
                firstScan: FirstScan(scannedAt: Self.started, station: "k", user: "u", source: .manual), scanCount: 3),
            AuditAsset(asset: AssetBrief(id: 3, assetTag: "SG-3", name: "Missing", country: "SG"), identifier: "SG-3", outcome: .missing)
        ]
        let records = try StrictCSV.parse(Self.csv(rows))
        #expect(records.count == 5 && records[0] == ReportWriter.columns)
        #expect(
            records[1] == [
                "SG-1", "SG-1", "", "Desk, \"big\"\r\nsecond", "", "IN_STOCK", "", "SG", "", "", "scanned", "", "", "2026-05-12T10:30:00Z", "1",
                "0", "kiosk", "bob", "camera", ""
            ])
        let station = try #require(ReportWriter.columns.firstIndex(of: "station"))
        #expect(records[2][3] == "'=cmd|' /C calc'!A0" && records[2][station] == "Hall, A")
        #expect(
            records[3] == [
                "'@ghost", "", "", "", "", "", "", "", "", "", "unexpected", "unknown", "", "2026-05-12T10:30:00Z", "3", "0", "k", "u", "manual", ""
            ])
        #expect(records[4] == ["SG-3", "SG-3", "", "Missing", "", "IN_STOCK", "", "SG", "", "", "missing", "", "", "", "0", "0", "", "", "", ""])
    }

    @Test func jsonReportParsesWithEveryFieldPresent() throws {
        var writer = try ReportWriter(format: .json, summary: Self.summary)
        writer.append(Self.row(name: "Tab\there \"quoted\" back\\slash \u{1} ctl é ✓"))
        writer.append(AuditAsset(asset: nil, identifier: "ghost", outcome: .unexpected, reason: .unknown, scanCount: 0))
        writer.finish()
        let root = try #require(try JSONSerialization.jsonObject(with: writer.drain()) as? [String: Any])
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(
            Set(summary.keys) == [
                "audit_id", "country", "total_assets", "scanned_count", "missing_count", "unexpected_count",
                "completion_percentage", "started_at", "ended_at", "started_by", "ended_by", "locations", "by_location", "by_station",
                "by_user", "late_scans"
            ])
        #expect(summary["ended_at"] is NSNull && summary["ended_by"] is NSNull && summary["started_at"] as? String == "2026-05-12T10:30:00Z")
        #expect(summary["completion_percentage"] as? Double == 50 && summary["missing_count"] as? Int == 1)
        let assets = try #require(root["assets"] as? [[String: Any]])
        #expect(assets.count == 2 && assets.allSatisfy { Set($0.keys) == Set(ReportWriter.columns) })
        #expect(assets[0]["name"] as? String == "Tab\there \"quoted\" back\\slash \u{1} ctl é ✓")
        #expect(assets[0]["scan_count"] as? Int == 1 && assets[0]["first_scanned_at"] as? String == "2026-05-12T10:30:00Z")
        #expect(assets[0]["voided_scans"] as? Int == 0 && assets[0]["status"] as? String == "IN_STOCK")
        #expect(assets[1]["asset_tag"] is NSNull && assets[1]["first_scanned_at"] is NSNull && assets[1]["reason"] as? String == "unknown")
    }

    @Test func endedAuditsCarryTheirEndInTheSummary() throws {
        let ended = ReportSummary(
            AuditSession(
                id: "x", country: "MY", progress: AuditProgress(totalAssets: 0, scannedCount: 0, unexpectedCount: 0),
                startedAt: Self.started, startedBy: "alice", endedAt: Self.started.addingTimeInterval(90), endedBy: "bob"))
        var writer = try ReportWriter(format: .json, summary: ended)
        writer.finish()
        let root = try #require(try JSONSerialization.jsonObject(with: writer.drain()) as? [String: Any])
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(summary["ended_at"] as? String == "2026-05-12T10:31:30Z" && summary["ended_by"] as? String == "bob")
        #expect(summary["completion_percentage"] as? Double == 100 && (root["assets"] as? [Any])?.isEmpty == true)
    }

    @Test func drainingInPiecesGivesTheSameBytes() throws {
        let rows = (0..<500).map { Self.row(name: "Laptop \($0), \"14\"", identifier: "SG-\($0)") }
        for format in [ReportFormat.csv, .json] {
            var whole = try ReportWriter(format: format, summary: Self.summary)
            var pieces = try ReportWriter(format: format, summary: Self.summary)
            var streamed = Data()
            for (n, row) in rows.enumerated() {
                whole.append(row)
                pieces.append(row)
                if n % 37 == 0 { streamed += pieces.drain() }
            }
            whole.finish()
            pieces.finish()
            streamed += pieces.drain()
            #expect(streamed == whole.drain(), "\(format)")
        }
    }

    @Test func theStrictReaderRefusesMalformedCSV() {
        for bad in ["a,b\n", "a,b", "a\"b\r\n", "\"a\"b\r\n", "\"open\r\n", "a\rb\r\n"] {
            #expect(throws: StrictCSV.Malformed.self, "\(bad.debugDescription)") { try StrictCSV.parse(Array(bad.utf8)) }
        }
    }

    @Test func timesAreISO8601UTCWholeSeconds() {
        #expect(ISOTime.string(Self.started.addingTimeInterval(0.75)) == "2026-05-12T10:30:00Z")
        #expect(ISOTime.parse("2026-05-12T10:30:00Z") == Self.started)
        #expect(ISOTime.parse("2026-05-12T10:30:00.250Z") == Self.started.addingTimeInterval(0.25))
        #expect(ISOTime.parse("12/05/2026") == nil)
    }
}
