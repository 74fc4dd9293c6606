import AuditAPI
import AuditClient
import Foundation
import Testing
import TestKit

@Suite("The token file")
struct StationLoginTests {
    @Test func theTokenFileIsReadableByTheUserOnlyAndRoundTrips() throws {
        let folder = Scratch.root.appendingPathComponent("login-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("station.sqlite").path
        let login = StationLogin(
            server: "http://127.0.0.1:1", token: "a.b.c", expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
            user: UserInfo(id: 1, name: "Ann", email: "ann@example.com", userType: .staff, canEditAssets: false, countries: ["SG"]),
            deviceName: "kiosk", apiKey: nil)
        try login.save(databasePath: database)
        let attributes = try FileManager.default.attributesOfItem(atPath: StationLogin.path(forDatabase: database))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try StationLogin.load(databasePath: database) == login)
        try StationLogin.remove(databasePath: database)
        #expect(try StationLogin.load(databasePath: database) == nil)
    }
}
