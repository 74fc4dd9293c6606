import AuditClient
import Foundation
import InventoryCore
import Scanning

/// Where a scan came from, and who and what took it.
public struct ScanOrigin: Sendable, Equatable {
    public var source: ScanSource
    /// The line, file or device, for messages ("line 4", "shelf.jpg", "/dev/video0").
    public var place: String?
    public var user: String
    public var station: String
    public var at: Date

    public init(source: ScanSource, place: String?, user: String, station: String, at: Date) {
        self.source = source
        self.place = place
        self.user = user
        self.station = station
        self.at = at
    }
}

/// Input that could not be a scan, or a scan the audit refused. Nothing was stored.
public struct ScanRefusal: Sendable, Equatable {
    public var identifier: String?
    public var scanID: String?
    /// An error code such as VALIDATION_ERROR, AUDIT_ENDED or BAD_IMAGE.
    public var code: ErrorCode
    public var message: String
    public var origin: ScanOrigin
    /// The store's or the server's refusal, when it was one (nil for input that never got there).
    public var cause: InventoryError?
    /// The audit's numbers after a refusal that changed them (a scan the server refused no
    /// longer counts); nil when it changed nothing.
    public var progress: AuditProgress?

    public init(
        identifier: String?, scanID: String?, code: ErrorCode, message: String, origin: ScanOrigin,
        cause: InventoryError? = nil
    ) {
        self.identifier = identifier
        self.scanID = scanID
        self.code = code
        self.message = message
        self.origin = origin
        self.cause = cause
    }
}

/// What a front end shows for one scan.
public enum ScanEvent: Sendable, Equatable {
    /// Stored (standalone) or safe in the outbox (connected), with its outcome.
    case recorded(ScanResult, ScanOrigin)
    case refused(ScanRefusal)
    /// The server's outcome of a scan a connected station showed pending (an identifier
    /// outside its copy): it replaces the pending one (same scan id).
    case decided(ScanResult, ScanOrigin)
    /// Something to tell the operator that is not a scan (a file without a code).
    case note(String)
}

/// The one scan path of a station. Every front end (`audit scan`, the kiosk, the demo) feeds it
/// identifiers from its sources: typed lines, image files, a camera. It gives each scan an id,
/// records it through the audit service, hands the outcome to its observer only once the scan
/// is stored, and stops the sources once the audit can take no more scans. At the end it says
/// what a connected station leaves in its outbox (`finish`).
///
/// ```swift
/// let session = ScanSession(context: context, audit: audit) { event in print(event) }
/// await session.scanLines(LineReader())
/// let left = await session.finish()
/// ```
public actor ScanSession {
    public typealias Observer = @Sendable (ScanEvent) async -> Void

    public nonisolated let audit: AuditSession
    nonisolated let service: any AuditService
    nonisolated let connection: (any StationConnection)?
    private var actor: Actor
    private let observer: Observer
    /// Scans stored.
    public private(set) var recorded = 0
    /// Inputs refused (bad bytes, unreadable images, invalid tags, refused scans).
    public private(set) var failures = 0
    /// The audit's numbers after the last stored scan.
    public private(set) var lastProgress: AuditProgress
    /// Set when the audit can take no more scans (it ended, or none runs); sources stop.
    public private(set) var stopped: InventoryError?
    /// The camera run of `scanCamera`, cancelled when the session stops.
    private var camera: Task<Void, any Error>?
    /// Whether the connection tells this session the server's outcome of pending scans.
    private var followsDecisions = false
    /// Scans being recorded (their own event not observed yet), and the server's news of them
    /// (a decision, a refusal) that came meanwhile: the sync pushes a scan as soon as it is
    /// stored, so its news can come while this actor waits for the store's answer. The news is
    /// observed right after the scan's own event, never before the outcome it replaces.
    private var recording: Set<String> = []
    private var heldNews: [String: [ScanEvent]] = [:]
    /// Where the station stands: sent with each scan, so an asset registered elsewhere is
    /// found and misplaced. Set by the configuration or `--location`, and by location labels.
    public private(set) var location: String?
    /// Scanned text starting with this is a location label (`LOC:Dock B`), never a scan; empty: off.
    public private(set) var locationLabelPrefix = "LOC:"
    /// Whether camera scans keep their frame as evidence.
    nonisolated let photos: PhotoConfig
    /// Photos being encoded and stored, awaited by `photosSettled` (tests, the end of a run).
    private var photoTasks: [Task<Void, Never>] = []

    /// `place`: where the station stands at first, and how its location labels read.
    public init(
        service: any AuditService, connection: (any StationConnection)?, audit: AuditSession, actor: Actor,
        place: StationPlace = StationPlace(), photos: PhotoConfig = PhotoConfig(), observer: @escaping Observer
    ) {
        self.photos = photos
        self.service = service
        self.connection = connection
        self.audit = audit
        self.actor = actor
        self.observer = observer
        self.lastProgress = audit.progress
        self.location = (try? FreeText.optional(place.location, field: "location")) ?? nil
        self.locationLabelPrefix = place.locationLabelPrefix
    }

    public init(context: StationContext, audit: AuditSession, observer: @escaping Observer) {
        self.init(
            service: context.audit, connection: context.connection, audit: audit, actor: context.actor, place: context.config.station,
            photos: context.config.photos, observer: observer)
    }

    /// Who is scanning from now on (the kiosk's name field).
    public func setUser(_ user: String) { actor.user = user }

    /// Where the station stands from now on (nil: unknown), and the prefix of location labels.
    /// The location is checked as every store checks it.
    public func place(at location: String?, labelPrefix: String? = nil) throws {
        do { self.location = try FreeText.optional(location, field: "location") } catch { throw InventoryError.invalid(error) }
        if let labelPrefix { locationLabelPrefix = labelPrefix }
    }
    public var user: String { actor.user }

    /// Records one identifier. `scanID` makes a resend harmless: the same id answers with the
    /// first outcome and stores nothing new (the kiosk page sends its own); a new id is made
    /// when nil. The observer sees the event, unless the session had already stopped.
    @discardableResult
    public func record(_ raw: String, source: ScanSource, place: String? = nil, scanID: String? = nil, frame: GrayImage? = nil) async
        -> ScanEvent
    {
        let origin = ScanOrigin(source: source, place: place, user: actor.user, station: actor.station, at: Date())
        if let stopped {
            return .refused(
                ScanRefusal(
                    identifier: raw, scanID: scanID, code: stopped.code,
                    message: describe(stopped), origin: origin, cause: stopped))
        }
        if let label = locationLabel(raw) { return await moveTo(label, origin: origin) }
        let id = scanID ?? UUID().uuidString.lowercased()
        let request = ScanRequest(
            identifier: raw, auditId: audit.id, scanId: id,
            source: source, scannedAt: origin.at, deviceName: actor.station, user: actor.user, location: location)
        recording.insert(id)
        await followDecisions()
        let event: ScanEvent
        do {
            let result = try await service.record(request)
            event = await stored(result, origin: origin)
            if let frame, photos.keep, result.status == .pending || ScanPhoto.isEvidence(result) {
                keepPhoto(frame, scanID: result.scanId, takenAt: origin.at)
            }
        } catch {
            event = refused(error, identifier: raw, scanID: id, origin: origin)
        }
        await observe(event, of: id)
        return event
    }

    /// A scan's own event, then the server's news of it that came while it was being recorded.
    private func observe(_ event: ScanEvent, of scanID: String) async {
        await observer(event)
        recording.remove(scanID)
        for news in heldNews.removeValue(forKey: scanID) ?? [] { await observer(news) }
    }

    /// The server's news of a scan: observed now, or after the scan's own event if that is not out yet.
    private func observeNews(_ news: ScanEvent, of scanID: String) async {
        guard !recording.contains(scanID) else {
            heldNews[scanID, default: []].append(news)
            return
        }
        await observer(news)
    }

    /// Typed scans, in the order given, each answered as `record` answers it. Where the service
    /// stores batches (`ServerAuditService`: one transaction, so one write to disk instead of one
    /// a scan), each run of scans between location labels is stored in one write; a location
    /// label moves the station for the scans after it, as one at a time would.
    public func record(batch items: [(identifier: String, scanID: String?)], source: ScanSource) async -> [ScanEvent] {
        guard let batches = service as? any ServerAuditService, items.count > 1 else {
            var events: [ScanEvent] = []
            for item in items { events.append(await record(item.identifier, source: source, scanID: item.scanID)) }
            return events
        }
        var events: [ScanEvent] = []
        var run: [(identifier: String, scanID: String?)] = []
        for item in items {
            if locationLabel(item.identifier) != nil || stopped != nil {
                events += await record(run: run, source: source, into: batches)
                run = []
                events.append(await record(item.identifier, source: source, scanID: item.scanID))
            } else {
                run.append(item)
            }
        }
        events += await record(run: run, source: source, into: batches)
        return events
    }

    /// One write of scans that hold no location label.
    private func record(
        run: [(identifier: String, scanID: String?)], source: ScanSource, into batches: any ServerAuditService
    ) async -> [ScanEvent] {
        if run.count == 1 { return [await record(run[0].identifier, source: source, scanID: run[0].scanID)] }
        if run.isEmpty { return [] }
        let origin = ScanOrigin(source: source, place: nil, user: actor.user, station: actor.station, at: Date())
        let ids = run.map { $0.scanID ?? UUID().uuidString.lowercased() }
        let requests = zip(run, ids).map { item, id in
            ScanRequest(
                identifier: item.identifier, auditId: audit.id, scanId: id,
                source: source, scannedAt: origin.at, deviceName: actor.station, user: actor.user, location: location)
        }
        recording.formUnion(ids)
        await followDecisions()
        let results: [Result<ScanResult, InventoryError>]
        do {
            results = try await batches.record(batch: requests)
        } catch {
            let failure = InventoryError(error) ?? .storage(describe(error))
            results = requests.map { _ in .failure(failure) }
        }
        var events: [ScanEvent] = []
        for (request, (id, result)) in zip(requests, zip(ids, results)) {
            let event: ScanEvent
            switch result {
            case .success(let stored): event = await self.stored(stored, origin: origin)
            case .failure(let error): event = refused(error, identifier: request.identifier, scanID: id, origin: origin)
            }
            await observe(event, of: id)
            events.append(event)
        }
        // Scans the store did not get to (it stopped answering): nothing of theirs is held back.
        for id in ids.dropFirst(results.count) {
            recording.remove(id)
            for news in heldNews.removeValue(forKey: id) ?? [] { await observer(news) }
        }
        return events
    }

    /// The counts and progress of a stored scan, and its event.
    private func stored(_ result: ScanResult, origin: ScanOrigin) async -> ScanEvent {
        recorded += 1
        lastProgress = result.progress
        return .recorded(result, origin)
    }

    /// The refusal of a scan the service did not store; an error that ends the audit's scanning
    /// stops the session.
    private func refused(_ error: any Error, identifier: String, scanID: String?, origin: ScanOrigin) -> ScanEvent {
        let inventoryError = InventoryError(error)
        if inventoryError?.stopsScanning == true {
            stopped = inventoryError
            camera?.cancel()
        }
        failures += 1
        return .refused(
            ScanRefusal(
                identifier: identifier, scanID: scanID, code: inventoryError?.code ?? .scanFailed,
                message: describe(error), origin: origin, cause: inventoryError))
    }

    /// Encodes the frame and attaches it to the stored scan, off the scan path: the outcome is
    /// shown without waiting for it. A failure costs only the photo, and is said.
    private func keepPhoto(_ frame: GrayImage, scanID: String, takenAt: Date) {
        guard let store = service as? any ScanPhotoService else { return }
        let auditID = audit.id
        let observer = observer
        photoTasks.removeAll { $0.isCancelled }
        let task = Task.detached {
            do {
                guard let jpeg = EvidencePhoto.jpeg(frame) else { throw InventoryError.storage("the frame could not be encoded as a JPEG") }
                try await store.attachPhoto(try ScanPhoto(scanId: scanID, jpeg: Data(jpeg), takenAt: takenAt), auditID: auditID)
            } catch {
                await observer(.note("The photo of scan \(scanID) was not kept: \(error.localizedDescription)"))
            }
        }
        photoTasks.append(task)
        if photoTasks.count > 64 { photoTasks.removeFirst(photoTasks.count - 64) }
    }

    /// Waits until the photos being kept are stored.
    public func photosSettled() async {
        let tasks = photoTasks
        photoTasks = []
        for task in tasks { await task.value }
    }

    /// The location a scanned text names, when it is a location label.
    private func locationLabel(_ raw: String) -> String? {
        guard !locationLabelPrefix.isEmpty else { return nil }
        let text = Identifier.foldingFullWidth(raw).trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        guard text.hasPrefix(locationLabelPrefix) else { return nil }
        return String(text.dropFirst(locationLabelPrefix.count)).trimmingCharacters(in: .whitespaces)
    }

    /// A location label: the station stands there from now on. It is never stored as a scan.
    /// A location none of the country's assets is at is refused (when the service can say),
    /// and the station stays where it was.
    private func moveTo(_ name: String, origin: ScanOrigin) async -> ScanEvent {
        let event: ScanEvent
        do {
            guard let checked = try FreeText.normalize(name, field: "location") else {
                throw InventoryError.invalid(ValidationError(field: "location", message: "the label names no location"))
            }
            let known: [LocationCount]?
            do { known = try await service.locations(country: audit.country) } catch InventoryError.unavailable { known = nil }
            if let known, !known.contains(where: { $0.location == checked }) {
                throw AuditLocations.unknown([checked], country: audit.country, known: known.map(\.location), field: "location")
            }
            location = checked
            event = .note("Location: \(checked). Assets registered elsewhere that are scanned here are found, and misplaced.")
        } catch {
            failures += 1
            let inventoryError = InventoryError(error)
            event = .refused(
                ScanRefusal(
                    identifier: locationLabelPrefix + name, scanID: nil, code: inventoryError?.code ?? .scanFailed,
                    message: "Location label not taken: \(describe(error))", origin: origin, cause: inventoryError))
        }
        await observer(event)
        return event
    }

    /// From the first scan on (set before the store is asked, so no answer of the server comes
    /// before anyone listens), the server's outcomes of pending scans come to the observer as
    /// `.decided`, and its refusals of any scan as `.refused` with the scan's id (also those of an
    /// earlier run that this push delivers): the scan is not in the server's audit.
    private func followDecisions() async {
        guard !followsDecisions, let connection else { return }
        followsDecisions = true
        await connection.onDecided { [weak self] result, first in await self?.decided(result, first) }
        await connection.onRefused { [weak self] auditID, scanID, identifier, message, first, progress in
            await self?.refusedByServer(auditID: auditID, scanID: scanID, identifier: identifier, message: message, first, progress: progress)
        }
    }

    private func refusedByServer(
        auditID: AuditID, scanID: String, identifier: String, message: String, _ first: FirstScan, progress: AuditProgress?
    ) async {
        guard auditID == audit.id else { return }
        if let progress { lastProgress = progress }
        let origin = ScanOrigin(source: first.source, place: nil, user: first.user, station: first.station, at: first.scannedAt)
        var refusal = ScanRefusal(
            identifier: identifier, scanID: scanID, code: .refusedByServer,
            message: "The server refused this scan: \(message)", origin: origin)
        refusal.progress = progress
        await observeNews(.refused(refusal), of: scanID)
    }

    private func decided(_ result: ScanResult, _ first: FirstScan) async {
        guard result.auditId == audit.id else { return }
        lastProgress = result.progress
        await observeNews(
            .decided(
                result,
                ScanOrigin(
                    source: first.source, place: nil, user: first.user, station: first.station,
                    at: first.scannedAt)),
            of: result.scanId)
    }

    /// Reports input that could not be a scan (bad bytes, an unreadable image, …).
    @discardableResult
    public func refuse(
        _ message: String, identifier: String? = nil, source: ScanSource, place: String? = nil,
        code: ErrorCode = .validationError
    ) async -> ScanEvent {
        failures += 1
        let origin = ScanOrigin(source: source, place: place, user: actor.user, station: actor.station, at: Date())
        let event = ScanEvent.refused(
            ScanRefusal(
                identifier: identifier, scanID: nil, code: code,
                message: place.map { "\($0): \(message)" } ?? message, origin: origin))
        await observer(event)
        return event
    }

    /// A line for the operator that is not a scan.
    public func note(_ text: String) async { await observer(.note(text)) }

    // MARK: sources

    /// Identifiers one a line (typed, a keyboard-wedge scanner, or a pipe) until the input ends
    /// or the audit stops. Empty lines are skipped; lines that cannot be tags are refused by
    /// number. `numbered` adds "line N" to each scan's place (for piped files).
    public func scanLines(_ lines: LineReader, numbered: Bool) async {
        for await line in lines {
            switch line {
            case .text(let number, let text):
                // Empty lines (a stray Enter) are skipped, not errors.
                if text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty { continue }
                await record(text, source: .manual, place: numbered ? "line \(number)" : nil)
            case .notUTF8(let number):
                await refuse("the text is not UTF-8; nothing was recorded", source: .manual, place: "line \(number)")
            case .tooLong(let number, let bytes):
                await refuse(
                    "\(bytes) bytes is far too long for a tag (limit \(Identifier.maxBytes)); nothing was recorded",
                    source: .manual, place: "line \(number)")
            }
            if stopped != nil { return }
        }
    }

    /// Tags given as the command's arguments, in order, each recorded as a typed one. An empty
    /// argument (a shell variable that was not set) is refused by its number, never skipped in
    /// silence.
    public func scanArguments(_ tags: [String]) async {
        for (index, tag) in tags.enumerated() {
            if tag.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty {
                await refuse("an empty tag; nothing was recorded", source: .manual, place: "argument \(index + 1)")
            } else {
                await record(tag, source: .manual)
            }
            if stopped != nil { return }
        }
    }

    /// Decodes image files and folders (in order) and records every code they hold. A file that
    /// is not a readable image is refused and the next one is read.
    public func scanImages(_ paths: [String], decoder: DecoderConfig) async {
        for await result in decodeImages(paths: paths, config: decoder) {
            switch result.outcome {
            case .success(let codes) where codes.isEmpty:
                await note("\(result.path): no code found")
            case .success(let codes):
                for code in codes { await record(code.text, source: .image, place: result.path) }
            case .failure(let error):
                await refuse(error.localizedDescription, source: .image, code: .badImage)
            }
            if stopped != nil { return }
        }
    }

    /// Records what the camera loop accepts until the calling task is cancelled or the audit
    /// stops. Throws only when the decoder cannot be made.
    public func scanCamera(_ loop: ScanLoop, onEvent: @escaping @Sendable (CameraEvent) -> Void) async throws {
        let device = loop.config.device
        if photos.keep, let cutoff = photos.retention.cutoff(), let store = service as? any ScanPhotoService {
            Task.detached { _ = try? await store.prunePhotos(takenBefore: cutoff) }
        }
        let run = Task {
            try await loop.run(
                onCode: { code in
                    await self.record(code.text, source: .camera, place: device, frame: code.frame)
                }, onEvent: onEvent)
        }
        camera = run
        if stopped != nil { run.cancel() }
        try await withTaskCancellationHandler {
            try await run.value
        } onCancel: {
            run.cancel()
        }
    }
}

/// The message of an error, as a person should read it.
public func describe(_ error: any Error) -> String {
    if let inventory = InventoryError(error) { return inventory.errorDescription ?? "\(inventory)" }
    if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
    return "\(error)"
}

extension InventoryError {
    /// The audit can take no more scans: it ended, or none is running.
    public var stopsScanning: Bool {
        switch self {
        case .auditEnded, .noActiveAudit: true
        default: false
        }
    }
}
