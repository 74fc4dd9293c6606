import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import TestKit
import Testing

/// A connected station imports by streaming its CSV file to the server.
@Suite("Remote CSV import")
struct RemoteImportTests {
    /// `count` rows after the header, tag R-n, in MY.
    static func csv(_ count: Int) -> CSVFixture {
        CSVFixture("asset_tag", "name", "country").assets(0..<count, tag: "R-", name: { _ in "Laptop" }, countries: ["MY"])
    }

    @Test(arguments: Backend.allCases) func theFileIsStreamedAndImportedWithItsLineNumbers(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("admin@example.com")
            let assets: any AssetService = RemoteAssetService(client: APIClient(baseURL: server.baseURL, token: token, http: TestServer.http))
            let count = try await assets.importAssets(csv: Self.csv(12_000).blocks(size: 8192)) { _ in }
            #expect(count == 12_000)
            #expect(try await assets.find(identifier: "R-11999")?.country == "MY")

            // Blank lines and a quoted line break still count: the server reads the file itself.
            let again = Self.csv(0).line("").row("X-1", "two\nlines", "MY").line("").row("R-5", "Again", "MY")
            let error = try await #require(throws: InventoryError.self) {
                _ = try await assets.importAssets(csv: again.blocks(size: 5)) { _ in }
            }
            guard case .invalid(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problems.fields == ["line 6": ["asset_tag 'R-5' is already in the inventory"]])
            #expect(try await assets.find(identifier: "X-1") == nil)
        }
    }
}
