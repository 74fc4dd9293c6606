import AuditTestSupport
@testable import AuditServer
import Foundation
import InventoryCore
import InventoryStore
import Testing

@Suite("Login, tokens and the API key")
struct AuthTests {
    @Test(arguments: Backend.allCases) func loginReturnsABearerTokenTheUserAndAbilities(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            _ = try await server.parts.users.create(
                email: "ann@example.com", password: "correct horse", name: "Ann", type: .staff,
                countries: ["sg"], canEditAssets: false)
            let answer = try await server.call(
                "POST", "/api/v1/auth/login", json: #"{"email":"ann@example.com","password":"correct horse","device_name":"kiosk 1"}"#)
            #expect(answer.status == 200)
            #expect(answer.body["success"] as? Bool == true)
            let data = try #require(answer.data)
            #expect(data["token_type"] as? String == "Bearer")
            let token = try #require(data["token"] as? String)
            #expect(token.split(separator: ".").count == 3)
            let user = try #require(data["user"] as? [String: Any])
            #expect(user["user_type"] as? String == "STAFF")
            #expect(user["countries"] as? [String] == ["SG"])
            let abilities = try #require(data["abilities"] as? [String: [String]])
            #expect(abilities["assets"] == ["list", "view"])
            let expires = try #require((data["expires_at"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(expires.timeIntervalSinceNow - 30 * 24 * 3600) < 120)
            let me = try await server.call("GET", "/api/v1/auth/me", token: token)
            #expect(me.status == 200 && me.data?["email"] as? String == "ann@example.com")
        }
    }

    @Test(arguments: Backend.allCases) func aWrongPasswordOrUnknownEmailIs401WithTheEnvelope(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            _ = try await server.user("bob@example.com")
            for body in [
                #"{"email":"bob@example.com","password":"wrong-pass","device_name":"x"}"#,
                #"{"email":"nobody@example.com","password":"secret-pass","device_name":"x"}"#
            ] {
                let answer = try await server.call("POST", "/api/v1/auth/login", json: body)
                #expect(answer.status == 401)
                #expect(answer.body["success"] as? Bool == false)
                #expect(answer.error == "UNAUTHORIZED")
                #expect(answer.body["message"] as? String == "Wrong email or password")
            }
        }
    }

    @Test(arguments: Backend.allCases) func callsWithoutAValidTokenAre401(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("carl@example.com")
            #expect(try await server.call("GET", "/api/v1/audit/status").status == 401)
            #expect(try await server.call("GET", "/api/v1/audit/status", token: "not.a.token").status == 401)
            var tampered = Array(token)
            tampered[tampered.count - 3] = tampered[tampered.count - 3] == "A" ? "B" : "A"
            #expect(try await server.call("GET", "/api/v1/audit/status", token: String(tampered)).status == 401)
            #expect(try await server.call("GET", "/api/v1/audit/status", token: token).status == 200)
        }
    }

    @Test(arguments: Backend.allCases) func logoutRevokesTheToken(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("dora@example.com")
            #expect(try await server.call("POST", "/api/v1/auth/logout", token: token).status == 200)
            let after = try await server.call("GET", "/api/v1/auth/me", token: token)
            #expect(after.status == 401)
            #expect((after.body["message"] as? String)?.contains("log in again") == true)
        }
    }

    @Test(arguments: Backend.allCases) func aServerWithAnAPIKeyRefusesCallsWithoutIt(backend: Backend) async throws {
        try await TestServer.routes(backend, apiKey: "k-123") { server in
            _ = try await server.parts.users.create(email: "eve@example.com", password: "secret-pass", name: "Eve", type: .admin)
            let login = #"{"email":"eve@example.com","password":"secret-pass","device_name":"x"}"#
            let without = try await server.call("POST", "/api/v1/auth/login", json: login)
            #expect(without.status == 401 && without.error == "UNAUTHORIZED")
            #expect(try await server.call("POST", "/api/v1/auth/login", json: login, headers: ["X-API-Key": "wrong"]).status == 401)
            let with = try await server.call("POST", "/api/v1/auth/login", json: login, headers: ["X-API-Key": "k-123"])
            #expect(with.status == 200)
            #expect(try await server.call("GET", "/health").status == 200)
        }
    }

    @Test("/health says the database is reachable, and answers 503 UNAVAILABLE when it is not")
    func healthReportsTheDatabase() async throws {
        let settings = ServerSettings(host: "127.0.0.1", port: 0)
        var backend = ServerBackend.sqlite(try AppDatabase(path: TestServer.temporaryPath()))
        let reachable = try await TestServer.with(
            parts: try await ServerParts(backend: backend, settings: settings, bcryptCost: 4),
            settings: settings
        ) { try await $0.call("GET", "/health") }
        #expect(reachable.status == 200 && reachable.data?["database"] as? String == "reachable", "\(reachable.text)")
        backend.ping = { throw InventoryError.storage("connection refused") }
        let down = try await TestServer.with(
            parts: try await ServerParts(backend: backend, settings: settings, bcryptCost: 4),
            settings: settings
        ) { try await $0.call("GET", "/health") }
        #expect(down.status == 503 && down.error == "UNAVAILABLE", "\(down.text)")
        #expect(!down.text.contains("connection refused"), "the cause is logged, not told")
    }

    @Test("Guessed passwords are limited per account with 429 and Retry-After; other accounts and calls go on", arguments: Backend.allCases)
    func guessingIsLimited(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            _ = try await server.parts.users.create(email: "gus@example.com", password: "secret-pass", name: "Gus", type: .staff)
            _ = try await server.parts.users.create(email: "ida@example.com", password: "secret-pass", name: "Ida", type: .staff)
            func login(_ email: String, _ password: String) async throws -> TestServer.Answer {
                try await server.call("POST", "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(password)","device_name":"t"}"#)
            }
            for _ in 0..<5 { #expect(try await login("gus@example.com", "wrong-guess").status == 401) }
            let locked = try await login("GUS@example.com", "secret-pass")
            #expect(locked.status == 429 && locked.error == "TOO_MANY_ATTEMPTS", "\(locked.text)")
            let retry = try await server.call("POST", "/api/v1/auth/login", json: #"{"email":"gus@example.com","password":"x","device_name":"t"}"#)
            #expect(retry.status == 429)
            #expect(try await login("ida@example.com", "secret-pass").status == 200, "another account is not locked")
            #expect(try await server.call("GET", "/health").status == 200)
        }
    }

    @Test func theThrottleLocksAnAddressAfterManyAccountsAndDoublesItsWait() {
        let throttle = LoginThrottle()
        let start = Date()
        for index in 0..<50 { _ = throttle.reserve(email: "user\(index)@example.com", address: "10.0.0.7", now: start) }
        #expect(throttle.wait(email: "new@example.com", address: "10.0.0.7", now: start) == 60)
        #expect(throttle.wait(email: "new@example.com", address: "10.0.0.8", now: start) == nil)
        #expect(throttle.wait(email: "new@example.com", address: "10.0.0.7", now: start.addingTimeInterval(61)) == nil)
        for _ in 0..<5 { _ = throttle.reserve(email: "a@example.com", address: nil, now: start) }
        for _ in 0..<5 { _ = throttle.reserve(email: "a@example.com", address: nil, now: start.addingTimeInterval(31)) }
        #expect(throttle.wait(email: "a@example.com", address: nil, now: start.addingTimeInterval(31)) == 60, "the second lockout is twice as long")
        throttle.succeeded(email: "a@example.com", address: nil)
        #expect(throttle.wait(email: "a@example.com", address: nil, now: start.addingTimeInterval(31)) == nil)
    }
}
