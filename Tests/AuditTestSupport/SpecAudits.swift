import Foundation

/// The audits of the SPEC-only server, in memory: the rules of SPEC "Audit rules" and the
/// answers of SPEC's audit calls in the shapes of seed 004 (no `missing_count` in a scan's
/// progress, `started_by` a user id, no first scan or ids in a scan answer) and nothing more.
public actor SpecAudits {
    struct Asset {
        var id: Int
        var tag: String
        var serial: String
        var name: String
        var country: String
        var status: String
    }
    struct Audit {
        var id: String
        var country: String
        var expected: [Int]
        var startedAt: Date
        var endedAt: Date?
        var scanned: [Int: Date] = [:]
        /// key → (asset id, identifier, reason), in the order first scanned.
        var unexpected: [(key: String, asset: Int?, identifier: String, reason: String)] = []
    }

    public init() {}

    private(set) var assets: [Asset] = []
    private var audits: [Audit] = []
    /// Answers by scan_id: a resent scan gets the first answer and is not stored again.
    private var answers: [String: [String: Any]] = [:]
    /// Every scan stored, with its scan_id (nil when the client sent none).
    public private(set) var stored: [String?] = []
    /// Tokens handed out by login and not logged out.
    var tokens: Set<String> = []
    /// "METHOD /route" of every call the server answered, in order.
    public var calls: [String] = []
    /// Identifiers this server refuses (422), as a server with a stricter rule for tags would.
    public var refusedIdentifiers: Set<String> = []

    public func refuseScans(of identifier: String) { refusedIdentifiers.insert(identifier) }

    /// Whether a repeated `scan_id` is the same scan. The seeds' API has no `scan_id`: a server
    /// written from them alone stores every scan it is sent (`ignoreScanIDs()`).
    private var knowsScanIDs = true

    public func ignoreScanIDs() { knowsScanIDs = false }

    public func add(tag: String, country: String, status: String = "IN_STOCK") {
        assets.append(Asset(id: assets.count + 1, tag: tag, serial: "SN-\(tag)", name: "Laptop \(tag)", country: country, status: status))
    }

    var running: [Audit] { audits.filter { $0.endedAt == nil } }

    func session(_ audit: Audit) -> [String: Any] {
        let total = audit.expected.count, scanned = audit.scanned.count
        return [
            "id": audit.id, "country": audit.country, "total_assets": total, "scanned_count": scanned,
            "missing_count": total - scanned, "unexpected_count": audit.unexpected.count,
            "completion_percentage": total == 0 ? 100.0 : Double(scanned * 10_000 / total) / 100,
            "started_at": ISO8601DateFormatter().string(from: audit.startedAt), "started_by": 7,
            "ended_at": audit.endedAt.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull(),
            "is_active": audit.endedAt == nil, "links": ["self": "/api/v1/audit/status"]
        ]
    }

    func status(country: String?) -> [String: Any] {
        let audit = running.first { country == nil || $0.country == country?.uppercased() }
        return ["active": audit != nil, "audit": audit.map(session) ?? NSNull()]
    }

    func countries() -> [[String: Any]] {
        Set(assets.map(\.country)).sorted().map { code in
            ["country": code, "expected_assets": assets.filter { $0.country == code && !Self.retired($0.status) }.count]
        }
    }

    func start(country: String) throws(SpecFailure) -> [String: Any] {
        let code = country.uppercased()
        guard code.count == 2 else { throw SpecFailure(422, "VALIDATION_ERROR", "country must be a two-letter code") }
        if running.contains(where: { $0.country == code }) { throw SpecFailure(409, "AUDIT_ALREADY_ACTIVE", "An audit of \(code) is running") }
        let expected = assets.filter { $0.country == code && !Self.retired($0.status) }.map(\.id)
        audits.append(Audit(id: UUID().uuidString.lowercased(), country: code, expected: expected, startedAt: Date()))
        return ["audit": session(audits[audits.count - 1])]
    }

    func end(auditID: String?) throws(SpecFailure) -> [String: Any] {
        let index = try find(auditID)
        audits[index].endedAt = Date()
        let numbers = session(audits[index])
        return ["audit": numbers, "summary": numbers.filter { $0.key.hasSuffix("count") || $0.key == "total_assets" }]
    }

    func scan(identifier raw: String, auditID: String?, scanID sent: String?) throws(SpecFailure) -> [String: Any] {
        let scanID = knowsScanIDs ? sent : nil
        if let scanID, let answer = answers[scanID] { return answer }
        let index = try find(auditID)
        let identifier = raw.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        guard !identifier.isEmpty else { throw SpecFailure(422, "VALIDATION_ERROR", "identifier is required") }
        guard !refusedIdentifiers.contains(identifier) else {
            throw SpecFailure(422, "VALIDATION_ERROR", "identifier is not a tag this server takes")
        }
        var audit = audits[index]
        let match = assets.first { $0.tag == identifier } ?? assets.first { $0.serial == identifier }
        var status: String, message: String
        if let asset = match, audit.expected.contains(asset.id) {
            status = audit.scanned[asset.id] == nil ? "found_expected" : "already_scanned"
            if audit.scanned[asset.id] == nil { audit.scanned[asset.id] = Date() }
            message = status == "found_expected" ? "Found \(asset.tag)" : "Already scanned: \(asset.tag)"
        } else {
            let key = match.map { "asset:\($0.id)" } ?? "id:\(identifier)"
            let reason =
                match.map { $0.country != audit.country ? "other_country" : Self.retired($0.status) ? $0.status.lowercased() : "not_in_expected_set" }
                ?? "unknown"
            if !audit.unexpected.contains(where: { $0.key == key }) {
                audit.unexpected.append((key, match?.id, identifier, reason))
            }
            status = match == nil ? "unknown" : "unexpected"
            message = match == nil ? "Unknown identifier \(identifier)" : "Unexpected: \(identifier) (\(reason))"
        }
        audits[index] = audit
        stored.append(scanID)
        let numbers = session(audit)
        let answer: [String: Any] = [
            "status": status, "message": message, "asset": match.map(Self.brief) ?? NSNull(),
            "progress": [
                "total_assets": numbers["total_assets"]!, "scanned_count": numbers["scanned_count"]!,
                "unexpected_count": numbers["unexpected_count"]!, "completion_percentage": numbers["completion_percentage"]!
            ]
        ]
        if let scanID { answers[scanID] = answer }
        return answer
    }

    /// `GET /details/{list}` of the running audit (the first one, as SPEC names none).
    func details(_ list: String, search: String?, page: Int, perPage: Int) throws(SpecFailure) -> [String: Any] {
        guard let audit = running.first ?? audits.last else { throw SpecFailure(404, "NO_ACTIVE_AUDIT", "No audit is running") }
        var entries: [[String: Any]]
        let expected = audit.expected.map { id in assets[id - 1] }
        switch list {
        case "all": entries = expected.map(Self.brief)
        case "scanned": entries = expected.filter { audit.scanned[$0.id] != nil }.map(Self.brief)
        case "missing": entries = expected.filter { audit.scanned[$0.id] == nil }.map(Self.brief)
        case "unexpected":
            entries = audit.unexpected.map { entry in
                var fields = entry.asset.map { Self.brief(assets[$0 - 1]) } ?? Self.nullAsset
                fields["identifier"] = entry.identifier
                fields["reason"] = entry.reason
                return fields
            }
        default: throw SpecFailure(404, "NOT_FOUND", "No list \(list)")
        }
        if let search { entries = entries.filter { "\($0)".contains(search) } }
        let pages = max(1, (entries.count + perPage - 1) / perPage)
        let slice = Array(entries.dropFirst((page - 1) * perPage).prefix(perPage))
        return ["assets": slice, "pagination": ["page": page, "per_page": perPage, "total": entries.count, "last_page": pages]]
    }

    func history(country: String?) -> [String: Any] {
        let list = audits.filter { country == nil || $0.country == country?.uppercased() }.map(session)
        return ["audits": list, "pagination": ["page": 1, "per_page": 20, "total": list.count, "last_page": 1]]
    }

    private func find(_ auditID: String?) throws(SpecFailure) -> Int {
        if let auditID {
            guard let index = audits.firstIndex(where: { $0.id == auditID }) else { throw SpecFailure(404, "NOT_FOUND", "No audit \(auditID)") }
            guard audits[index].endedAt == nil else { throw SpecFailure(409, "AUDIT_ENDED", "The audit has ended") }
            return index
        }
        guard let index = audits.firstIndex(where: { $0.endedAt == nil }) else { throw SpecFailure(404, "NO_ACTIVE_AUDIT", "No audit is running") }
        return index
    }

    static func retired(_ status: String) -> Bool { status == "ARCHIVED" || status == "DISPOSED" }

    static func brief(_ asset: Asset) -> [String: Any] {
        [
            "id": asset.id, "asset_tag": asset.tag, "serial_num": asset.serial, "name": asset.name, "model": NSNull(),
            "status": asset.status, "location": NSNull(), "company": NSNull()
        ]
    }

    static var nullAsset: [String: Any] {
        [
            "id": NSNull(), "asset_tag": NSNull(), "serial_num": NSNull(), "name": NSNull(),
            "model": NSNull(), "status": NSNull(), "location": NSNull(), "company": NSNull()
        ]
    }
}

/// A refusal in SPEC's failure envelope.
struct SpecFailure: Error {
    var status: Int
    var code: String
    var message: String
    init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}
