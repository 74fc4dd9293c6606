import AuditTestSupport
@testable import AuditServer
import Foundation
import GRDB
import InventoryCore
import Testing

@Suite("Signing keys, token lifetimes and user identity")
struct TokenKeyTests {
    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil
    }

    private func keyPath(_ server: TestServer) -> String { server.parts.database.writer.path + ".jwt-key" }

    @Test("The key is a 0600 file beside the database, not a row in it, and the database files are 0600")
    func theKeyLivesInAnOwnerOnlyFile() async throws {
        try await TestServer.routes { server in
            _ = try await server.user("kim@example.com")
            #expect(mode(keyPath(server)) == 0o600)
            let path = server.parts.database.writer.path
            for file in [path, path + "-wal", path + "-shm"] { #expect(mode(file) == 0o600, "\(file)") }
            let tables = try await server.parts.database.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") }
            #expect(!tables.contains("server_secrets"))
        }
    }

    @Test("A key file that others may read is refused with the command that fixes it")
    func aWidenedKeyFileIsRefused() async throws {
        let path = TestServer.temporaryPath() + ".jwt-key"
        _ = try await TokenSigner(source: .file(path))
        #expect(chmod(path, 0o644) == 0)
        await #expect {
            _ = try await TokenSigner(source: .file(path))
        } throws: { error in
            "\(error)".contains("chmod 600") && "\(error)".contains("can be read by other users")
        }
    }

    @Test("Rotating the key logs everyone out of a running server")
    func rotationLogsEveryoneOut() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("lou@example.com")
            #expect(try await server.call("GET", "/api/v1/auth/me", token: token).status == 200)
            try SigningKeyFile.rotate(path: keyPath(server))
            #expect(mode(keyPath(server)) == 0o600, "the new key file is owner-only from the start")
            try await Task.sleep(for: .milliseconds(1100))
            let after = try await server.call("GET", "/api/v1/auth/me", token: token)
            #expect(after.status == 401 && after.error == "UNAUTHORIZED")
            let again = try await server.call(
                "POST", "/api/v1/auth/login", json: #"{"email":"lou@example.com","password":"secret-pass","device_name":"t"}"#)
            let fresh = try #require(again.data?["token"] as? String)
            #expect(try await server.call("GET", "/api/v1/auth/me", token: fresh).status == 200)
        }
    }

    @Test("An expired token is 401 and says the login expired")
    func anExpiredTokenIsRefused() async throws {
        try await TestServer.routes { server in
            _ = try await server.user("max@example.com")
            let stored = try #require(try await server.parts.users.store.find(email: "max@example.com"))
            let past = Date().addingTimeInterval(-TokenSigner.lifetime - 60)
            let (old, claims) = try await server.parts.signer.issue(userID: stored.id, userKey: stored.tokenKey, now: past)
            #expect(claims.expiresAt < Date())
            let answer = try await server.call("GET", "/api/v1/auth/me", token: old)
            #expect(answer.status == 401)
            #expect((answer.body["message"] as? String)?.contains("expired") == true, "\(answer.text)")
            let (current, _) = try await server.parts.signer.issue(userID: stored.id, userKey: stored.tokenKey)
            #expect(try await server.call("GET", "/api/v1/auth/me", token: current).status == 200)
        }
    }

    @Test("User ids are never handed out again, and a token does not pass to a user with its id")
    func aTokenCannotBeInherited() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("ned@example.com")
            let old = try #require(try await server.parts.users.store.find(email: "ned@example.com"))
            try await server.parts.database.writer.write { db in try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [old.id]) }
            let next = try await server.parts.users.create(email: "oda@example.com", password: "secret-pass", name: "Oda", type: .admin)
            #expect(next.id > old.id, "the removed user's id is not reused")
            #expect(try await server.call("GET", "/api/v1/auth/me", token: token).status == 401)
            // Even a row put back under the old id by hand is not the token's user.
            try await server.parts.database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO users (id, email, name, password_hash, user_type, countries, created_at, token_key)
                        VALUES (?, 'pia@example.com', 'Pia', ?, 'ADMIN', '', ?, ?)
                        """, arguments: [old.id, old.passwordHash, Date(), String(repeating: "ab", count: 16)])
            }
            #expect(try await server.call("GET", "/api/v1/auth/me", token: token).status == 401)
        }
    }

    @Test("Tokens with no signature, another algorithm or another key are refused")
    func forgedTokensAreRefused() async throws {
        try await TestServer.routes { server in
            _ = try await server.user("ola@example.com")
            let stored = try #require(try await server.parts.users.store.find(email: "ola@example.com"))
            let payload = #"{"sub":"\#(stored.id)","uky":"\#(stored.tokenKey)","jti":"x","iat":1,"exp":4102444800}"#
            let body = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            let none = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            #expect(try await server.call("GET", "/api/v1/auth/me", token: none + "." + body + ".").status == 401)
            let other = try await TokenSigner(source: .secret(Data(repeating: 7, count: 48)))
            let (forged, _) = try await other.issue(userID: stored.id, userKey: stored.tokenKey)
            #expect(try await server.call("GET", "/api/v1/auth/me", token: forged).status == 401)
        }
    }

    @Test func theEnvironmentKeyMustBeLongEnough() throws {
        #expect(throws: SigningKeyError.self) {
            _ = try SigningKeySource.resolve(file: nil, database: "/tmp/x.sqlite", environment: [SigningKeySource.environmentVariable: "short"])
        }
        let key = Data(repeating: 9, count: 48).base64EncodedString()
        let source = try SigningKeySource.resolve(file: "/tmp/k", database: "/tmp/x.sqlite", environment: [SigningKeySource.environmentVariable: key])
        #expect(source == .secret(Data(repeating: 9, count: 48)))
        #expect(try SigningKeySource.resolve(file: nil, database: "/tmp/x.sqlite", environment: [:]) == .file("/tmp/x.sqlite.jwt-key"))
    }
}

@Suite("Disabled users and changed passwords")
struct UserStateTests {
    @Test("A disabled user cannot log in and its tokens stop working; a new password ends earlier logins")
    func disablingAndPasswordsEndLogins() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("pat@example.com")
            _ = try await server.parts.users.store.setDisabled(email: "pat@example.com", true)
            #expect(try await server.call("GET", "/api/v1/auth/me", token: token).status == 401)
            let login = #"{"email":"pat@example.com","password":"secret-pass","device_name":"t"}"#
            #expect(try await server.call("POST", "/api/v1/auth/login", json: login).status == 401)
            _ = try await server.parts.users.store.setDisabled(email: "pat@example.com", false)
            #expect(try await server.call("GET", "/api/v1/auth/me", token: token).status == 401, "enabling again does not revive old tokens")
            let again = try await server.call("POST", "/api/v1/auth/login", json: login)
            let fresh = try #require(again.data?["token"] as? String)
            _ = try await server.parts.users.changePassword(email: "pat@example.com", to: "a-new-password")
            #expect(try await server.call("GET", "/api/v1/auth/me", token: fresh).status == 401)
            #expect(try await server.call("POST", "/api/v1/auth/login", json: login).status == 401)
            let changed = #"{"email":"pat@example.com","password":"a-new-password","device_name":"t"}"#
            #expect(try await server.call("POST", "/api/v1/auth/login", json: changed).status == 200)
        }
    }
}
