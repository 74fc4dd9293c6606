import Testing

extension SchemaCalls {
    /// Audit plans and the due list.
    func plans(_ token: String) async throws {
        let add = "POST /api/v1/audit/plans"
        let made = try await call(add, json: #"{"country":"sg","every_days":30,"assignee":"ana@example.com"}"#, token: token, expect: 201)
        let id = try #require((made.data?["plan"] as? [String: Any])?["id"] as? Int)
        try await call(add, json: #"{"country":"SG","every_days":30}"#, token: token, expect: 422)
        try await call(add, json: #"{"country":"SG""#, token: token, expect: 400)
        try await call("GET /api/v1/audit/plans", token: token, expect: 200)
        try await call("GET /api/v1/audit/due", "/api/v1/audit/due?within=30", token: token, expect: 200)
        try await call("GET /api/v1/audit/due", "/api/v1/audit/due?within=-1", token: token, expect: 422)
        try await call("DELETE /api/v1/audit/plans/{id}", "/api/v1/audit/plans/\(id)", token: token, expect: 200)
        try await call("DELETE /api/v1/audit/plans/{id}", "/api/v1/audit/plans/\(id)", token: token, expect: 404)
    }
}

extension SchemaCalls {
    /// Webhooks and their deliveries (the receiver is never called: nothing serves the outbox here).
    func webhooks(_ token: String) async throws {
        let add = "POST /api/v1/webhooks"
        let made = try await call(
            add, json: #"{"url":"http://127.0.0.1:9/hook","events":["audit.ended","audit.started"],"secret":"0123456789abcdef"}"#, token: token,
            expect: 201)
        let id = try #require((made.data?["webhook"] as? [String: Any])?["id"] as? Int)
        try await call(add, json: #"{"url":"ftp://x","events":["audit.lost"],"secret":"short"}"#, token: token, expect: 422)
        try await call("GET /api/v1/webhooks", token: token, expect: 200)
        try await call("GET /api/v1/webhooks/deliveries", token: token, expect: 200)
        try await call("GET /api/v1/webhooks/deliveries", "/api/v1/webhooks/deliveries?failed=true&limit=0", token: token, expect: 422)
        try await call("DELETE /api/v1/webhooks/{id}", "/api/v1/webhooks/\(id)", token: token, expect: 200)
        try await call("DELETE /api/v1/webhooks/{id}", "/api/v1/webhooks/\(id)", token: token, expect: 404)
    }
}
