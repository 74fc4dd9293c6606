import DocumentKit
import Foundation
import InventoryCore
import Logging
import Scanning
import Station

/// The kiosk's station: the audit the page scans into, its scan session, who is scanning, the
/// last scans, and how the camera and the server link stand. Every page and the camera go
/// through here, and every change is pushed to the pages through the hub.
actor KioskStation {
    let context: StationContext
    let hub: EventHub
    let logger: Logger
    private let userFile: URL
    /// The audit this kiosk scans into, kept beside the database: a reload, a restart or a
    /// power cut reopens on it, also when several audits run.
    private let auditFile: URL
    /// Where the station stands: the configuration or --location, a choice on the page, or the
    /// last location label scanned.
    private var location: String?
    /// The locations of the audit's country (for the page's picker).
    private var locations: [LocationCount] = []
    /// Who is scanning, as the people at this station said (nil: nobody has yet, and the page
    /// asks). Scans made before are recorded under the station's login (`recordedUser`).
    private(set) var user: String?
    private var audit: AuditSession?
    private var session: ScanSession?
    private var recent: [KioskScan] = []
    private var camera: CameraState
    private var connection: ConnectionState
    private var countries: [CountryCount] = []
    private var countriesError: String?
    private var lastNoAuditNotice = Date.distantPast
    /// True from the start until the kiosk has looked for its audit (`resume`): a scan the page
    /// sends again meanwhile is answered "not yet" (503), so the page keeps it, instead of
    /// "no audit running", which would make the page drop it.
    private var opening = true
    /// The audit shown ended elsewhere (another station, the back office, the API), not here.
    private var endedElsewhere = false
    static let recentLimit = 20

    init(context: StationContext, user: String?, device: String?, hub: EventHub, logger: Logger) {
        self.context = context
        self.hub = hub
        self.logger = logger
        userFile = URL(fileURLWithPath: context.databasePath + ".kiosk-user")
        auditFile = URL(fileURLWithPath: context.databasePath + ".kiosk-audit")
        location = context.config.station.location
        // The name given on the page wins over --user and the config, because it is the newest
        // choice the people at this station made. With none of them the page asks: the login
        // name of the process says nothing of who stands at the kiosk.
        let saved = (try? String(contentsOf: userFile, encoding: .utf8)).flatMap { try? Self.validUser($0) }
        self.user = saved ?? user ?? context.config.kiosk.user
        camera =
            device.map { CameraState(state: .starting, message: "Starting the camera \($0)…", device: $0) }
            ?? CameraState(state: .none, message: "No camera is configured: type or scan tags into the field")
        connection =
            context.connection.map { ConnectionState(state: .offline, server: $0.server) }
            ?? ConnectionState(state: .standalone)
    }

    var isConnected: Bool { context.connection != nil }

    /// The name scans are recorded under: the one given, else the station's login.
    var recordedUser: String { user ?? context.actor.user }

    /// What only the server can answer (the lists, a summary), asked with a deadline: refused
    /// at once while the server is known to be out of reach, and after 5 s when it does not
    /// answer, rather than letting the page wait for the HTTP client's own 15 s deadline.
    func fromServer<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        guard isConnected else { return try await work() }
        let offline = KioskError(
            status: .serviceUnavailable, code: .offline,
            message: "The server cannot be reached, so this comes back when it does; scans are still taken and kept here")
        guard connection.state != .offline else { throw offline }
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                throw offline
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw offline }
            return first
        }
    }

    // MARK: state

    func state() -> KioskState {
        KioskState(
            station: context.actor.station, mode: isConnected ? "connected" : "standalone", user: user, pinRequired: false,
            connection: connection, camera: camera, audit: audit, endedElsewhere: endedElsewhere && audit != nil, countries: countries,
            countriesError: countriesError, recent: recent, location: location, locations: locations)
    }

    private func publishState() { hub.publish("state", state()) }

    /// On start: reopen on the audit this kiosk scanned into when it still runs, else join the
    /// running audit when exactly one runs (after a power cut, a reboot or a browser restart
    /// the page opens straight on the scanning screen). Several running and none remembered:
    /// the page asks; a scan never picks one.
    ///
    /// A connected kiosk first looks in its own copy: the audit it scanned into, when it holds a
    /// copy of it, is reopened at once, with the server reachable or not (the 2-second poll then
    /// learns whether it still runs). An audit it holds no copy of is copied before it is shown.
    func resume() async {
        defer {
            opening = false
            publishState()
        }
        let remembered = (try? String(contentsOf: auditFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let link = context.connection, let remembered, let mine = try? await link.heldAudits().first(where: { $0.id == remembered }) {
            await adopt(mine)
            logger.info("Reopened on this kiosk's audit \(mine.id) of \(mine.country) from its copy")
            await refreshConnection()
            return
        }
        await refreshConnection()
        await refreshCountries()
        guard audit == nil else { return }
        do {
            let running = try await context.audit.activeAudits()
            let chosen: AuditSession
            if let remembered, let mine = running.first(where: { $0.id == remembered }) {
                chosen = mine
            } else if running.count == 1 {
                chosen = running[0]
            } else {
                if running.count > 1 { logger.info("\(running.count) audits are running; choose one on the page") }
                return
            }
            try await holdCopy(of: chosen)
            // Started or joined on the page meanwhile: that audit stays.
            guard audit == nil else { return }
            await adopt(chosen)
            logger.info("Scanning into the running audit \(chosen.id) of \(chosen.country)")
        } catch {
            // A kiosk stopped while it started (its port taken, Ctrl-C) has nothing to warn of.
            if !Task.isCancelled { logger.warning("Could not open a running audit: \(KioskError(error).message)") }
        }
    }

    /// A connected kiosk decides every scan from its own copy of the audit and keeps it in its
    /// outbox, so it must hold that copy before it shows the scanning screen: else a scan made
    /// while the server is out of reach could be decided nowhere. Made here when it holds none.
    private func holdCopy(of running: AuditSession) async throws {
        guard let link = context.connection, running.isActive else { return }
        if try await link.heldAudits().contains(where: { $0.id == running.id }) { return }
        do {
            try await link.join(auditID: running.id)
        } catch InventoryError.unavailable(let why) {
            throw InventoryError.unavailable(
                "This kiosk could not copy the audit of \(running.country) from the server, so it cannot scan into it yet (\(why)); join it again when the server answers"
            )
        }
    }

    func refreshCountries() async {
        if connection.state == .offline {
            countriesError = "The server cannot be reached, so the countries come back when it does"
            return
        }
        do {
            countries = try await context.audit.countries()
            countriesError = nil
        } catch {
            countriesError = KioskError(error).message
        }
    }

    // MARK: audit lifecycle

    func start(country: String, locations chosen: [String] = []) async throws -> AuditSession {
        let code = try Country.normalize(country)
        let started = try await context.audit.start(
            country: code, locations: chosen, by: Actor(user: recordedUser, station: context.actor.station))
        await adopt(started)
        await refreshCountries()
        publishState()
        return started
    }

    func join(auditID: String) async throws -> AuditSession {
        let id = try Identifier.normalize(auditID, field: "audit_id")
        let found = try await context.audit.audit(id: id)
        guard found.isActive else { throw InventoryError.auditEnded(id) }
        try await holdCopy(of: found)
        await adopt(found)
        publishState()
        return found
    }

    func leave() async {
        audit = nil
        session = nil
        recent = []
        locations = []
        try? FileManager.default.removeItem(at: auditFile)
        await refreshCountries()
        publishState()
    }

    func end(auditID: String?, force: Bool = false) async throws -> AuditSummary {
        guard let current = audit else { throw Self.noAudit }
        if let auditID, auditID != current.id {
            throw KioskError(status: .conflict, code: .notThisAudit, message: "This kiosk scans into audit \(current.id), not \(auditID)")
        }
        try await sendWaitingScans(of: current)
        let summary: AuditSummary
        do {
            summary = try await context.audit.end(auditID: current.id, by: Actor(user: recordedUser, station: context.actor.station), force: force)
        } catch InventoryError.stationsOut(_, let stations) {
            // The server's own words speak of a terminal's --force; the page offers END ANYWAY.
            throw KioskError(
                status: .conflict, code: .stationsOut,
                message: "Not ended: \(stations.joined(separator: "; ")). Their scans made before the end still count when they arrive. "
                    + "Press END ANYWAY to end it now.")
        }
        audit = summary.audit
        session = nil
        endedElsewhere = false
        await refreshCountries()
        publishState()
        return summary
    }

    /// A connected kiosk ends an audit only once the server has every scan made here: it sends
    /// them now, and says in plain words how many still wait when some could not be sent.
    private func sendWaitingScans(of current: AuditSession) async throws {
        guard let link = context.connection else { return }
        // Out of reach, sending would only wait for the HTTP client's deadlines.
        let reachable = await link.probe(timeout: .seconds(2))
        let remaining = reachable ? await link.syncNow().remaining : 0
        let waiting = (try? await link.status())?.pendingByAudit[current.id] ?? remaining
        if waiting > 0 || !reachable { await refreshConnection() }
        if waiting > 0 {
            throw KioskError(status: .conflict, code: .scansWaiting, message: Self.waitingMessage(waiting, reachable: reachable))
        }
        if !reachable {
            throw KioskError(
                status: .serviceUnavailable, code: .offline,
                message:
                    "The server cannot be reached, so the audit cannot be ended now; try again when it is back. Scans are still taken and kept here.")
        }
    }

    /// "5 scans are waiting for the server; the audit can end once they are sent", and why.
    static func waitingMessage(_ waiting: Int, reachable: Bool) -> String {
        let scans = waiting == 1 ? "1 scan is" : "\(waiting) scans are"
        let why =
            reachable
            ? "They are being sent now: try again in a moment."
            : "The server cannot be reached now; they are kept on this station and go as soon as it is back."
        return "\(scans) waiting for the server; the audit can end once they are sent. \(why)"
    }

    /// The summary of any audit: its numbers, and the first 100 missing and unexpected assets
    /// (the report has every row).
    func summary(auditID: String) async throws -> AuditSummary {
        let id = try Identifier.normalize(auditID, field: "audit_id")
        let service = context.audit
        return try await fromServer {
            let session = try await service.audit(id: id)
            let query = ListQuery(page: 1, perPage: ListQuery.maxPerPage)
            let missing = try await service.details(auditID: id, list: .missing, query: query).items
            let unexpected = try await service.details(auditID: id, list: .unexpected, query: query).items
            return AuditSummary(audit: session, missing: missing, unexpected: unexpected)
        }
    }

    /// Makes `running` the audit this kiosk scans into. The audit, its scan session, its
    /// locations and its last scans are shown together, once all are read: a state read while
    /// they are (another call goes on meanwhile) still shows what was there before.
    private func adopt(_ running: AuditSession) async {
        var place = context.config.station
        place.location = location
        // The station's photo settings go with it: a camera scan that is unexpected, unknown or
        // misplaced keeps its frame unless the configuration says not to.
        let next = ScanSession(
            service: context.audit, connection: context.connection, audit: running,
            actor: Actor(user: recordedUser, station: context.actor.station), place: place, photos: context.config.photos
        ) { [weak self] event in
            await self?.published(event)
        }
        do {
            try running.id.write(to: auditFile, atomically: true, encoding: .utf8)
        } catch {
            logger.warning("Could not keep the kiosk's audit in \(auditFile.path): \(error.localizedDescription)")
        }
        let known = (try? await context.audit.locations(country: running.country)) ?? []
        let rows = await recentScans(of: running)
        if audit?.id != running.id { recent = [] }
        if let rows { recent = rows }
        audit = running
        session = next
        locations = known
        opening = false
        endedElsewhere = false
    }

    // MARK: scanning

    /// A scan typed on a page (or by a keyboard-wedge scanner into it).
    func scan(_ identifier: String, scanID: String?) async throws -> KioskScan {
        guard let session else {
            if opening && audit == nil { throw Self.stillOpening }
            throw audit == nil ? Self.noAudit : InventoryError.auditEnded(audit?.id ?? "")
        }
        if let scanID { _ = try Identifier.normalize(scanID, field: "scan_id") }
        try Self.refuseCommand(identifier)
        return try await answer(await session.record(identifier, source: .manual, scanID: scanID), identifier: identifier, scanID: scanID)
    }

    /// A typed scan's event as the page gets it; a refusal throws.
    private func answer(_ event: ScanEvent, identifier: String, scanID: String?) async throws -> KioskScan {
        switch event {
        case .recorded(let result, let origin):
            // The session's observer (`published`) has made this scan's event, hint included.
            var scan = KioskScan(result, origin: origin, pending: isConnected && result.status != .pending)
            scan.didYouMean = recent.first { $0.scanId != nil && $0.scanId == scan.scanId }?.didYouMean
            return scan
        case .decided(let result, let origin): return KioskScan(result, origin: origin, pending: false)
        case .refused(let refusal):
            if refusal.cause?.stopsScanning == true { await auditStopped() }
            throw refusal.cause.map(KioskError.init) ?? KioskError.invalid(refusal.message)
        case .note:
            let now = await session?.location
            let origin = ScanOrigin(source: .manual, place: nil, user: recordedUser, station: context.actor.station, at: Date())
            return KioskScan(location: now ?? "", label: identifier, scanID: scanID, origin: origin)
        }
    }

    /// Several typed scans, recorded in the order given, so the trail and the page keep the
    /// order they were typed in (in one write where the store can: `ScanSession.record(batch:)`).
    /// A refused scan is answered in its place; the first that could not be decided (the store or
    /// server out of reach) ends the answer, and the page sends it and those after it again.
    func scan(batch: [ScanBody]) async throws -> [KioskScan] {
        let checked = batch.allSatisfy { item in item.scanId.map { (try? Identifier.normalize($0, field: "scan_id")) != nil } ?? true }
        // A command label among them is refused in its place (`scan` says why), one by one.
        let commands = batch.contains { CommandLabel(scanned: $0.identifier) != nil }
        guard let session, checked, !commands, batch.count > 1 else { return try await scanOneByOne(batch) }
        let events = await session.record(batch: batch.map { ($0.identifier, $0.scanId) }, source: .manual)
        var answers: [Result<KioskScan, any Error>] = []
        for (item, event) in zip(batch, events) {
            do {
                answers.append(.success(try await answer(event, identifier: item.identifier, scanID: item.scanId)))
            } catch {
                answers.append(.failure(error))
            }
        }
        return try batchAnswer(zip(batch, answers).map { ($0.0, $0.1) })
    }

    /// The kiosk has not yet looked for its audit (it has just started): the page keeps its scans
    /// and sends them again.
    static let stillOpening = KioskError(
        status: .serviceUnavailable, code: .starting,
        message: "The kiosk is still opening its audit; the scan is kept on this screen and sent again")

    /// No audit is open here: said in the kiosk's words (the store's names a terminal command).
    static let noAudit = KioskError(
        status: .conflict, code: .noActiveAudit, message: "No audit is open on this kiosk: start or join one on the start screen")

    /// A scan with a scan_id that is not one, or no session: one scan after the other.
    private func scanOneByOne(_ batch: [ScanBody]) async throws -> [KioskScan] {
        var answers: [(ScanBody, Result<KioskScan, any Error>)] = []
        for item in batch {
            do {
                if let late = try await madeBeforeTheEnd(item) {
                    answers.append((item, .success(late)))
                    continue
                }
                answers.append((item, .success(try await scan(item.identifier, scanID: item.scanId))))
            } catch {
                answers.append((item, .failure(error)))
                if KioskError(error).undecided { break }
            }
        }
        return try batchAnswer(answers)
    }

    /// A scan the page held while this kiosk could not answer (restarting), made before the audit
    /// ended, which the kiosk learnt meanwhile: it belongs to the audit, so it is decided from the
    /// copy and kept for the server, which counts it late (`LateScans`). Nil for any other scan.
    /// Judged on this machine's clock, strictly: a scan made after the end is refused as before.
    private func madeBeforeTheEnd(_ item: ScanBody) async throws -> KioskScan? {
        guard session == nil, isConnected, let current = audit, let endedAt = current.endedAt, let at = item.scannedAt, at <= endedAt
        else { return nil }
        if let scanID = item.scanId { _ = try Identifier.normalize(scanID, field: "scan_id") }
        let result = try await context.audit.record(
            ScanRequest(
                identifier: item.identifier, auditId: current.id, scanId: item.scanId, source: .manual, scannedAt: at,
                deviceName: context.actor.station, user: recordedUser))
        let origin = ScanOrigin(source: .manual, place: nil, user: recordedUser, station: context.actor.station, at: at)
        return KioskScan(result, origin: origin, pending: true)
    }

    /// The page's answer: a refusal in its place; the first scan that could not be decided ends it
    /// (thrown when it is the first).
    private func batchAnswer(_ answers: [(ScanBody, Result<KioskScan, any Error>)]) throws -> [KioskScan] {
        var results: [KioskScan] = []
        answering: for (item, answer) in answers {
            switch answer {
            case .success(let scan): results.append(scan)
            case .failure(let error):
                let refusal = KioskError(error)
                if refusal.undecided {
                    if results.isEmpty { throw refusal }
                    break answering
                }
                let origin = ScanOrigin(source: .manual, place: nil, user: recordedUser, station: context.actor.station, at: Date())
                results.append(
                    KioskScan(
                        ScanRefusal(
                            identifier: item.identifier, scanID: item.scanId, code: refusal.code, message: refusal.message,
                            origin: origin)))
            }
        }
        return results
    }

    /// An unknown tag that matches an asset but for case: the page asks "Did you mean …?". Made
    /// once, before the scan's event goes to the pages, so the pushed event and the answer to the
    /// page that sent the scan say the same. The scan path never waits on the network: a connected
    /// station searches its copy of the audit's expected set (`StationConnection.caseHint`), for
    /// an unknown tag and for one left to the server (pending), whose hint comes back with the
    /// server's outcome; a standalone one, its inventory.
    private func withHint(_ scan: KioskScan) async -> KioskScan {
        guard let identifier = scan.identifier else { return scan }
        var hinted = scan
        if let link = context.connection {
            guard scan.status == .unknown || scan.status == .pending, let auditID = scan.auditId else { return scan }
            hinted.didYouMean = await link.caseHint(identifier, auditID: auditID)
        } else {
            guard scan.status == .unknown else { return scan }
            hinted.didYouMean = await caseHint(identifier)
        }
        return hinted
    }

    func caseHint(_ identifier: String) async -> String? {
        let text = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= 2, text.count <= 128 else { return nil }
        guard let page = try? await context.assets.list(AssetFilter(), query: ListQuery(search: text, page: 1, perPage: 20)) else { return nil }
        for asset in page.items {
            for candidate in [asset.assetTag, asset.serialNum].compactMap({ $0 })
            where candidate != text && candidate.caseInsensitiveCompare(text) == .orderedSame {
                return candidate
            }
        }
        return nil
    }

    /// A command label (`CMD:UNDO`) is an order to the page, never a tag: a page sends none; one
    /// sent anyway is refused rather than recorded.
    static func refuseCommand(_ identifier: String) throws {
        guard let command = CommandLabel(scanned: identifier) else { return }
        throw KioskError.invalid("\(command.text) is a command label, not a tag: the page takes it as \(command.caption.lowercased())")
    }

    /// A code the camera accepted, with the frame that showed it (kept as the scan's photo when
    /// the scan is evidence: unexpected, unknown or misplaced). A command label held up to the
    /// camera goes to the pages as that command, never recorded.
    func cameraCode(_ code: AcceptedCode) async {
        let text = code.text
        if let command = CommandLabel(scanned: text) {
            if session != nil { hub.publish("command", CommandEvent(command: command.rawValue)) }
            return
        }
        guard let session else {
            // Said at most every 3 s, so a code held up with no audit does not flood the pages.
            if Date().timeIntervalSince(lastNoAuditNotice) > 3 {
                lastNoAuditNotice = Date()
                let origin = ScanOrigin(source: .camera, place: camera.device, user: recordedUser, station: context.actor.station, at: Date())
                hub.publish(
                    "scan",
                    KioskScan(
                        ScanRefusal(
                            identifier: text, scanID: nil, code: .noActiveAudit,
                            message: "No audit is running: start or join one first", origin: origin)))
            }
            return
        }
        let event = await session.record(text, source: .camera, place: camera.device, frame: code.frame)
        if case .refused(let refusal) = event, refusal.cause?.stopsScanning == true { await auditStopped() }
        if case .note = event {
            let now = await session.location
            let origin = ScanOrigin(source: .camera, place: camera.device, user: recordedUser, station: context.actor.station, at: Date())
            hub.publish("scan", KioskScan(location: now ?? "", label: text, scanID: nil, origin: origin))
        }
    }

    /// The session's observer: every stored or refused scan goes to every page.
    func published(_ event: ScanEvent) async {
        var scan: KioskScan
        switch event {
        case .recorded(let result, let origin), .decided(let result, let origin):
            // A decided scan (the server's outcome of one shown pending) replaces it: same scan id.
            let decided = if case .decided = event { true } else { false }
            scan = await withHint(KioskScan(result, origin: origin, pending: isConnected && !decided && result.status != .pending))
            takeNumbers(result.progress, of: result.auditId)
        case .refused(let refusal):
            // A typed scan the store or the server could not decide yet is not lost: the page
            // keeps it in its queue and sends it again, so no page may call it NOT RECORDED.
            if refusal.origin.source == .manual, let cause = refusal.cause, KioskError(cause).undecided { return }
            var refused = KioskScan(refusal)
            // A scan the server refused no longer counts here: the pages take the numbers without it.
            if let progress = refusal.progress, let current = audit {
                takeNumbers(progress, of: current.id)
                refused.progress = progress
                refused.auditId = current.id
            }
            scan = refused
        case .note:
            // A location label: the station stands elsewhere now (every page shows where).
            if let now = await session?.location, now != location {
                location = now
                publishState()
            }
            return
        }
        if let id = scan.scanId, let before = recent.first(where: { $0.scanId == id }) {
            // The server's news of a scan shown here keeps who made it as shown (the name said at
            // the kiosk, where the outbox holds the account it was sent with).
            scan.user = before.user
            scan.source = before.source
        }
        recent.removeAll { $0.scanId != nil && $0.scanId == scan.scanId }
        recent.insert(scan, at: 0)
        if recent.count > Self.recentLimit { recent.removeLast(recent.count - Self.recentLimit) }
        hub.publish("scan", scan)
        if case .recorded(let result, let origin) = event, origin.source == .camera, let scanID = scan.scanId,
            result.status == .pending || ScanPhoto.isEvidence(result)
        {
            Task { await self.photoKept(scanID: scanID, auditID: result.auditId) }
        }
    }

    /// Takes numbers of the audit shown unless they are older than the ones it shows (their
    /// revision is lower): a scan's answer, a refusal, an undo and the 2-second reading may
    /// arrive in any order.
    private func takeNumbers(_ progress: AuditProgress, of auditID: AuditID) {
        guard var current = audit, current.id == auditID, progress.supersedes(current.progress) else { return }
        current.progress = progress
        audit = current
    }

    /// Once the camera's photo of a scan is stored, the pages mark the scan's rows.
    private func photoKept(scanID: String, auditID: AuditID) async {
        await session?.photosSettled()
        guard (try? await photo(scanID: scanID, auditID: auditID)) != nil else { return }
        for index in recent.indices where recent[index].scanId == scanID { recent[index].hasPhoto = true }
        hub.publish("photo", PhotoEvent(scanId: scanID, auditId: auditID))
    }

    /// The camera's photo of a scan kept here (nil: none, or this store keeps none).
    func photo(scanID: String, auditID: AuditID) async throws -> ScanPhoto? {
        guard let store = context.audit as? any ScanPhotoService else { return nil }
        return try await store.photo(scanID: scanID, auditID: auditID)
    }

    /// For the unexpected list: the scans of these identifiers whose photo is kept here.
    func photoScans(auditID: AuditID, identifiers: [String]) async -> [String: String] {
        guard let store = context.audit as? any ScanPhotoService else { return [:] }
        return (try? await store.photoScans(auditID: auditID, identifiers: identifiers)) ?? [:]
    }

    // MARK: location and undo

    /// The station stands at `name` from now on (nil: not said). It must be a location of the
    /// audit's country when the service can list them.
    func setLocation(_ name: String?) async throws -> String? {
        let checked: String?
        do { checked = try FreeText.optional(name, field: "location") } catch { throw KioskError.invalid("\(error)") }
        if let checked, let current = audit {
            let known: [LocationCount]?
            do { known = try await context.audit.locations(country: current.country) } catch InventoryError.unavailable { known = nil }
            if let known, !known.contains(where: { $0.location == checked }) {
                throw KioskError(AuditLocations.unknown([checked], country: current.country, known: known.map(\.location), field: "location"))
            }
        }
        if let session { try await session.place(at: checked) }
        location = checked
        publishState()
        return checked
    }

    /// The locations of a country's assets, for the start screen's picker.
    func locations(country: String) async throws -> [LocationCount] {
        let code = try Country.normalize(country)
        let service = context.audit
        return try await fromServer { try await service.locations(country: code) }
    }

    /// Sets how many of an accessory stand where this station stands, in its running audit (the
    /// answer to the page's "How many?"); every page is told (`count`).
    func count(tag: String, quantity: Int) async throws -> CountResult {
        guard let current = audit, current.isActive else { throw Self.noAudit }
        let place = await session?.location ?? location
        let result = try await context.audit.count(
            CountRequest(
                tag: tag, quantity: quantity, auditId: current.id, location: place, deviceName: context.actor.station, user: recordedUser))
        hub.publish("count", result)
        return result
    }

    /// Undoes one scan of this kiosk's running audit through the audit's void: the void is its
    /// own record in the trail (who, where, when, why), and the numbers are corrected.
    func undo(scanID: String) async throws -> UndoAnswer {
        guard let current = audit, current.isActive else { throw Self.noAudit }
        let id = try Identifier.normalize(scanID, field: "scan_id")
        let result = try await context.audit.void(
            VoidRequest(
                scanId: id, auditId: current.id, reason: "Undone on the kiosk", voidedAt: Date(),
                deviceName: context.actor.station, user: recordedUser))
        takeNumbers(result.progress, of: current.id)
        for index in recent.indices where recent[index].scanId == id { recent[index].voided = true }
        let answer = UndoAnswer(
            scanId: id, auditId: current.id, identifier: result.scan.identifier, message: result.message, progress: result.progress)
        hub.publish("void", answer)
        return answer
    }

    /// The last scans of the audit from its trail in the store: they survive a restart and
    /// include other stations' scans. A connected station adds its own scans from its outbox,
    /// which no trail of the server's holds while they wait or once the server refused them (a
    /// server of the seeds' API keeps no trail at all): after a restart they are still listed,
    /// a refusal as a refusal. With neither, the scans seen here stay.
    func loadRecent() async {
        guard let current = audit, let rows = await recentScans(of: current), audit?.id == current.id else { return }
        recent = rows
    }

    /// The last scans of `current` (nil: none can be read), merged with those shown of it here.
    private func recentScans(of current: AuditSession) async -> [KioskScan]? {
        let service = context.audit
        var rows: [KioskScan]?
        do {
            let head = try await service.scans(auditID: current.id, query: ListQuery(page: 1, perPage: 1))
            let total = head.pagination.total
            var records: [ScanRecord] = []
            if total > 0 {
                let perPage = Self.recentLimit
                let lastPage = (total + perPage - 1) / perPage
                records = try await service.scans(auditID: current.id, query: ListQuery(page: lastPage, perPage: perPage)).items
                if records.count < perPage && lastPage > 1 {
                    records =
                        try await service.scans(auditID: current.id, query: ListQuery(page: lastPage - 1, perPage: perPage)).items
                        + records
                }
            }
            rows = records.suffix(Self.recentLimit).reversed().map { KioskScan(record: $0, auditID: current.id) }
        } catch {
            // No trail here (a server that speaks only the seeds' API).
        }
        if let link = context.connection, let own = try? await link.ownScans(auditID: current.id, limit: Self.recentLimit), !own.isEmpty {
            let mine = own.map { KioskScan(own: $0, auditID: current.id) }
            let refused = Dictionary(
                mine.filter { $0.kind == .rejected }.compactMap { scan in scan.scanId.map { ($0, scan) } }, uniquingKeysWith: { first, _ in first })
            var merged = (rows ?? []).map { row in row.scanId.flatMap { refused[$0] } ?? row }
            let listed = Set(merged.compactMap(\.scanId))
            merged += mine.filter { $0.scanId.map { !listed.contains($0) } ?? false }
            rows = merged
        }
        guard var rows else { return nil }
        // The scans shown of this audit (none while another audit is shown).
        let shown = audit?.id == current.id ? recent : []
        // What the kiosk showed without storing it (a location label, input it refused) stays.
        rows += shown.filter { $0.scanId == nil }
        rows = Array(rows.sorted { $0.at > $1.at }.prefix(Self.recentLimit))
        // What the store gives wins; the outcome details seen here (asset names, who scanned) stay.
        let seen = Dictionary(shown.compactMap { scan in scan.scanId.map { ($0, scan) } }, uniquingKeysWith: { first, _ in first })
        return rows.map { row in
            guard let id = row.scanId, var known = seen[id] else { return row }
            // Stored here, then refused by the server (it is not in the server's audit): the
            // refusal is what the page shows of it.
            if known.kind == .rejected { return known }
            guard known.kind == .result, row.kind == .result else { return row }
            known.voided = row.voided
            return known
        }
    }

    /// The audit ended elsewhere: show it ended.
    private func auditStopped() async {
        guard let current = audit else { return }
        if let fresh = try? await context.audit.audit(id: current.id) { audit = fresh } else { audit?.isActive = false }
        session = nil
        endedElsewhere = true
        publishState()
    }

    func setUser(_ name: String) async throws -> String {
        let valid = try Self.validUser(name)
        user = valid
        await session?.setUser(valid)
        do {
            try valid.write(to: userFile, atomically: true, encoding: .utf8)
        } catch {
            logger.warning("Could not keep the scanner's name in \(userFile.path): \(error.localizedDescription)")
        }
        publishState()
        return valid
    }

    static func validUser(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw KioskError.invalid("name: type who is scanning") }
        guard name.count <= 64 else { throw KioskError.invalid("name: at most 64 characters") }
        guard !name.unicodeScalars.contains(where: FreeText.isRefused) else {
            throw KioskError.invalid("name: control characters are not allowed")
        }
        return name
    }

    // MARK: camera and connection

    func cameraEvent(_ event: CameraEvent) {
        let device = camera.device
        switch event {
        case .opened(let stream), .resumed(let stream):
            camera = CameraState(
                state: .ready, message: "Camera ready: \(stream)", device: device,
                width: stream.width, height: stream.height)
        case .lost(let error):
            camera = CameraState(
                state: .lost, message: "\(Self.sentence(error.localizedDescription)) Type or scan tags into the field meanwhile.",
                device: device)
        case .retrying:
            return
        }
        publishState()
    }

    /// A message as a sentence: it ends with a full stop.
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return trimmed }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }

    func cameraFailed(_ message: String) {
        camera = CameraState(state: .none, message: "The camera cannot be used: \(message)", device: camera.device)
        publishState()
    }

    /// Every 2 s: the numbers of the audit (other stations scan into it too), whether it ended
    /// elsewhere, and the server link.
    func poll() async {
        await refreshConnection()
        if let current = audit, current.isActive {
            if let fresh = try? await context.audit.audit(id: current.id), audit?.id == fresh.id {
                if !fresh.isActive {
                    audit = fresh
                    session = nil
                    endedElsewhere = true
                    logger.info("The audit \(fresh.id) of \(fresh.country) was ended elsewhere")
                    publishState()
                } else if fresh.progress != audit?.progress, fresh.progress.supersedes(audit?.progress) {
                    audit = fresh
                    hub.publish("progress", ProgressEvent(auditId: fresh.id, progress: fresh.progress))
                    // Other stations scanned: their scans join the last scans.
                    await loadRecent()
                    publishState()
                }
            }
        } else if audit == nil {
            let before = countries
            await refreshCountries()
            if countries != before { publishState() }
        }
    }

    private func refreshConnection() async {
        guard let link = context.connection else { return }
        var next = connection
        next.state = await link.probe(timeout: .seconds(2)) ? .online : .offline
        if let status = try? await link.status() {
            next.pendingScans = status.pendingScans
            next.auditPendingScans = audit.flatMap { status.pendingByAudit[$0.id] } ?? 0
            next.auditRefusedScans = audit.flatMap { status.rejectedByAudit[$0.id] } ?? 0
            next.lastSyncAt = status.lastSyncAt
            next.lastError = status.lastError
        }
        if next.state == .online && next.pendingScans > 0 { await link.startSync() }
        let settled = await settleRecent(link)
        if next != connection || settled {
            connection = next
            publishState()
        }
    }

    /// The last scans say "to sync" exactly while their scan waits in the outbox, which is
    /// where the number of scans waiting comes from: both go to the pages in one state.
    private func settleRecent(_ link: any StationConnection) async -> Bool {
        let shown = recent.filter { $0.pending == true }.compactMap(\.scanId)
        guard !shown.isEmpty, let waiting = try? await link.waitingScans(among: shown) else { return false }
        var changed = false
        for index in recent.indices where recent[index].pending == true {
            guard let id = recent[index].scanId, !waiting.contains(id) else { continue }
            recent[index].pending = nil
            changed = true
        }
        return changed
    }
}
