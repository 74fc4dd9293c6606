import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// The folder of this test run's databases, removed when the test process exits. (Removing
/// each file when its store goes away could pull it from under a service still in use.)
let temporaryRoot: String = {
    let root = Scratch.root.appendingPathComponent("stores-\(UUID().uuidString)").path
    atexit { try? FileManager.default.removeItem(atPath: temporaryRoot) }
    return root
}()

/// A station database: a real SQLite file (WAL, synchronous=FULL) in a fresh temporary folder.
final class TemporaryStore: Sendable {
    let path: String
    let database: AppDatabase

    init() throws {
        path = "\(temporaryRoot)/\(UUID().uuidString)/station.sqlite"
        database = try AppDatabase(path: path)
    }

    func audits(caseSensitive: Bool = true, station: String = "test-station") -> SQLiteAuditService {
        SQLiteAuditService(database: database, caseSensitive: caseSensitive, defaultStation: station)
    }
    var assets: SQLiteAssetService { SQLiteAssetService(database: database) }
    var accessories: SQLiteAccessoryService { SQLiteAccessoryService(database: database) }
    var customers: SQLiteCustomerService { SQLiteCustomerService(database: database) }

    /// A second, independent connection pool on the same file, as another process would open.
    func openAgain() throws -> AppDatabase { try AppDatabase(path: path) }

    /// `SELECT count(*)` of a table, read straight from the file.
    func count(_ table: String, where condition: String = "1") async throws -> Int {
        try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(condition)") ?? -1
        }
    }

    /// Every row count that bad input must leave unchanged.
    func snapshot() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in [
            "assets", "customers", "accessories", "accessory_holdings", "accessory_movements",
            "asset_transfers", "audits", "scans", "audit_expected", "audit_unexpected"
        ] {
            counts[table] = try await count(table)
        }
        return counts
    }

    @discardableResult
    func addAsset(
        _ tag: String, serial: String? = nil, name: String? = nil, status: AssetStatus = .inStock,
        country: String = "SG", customerId: Int64? = nil
    ) async throws -> Asset {
        try await assets.create(
            AssetInput(
                assetTag: tag, serialNum: serial, name: name ?? "Laptop \(tag)",
                status: status.rawValue, country: country, customerId: customerId))
    }

    func addCustomer(_ name: String = "Acme Pte Ltd", country: String = "SG") async throws -> Customer {
        try await customers.create(
            CustomerInput(
                name: name, contactNumber: "+65 6123 4567",
                address: "1 Harbourfront Ave", country: country))
    }
}

let alice = Actor(user: "alice", station: "kiosk-1")
let bob = Actor(user: "bob", station: "kiosk-2")

/// Runs `body`, which must fail, and returns its failure as an `InventoryError` (field errors
/// become `.invalid`). Records an issue when it succeeds or fails some other way.
func failure(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> InventoryError? {
    do {
        try await body()
        Issue.record("expected an error, but the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard let known = InventoryError(error) else {
            Issue.record("expected an InventoryError or ValidationError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        let message = known.errorDescription ?? ""
        #expect(!message.isEmpty, "every error has a message a person can act on", sourceLocation: sourceLocation)
        return known
    }
}

extension InventoryError {
    /// The fields named by a validation failure (empty for any other error).
    var fields: [String: [String]] {
        if case .invalid(let errors) = self { return errors.fields }
        return [:]
    }
}
