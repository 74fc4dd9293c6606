import AuditTestSupport
import Foundation
import Testing

@Suite("Users: /api/v1/users, for ADMIN users only")
struct UserRouteTests {
    private func login(_ server: TestServer, _ email: String, _ password: String) async throws -> TestServer.Answer {
        try await server.call("POST", "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(password)","device_name":"t"}"#)
    }

    @Test("An admin lists, creates, disables, enables and resets users; the changes hold for logins", arguments: Backend.allCases)
    func anAdminManagesUsers(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let created = try await server.call(
                "POST", "/api/v1/users",
                json:
                    #"{"email":"sam@example.com","name":"Sam <b>","password":"first-pass","user_type":"staff","countries":["sg","MY"],"can_edit_assets":true}"#,
                token: admin)
            #expect(created.status == 201, "\(created.text)")
            let sam = try #require(created.data)
            let id = try #require(sam["id"] as? Int)
            #expect(sam["user_type"] as? String == "STAFF" && sam["name"] as? String == "Sam <b>")
            #expect(sam["countries"] as? [String] == ["MY", "SG"] && sam["can_edit_assets"] as? Bool == true)
            #expect(sam["disabled_at"] is NSNull && sam["password_hash"] == nil && !created.text.contains("$2"))
            let samToken = try #require(try await login(server, "sam@example.com", "first-pass").data?["token"] as? String)

            let list = try await server.call("GET", "/api/v1/users", token: admin)
            let users = try #require(list.data?["users"] as? [[String: Any]])
            #expect(users.map { $0["email"] as? String } == ["root@example.com", "sam@example.com"])

            // The same email again, and bad fields, each named.
            let again = try await server.call(
                "POST", "/api/v1/users", json: #"{"email":"sam@example.com","name":"Sam","password":"first-pass","user_type":"STAFF"}"#,
                token: admin)
            #expect(again.status == 409 && again.error == "DUPLICATE")
            let bad = try await server.call(
                "POST", "/api/v1/users", json: #"{"email":"nope","name":" ","password":"short","user_type":"BOSS"}"#, token: admin)
            #expect(bad.status == 422 && (bad.body["errors"] as? [String: Any])?.keys.sorted() == ["user_type"])
            let fields = try await server.call(
                "POST", "/api/v1/users", json: #"{"email":"nope","name":" ","password":"short","user_type":"CLIENT","countries":["Asia"]}"#,
                token: admin)
            #expect(fields.status == 422 && (fields.body["errors"] as? [String: Any])?.keys.sorted() == ["countries", "email", "name", "password"])

            // Disabled: no login, and the token it held stops working; enabled again, it logs in.
            let disabled = try await server.call("POST", "/api/v1/users/\(id)/disable", token: admin)
            #expect(disabled.status == 200 && disabled.data?["disabled_at"] is String)
            #expect(try await server.call("GET", "/api/v1/auth/me", token: samToken).status == 401)
            #expect(try await login(server, "sam@example.com", "first-pass").status == 401)
            #expect(try await server.call("POST", "/api/v1/users/\(id)/enable", token: admin).data?["disabled_at"] is NSNull)
            #expect(try await login(server, "sam@example.com", "first-pass").status == 200)

            // A new password: the old one and the old logins stop working.
            let token2 = try #require(try await login(server, "sam@example.com", "first-pass").data?["token"] as? String)
            let short = try await server.call("POST", "/api/v1/users/\(id)/password", json: #"{"password":"short"}"#, token: admin)
            #expect(short.status == 422 && (short.body["errors"] as? [String: Any])?["password"] != nil)
            let reset = try await server.call("POST", "/api/v1/users/\(id)/password", json: #"{"password":"second-pass"}"#, token: admin)
            #expect(reset.status == 200 && reset.data?["email"] as? String == "sam@example.com")
            #expect(try await server.call("GET", "/api/v1/auth/me", token: token2).status == 401)
            #expect(try await login(server, "sam@example.com", "first-pass").status == 401)
            #expect(try await login(server, "sam@example.com", "second-pass").status == 200)

            // An admin cannot disable itself; an unknown user is not found.
            let rootID = try #require(users.first?["id"] as? Int)
            #expect(try await server.call("POST", "/api/v1/users/\(rootID)/disable", token: admin).status == 409)
            #expect(try await server.call("POST", "/api/v1/users/999999/enable", token: admin).status == 404)
        }
    }

    @Test("STAFF and CLIENT users get 403 from every users call, and change nothing", arguments: Backend.allCases)
    func onlyAdminsManageUsers(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            _ = try await server.user("root@example.com")
            for type in ["STAFF", "CLIENT"] {
                let token = try await server.user("\(type.lowercased())@example.com", type: type)
                let me = try #require(try await server.call("GET", "/api/v1/auth/me", token: token).data?["id"] as? Int)
                let calls: [(String, String, String?)] = [
                    ("GET", "/api/v1/users", nil),
                    ("POST", "/api/v1/users", #"{"email":"x@example.com","name":"X","password":"secret-pass","user_type":"ADMIN"}"#),
                    ("POST", "/api/v1/users/1/disable", nil), ("POST", "/api/v1/users/\(me)/enable", nil),
                    ("POST", "/api/v1/users/1/password", #"{"password":"taken-over"}"#)
                ]
                for (method, path, json) in calls {
                    let answer = try await server.call(method, path, json: json, token: token)
                    #expect(answer.status == 403 && answer.error == "FORBIDDEN", "\(type) \(method) \(path): \(answer.text)")
                }
            }
            #expect(try await server.call("GET", "/api/v1/users").status == 401)
            #expect(try await login(server, "root@example.com", "secret-pass").status == 200)
            #expect(try await server.parts.users.store.all().count == 3)
        }
    }
}
