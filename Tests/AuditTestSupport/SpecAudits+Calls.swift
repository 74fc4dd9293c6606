import Foundation

/// One call to the SPEC-only server: the route it matched and what came with it.
struct SpecCall: Sendable {
    var method: String
    var route: String
    var list: String?
    var query: [String: String]
    var body: Data
    var token: String?
}

/// The calls of SPEC "The audit API" under `/api/v1/audit` and login, strict about what they
/// take: a body field or query parameter SPEC does not define is refused (422 and 400), so a
/// client that sends more than SPEC fails here.
extension SpecAudits {
    public static let password = "secret-pass"

    func handle(_ call: SpecCall) -> (status: Int, body: Data) {
        calls.append("\(call.method) \(call.route)")
        do {
            return (200, try answer(call))
        } catch {
            let body: [String: Any] = ["success": false, "error": error.code, "message": error.message]
            return (error.status, Self.data(body))
        }
    }

    private func answer(_ call: SpecCall) throws(SpecFailure) -> Data {
        let body = try Self.fields(call.body, allowed: Self.bodyFields[call.route] ?? [])
        let allowedQuery = Self.queryNames[call.route] ?? []
        if let extra = call.query.keys.first(where: { !allowedQuery.contains($0) }) {
            throw SpecFailure(400, "BAD_REQUEST", "\(call.route) takes no query parameter \(extra)")
        }
        if call.route == "/api/v1/auth/login" { return Self.data(try login(body)) }
        guard let token = call.token, tokens.contains(token) else { throw SpecFailure(401, "UNAUTHORIZED", "Unauthenticated.") }
        let data: Any
        switch call.route {
        case "/api/v1/auth/logout":
            tokens.remove(token)
            data = [String: Any]()
        case "/api/v1/audit/status": data = status(country: call.query["country"])
        case "/api/v1/audit/countries": data = countries()
        case "/api/v1/audit/start": data = try start(country: body["country"] as? String ?? "")
        case "/api/v1/audit/end": data = try end(auditID: body["audit_id"] as? String)
        case "/api/v1/audit/scan":
            guard let identifier = body["identifier"] as? String else { throw SpecFailure(422, "VALIDATION_ERROR", "identifier is required") }
            data = try scan(identifier: identifier, auditID: body["audit_id"] as? String, scanID: body["scan_id"] as? String)
        case "/api/v1/audit/details/{list}":
            let page = Int(call.query["page"] ?? "1") ?? 1, perPage = min(100, Int(call.query["per_page"] ?? "20") ?? 20)
            data = try details(call.list ?? "", search: call.query["search"], page: max(1, page), perPage: max(1, perPage))
        case "/api/v1/audit/history": data = history(country: call.query["country"])
        default: throw SpecFailure(404, "NOT_FOUND", "No such call")
        }
        return Self.data(["success": true, "data": data, "message": "OK"])
    }

    /// Seed 000's answer: bare, no `expires_at`, a Sanctum-style token, a user_type SPEC does
    /// not list, and abilities by resource.
    private func login(_ body: [String: Any]) throws(SpecFailure) -> [String: Any] {
        guard let email = body["email"] as? String, let password = body["password"] as? String, body["device_name"] is String else {
            throw SpecFailure(422, "VALIDATION_ERROR", "email, password and device_name are required")
        }
        guard password == Self.password else { throw SpecFailure(401, "UNAUTHORIZED", "These credentials do not match our records.") }
        let token = "\(tokens.count + 1)|\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
        tokens.insert(token)
        return [
            "token": token, "token_type": "Bearer",
            "user": ["id": 5, "name": "Jane Technician", "email": email, "user_type": "standard"],
            "abilities": ["audit": ["list", "view", "start", "scan", "end"], "assets": ["list", "view"]]
        ]
    }

    static let bodyFields: [String: Set<String>] = [
        "/api/v1/auth/login": ["email", "password", "device_name"],
        "/api/v1/audit/start": ["country"],
        "/api/v1/audit/scan": ["identifier", "audit_id", "scan_id", "source", "scanned_at", "device_name"],
        "/api/v1/audit/end": ["audit_id"]
    ]

    static let queryNames: [String: Set<String>] = [
        "/api/v1/audit/status": ["country"],
        "/api/v1/audit/details/{list}": ["search", "page", "per_page"],
        "/api/v1/audit/history": ["country", "page", "per_page"]
    ]

    static func fields(_ body: Data, allowed: Set<String>) throws(SpecFailure) -> [String: Any] {
        if body.isEmpty { return [:] }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw SpecFailure(400, "BAD_REQUEST", "The body is not a JSON object")
        }
        if let extra = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw SpecFailure(422, "VALIDATION_ERROR", "\(extra) is not a field of this call")
        }
        return object
    }

    static func data(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
