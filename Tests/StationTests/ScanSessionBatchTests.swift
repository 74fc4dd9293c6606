import AuditTestSupport
import Foundation
import InventoryCore
import InventoryStore
import Station
import TestKit
import Testing

/// A kiosk's batch of typed scans (`ScanSession.record(batch:)`, stored in one write where the
/// store can) answers exactly as the same scans recorded one at a time.
@Suite("A batch of typed scans")
struct ScanSessionBatchTests {
    /// What a person reads of an event: its outcome, tag, place, or refusal code.
    static func outline(_ event: ScanEvent) -> String {
        switch event {
        case .recorded(let result, _), .decided(let result, _):
            "\(result.status.rawValue)\(result.misplaced == true ? " misplaced" : "") \(result.identifier) at \(result.foundLocation ?? "-")"
        case .refused(let refusal): "refused \(refusal.code.rawValue) \(refusal.identifier ?? "")"
        case .note(let text): "note \(text.prefix(24))"
        }
    }

    @Test func aBatchAnswersAsOneScanAtATimeWouldInTheSameOrder() async throws {
        let database = try AppDatabase(path: TestServer.temporaryPath())
        let audits = SQLiteAuditService(database: database)
        let assets = SQLiteAssetService(database: database)
        for (tag, location) in [("A1", "Dock A"), ("A2", "Dock B"), ("A3", "Dock A")] {
            _ = try await assets.create(AssetInput(assetTag: tag, name: tag, status: "IN_STOCK", country: "SG", location: location))
        }
        _ = try await assets.create(AssetInput(assetTag: "M1", name: "M1", status: "IN_STOCK", country: "MY", location: "KL"))
        // A tag twice, an unknown one, another country's, an empty one, a location label, a
        // misplaced asset after it, and a scan sent again with its scan_id.
        let items: [(identifier: String, scanID: String?)] = [
            ("A1", "s-1"), ("GHOST-1", "s-2"), ("A1", "s-3"), ("M1", "s-4"), ("   ", "s-5"), ("LOC:Dock B", nil), ("A3", "s-6"),
            ("A2", "s-7"), ("A2", "s-7")
        ]
        var outlines: [[String]] = []
        var trails: [[String]] = []
        for batched in [false, true] {
            let actor = Actor(user: "lead", station: "kiosk-1")
            let audit = try await audits.start(country: "SG", by: actor)
            let seen = Locked<[String]>([])
            let session = ScanSession(service: audits, connection: nil, audit: audit, actor: actor, place: StationPlace(location: "Dock A")) {
                event in seen.update { $0.append(Self.outline(event)) }
            }
            let unique: [(identifier: String, scanID: String?)] = items.map { ($0.identifier, $0.scanID.map { "\(batched)-\($0)" }) }
            var events: [ScanEvent] = []
            if batched {
                events = await session.record(batch: unique, source: .manual)
            } else {
                for item in unique { events.append(await session.record(item.identifier, source: .manual, scanID: item.scanID)) }
            }
            #expect(events.count == items.count)
            #expect(seen.get() == events.map(Self.outline), "the observer sees each event, in order")
            outlines.append(events.map(Self.outline))
            trails.append(try await audits.scans(auditID: audit.id, query: ListQuery()).items.map { "\($0.identifier) \($0.status.rawValue)" })
            #expect(await session.lastProgress == (try await audits.audit(id: audit.id).progress))
            _ = try await audits.end(auditID: audit.id, by: actor)
        }
        #expect(outlines[1] == outlines[0])
        #expect(trails[1] == trails[0])
        #expect(
            outlines[0].contains("found_expected A1 at Dock A") && outlines[0].contains("found_expected misplaced A3 at Dock B"), "\(outlines[0])")
        #expect(trails[0].count == 6, "\(trails[0]) \(outlines[0])")
    }

    @Test("A gun typing into a full-width input method: its location labels and tags read as the ASCII they stand for")
    func fullWidthLabelsAndTags() async throws {
        let database = try AppDatabase(path: TestServer.temporaryPath())
        let audits = SQLiteAuditService(database: database)
        let assets = SQLiteAssetService(database: database)
        _ = try await assets.create(AssetInput(assetTag: "SG-0026", name: "Laptop", status: "IN_STOCK", country: "SG", location: "Dock A"))
        _ = try await assets.create(AssetInput(assetTag: "SG-0027", name: "Phone", status: "IN_STOCK", country: "SG", location: "Dock B"))
        let actor = Actor(user: "lead", station: "kiosk-1")
        let audit = try await audits.start(country: "SG", by: actor)
        let session = ScanSession(service: audits, connection: nil, audit: audit, actor: actor, place: StationPlace(location: "Dock A")) { _ in }
        #expect(Self.outline(await session.record("ＬＯＣ：Ｄｏｃｋ\u{3000}Ｂ", source: .manual)).hasPrefix("note"))
        #expect(await session.location == "Dock B")
        #expect(Self.outline(await session.record("ＳＧ－００２６", source: .manual)) == "found_expected misplaced SG-0026 at Dock B")
        #expect(Self.outline(await session.record("\u{3000}ＳＧ－００２７\u{3000}", source: .manual)) == "found_expected SG-0027 at Dock B")
        let trail = try await audits.scans(auditID: audit.id, query: ListQuery()).items.map(\.identifier)
        #expect(trail.sorted() == ["SG-0026", "SG-0027"])
    }
}
