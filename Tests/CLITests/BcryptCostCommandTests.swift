import Foundation
import GRDB
import Testing

/// `AUDIT_STATION_BCRYPT_COST` sets bcrypt's cost of the password hashes `users create` and
/// `users passwd` make: 12 when unset, a clear error when it is not a cost.
@Suite("bcrypt's cost for new password hashes")
struct BcryptCostCommandTests {
    static func hash(_ database: String) async throws -> String? {
        try await DatabaseQueue(path: database).read { db in try String.fetchOne(db, sql: "SELECT password_hash FROM users") }
    }

    static func create(_ database: String, cost: String) async throws -> StationProcess.Output {
        try await StationProcess.run(
            [
                "--database", database, "users", "create", "--email", "a@example.com", "--password-stdin",
                "--name", "Ann", "--type", "STAFF"
            ], input: Data("long-enough-1\n".utf8), environment: ["AUDIT_STATION_BCRYPT_COST": cost])
    }

    @Test func theCostIsTwelveUnlessSetAndABadOneIsRefused() async throws {
        for bad in ["abc", "3", "32", "12.5"] {
            let (_, database) = try StationProcess.scratch()
            let refused = try await Self.create(database, cost: bad)
            #expect(refused.status != 0, "cost \(bad)")
            #expect(refused.stderr.contains("AUDIT_STATION_BCRYPT_COST") && refused.stderr.contains("from 4 to 31"), "\(refused.stderr)")
        }
        let (_, database) = try StationProcess.scratch()
        // Empty is unset: the production cost.
        let made = try await Self.create(database, cost: "")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try await Self.hash(database)?.hasPrefix("$2b$12$") == true)
        let changed = try await StationProcess.run(
            ["--database", database, "users", "passwd", "--email", "a@example.com", "--password-stdin"],
            input: Data("another-long-2\n".utf8), environment: ["AUDIT_STATION_BCRYPT_COST": "6"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try await Self.hash(database)?.hasPrefix("$2b$06$") == true)
    }
}
