import AuditClient
import AuditAPI
import ConnectedStore
import Foundation
import InventoryCore
import InventoryStore

/// The audit workflow of a connected station. Scans are decided at once from the copy (its
/// indexed copy of the expected set and the unexpected entries, never loaded into memory) and
/// written to the durable outbox in one transaction, then pushed by the SyncEngine; the
/// server's answers correct the copy. An identifier the copy does not know is shown
/// pending, and the server's answer decides it (`onDecided`). Everything else asks the
/// server, and falls back to the copy for the running audits when it cannot be reached.
public actor ConnectedAuditService: AuditService {
    let client: APIClient
    let outbox: StationOutbox
    let copies: StationCopy
    public let sync: SyncEngine
    let caseSensitive: Bool
    /// The station's name and the logged-in user, recorded with each scan.
    let actor: Actor
    /// The name this station's scans carry: the one it logged in with.
    public nonisolated var stationName: String { actor.station }
    /// Push each scan in the background as soon as it is stored (off: only `syncNow` pushes).
    let autoSync: Bool
    private var handlerSet = false
    /// Told the server's outcome of each scan that was shown pending.
    var decisionHandler: DecisionHandler?
    var refusalHandler: RefusalHandler?
    /// The copy being pulled, so two pulls never write at once.
    var pulling: Task<Void, any Error>?
    /// Whether the server is ours, with the extensions (learnt from `/status`); nil until known.
    var extended: Bool?
    /// Whether the server takes a station's report on itself (`serverAudit`); nil until asked.
    var stationReportOffered: Bool?
    /// Whether the server offers `POST …/photos/find` (nil until asked), and when to ask it again
    /// after it did not answer.
    var photoFindOffered: Bool?
    var photoFindAfter: ContinuousClock.Instant?
    /// The accessories as the server last counted them, by tag: what a count kept here answers with.
    var lastTallies: [String: AccessoryTally] = [:]
    /// How long a list waits for the server's answer about other stations' photos.
    public internal(set) var photoFindTimeout: Duration = .milliseconds(500)
    /// One scan is decided and stored at a time, so scans made at the same moment (camera and
    /// keyboard) each see the ones before them.
    private var recording = false
    private var waitingToRecord: [CheckedContinuation<Void, Never>] = []

    /// Opens the station's outbox and copy in `database`'s file, making their tables if needed.
    public init(
        client: APIClient, database: AppDatabase, actor: Actor, caseSensitive: Bool = true, policy: SyncPolicy = SyncPolicy(),
        autoSync: Bool = true
    ) throws {
        self.autoSync = autoSync
        self.client = client
        self.outbox = try StationOutbox(database: database)
        self.copies = try StationCopy(database: database)
        self.sync = SyncEngine(client: client, outbox: outbox, copies: copies, policy: policy, caseSensitive: caseSensitive)
        self.caseSensitive = caseSensitive
        self.actor = actor
    }

    public func countries() async throws -> [CountryCount] {
        try await client.send(.GET, Routes.auditCountries, as: Lenient<CountriesResponse>.self).value.countries
    }

    public func activeAudits() async throws -> [AuditSession] {
        do {
            let reading = try await startReading()
            var running = try await runningAudits()
            for (index, audit) in running.enumerated() {
                guard try await copies.session(auditID: audit.id) != nil else {
                    running[index] = audit.unordered
                    continue
                }
                try await takeDescription(audit, readSince: reading)
                running[index] = try await localSession(audit)
            }
            return running
        } catch InventoryError.unavailable(let message) {
            let held = try await copies.audits().filter(\.isActive)
            guard !held.isEmpty else { throw InventoryError.unavailable(message) }
            var sessions: [AuditSession] = []
            for audit in held { sessions.append(try await localSession(audit)) }
            return sessions.sorted { $0.country < $1.country }
        }
    }

    public typealias DecisionHandler = @Sendable (ScanResult, FirstScan) async -> Void
    /// Told of a scan the server refused: its audit, scan id, identifier, the server's message,
    /// origin, and the audit's numbers without it (when the station holds a copy).
    public typealias RefusalHandler =
        @Sendable (_ auditID: AuditID, _ scanID: String, _ identifier: String, _ message: String, FirstScan, AuditProgress?) async -> Void

    /// Sets who is told of each scan the server refused (it is not in the server's audit; the
    /// outbox keeps it as rejected).
    public func onRefused(_ handler: RefusalHandler?) async {
        refusalHandler = handler
        await ensureHandler()
    }

    /// Sets who is told the server's outcome of a scan shown pending, with the scan's origin.
    public func onDecided(_ handler: DecisionHandler?) async {
        decisionHandler = handler
        await ensureHandler()
    }

    public func audit(id: AuditID) async throws -> AuditSession {
        do {
            let found: AuditSession
            let reading = try await startReading()
            if let answer = try await serverAudit(id: id) {
                found = answer
            } else {
                found = try await findAudit(id: id)
            }
            // The copy takes the server's numbers, as `activeAudits` does, so the station's own
            // view moves with other stations' scans; what is answered is that view: the server's
            // numbers plus this station's scans not answered yet, the numbers its screen shows.
            guard found.isActive, try await copies.session(auditID: id) != nil else { return found.unordered }
            try await takeDescription(found, readSince: reading)
            return try await localSession(found)
        } catch InventoryError.unavailable(let message) {
            guard let held = try await copies.session(auditID: id) else { throw InventoryError.unavailable(message) }
            return try await localSession(held)
        }
    }

    /// When the server was asked how its audits stand: the answers the copy had taken, and the
    /// sync's push mark (nil while a push ran).
    struct ServerReading {
        let answers: Int
        let pushes: Int?
    }

    func startReading() async throws -> ServerReading {
        ServerReading(answers: try await copies.answerMark(), pushes: await sync.quietMark)
    }

    /// Takes the server's description of an audit, asked for since `reading`, into the copy. Its
    /// numbers are taken only when no push ran meanwhile and no answer came in: the server may
    /// have counted a scan on its way while the outbox still holds it as pending, and the copy's
    /// view (the server's numbers plus the pending scans) would count it twice; a newer answer's
    /// numbers are newer than the description's. Otherwise the copy keeps its numbers and takes
    /// the rest (an end), and the next reading brings the numbers.
    func takeDescription(_ session: AuditSession, readSince reading: ServerReading) async throws {
        let now = await sync.quietMark
        let quiet = reading.pushes != nil && reading.pushes == now
        // A mark below every count of answers keeps the copy's numbers.
        try await copies.update(session, unlessAnsweredSince: quiet ? reading.answers : -1)
    }

    /// Starts the audit on the server and pulls its expected set.
    public func start(country: String, locations: [String], by actor: Actor) async throws -> AuditSession {
        let wanted = try AuditLocations.normalize(locations)
        let body = StartRequest(country: country, locations: wanted.isEmpty ? nil : wanted)
        let audit = try await client.send(.POST, Routes.auditStart, body: body, as: Lenient<AuditResponse>.self).value.audit
        try await pull(auditID: audit.id, session: audit)
        return try await localSession(audit)
    }

    /// The locations of a country's assets, as our server lists them.
    public func locations(country: String) async throws -> [LocationCount] {
        guard
            let answer = try await client.sendIfOffered(
                .GET, Routes.auditLocations, query: ["country": country], as: LocationsResponse.self)
        else {
            throw InventoryError.unavailable("The server at \(client.baseURL) does not list locations (it speaks only the seeds' audit API)")
        }
        return answer.locations
    }

    /// Joins an audit that is running: pulls its expected set into the copy.
    public func join(auditID: AuditID) async throws {
        try await pull(auditID: auditID)
    }

    /// Pulls the copy of an audit, one pull at a time: our snapshot stream when the server
    /// offers it, else SPEC's lists; written into the copy as it arrives, and in use only
    /// once complete.
    func pull(auditID: AuditID, session: AuditSession? = nil) async throws {
        while let running = pulling { _ = await running.result }
        let task = Task { try await self.copy(auditID: auditID, session: session) }
        pulling = task
        defer { pulling = nil }
        try await task.value
    }

    private func copy(auditID: AuditID, session: AuditSession?) async throws {
        let copy = try await copies.beginCopy(auditID: auditID)
        let feed = CopyFeed(copies: copies, copy: copy)
        let held: AuditSession
        if let streamed = try await SnapshotStream(client: client).read(auditID: auditID, into: feed) {
            held = streamed
        } else {
            held = try await runningAudit(auditID, known: session)
            try await ListedSnapshot(client: client, caseSensitive: caseSensitive).stream(held, into: feed)
            try await feed.finish()
        }
        try await copies.completeCopy(copy, session: held, unexpected: feed.unexpected, caseSensitive: caseSensitive)
    }

    /// Decides the scan from the local copy, stores it in the outbox, and returns at once; the
    /// SyncEngine delivers it. A scan_id seen before returns the outcome recorded then.
    public func record(_ scan: ScanRequest) async throws -> ScanResult {
        if recording { await withCheckedContinuation { waitingToRecord.append($0) } } else { recording = true }
        defer { if waitingToRecord.isEmpty { recording = false } else { waitingToRecord.removeFirst().resume() } }
        return try await recordInTurn(scan)
    }

    private func recordInTurn(_ scan: ScanRequest) async throws -> ScanResult {
        let identifier = try Identifier.normalize(scan.identifier)
        let auditID = try await auditForScan(scan.auditId)
        let scanID = try scan.scanId.map { try Identifier.normalize($0, field: "scan_id") } ?? UUID().uuidString.lowercased()
        let draft = OutboxEntry(
            scanID: scanID, auditID: auditID, identifier: identifier, source: scan.source ?? .manual,
            station: scan.deviceName ?? actor.station, user: actor.user, scannedAt: scan.scannedAt ?? Date(),
            localStatus: .pending, localMessage: "", addsScanned: false, addsUnexpected: false,
            location: try Self.location(scan.location))
        var local = try await copies.record(draft, caseSensitive: caseSensitive)
        if local == nil {
            do { try await pull(auditID: auditID) } catch InventoryError.unavailable(let message) {
                throw InventoryError.unavailable("This station has no copy of audit \(auditID) yet and cannot fetch one: \(message)")
            }
            local = try await copies.record(draft, caseSensitive: caseSensitive)
        }
        guard let local else { throw InventoryError.notFound("audit \(auditID)") }
        if autoSync { await startSync() }
        return result(of: local)
    }

    /// Where the station stands, checked as every store checks it.
    static func location(_ raw: String?) throws -> String? {
        do { return try FreeText.optional(raw, field: "location") } catch { throw InventoryError.invalid(error) }
    }

    /// Starts pushing the outbox in the background, with the server's answers fed back here.
    public func startSync() async {
        await ensureHandler()
        await sync.kick()
    }

    func ensureHandler() async {
        guard !handlerSet else { return }
        handlerSet = true
        await sync.setResultHandler { [weak self] entry, result in await self?.take(result, for: entry) }
        await sync.setRefusalHandler { [weak self] entry, message in await self?.refused(entry, message) }
    }

    public func end(auditID: AuditID, by actor: Actor) async throws -> AuditSummary {
        try await end(auditID: auditID, by: actor, force: false)
    }

    /// Sends what the outbox holds, then asks the server to end the audit (with `force`, even
    /// while other stations may still hold scans of it).
    public func end(auditID: AuditID, by actor: Actor, force: Bool) async throws -> AuditSummary {
        await ensureHandler()
        let report = await sync.pushNow()
        let waiting = try await outbox.pending(limit: 1, auditID: auditID)
        let counts = try await outbox.pendingCounts(auditID: auditID)
        if counts > 0, waiting.isEmpty {
            throw InventoryError.unavailable(
                "\(counts) typed \(counts == 1 ? "count is" : "counts are") not on the server yet (\(report.stoppedBy ?? "not delivered")); the audit can end once \(counts == 1 ? "it is" : "they are") sent"
            )
        }
        if !waiting.isEmpty {
            throw InventoryError.unavailable(
                "\(report.remaining) scans are not on the server yet (\(report.stoppedBy ?? "not delivered")); run `audit-station sync` when the server is reachable, then end the audit"
            )
        }
        let summary = try await client.send(
            .POST, Routes.auditEnd, body: EndRequest(auditId: auditID, force: force ? true : nil), as: Lenient<EndResponse>.self
        ).value.summary
        if try await copies.session(auditID: auditID) != nil { try await copies.update(summary.audit) }
        return summary
    }

    public func details(auditID: AuditID, list: AuditList, query: ListQuery) async throws -> Page<AuditAsset> {
        await sync.kick()
        var items = APIClient.listItems(query)
        // SPEC's lists take no audit: only our server is told which one.
        if extended == nil { _ = try? await status() }
        if extended == true { items["audit_id"] = auditID }
        let page = try await client.send(
            .GET, Routes.path(Routes.auditDetails, ["list": list.rawValue]), query: items,
            as: WirePage<WireAuditAsset>.self
        ).page
        return Page(items: page.items.map { $0.hasOutcome ? $0.asset : $0.asset.inferringOutcome(from: list) }, pagination: page.pagination)
    }

    public func history(country: String?, query: ListQuery) async throws -> Page<AuditSession> {
        var items: [String: String?] = ["country": country, "page": String(query.page), "per_page": String(query.perPage)]
        if extended == true { items["search"] = query.search }
        let page = try await client.send(.GET, Routes.auditHistory, query: items, as: WirePage<Lenient<AuditSession>>.self).page
        return Page(items: page.items.map(\.value), pagination: page.pagination)
    }

    public func report(auditID: AuditID, format: ReportFormat, to output: @escaping @Sendable (Data) async throws -> Void) async throws {
        await ensureHandler()
        await sync.pushNow()
        let (_, data) = try await client.raw(.GET, Routes.path(Routes.auditReport, ["audit_id": auditID]), query: ["format": format.rawValue])
        try await output(data)
    }
}
