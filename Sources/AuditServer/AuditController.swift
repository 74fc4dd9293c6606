import AuditAPI
import DocumentKit
import Foundation
import HTTPGuard
import Hummingbird
import InventoryCore
import Logging

/// The audit routes of `/api/v1/audit` over the store's audit service.
struct AuditController {
    let audits: any ServerAuditService
    let logger: Logger

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.auditStatus, on: router, signedIn: status)
        routes.add(.get, Routes.auditCountries, on: router, signedIn: countries)
        routes.add(.get, Routes.auditLocations, on: router, signedIn: locations)
        routes.add(.post, Routes.auditStart, on: router, signedIn: start)
        routes.add(.post, Routes.auditScan, on: router, signedIn: scan)
        routes.add(.post, Routes.auditScans, on: router, signedIn: scans)
        routes.add(.post, Routes.auditVoid, on: router, signedIn: void)
        routes.add(.post, Routes.auditEnd, on: router, signedIn: end)
        routes.add(.get, Routes.auditDetails, on: router, signedIn: details)
        routes.add(.get, Routes.auditHistory, on: router, signedIn: history)
        routes.add(.get, Routes.auditOne, on: router, signedIn: one)
        routes.add(.get, Routes.auditSnapshot, on: router, signedIn: snapshot)
        routes.add(.get, Routes.auditSummary, on: router, signedIn: summary)
        routes.add(.get, Routes.auditTrail, on: router, signedIn: trail)
        routes.add(.get, Routes.auditPhoto, on: router, signedIn: photo)
        routes.add(.post, Routes.auditPhotoFind, on: router, signedIn: photoScans)
        routes.add(.put, Routes.auditPhoto, on: router, signedIn: attachPhoto)
        routes.add(.post, Routes.auditReconcile, on: router, signedIn: reconcile)
        routes.add(.post, Routes.auditStations, on: router, signedIn: stationReport)
        routes.add(.get, Routes.auditStations, on: router, signedIn: stations)
        routes.add(.get, Routes.auditReport, on: router, signedIn: report)
        addAccessoryRoutes(to: routes, on: router)
    }

    /// `GET /api/v1/audit/status`.
    func status(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let country = try request.query("country").map { try Country.normalize($0) }
        if let country { try user.requireViewing(country) }
        let running = try await audits.activeAudits().filter { user.mayAudit($0.country) }
        let audit = country.map { code in running.first { $0.country == code } } ?? running.first
        return try Response.envelope(StatusResponse(audit: audit, audits: running))
    }

    /// `GET /api/v1/audit/countries`.
    func countries(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var countries = try await audits.countries().filter { user.mayAudit($0.country) }
        // A country the user may audit is listed even while it has no assets.
        for code in user.auditableCountries ?? [] where !countries.contains(where: { $0.country == code }) {
            countries.append(CountryCount(country: code, expectedAssets: 0))
        }
        return try Response.envelope(CountriesResponse(countries: countries.sorted { $0.country < $1.country }))
    }

    /// `GET /api/v1/audit/locations`.
    func locations(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        guard let given = request.query("country") else {
            throw InventoryError.invalid(ValidationError(field: "country", message: "is required: the country whose locations to list"))
        }
        let country = try Country.normalize(given)
        try user.requireViewing(country)
        return try Response.envelope(LocationsResponse(country: country, locations: try await audits.locations(country: country)))
    }

    /// `POST /api/v1/audit/start`.
    func start(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(StartRequest.self)
        let country = try Country.normalize(body.country)
        try user.requireAuditing(country)
        let audit = try await audits.start(country: country, locations: body.locations ?? [], by: Actor(user: user.name, station: "api"))
        return try Response.envelope(AuditResponse(audit: audit), status: .created, message: "Audit of \(country) started")
    }

    /// `POST /api/v1/audit/scan`.
    func scan(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        var scan = try await request.decodeJSON(ScanRequest.self)
        if let auditID = scan.auditId, !auditID.isEmpty {
            try user.requireAuditing(try await audits.country(ofAudit: auditID))
        } else {
            let audit = try await resolve(auditID: nil, country: nil, user: user)
            try user.requireAuditing(audit.country)
            scan.auditId = audit.id
        }
        scan.user = user.name
        let result = Self.readable(try await audits.record(scan), by: user)
        // A station sends one scan alone only when nothing else waits (else it sends a batch);
        // it does not say so, so its waiting count is not known.
        await heard(station: scan.deviceName, waiting: nil, audits: [result.auditId], user: user)
        return try Response.envelope(result, message: result.message)
    }

    /// `POST /api/v1/audit/scans`.
    func scans(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(BatchScanRequest.self, limit: BodyLimits.batch)
        guard body.scans.count <= BatchScanRequest.limit else {
            throw InventoryError.invalid(
                ValidationError(field: "scans", message: "at most \(BatchScanRequest.limit) scans a call, not \(body.scans.count)"))
        }
        let (results, audited) = try await recordBatch(body.scans, clock: body.stationClock, user: user)
        await heard(body, audits: audited, user: user)
        return try Response.envelope(BatchScanResponse(results: results), message: "\(results.count) scans answered")
    }

    /// `POST /api/v1/audit/scans/{scan_id}/void`.
    func void(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let scanID = context.parameters.get("scan_id") ?? ""
        var void = try await request.decodeJSON(VoidRequest.self, emptyIsObject: true)
        void.scanId = scanID
        void.user = user.name
        guard let audit = try await audits.audit(ofScan: scanID) else { throw InventoryError.notFound("scan \(scanID)") }
        try user.requireAuditing(audit.country)
        let result = try await audits.void(void)
        return try Response.envelope(result, message: result.message)
    }

    /// `POST /api/v1/audit/end`.
    func end(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        // Every field of /end is optional, so no body at all ends the only running audit.
        let body = try await request.decodeJSON(EndRequest.self, emptyIsObject: true)
        let audit = try await resolve(auditID: body.auditId, country: nil, user: user)
        try user.requireAuditing(audit.country)
        if body.force != true, audit.isActive {
            let now = Date()
            let out = try await audits.stations(auditID: audit.id).filter { $0.isOut(now: now) }
            if !out.isEmpty { throw InventoryError.stationsOut(auditID: audit.id, stations: out.map { $0.sentence(now: now) }) }
        }
        let summary = try await audits.end(auditID: audit.id, by: Actor(user: user.name, station: "api"))
        return try Response.envelope(EndResponse(summary: summary), message: "Audit of \(audit.country) ended")
    }

    /// `GET /api/v1/audit/details/{list}`.
    func details(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        guard let list = context.parameters.get("list").flatMap(AuditList.init(rawValue:)) else {
            throw InventoryError.notFound("list '\(context.parameters.get("list") ?? "")': use all, scanned, missing, unexpected or misplaced")
        }
        let audit = try await resolve(auditID: request.query("audit_id"), country: request.query("country"), user: user)
        try user.requireViewing(audit.country)
        var page = try await audits.details(auditID: audit.id, list: list, query: try request.listQuery())
        page.items = page.items.map { $0.isUnreadable(by: user.maySeeAssets(of:)) ? $0.withheld() : $0 }
        return try Response.envelope(ListResponse(page, key: "assets"))
    }

    /// `GET /api/v1/audit/history`.
    func history(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let country = try request.query("country").map { try Country.normalize($0) }
        if let country { try user.requireViewing(country) }
        let page = try await audits.history(
            try request.historyFilter(country: country), within: user.auditableCountries, query: try request.listQuery())
        return try Response.envelope(ListResponse(page, key: "audits"))
    }

    /// `GET /api/v1/audit/{audit_id}`.
    func one(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        return try Response.envelope(AuditResponse(audit: audit))
    }

    /// The audit's expected set and unexpected entries for a station's copy, streamed as
    /// NDJSON (the lines are described in `SnapshotLines`), read a page at a time.
    func snapshot(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        return snapshotStream(audit)
    }

    /// The per-location, per-station, per-user and per-hour numbers, without the rows.
    func summary(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        return try Response.envelope(try await audits.breakdown(auditID: audit.id))
    }

    /// `GET /api/v1/audit/{audit_id}/scans`.
    func trail(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        let page = try await audits.scans(auditID: audit.id, query: try request.listQuery())
        return try Response.envelope(ListResponse(page, key: "scans"))
    }

    /// `GET /api/v1/audit/{audit_id}/scans/{scan_id}/photo`.
    func photo(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        let scanID = context.parameters.get("scan_id") ?? ""
        guard let photo = try await audits.photo(scanID: scanID, auditID: audit.id) else {
            throw InventoryError.notFound("photo of scan \(scanID): the scan has none")
        }
        return Response(
            status: .ok, headers: [.contentType: ScanPhoto.contentType, .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: photo.jpeg)))
    }

    /// `POST /api/v1/audit/{audit_id}/photos/find`.
    func photoScans(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(PhotoFindRequest.self)
        guard (1...PhotoFindRequest.limit).contains(body.identifiers.count) else {
            throw InventoryError.invalid(ValidationError(field: "identifiers", message: "from 1 to \(PhotoFindRequest.limit) identifiers"))
        }
        let audit = try await viewable(context, user)
        let found = try await audits.photoScans(auditID: audit.id, identifiers: body.identifiers)
        return try Response.envelope(PhotoFindResponse(photoScans: found))
    }

    /// `PUT /api/v1/audit/{audit_id}/scans/{scan_id}/photo`.
    func attachPhoto(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let audit = try await audits.audit(id: context.parameters.get("audit_id") ?? "")
        try user.requireAuditing(audit.country)
        // Evidence is taken while the audit runs, by whoever made the scan.
        guard audit.isActive else { throw InventoryError.auditEnded(audit.id) }
        var photo = try await request.scanPhoto(scanID: context.parameters.get("scan_id") ?? "")
        photo.attachedBy = user.name
        try await audits.attachPhoto(photo, auditID: audit.id)
        return try Response.envelope(PhotoStored(scanId: photo.scanId, bytes: photo.jpeg.count), message: "Photo of scan \(photo.scanId) stored")
    }

    /// Reconciling changes assets, so it needs the asset-editing permission and the
    /// audit's country; the body is checked before the audit is looked up.
    func reconcile(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(ReconcileBody.self, emptyIsObject: true)
        let audit = try await viewable(context, user)
        try user.requireAssetEditing()
        try user.requireAssetCountry(audit.country)
        // Only the assets of countries the user may change are changed (an unexpected asset
        // of another country is left alone and listed as skipped).
        let result = try await audits.reconcile(
            ReconcileRequest(
                auditId: audit.id, actions: body.actions, preview: body.preview ?? false, user: user.name,
                countries: user.auditableCountries.map { $0.sorted() }))
        return try Response.envelope(result, message: result.message)
    }

    /// A station reports on itself while it works on an audit; the answer tells it the audit's
    /// state, its end included.
    func stationReport(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        let body = try await request.decodeJSON(StationReportBody.self)
        let audit = try await viewable(context, user)
        try user.requireAuditing(audit.country)
        let station = try checkedStation(body.deviceName)
        try checkedWaiting(body.waiting)
        try await audits.heard(StationReport(auditID: audit.id, station: station, user: user.name, waiting: body.waiting))
        return try Response.envelope(AuditStationsResponse(audit: audit, stations: try await audits.stations(auditID: audit.id)))
    }

    /// `GET /api/v1/audit/{audit_id}/stations`.
    func stations(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        return try Response.envelope(AuditStationsResponse(audit: audit, stations: try await audits.stations(auditID: audit.id)))
    }

    /// `GET /api/v1/audit/{audit_id}/report`.
    func report(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        let formatText = request.query("format") ?? "json"
        guard let format = ReportFormat(rawValue: formatText.lowercased()) else {
            throw InventoryError.invalid(ValidationError(field: "format", message: "'\(formatText.prefix(20))' is not csv, json or pdf"))
        }
        // The PDF lists at most 500 missing assets a location unless `full=true`.
        let full = try request.boolQuery("full") ?? false
        return try await Response.spooled(contentType: format.contentType, fileName: ReportSummary.fileName(audit, format: format)) { output in
            if format == .pdf {
                try await AuditReportPDF.write(auditID: audit.id, service: audits, full: full, to: output)
            } else {
                try await audits.report(auditID: audit.id, format: format, to: output)
            }
        }
    }

    /// A scan's answer as `user` may read it: an asset of a country they may not read shows
    /// only its tag and `other_country` (`ScanResult.withheld`).
    static func readable(_ result: ScanResult, by user: UserInfo) -> ScanResult {
        result.isUnreadable(by: user.maySeeAssets(of:)) ? result.withheld() : result
    }

    /// A station's name as a report gives it: checked like every free text.
    private func checkedStation(_ name: String) throws -> String {
        do {
            guard let station = try FreeText.normalize(name, field: "device_name") else {
                throw ValidationError(field: "device_name", message: "is required: the station's name")
            }
            return station
        } catch let error as ValidationError {
            throw InventoryError.invalid(error)
        }
    }

    private func checkedWaiting(_ waiting: Int?) throws {
        guard let waiting, !(0...10_000_000).contains(waiting) else { return }
        throw InventoryError.invalid(ValidationError(field: "waiting", message: "\(waiting) is not a count of waiting scans (0 to 10,000,000)"))
    }

    /// What a batch says of its station, kept for each audit it sent scans of (`AuditStation`).
    /// The station is the batch's `device_name`, else its scans'. Only the scans' answers
    /// matter to the station: a report that cannot be kept is logged, and the batch answered.
    private func heard(_ body: BatchScanRequest, audits: Set<AuditID>, user: UserInfo) async {
        await heard(station: body.deviceName ?? body.scans.lazy.compactMap(\.deviceName).first, waiting: body.waiting, audits: audits, user: user)
    }

    private func heard(station name: String?, waiting: Int?, audits: Set<AuditID>, user: UserInfo) async {
        guard let name, let station = try? checkedStation(name), (try? checkedWaiting(waiting)) != nil else { return }
        for auditID in audits.sorted() {
            do {
                try await self.audits.heard(StationReport(auditID: auditID, station: station, user: user.name, waiting: waiting))
            } catch {
                logger.debug("station report of \(station) on audit \(auditID) not kept: \(error)")
            }
        }
    }

    /// Checks each scan's audit for the user as `/scan` does (an audit named once is checked
    /// once), then stores the allowed ones in one transaction. With the station's `clock`, each
    /// scan's time is first put on the server's clock (`LateScans.correctedTime`). Also returns
    /// the audits the user may scan into that the batch named.
    private func recordBatch(_ scans: [ScanRequest], clock: Date?, user: UserInfo) async throws -> ([BatchScanItem], Set<AuditID>) {
        let receivedAt = Date()
        var answers = [BatchScanItem?](repeating: nil, count: scans.count)
        var allowed: [(index: Int, scan: ScanRequest)] = []
        var checked: [String: Result<AuditSession, InventoryError>] = [:]
        for (index, scan) in scans.enumerated() {
            let key = scan.auditId ?? ""
            if checked[key] == nil {
                do {
                    let audit = try await resolve(auditID: scan.auditId, country: nil, user: user)
                    try user.requireAuditing(audit.country)
                    checked[key] = .success(audit)
                } catch {
                    checked[key] = .failure(InventoryError(error) ?? .storage("\(error)"))
                }
                if case .failure(let error)? = checked[key] {
                    checked[key] = .failure(ErrorMiddleware<AuditRequestContext>.clientFacing(error, path: Routes.auditScans, logger: logger))
                }
            }
            switch checked[key] {
            case .success(let audit)?:
                var scan = scan
                scan.auditId = audit.id
                scan.user = user.name
                if let clock, let scannedAt = scan.scannedAt {
                    scan.scannedAt = LateScans.correctedTime(scannedAt, stationClock: clock, serverNow: receivedAt)
                }
                allowed.append((index, scan))
            case .failure(let error)?:
                answers[index] = BatchScanItem(scanId: scan.scanId, failure: FailureEnvelope(error), status: error.httpStatus)
            case nil:
                break
            }
        }
        let outcomes = try await audits.record(batch: allowed.map(\.scan))
        for (item, outcome) in zip(allowed, outcomes) {
            switch outcome {
            case .success(let result): answers[item.index] = BatchScanItem(scanId: result.scanId, result: Self.readable(result, by: user))
            case .failure(let error):
                let told = ErrorMiddleware<AuditRequestContext>.clientFacing(error, path: Routes.auditScans, logger: logger)
                answers[item.index] = BatchScanItem(scanId: item.scan.scanId, failure: FailureEnvelope(told), status: told.httpStatus)
            }
        }
        return (answers.compactMap { $0 }, Set(allowed.compactMap(\.scan.auditId)))
    }

    /// The audit of the `{audit_id}` path parameter, if the user may see it.
    func viewable(_ context: AuditRequestContext, _ user: UserInfo) async throws -> AuditSession {
        let audit = try await audits.audit(id: context.parameters.get("audit_id") ?? "")
        try user.requireViewing(audit.country)
        return audit
    }

    /// The audit a call acts on: the one named, else the running one of `country`, else the only
    /// running audit among the user's countries.
    func resolve(auditID: AuditID?, country: String?, user: UserInfo) async throws -> AuditSession {
        if let auditID, !auditID.isEmpty { return try await audits.audit(id: auditID) }
        let running = try await audits.activeAudits().filter { user.mayAudit($0.country) }
        return try AuditSession.onlyRunning(among: running, country: country)
    }
}
