import Foundation
import InventoryCore
import PostgresNIO

extension PostgresRandomAccessRow {
    /// The value of a named column; optional types read NULL as nil.
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    func int(_ index: Int) throws -> Int { try self[index].decode(Int.self) }
}

/// Reading rows into the core's types. Column names are those of the SQLite store, so both
/// back ends answer with the same fields.
enum PGRows {
    /// The first scan's columns, aliased so they never clash with asset columns.
    static let firstScanColumns = """
        s.scanned_at AS first_scanned_at, s.station AS first_station, s.user_name AS first_user, s.source AS first_source, \
        s.location AS found_location, CASE WHEN s.late THEN s.recorded_at END AS first_late_at
        """

    static func firstScan(_ row: PostgresRandomAccessRow) throws -> FirstScan? {
        guard let at = try row.get("first_scanned_at", as: Date?.self), let station = try row.get("first_station", as: String?.self),
            let user = try row.get("first_user", as: String?.self),
            let source = ScanSource(rawValue: try row.get("first_source", as: String?.self) ?? "")
        else { return nil }
        return FirstScan(
            scannedAt: at, station: station, user: user, source: source, location: try row.get("found_location"),
            arrivedLateAt: try row.get("first_late_at"))
    }

    static let sessionColumns =
        "id, country, total_assets, scanned_count, unexpected_count, started_at, started_by, ended_at, ended_by, locations, late_count, revision"

    static func session(_ row: PostgresRandomAccessRow) throws -> AuditSession {
        AuditSession(
            id: try row.get("id"), country: try row.get("country"),
            progress: AuditProgress(
                totalAssets: try row.get("total_assets"), scannedCount: try row.get("scanned_count"),
                unexpectedCount: try row.get("unexpected_count"), revision: try row.get("revision", as: Int?.self)),
            startedAt: try row.get("started_at"), startedBy: try row.get("started_by"), endedAt: try row.get("ended_at"),
            endedBy: try row.get("ended_by"), locations: AuditLocations.list(try row.get("locations")),
            lateScanCount: try row.get("late_count", as: Int?.self))
    }

    static func fetchSession(_ connection: PostgresConnection, id: AuditID) async throws -> AuditSession {
        guard let row = try await connection.row("SELECT \(unescaped: sessionColumns) FROM audits WHERE id = \(id)") else {
            throw InventoryError.notFound("audit \(id)")
        }
        return try session(row)
    }

    /// A brief from a row that selected the asset columns (or the recorded ones under the same names).
    static func brief(_ row: PostgresRandomAccessRow) throws -> AssetBrief {
        AssetBrief(
            id: try row.get("id"), assetTag: try row.get("asset_tag"), serialNum: try row.get("serial_num"), name: try row.get("name"),
            model: try row.get("model"), status: AssetStatus(rawValue: try row.get("status")) ?? .inStock,
            location: try row.get("location"), company: try row.get("company"), country: try row.get("country"))
    }

    /// An expected-set entry with the asset as the audit recorded it, and the first scan.
    static func expectedEntry(_ row: PostgresRandomAccessRow) throws -> AuditAsset {
        let brief = try row.get("name", as: String?.self) == nil ? nil : try brief(row)
        let scan = try firstScan(row)
        return AuditAsset(
            asset: brief, identifier: try row.get("expected_tag"), outcome: scan == nil ? .missing : .scanned,
            firstScan: scan, scanCount: try row.get("scan_count"))
    }

    /// An unexpected entry with its asset as recorded (nil for an unknown identifier) and the first scan.
    static func unexpectedEntry(_ row: PostgresRandomAccessRow) throws -> AuditAsset {
        let known = try row.get("id", as: Int64?.self) != nil && row.get("name", as: String?.self) != nil
        return AuditAsset(
            asset: known ? try brief(row) : nil, identifier: try row.get("unexpected_identifier"), outcome: .unexpected,
            reason: UnexpectedReason(rawValue: try row.get("unexpected_reason")),
            firstScan: try firstScan(row), scanCount: try row.get("scan_count"))
    }

    /// The asset fields an audit entry records (besides its id and tag).
    static let recordedFields = "serial_num, name, model, status, location, company, country"

    static let expectedSQL = """
        SELECT e.asset_id AS id, e.asset_tag, e.serial_num, e.name, e.model, e.status, e.location, e.company, e.country,
               e.asset_tag AS expected_tag, e.scan_count, \(firstScanColumns)
        FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id
        WHERE e.audit_id = $1
        """

    static let unexpectedSQL = """
        SELECT u.asset_id AS id, u.asset_tag, u.serial_num, u.name, u.model, u.status, u.location, u.company, u.country,
               u.identifier AS unexpected_identifier, u.reason AS unexpected_reason, u.scan_count, \(firstScanColumns)
        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
        WHERE u.audit_id = $1
        """

    /// The asset columns, the assigned customer's name, and the part of `last_audited_at` that
    /// an ended audit's catch-up has not written yet (`PGLastAudited`).
    static let assetSQL =
        "SELECT assets.*, customers.name AS customer, \(PGLastAudited.pendingColumn) FROM assets LEFT JOIN customers ON customers.id = assets.customer_id"

    /// The asset from its row (`PGRowDecoder`), with the later of its stored and pending
    /// `last_audited_at`.
    static func asset(_ row: PostgresRandomAccessRow) throws -> Asset {
        var asset = try PGRowDecoder.decode(Asset.self, from: row)
        asset.takeAudited(pending: row.contains("pending_audited_at") ? try row.get("pending_audited_at") : nil)
        return asset
    }

    static func customer(_ row: PostgresRandomAccessRow) throws -> Customer { try PGRowDecoder.decode(Customer.self, from: row) }

    static let accessorySQL = """
        SELECT accessories.*, accessories.total_quantity - COALESCE((SELECT SUM(quantity) FROM accessory_holdings h
            WHERE h.accessory_id = accessories.id), 0)::INTEGER AS available_quantity FROM accessories
        """

    static func accessory(_ row: PostgresRandomAccessRow) throws -> Accessory { try PGRowDecoder.decode(Accessory.self, from: row) }

    static func user(_ row: PostgresRandomAccessRow) throws -> StoredUser { try PGRowDecoder.decode(StoredUser.self, from: row) }
}

/// `LIKE` pattern for a free-text search, with the wildcards in the text escaped; used with
/// ILIKE, since SQLite's LIKE ignores the case of ASCII letters.
func likePattern(_ search: String) -> String {
    "%"
        + search.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_") + "%"
}

/// Binds for a query built in pieces: `$n` is the place of each value appended.
struct Binds {
    private(set) var bindings = PostgresBindings()

    /// Appends `value` and returns its placeholder.
    mutating func add<T: PostgresDynamicTypeEncodable>(_ value: T?) -> String {
        bindings.append(value)
        return "$\(bindings.count)"
    }
}

/// Matching a tag or serial with ASCII letters' case ignored, as SQLite's NOCASE does, using
/// the indexes of migration 5: a value with no lower-case ASCII letter equals the upper-case
/// fold of what is looked for (unique index); any other is in the partial fold index.
enum PGFold {
    /// SQL true when `column` (a column reference) matches `value` (an SQL expression) in any case.
    static func match(_ column: String, _ value: String) -> String {
        "(\(column) = audit_upfold(\(value)) OR (audit_fold(\(column)) = audit_fold(\(value)) AND \(column) <> audit_upfold(\(column))))"
    }
}
