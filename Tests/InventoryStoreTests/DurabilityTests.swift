import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing

@Suite("Durability of the database file")
struct DurabilityTests {
    @Test func everyConnectionUsesWALWithFullSync() async throws {
        let store = try TemporaryStore()
        let writer = try await store.database.writer.write { db in
            [
                try String.fetchOne(db, sql: "PRAGMA journal_mode"), try String.fetchOne(db, sql: "PRAGMA synchronous"),
                try String.fetchOne(db, sql: "PRAGMA foreign_keys")
            ]
        }
        let reader = try await store.database.writer.read { db in
            [try String.fetchOne(db, sql: "PRAGMA journal_mode"), try String.fetchOne(db, sql: "PRAGMA synchronous")]
        }
        #expect(writer[0] == "wal" && writer[2] == "1", "WAL, foreign keys on")
        #expect(reader == ["wal", "2"])

        // so the connection that commits the scans is not at FULL.
        #expect(writer[1] == "2", "synchronous=FULL on the connection that commits")
    }

    @Test func acknowledgedScansAreInTheFilesBeforeAnyCleanClose() async throws {
        // Copy the database and its WAL while the station still has them open, as a power cut
        // would leave them, and open the copy: every scan that returned must be there.
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        try await store.addAsset("SG-2")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        var acknowledged: [String] = []
        for identifier in ["SG-1", "NOPE", "SG-1", "SG-2"] {
            acknowledged.append(try await service.record(ScanRequest(identifier: identifier, auditId: audit)).scanId)
        }
        let copy = "\(temporaryRoot)/\(UUID().uuidString)/crashed.sqlite"
        try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: copy + suffix)
        }
        let reopened = SQLiteAuditService(database: try AppDatabase(path: copy))
        let session = try await reopened.audit(id: audit)
        #expect(session.progress == AuditProgress(totalAssets: 2, scannedCount: 2, unexpectedCount: 1))
        let ids = try await AppDatabase(path: copy).writer.read { db in try String.fetchAll(db, sql: "SELECT scan_id FROM scans ORDER BY id") }
        #expect(ids == acknowledged)
        // The reopened station carries on where it stopped.
        #expect(try await reopened.record(ScanRequest(identifier: "SG-2", auditId: audit)).status == .alreadyScanned)
    }

    @Test func reopeningAnExistingFileKeepsItsData() async throws {
        let path = "\(temporaryRoot)/\(UUID().uuidString)/nested/folder/station.sqlite"
        do {
            let database = try AppDatabase(path: path)
            _ = try await SQLiteAssetService(database: database).create(AssetInput(assetTag: "SG-1", name: "Laptop", country: "SG"))
            _ = try await SQLiteAuditService(database: database).start(country: "SG", by: alice)
        }
        let database = try AppDatabase(path: path)
        #expect(try await SQLiteAssetService(database: database).find(identifier: "SG-1")?.name == "Laptop")
        #expect(try await SQLiteAuditService(database: database).activeAudits().map(\.totalAssets) == [1])
    }

    @Test func aFileThatIsNotADatabaseGivesAClearError() async throws {
        let path = "\(temporaryRoot)/\(UUID().uuidString)/garbage.sqlite"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let error = await failure { _ = try AppDatabase(path: path) }
        guard case .storage(let message) = error else {
            Issue.record("expected a storage error, got \(String(describing: error))")
            return
        }
        #expect(message.contains(path))
    }
}
