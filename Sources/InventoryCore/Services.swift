import Foundation

/// The audit workflow. The SQLite store implements it for a standalone station and for the
/// server; the HTTP client implements it for a connected station.
public protocol AuditService: Sendable {
    /// Countries the user may audit, with their expected asset counts.
    func countries() async throws -> [CountryCount]
    /// Running audits, one per country at most.
    func activeAudits() async throws -> [AuditSession]
    /// One audit, running or ended.
    func audit(id: AuditID) async throws -> AuditSession
    /// Starts an audit of a country, narrowed to `locations` when any are given (each must be
    /// a location of the country's assets); fails with `auditAlreadyActive` if one is running.
    func start(country: String, locations: [String], by actor: Actor) async throws -> AuditSession
    /// Records a scan and returns its outcome once it is stored.
    func record(_ scan: ScanRequest) async throws -> ScanResult
    /// Ends an audit; later scans are refused.
    func end(auditID: AuditID, by actor: Actor) async throws -> AuditSummary
    /// Ends an audit as `end(auditID:by:)` does. Against a server that knows its stations, the
    /// end is refused (`stationsOut`) while stations may still hold scans of the audit, unless
    /// `force`.
    func end(auditID: AuditID, by actor: Actor, force: Bool) async throws -> AuditSummary
    func details(auditID: AuditID, list: AuditList, query: ListQuery) async throws -> Page<AuditAsset>
    /// Past and running audits, newest first.
    func history(country: String?, query: ListQuery) async throws -> Page<AuditSession>
    /// Writes the report in pieces to `output`, so a large audit never sits in memory whole.
    /// `output` may suspend (a consumer that is behind): the next piece waits for it, and no
    /// thread is blocked meanwhile.
    func report(auditID: AuditID, format: ReportFormat, to output: @escaping @Sendable (Data) async throws -> Void) async throws
    /// The audit's scan trail, in the order the scans were stored.
    func scans(auditID: AuditID, query: ListQuery) async throws -> Page<ScanRecord>
    /// The audit's voided scans (each with its void), in the order the scans were stored: at
    /// most `limit` of them, and how many there are in all.
    func voidedScans(auditID: AuditID, limit: Int) async throws -> (total: Int, scans: [ScanRecord])
    /// Voids one scan of a running audit: the void is stored as its own record and the audit's
    /// numbers are corrected as if the scan had not been made (`VoidEffect`). The same
    /// `void_id` twice, or a second void of a voided scan, answers as the first void did.
    func void(_ request: VoidRequest) async throws -> VoidResult
    /// The locations of a country's assets (not ARCHIVED or DISPOSED), with their counts, by name.
    func locations(country: String) async throws -> [LocationCount]
    /// Reconciles an ended audit (`ReconcileRequest`): previews or applies the chosen actions
    /// in one transaction, each change one entry of the asset's history. A running audit is
    /// refused (`auditRunning`); a second run of the same actions changes nothing.
    func reconcile(_ request: ReconcileRequest) async throws -> ReconcileResult
    /// The audit's numbers and its expected assets by registered location, from one read, so
    /// the two always agree.
    func locationProgress(auditID: AuditID) async throws -> LocationProgress
    /// Sets what is counted of an accessory at a location in a running audit (`CountRequest`).
    func count(_ request: CountRequest) async throws -> CountResult
    /// The accessories the audit expects, with what was counted of each (`AccessoryTally`).
    func accessories(auditID: AuditID) async throws -> [AccessoryTally]
}

extension AuditService {
    /// A service that keeps no stations (a station's own database) has no one to wait for.
    public func end(auditID: AuditID, by actor: Actor, force: Bool) async throws -> AuditSummary {
        try await end(auditID: auditID, by: actor)
    }

    /// Starts an audit of a whole country.
    public func start(country: String, by actor: Actor) async throws -> AuditSession {
        try await start(country: country, locations: [], by: actor)
    }

    /// The locations of a country's assets an audit could be narrowed to, with their counts.
    public func locations(country: String) async throws -> [LocationCount] {
        throw InventoryError.unavailable("this station's audit service cannot list locations")
    }

    /// A service that counts no accessories says so.
    public func count(_ request: CountRequest) async throws -> CountResult {
        throw InventoryError.unavailable("this station's audit service cannot count accessories")
    }

    /// A service that counts no accessories has none in its audits.
    public func accessories(auditID: AuditID) async throws -> [AccessoryTally] { [] }

    /// A service that keeps no trail says so.
    public func scans(auditID: AuditID, query: ListQuery) async throws -> Page<ScanRecord> {
        throw InventoryError.unavailable("this station's audit service cannot list an audit's scans")
    }

    /// The voided scans, read from the trail a page at a time (the stores ask their database for them alone).
    public func voidedScans(auditID: AuditID, limit: Int) async throws -> (total: Int, scans: [ScanRecord]) {
        var total = 0
        var kept: [ScanRecord] = []
        var page = 1
        while true {
            let found = try await scans(auditID: auditID, query: ListQuery(page: page, perPage: ListQuery.maxPerPage))
            for scan in found.items where scan.voided != nil {
                total += 1
                if kept.count < limit { kept.append(scan) }
            }
            if page >= found.pagination.lastPage { break }
            page += 1
        }
        return (total, kept)
    }

    /// A service that cannot reconcile says so.
    public func reconcile(_ request: ReconcileRequest) async throws -> ReconcileResult {
        throw InventoryError.unavailable("this station's audit service cannot reconcile an audit")
    }

    /// A service that cannot count by location says so.
    public func locationProgress(auditID: AuditID) async throws -> LocationProgress {
        throw InventoryError.unavailable("this station's audit service cannot count an audit by location")
    }

    /// A service that cannot undo says so.
    public func void(_ request: VoidRequest) async throws -> VoidResult {
        throw InventoryError.unavailable("this station's audit service cannot void a scan")
    }

    /// The running audit to act on: the one named by id, else the one of `country`, else the
    /// only one. Several running audits and no choice is an error that lists them.
    public func resolveActive(auditID: AuditID? = nil, country: String? = nil) async throws -> AuditSession {
        if let auditID { return try await audit(id: auditID) }
        return try AuditSession.onlyRunning(among: try await activeAudits(), country: country)
    }
}

public enum ReportFormat: String, Codable, Sendable, CaseIterable {
    /// `pdf` is drawn from the JSON report's rows by DocumentKit (`AuditReportPDF`); the
    /// services write only csv and json.
    case csv, json, pdf

    /// The media type of a report download.
    public var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .pdf: "application/pdf"
        }
    }
}

public enum DeleteMode: String, Codable, Sendable {
    /// Sets the status to ARCHIVED; the asset stays in the inventory.
    case archive
    /// Removes the asset for good.
    case delete
}

public struct AssetFilter: Codable, Sendable, Equatable {
    public var status: AssetStatus?
    public var country: String?
    public var customerId: Int64?
    /// Only assets of these countries (ISO codes); nil for every country.
    public var countries: [String]?
    /// Only assets that no ended audit has found since this moment (`last_audited_at` before
    /// it, or never found), listed least recently found first: never found, then oldest.
    public var notAuditedSince: Date?

    public init(
        status: AssetStatus? = nil, country: String? = nil, customerId: Int64? = nil, countries: [String]? = nil, notAuditedSince: Date? = nil
    ) {
        self.status = status
        self.country = country
        self.customerId = customerId
        self.countries = countries
        self.notAuditedSince = notAuditedSince
    }
}

public struct TransferRequest: Codable, Sendable, Equatable {
    public var customerId: Int64
    public var reason: String?
    public var notes: String?
    /// YYYY-MM-DD.
    public var effectiveDate: String?

    public init(customerId: Int64, reason: String? = nil, notes: String? = nil, effectiveDate: String? = nil) {
        self.customerId = customerId
        self.reason = reason
        self.notes = notes
        self.effectiveDate = effectiveDate
    }
}

/// One row of an import with the line it came from, for error messages.
public struct ImportRow: Codable, Sendable, Equatable {
    public var line: Int
    public var input: AssetInput
    /// Problems the CSV reader already found on this line (a wrong field count, a flag that is
    /// not true or false). The service reports them under "line N" beside its own and stores
    /// nothing. Not part of the JSON body: a client sends fields, not verdicts.
    public var problems: [String] = []

    enum CodingKeys: String, CodingKey { case line, input }

    public init(line: Int, input: AssetInput, problems: [String] = []) {
        self.line = line
        self.input = input
        self.problems = problems
    }
}

public protocol AssetService: Sendable {
    func list(_ filter: AssetFilter, query: ListQuery) async throws -> Page<Asset>
    func get(id: Int64) async throws -> Asset
    /// The asset whose tag, or else serial number, is `identifier`.
    func find(identifier: String) async throws -> Asset?
    func create(_ input: AssetInput) async throws -> Asset
    func update(id: Int64, _ input: AssetInput) async throws -> Asset
    /// Archives (the default) or deletes; returns the archived asset, or nil once deleted.
    func delete(id: Int64, mode: DeleteMode) async throws -> Asset?
    func transfer(id: Int64, _ request: TransferRequest) async throws -> Asset
    /// The asset's history, oldest first: one entry per changed field (`AssetHistoryEntry`).
    func history(assetID: Int64, query: ListQuery) async throws -> Page<AssetHistoryEntry>
    /// Imports an inventory of any size in bounded memory: every row or none.
    ///
    /// - `chunks` arrive in file order (a few thousand rows each). Each chunk is checked and
    ///   stored as it arrives, all inside **one** write transaction that spans the whole stream,
    ///   so memory follows the chunk, not the file, and nothing is visible before the commit.
    /// - Problems are reported under "line N" (the row's `line`): the row's own `problems`
    ///   (from the reader), invalid fields (`AssetInput.makeAsset`), an asset_tag or serial_num
    ///   that repeats an earlier row ("… repeats line M") or is already in the inventory ("… is
    ///   already in the inventory"), and an unknown customer ("customer_id N is not a
    ///   customer"). Tags and serials compare as the service's case rule says.
    /// - After the first problem the stream is still read to its end, so every bad row is
    ///   reported; then the transaction rolls back and the call throws
    ///   `InventoryError.invalid` listing at most 50 lines plus a "more" key with the rest's count.
    /// - An error thrown by the stream itself (unreadable file, a dropped upload) rolls back too
    ///   and is rethrown as it is.
    /// - `progress(rows)` is called after each chunk with the rows taken so far, from any thread,
    ///   never going back; the call with the final count comes only once the import has committed.
    /// - Returns the number of assets stored.
    func importAssets(
        streaming chunks: AsyncThrowingStream<[ImportRow], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int

    /// Imports a CSV file (the format of `AssetImport`) that arrives in blocks of bytes, with the
    /// contract of `importAssets(streaming:progress:)`. A bad header fails with "line 1"
    /// problems before anything is stored. The default parses here and streams the rows; a
    /// remote service sends the bytes as they are.
    func importAssets(
        csv blocks: AsyncThrowingStream<[UInt8], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int
}

/// Rows per chunk when rows are handed to `importAssets(streaming:progress:)`.
public let importChunkSize = 10_000

extension AssetService {
    /// A service that keeps no history says so.
    public func history(assetID: Int64, query: ListQuery) async throws -> Page<AssetHistoryEntry> {
        throw InventoryError.unavailable("this station's asset service keeps no history")
    }

    /// Imports rows already in memory (tests, the demo): they are streamed in chunks.
    /// `progress(done, total)`.
    public func importAssets(_ rows: [ImportRow], progress: @escaping @Sendable (Int, Int) -> Void) async throws -> Int {
        let total = rows.count
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [ImportRow].self)
        for start in stride(from: 0, to: rows.count, by: importChunkSize) {
            continuation.yield(Array(rows[start..<min(start + importChunkSize, rows.count)]))
        }
        continuation.finish()
        return try await importAssets(streaming: stream) { progress($0, total) }
    }

    public func importAssets(
        csv blocks: AsyncThrowingStream<[UInt8], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int {
        try await importAssets(streaming: try await AssetImport.chunks(of: blocks), progress: progress)
    }
}

/// What the services over accessories and over customers have in common: a page of records,
/// one by id, create and update from the fields a caller gives (`Input`), and delete. The
/// server's routes, the remote services and the CLI's commands take one path for both.
public protocol RecordService<Record, Input>: Sendable {
    associatedtype Record: Sendable
    associatedtype Input: Sendable
    func list(query: ListQuery) async throws -> Page<Record>
    func get(id: Int64) async throws -> Record
    func create(_ input: Input) async throws -> Record
    func update(id: Int64, _ input: Input) async throws -> Record
    func delete(id: Int64) async throws
}

/// Accessories; `delete` is refused with `inUse` while any are checked out.
public protocol AccessoryService: RecordService where Record == Accessory, Input == AccessoryInput {
    /// The list limited to `countries` (nil: every country): accessories of those countries and
    /// those of no country.
    func list(query: ListQuery, countries: Set<String>?) async throws -> Page<Accessory>
    /// No more than are available.
    func checkout(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory
    /// No more than the customer holds.
    func checkin(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory
}

/// Customers; `delete` is refused with `inUse` while assets or accessories are assigned.
public protocol CustomerService: RecordService where Record == Customer, Input == CustomerInput {}
