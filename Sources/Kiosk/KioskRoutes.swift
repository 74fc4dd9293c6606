import DocumentKit
import Foundation
import HTTPTypes
import HTTPGuard
import Hummingbird
import InventoryCore
import NIOCore
import Station

/// The kiosk's HTTP interface (docs/kiosk-api.md): the page, its JSON calls, the pushed events
/// and the camera preview. Every request first passes `KioskGuard`.
struct KioskRoutes: Sendable {
    static let maxBody = 16 * 1024
    let station: KioskStation
    let hub: EventHub
    let gate: PinGate
    let preview: PreviewStream?

    /// Paths and the methods they take; another method on one of them answers 405. The page's
    /// files (`WebAssets.files`) take GET and HEAD.
    static let methods: [String: Set<HTTPRequest.Method>] = WebAssets.files.mapValues { _ in [.get, .head] }.merging([
        "/api/state": [.get], "/api/events": [.get], "/api/preview.mjpg": [.get], "/api/summary": [.get],
        "/api/report": [.get], "/api/details/all": [.get], "/api/details/scanned": [.get],
        "/api/details/missing": [.get], "/api/details/unexpected": [.get],
        "/api/pin": [.post], "/api/user": [.post], "/api/start": [.post], "/api/join": [.post],
        "/api/scan": [.post], "/api/end": [.post], "/api/leave": [.post], "/api/scans": [.post], "/api/location": [.post],
        "/api/locations": [.get], "/api/undo": [.post], "/api/progress": [.get], "/api/photo": [.get], "/api/count": [.post]
    ]) { file, _ in file }

    func add(to router: Router<KioskRequestContext>) {
        for (path, asset) in WebAssets.files {
            router.get(RouterPath(path)) { _, _ in asset.response() }
            router.head(RouterPath(path)) { _, _ in asset.response() }
        }
        router.get("/api/state", use: state)
        router.post("/api/pin", use: pin)
        router.get("/api/events") { _, _ in events() }
        router.get("/api/preview.mjpg") { _, _ in try previewResponse() }
        router.post("/api/user", use: setUser)
        router.post("/api/start", use: start)
        router.post("/api/join", use: join)
        router.post("/api/leave", use: leave)
        router.post("/api/scan", use: scan)
        router.post("/api/scans", use: scanBatch)
        router.post("/api/location", use: setLocation)
        router.get("/api/locations", use: locations)
        router.post("/api/undo", use: undo)
        router.post("/api/count", use: count)
        router.post("/api/end", use: end)
        router.get("/api/summary", use: summary)
        router.get("/api/details/{list}", use: details)
        router.get("/api/progress", use: progress)
        router.get("/api/photo", use: photo)
        router.get("/api/report", use: download)
    }

    // MARK: calls

    /// `GET /api/state`.
    func state(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        guard gate.admits(peer: context.peer, cookieHeader: request.headers[.cookie]) else {
            return try Self.json(LockedState(station: station.context.actor.station))
        }
        return try Self.json(await station.state())
    }

    /// `POST /api/pin`.
    func pin(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(PinBody.self, from: request, context: context)
        let token = try gate.check(body.pin, peer: context.peer ?? "unknown")
        return Response(status: .noContent, headers: [.setCookie: PinGate.setCookie(token)])
    }

    /// `POST /api/user`.
    func setUser(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(UserBody.self, from: request, context: context)
        return try Self.json(UserAnswer(user: try await station.setUser(body.name)))
    }

    /// `POST /api/start`.
    func start(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(StartBody.self, from: request, context: context)
        return try Self.json(AuditAnswer(audit: try await station.start(country: body.country, locations: body.locations ?? [])))
    }

    /// `POST /api/join`.
    func join(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(JoinBody.self, from: request, context: context)
        return try Self.json(AuditAnswer(audit: try await station.join(auditID: body.auditId)))
    }

    /// `POST /api/leave`.
    func leave(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        _ = try await request.body.collect(upTo: Self.maxBody)
        await station.leave()
        return try Self.json(AuditAnswer(audit: nil))
    }

    /// `POST /api/scan`.
    func scan(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(ScanBody.self, from: request, context: context)
        // The scan is stored even if the page goes away meanwhile (a reload, a closed tab):
        // it runs in a task of its own, and the page asks again with the same scan_id.
        let station = station
        let task = Task { try await station.scan(body.identifier, scanID: body.scanId) }
        return try Self.json(try await task.value)
    }

    /// `POST /api/scans`.
    func scanBatch(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(ScansBody.self, from: request, context: context)
        guard !body.scans.isEmpty, body.scans.count <= ScansBody.limit else {
            throw KioskError.invalid("scans: from 1 to \(ScansBody.limit) scans at a time")
        }
        // As for one scan: the scans are stored even if the page goes away meanwhile.
        let station = station
        let task = Task { try await station.scan(batch: body.scans) }
        return try Self.json(ScansAnswer(results: try await task.value))
    }

    /// `POST /api/location`.
    func setLocation(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(LocationBody.self, from: request, context: context)
        return try Self.json(LocationAnswer(location: try await station.setLocation(body.location)))
    }

    /// `GET /api/locations`.
    func locations(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let country = try Self.required("country", in: request)
        return try Self.json(LocationsAnswer(locations: try await station.locations(country: country)))
    }

    /// `POST /api/undo`.
    func undo(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(UndoBody.self, from: request, context: context)
        let station = station
        let task = Task { try await station.undo(scanID: body.scanId) }
        return try Self.json(try await task.value)
    }

    /// `POST /api/count`.
    func count(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(CountBody.self, from: request, context: context)
        let station = station
        let task = Task { try await station.count(tag: body.tag, quantity: body.quantity) }
        return try Self.json(try await task.value)
    }

    /// `POST /api/end`.
    func end(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let body = try await Self.decode(EndBody.self, from: request, context: context)
        let station = station
        let task = Task { try await station.end(auditID: body.auditId, force: body.force == true) }
        return try Self.json(SummaryAnswer(summary: try await task.value))
    }

    /// `GET /api/summary`.
    func summary(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let id = try Self.required("audit_id", in: request)
        return try Self.json(SummaryAnswer(summary: try await station.summary(auditID: id)))
    }

    /// `GET /api/details/{list}`.
    func details(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let name = context.parameters.get("list") ?? ""
        guard let list = AuditList(rawValue: name) else {
            throw KioskError.notFound("No list '\(name)': all, scanned, missing, unexpected or misplaced")
        }
        let id = try Self.required("audit_id", in: request)
        let query = ListQuery(
            search: try ListQuery.search(request.uri.queryParameters.get("search")),
            page: try Self.number("page", in: request, default: 1, range: 1...1_000_000),
            perPage: try Self.number("per_page", in: request, default: 20, range: 1...ListQuery.maxPerPage))
        let service = station.context.audit
        let page = try await station.fromServer { try await service.details(auditID: id, list: list, query: query) }
        let photos = list == .unexpected ? await station.photoScans(auditID: id, identifiers: page.items.map(\.identifier)) : [:]
        return try Self.json(
            ListAnswer(
                assets: page.items.map { ListEntry(asset: $0, photoScanId: photos[$0.identifier]) }, pagination: page.pagination))
    }

    /// `GET /api/progress`.
    func progress(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let id = try Identifier.normalize(try Self.required("audit_id", in: request), field: "audit_id")
        return try Self.json(try await station.context.audit.locationProgress(auditID: id))
    }

    /// `GET /api/photo`.
    func photo(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let id = try Identifier.normalize(try Self.required("audit_id", in: request), field: "audit_id")
        let scanID = try Identifier.normalize(try Self.required("scan_id", in: request), field: "scan_id")
        guard let photo = try await station.photo(scanID: scanID, auditID: id) else {
            throw KioskError.notFound("No photo is kept for scan \(scanID)")
        }
        return Response(
            status: .ok, headers: [.contentType: ScanPhoto.contentType, .cacheControl: "private, max-age=3600"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: photo.jpeg)))
    }

    /// `GET /api/report`.
    func download(_ request: Request, _ context: KioskRequestContext) async throws -> Response {
        let id = try Identifier.normalize(try Self.required("audit_id", in: request), field: "audit_id")
        let formatName = request.uri.queryParameters.get("format") ?? "csv"
        guard let format = ReportFormat(rawValue: formatName) else {
            throw KioskError.invalid("format: csv, json or pdf, not '\(formatName)'")
        }
        return try await report(auditID: id, format: format)
    }

    // MARK: streams

    private func events() -> Response {
        let (id, stream) = hub.subscribe()
        let station = station, hub = hub
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache, no-store",
                HTTPField.Name("X-Accel-Buffering")!: "no"
            ],
            body: ResponseBody { writer in
                defer { hub.unsubscribe(id) }
                let first = try JSONEncoder.auditStation().encode(await station.state())
                try await writer.write(EventHub.frame(event: "state", data: first))
                for await buffer in stream { try await writer.write(buffer) }
                try await writer.finish(nil)
            })
    }

    private func previewResponse() throws -> Response {
        guard let preview else {
            throw KioskError(status: .serviceUnavailable, code: .noCamera, message: "This kiosk runs without a camera")
        }
        guard preview.claim() else {
            throw KioskError(
                status: .serviceUnavailable, code: .tooManyViewers,
                message: "\(preview.maxViewers) pages already show the preview", headers: [.retryAfter: "5"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "multipart/x-mixed-replace; boundary=\(PreviewStream.boundary)", .cacheControl: "no-cache, no-store"],
            body: ResponseBody { writer in
                defer { preview.release() }
                try await preview.stream { try await writer.write($0) }
                try await writer.finish(nil)
            })
    }

    /// The report, spooled to a temporary file and streamed from it (`Response.spooled`), so a
    /// failure half-way answers an error and a large audit never sits in memory.
    private func report(auditID: String, format: ReportFormat) async throws -> Response {
        let audit = try await station.context.audit.audit(id: auditID)
        let service = station.context.audit
        return try await Response.spooled(
            contentType: format.contentType, fileName: ReportSummary.fileName(audit, format: format), spoolPrefix: "kiosk-report-"
        ) { output in
            // The PDF to sign is drawn here from the JSON report of the kiosk's audit service: the
            // station's own store, or the server for a connected kiosk (the same document either way).
            if format == .pdf {
                try await AuditReportPDF.write(auditID: auditID, service: service, to: output)
            } else {
                try await service.report(auditID: auditID, format: format, to: output)
            }
        }
    }

    // MARK: helpers

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder.auditStation().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func decode<Body: Decodable>(_ type: Body.Type, from request: Request, context: KioskRequestContext) async throws -> Body {
        let buffer = try await request.body.collect(upTo: maxBody)
        let data = Data(buffer: buffer)
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw KioskError.badRequest("The body is not a JSON object")
        }
        do {
            return try JSONDecoder.auditStation().decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw KioskError.invalid(error.plainDescription)
        }
    }

    static func required(_ name: String, in request: Request) throws -> String {
        guard let value = request.uri.queryParameters.get(name), !value.isEmpty else {
            throw KioskError.invalid("\(name) is required in the query")
        }
        return value
    }

    static func number(_ name: String, in request: Request, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw KioskError.invalid("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
