import AuditClient
import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore

/// Pushes the outbox to the server, oldest scan first: in batches of up to 500 when the server
/// offers `POST /audit/scans`, else one at a time. A failure that may pass
/// (no network, a timeout, a 5xx) is retried with exponential backoff; the scan_id makes a
/// resend harmless, so a scan whose answer was lost counts once. A refusal (the audit ended,
/// not allowed) marks the scan rejected and moves on. A 401 stops until the user logs in again.
public actor SyncEngine {
    public typealias ResultHandler = @Sendable (OutboxEntry, ScanResult) async -> Void
    /// Told of each scan the server refused, with the server's message.
    public typealias RefusalHandler = @Sendable (OutboxEntry, String) async -> Void
    let client: APIClient
    let outbox: StationOutbox
    let copies: StationCopy
    let policy: SyncPolicy
    /// How the copy matches tags, for the voids it takes back.
    let caseSensitive: Bool
    private var onResult: ResultHandler = { _, _ in }
    private var onRefused: RefusalHandler = { _, _ in }
    private var current: Task<SyncReport, Never>?
    /// Pushes started and ended so far (see `quietMark`).
    private var pushEvents = 0
    private var kickedAgain = false
    /// Whether the server takes batches: unknown until the first batch is tried.
    private var batchOffered: Bool?
    /// False once the server refused a scan for its `location` (a server of the seeds' API alone
    /// knows no such field, and may refuse what it does not know): its scans go without it.
    private var locationTaken = true

    public init(
        client: APIClient, outbox: StationOutbox, copies: StationCopy, policy: SyncPolicy = SyncPolicy(), caseSensitive: Bool = true
    ) {
        self.caseSensitive = caseSensitive
        self.client = client
        self.outbox = outbox
        self.copies = copies
        self.policy = policy
    }

    /// Called with every answer the server gives, after the copy has taken it.
    public func setResultHandler(_ handler: @escaping ResultHandler) { onResult = handler }

    /// Called with every scan the server refused, once it is marked rejected in the outbox.
    public func setRefusalHandler(_ handler: @escaping RefusalHandler) { onRefused = handler }

    /// Starts a push in the background unless one is running (that one picks up new scans).
    public func kick() {
        if current == nil { startPush() } else { kickedAgain = true }
    }

    /// Pushes until the outbox is empty or a scan failed `policy.maxAttempts` times in a row;
    /// waits for a push already running first, so scans always go in order.
    @discardableResult
    public func pushNow() async -> SyncReport {
        if let running = current {
            // That push may have read the outbox before this call's scans were queued. Once it
            // is over, it is taken off here rather than by its own clean-up task, which may not
            // have run yet: else its report (nothing remaining) would be returned for scans it
            // never saw.
            _ = await running.value
            finished(running)
        }
        // A push current now started after this call, so it reads every scan queued before it.
        if let running = current { return await running.value }
        startPush()
        return await current?.value ?? SyncReport()
    }

    /// A count of the pushes started and ended while none runs, nil while one does. The
    /// server's numbers read between two equal marks count no scan that the outbox still holds
    /// as pending: pushes go one at a time, and every answer of the last one was taken before.
    public var quietMark: Int? { current == nil ? pushEvents : nil }

    private func startPush() {
        let task = Task { await self.pushAll() }
        current = task
        pushEvents += 1
        Task {
            _ = await task.value
            self.finished(task)
        }
    }

    private func finished(_ task: Task<SyncReport, Never>) {
        guard current == task else { return }
        current = nil
        pushEvents += 1
        if kickedAgain {
            kickedAgain = false
            startPush()
        }
    }

    /// Hands a stored answer to the result handler.
    func deliver(_ entry: OutboxEntry, _ result: ScanResult) async { await onResult(entry, result) }

    /// A scan the server refused: kept in the outbox as rejected (with the server's message), and
    /// the refusal handler told.
    func reject(_ entry: OutboxEntry, _ message: String) async {
        try? await outbox.reject(scanID: entry.scanID, error: message, caseSensitive: caseSensitive)
        await onRefused(entry, message)
    }

    /// The send lock, waited for while another process of this station holds it and its
    /// sending moves the outbox on; nil once that process has moved nothing for `sendPatience`
    /// (`policy.sendPatience`: it may be stuck on a server that does not answer).
    private func sendTurn() async -> SendLock.Turn? {
        let lock = outbox.sendLock
        // What the other process's sending moves: scans and voids answered, the last sync.
        // Scans queued meanwhile and the errors of its retries do not count.
        func progress() async -> OutboxCounts? {
            var counts = try? await outbox.counts()
            counts?.pending = 0
            counts?.lastError = nil
            return counts
        }
        var seen = await progress()
        var movedAt = ContinuousClock.now
        while !Task.isCancelled {
            if let turn = await lock.acquire(patience: .seconds(1)) { return turn }
            let now = await progress()
            if now != seen {
                seen = now
                movedAt = .now
            } else if ContinuousClock.now - movedAt >= policy.sendPatience {
                return nil
            }
        }
        return nil
    }

    private func pushAll() async -> SyncReport {
        var report = SyncReport()
        // A kiosk and an `audit sync` beside it share the outbox: one sends at a time, and the
        // other then finds the scans it would have sent again marked synced.
        guard let turn = await sendTurn() else {
            report.stoppedBy = "Another process of this station is sending its scans; they go to the server when it is done"
            return await finish(report)
        }
        defer { turn.release() }
        var failures = 0
        while !Task.isCancelled {
            let batch: [OutboxEntry]
            let countMark: Int64?
            do {
                // A count kept here goes in its place: the scans made after it wait until it is sent.
                countMark = try await outbox.firstCountMark()
                batch = try await outbox.pending(limit: max(policy.batchSize, 200)).filter { countMark == nil || $0.seq <= countMark ?? 0 }
            } catch {
                report.stoppedBy = error.localizedDescription
                break
            }
            if batch.isEmpty {
                if countMark != nil, await pushCounts(into: &report) { continue }
                break
            }
            if batch.count > 1, policy.batchSize > 1, batchOffered != false {
                let batch = Array(batch.prefix(policy.batchSize))
                if let outcomes = await pushBatch(batch) {
                    batchOffered = true
                    if await tally(outcomes, batch, into: &report, failures: &failures) { return await finish(report) }
                    if outcomes.contains(where: { if case .retry = $0 { true } else { false } }) {
                        try? await Task.sleep(for: policy.delay(afterFailures: failures))
                    }
                    continue
                }
                batchOffered = false
            }
            var index = 0
            while index < batch.count {
                let entry = batch[index]
                switch await push(entry) {
                case .stored:
                    report.pushed += 1
                    failures = 0
                    index += 1
                case .rejected:
                    report.rejected += 1
                    failures = 0
                    index += 1
                case .needsLogin(let message):
                    report.needsLogin = true
                    report.stoppedBy = message
                    return await finish(report)
                case .retry(let message):
                    failures += 1
                    try? await outbox.noteFailure(scanID: entry.scanID, error: message)
                    if failures >= policy.maxAttempts {
                        report.stoppedBy = message
                        return await finish(report)
                    }
                    try? await Task.sleep(for: policy.delay(afterFailures: failures))
                }
            }
        }
        if !Task.isCancelled { await pushVoids(into: &report) }
        if !Task.isCancelled, !report.needsLogin { await pushPhotos(into: &report) }
        return await finish(report)
    }

    /// Sends the photos of scans the server has stored, `policy.photoBatch` read at a time, one
    /// call each (`PUT …/scans/{scan_id}/photo`; a resend changes nothing there). A photo of a
    /// scan the server refused, or one the server refuses, is marked refused and kept here.
    private func pushPhotos(into report: inout SyncReport) async {
        var failures = 0
        while !Task.isCancelled {
            guard let ready = try? await outbox.readyPhotos(limit: policy.photoBatch), !ready.isEmpty else { return }
            for item in ready {
                let scanID = item.photo.scanId
                if item.scanRejected {
                    try? await outbox.settlePhoto(scanID: scanID, state: .rejected, error: "its scan was refused by the server")
                    continue
                }
                do {
                    let _: PhotoStored = try await client.upload(
                        .PUT, Routes.path(Routes.auditPhoto, ["audit_id": item.auditID, "scan_id": scanID]),
                        query: ["taken_at": ISOTime.string(item.photo.takenAt)], bytes: Array(item.photo.jpeg), contentType: ScanPhoto.contentType)
                    try? await outbox.settlePhoto(scanID: scanID, state: .synced)
                    report.photosPushed += 1
                    failures = 0
                } catch let error as InventoryError where Self.passing(error) == nil {
                    try? await outbox.settlePhoto(scanID: scanID, state: .rejected, error: error.localizedDescription)
                } catch {
                    failures += 1
                    try? await outbox.settlePhoto(scanID: scanID, state: .pending, error: error.localizedDescription)
                    if failures >= policy.maxAttempts
                        || (error as? InventoryError).map({ if case .unauthorized = $0 { true } else { false } }) == true
                    {
                        report.stoppedBy = report.stoppedBy ?? error.localizedDescription
                        return
                    }
                    try? await Task.sleep(for: policy.delay(afterFailures: failures))
                }
            }
        }
    }

    /// Sends the voids made offline whose scans the server has answered, oldest first, each
    /// with its own id (a resend is the same void). A void of a scan the server refused has
    /// nothing to undo there and is marked refused with it.
    private func pushVoids(into report: inout SyncReport) async {
        var failures = 0
        while !Task.isCancelled {
            guard let ready = try? await outbox.readyVoids(limit: 100), !ready.isEmpty else { return }
            for item in ready {
                let void = item.void
                if item.scanRejected {
                    try? await copies.rejectVoid(
                        voidID: void.voidID, error: "Scan \(void.scanID) was refused by the server, so there is nothing to void")
                    report.voidsRejected += 1
                    continue
                }
                let body = VoidRequest(
                    scanId: void.scanID, auditId: void.auditID, reason: void.reason, voidId: void.voidID, voidedAt: void.voidedAt,
                    deviceName: void.station)
                do {
                    let result = try await client.send(
                        .POST, Routes.path(Routes.auditVoid, ["scan_id": void.scanID]), body: body, as: VoidResult.self)
                    try await copies.takeVoidAnswer(result, voidID: void.voidID, caseSensitive: caseSensitive)
                    report.voidsPushed += 1
                    failures = 0
                } catch let error as InventoryError {
                    switch Self.passing(error) {
                    case .needsLogin(let message)?:
                        report.needsLogin = true
                        report.stoppedBy = message
                        return
                    case .retry(let message)?:
                        failures += 1
                        try? await outbox.noteVoidFailure(voidID: void.voidID, error: message)
                        if failures >= policy.maxAttempts {
                            report.stoppedBy = message
                            return
                        }
                        try? await Task.sleep(for: policy.delay(afterFailures: failures))
                    default:
                        try? await copies.rejectVoid(voidID: void.voidID, error: error.localizedDescription)
                        report.voidsRejected += 1
                    }
                } catch {
                    failures += 1
                    try? await outbox.noteVoidFailure(voidID: void.voidID, error: error.localizedDescription)
                    if failures >= policy.maxAttempts {
                        report.stoppedBy = error.localizedDescription
                        return
                    }
                    try? await Task.sleep(for: policy.delay(afterFailures: failures))
                }
            }
        }
    }

    /// Counts a batch's outcomes; true when the push must stop (a login is needed, or scans
    /// failed `policy.maxAttempts` times in a row).
    private func tally(_ outcomes: [Outcome], _ batch: [OutboxEntry], into report: inout SyncReport, failures: inout Int) async -> Bool {
        var retried: String?
        for (entry, outcome) in zip(batch, outcomes) {
            switch outcome {
            case .stored: report.pushed += 1
            case .rejected: report.rejected += 1
            case .needsLogin(let message):
                report.needsLogin = true
                report.stoppedBy = message
                return true
            case .retry(let message):
                retried = message
                try? await outbox.noteFailure(scanID: entry.scanID, error: message)
            }
        }
        guard let retried else {
            failures = 0
            return false
        }
        failures += 1
        guard failures >= policy.maxAttempts else { return false }
        report.stoppedBy = retried
        return true
    }

    private func finish(_ report: SyncReport) async -> SyncReport {
        var report = report
        let counts = try? await outbox.counts()
        report.remaining = counts?.pending ?? 0
        report.voidsRemaining = counts?.pendingVoids ?? 0
        report.photosRemaining = (try? await outbox.pendingPhotoCount()) ?? 0
        return report
    }

    /// The audit's numbers with `entry` counted, for a server whose answer leaves them out.
    func progressWith(_ entry: OutboxEntry) async throws -> AuditProgress {
        guard let session = try await copies.session(auditID: entry.auditID) else {
            return AuditProgress(totalAssets: 0, scannedCount: 0, unexpectedCount: 0)
        }
        return AuditProgress(
            totalAssets: session.totalAssets, scannedCount: min(session.scannedCount + (entry.addsScanned ? 1 : 0), session.totalAssets),
            unexpectedCount: session.unexpectedCount + (entry.addsUnexpected ? 1 : 0))
    }

    enum Outcome { case stored, rejected, needsLogin(String), retry(String) }

    func push(_ entry: OutboxEntry) async -> Outcome {
        do {
            let answer: ScanResult
            let withLocation = entry.location != nil && locationTaken
            do {
                answer = try await send(entry, withLocation: withLocation)
            } catch let error as InventoryError where withLocation && Self.passing(error) == nil {
                // Refused: perhaps for the field a server of the seeds' API does not know. That the
                // scan counts matters more than where it was made (which this station's copy
                // keeps), so it goes again without it; taken so, this server gets no location.
                answer = try await send(entry, withLocation: false)
                locationTaken = false
            }
            let result = answer.answer(for: entry, progress: try await progress(of: answer, for: entry))
            try await copies.applyServerResult(result, for: entry)
            await onResult(entry, result)
            return .stored
        } catch let error as InventoryError {
            if let outcome = Self.passing(error) { return outcome }
            await reject(entry, error.localizedDescription)
            return .rejected
        } catch {
            return .retry(error.localizedDescription)
        }
    }

    private func send(_ entry: OutboxEntry, withLocation: Bool) async throws -> ScanResult {
        try await client.send(.POST, Routes.auditScan, body: ScanRequest(entry, withLocation: withLocation), as: Lenient<ScanResult>.self).value
    }

    /// The outcome of a call that failed in a way that may pass (no network, a 5xx: send it
    /// again) or needs the user (a 401); nil for a refusal of the scan itself.
    static func passing(_ error: InventoryError) -> Outcome? {
        switch error {
        case .unavailable, .storage: .retry(error.localizedDescription)
        case .unauthorized(let message): .needsLogin(message)
        default: nil
        }
    }

    /// The audit's numbers from a scan's answer, or worked out here when the server leaves them out.
    func progress(of answer: ScanResult, for entry: OutboxEntry) async throws -> AuditProgress {
        if answer.givesProgress { return answer.progress }
        return try await progressWith(entry)
    }
}
