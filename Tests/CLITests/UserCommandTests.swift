import Foundation
import Testing

@Suite("users create, list, passwd, disable and rotate-key")
struct UserCommandTests {
    @Test("Passwords come from standard input, never from the command line; list shows no secrets")
    func passwordsNeverOnTheCommandLine() async throws {
        let (_, database) = try StationProcess.scratch()
        let onCommandLine = try await StationProcess.run([
            "--database", database, "users", "create", "--email", "a@example.com",
            "--password", "long-enough-1", "--name", "A", "--type", "ADMIN"
        ])
        #expect(onCommandLine.status != 0 && onCommandLine.stderr.contains("--password"), "\(onCommandLine.stderr)")
        let created = try await StationProcess.run(
            [
                "--database", database, "users", "create", "--email", "a@example.com", "--password-stdin",
                "--name", "Ann", "--type", "STAFF", "--countries", "sg"
            ], input: Data("long-enough-1\n".utf8))
        #expect(created.status == 0, "\(created.stderr)")
        let listed = try await StationProcess.run(["--database", database, "users", "list", "--json"])
        let users = try #require(try jsonObject(listed.stdout)["users"] as? [[String: Any]])
        #expect(users.count == 1 && users.first?["email"] as? String == "a@example.com")
        #expect(users.first?["countries"] as? [String] == ["SG"] && users.first?["disabled_at"] is NSNull)
        #expect(!listed.stdout.contains("$2") && !listed.stdout.contains("token_key"), "no hash or token key is printed")

        let short = try await StationProcess.run(
            ["--database", database, "users", "passwd", "--email", "a@example.com", "--password-stdin"],
            input: Data("short\n".utf8))
        #expect(short.status != 0 && short.stderr.contains("at least 8"), "\(short.stderr)")
        let changed = try await StationProcess.run(
            ["--database", database, "users", "passwd", "--email", "a@example.com", "--password-stdin"],
            input: Data("another-long-2\n".utf8))
        #expect(changed.status == 0, "\(changed.stderr)")
        let disabled = try await StationProcess.run(["--database", database, "users", "disable", "--email", "a@example.com"])
        #expect(disabled.status == 0)
        let after = try await StationProcess.run(["--database", database, "users", "list", "--json"])
        #expect((try jsonObject(after.stdout)["users"] as? [[String: Any]])?.first?["disabled_at"] is String)
        let unknown = try await StationProcess.run(["--database", database, "users", "disable", "--email", "nobody@example.com"])
        #expect(unknown.status != 0 && unknown.stderr.contains("nobody@example.com"))
    }

    @Test("rotate-key writes a new owner-only key file")
    func rotateKey() async throws {
        let (_, database) = try StationProcess.scratch()
        let key = database + ".jwt-key"
        let first = try await StationProcess.run(["--database", database, "users", "rotate-key"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try String(contentsOfFile: key, encoding: .utf8)
        #expect(try await StationProcess.run(["--database", database, "users", "rotate-key"]).status == 0)
        let after = try String(contentsOfFile: key, encoding: .utf8)
        #expect(before != after && after.count > 40)
        #expect((try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int) == 0o600)
    }
}
