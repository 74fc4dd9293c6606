import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// A connected station imports by streaming its CSV file to the server.
@Suite("Remote CSV import")
struct RemoteImportTests {
    static func blocks(_ text: String, size: Int = 8192) -> AsyncThrowingStream<[UInt8], any Error> {
        let bytes = Array(text.utf8)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        for start in stride(from: 0, to: bytes.count, by: size) { continuation.yield(Array(bytes[start..<min(start + size, bytes.count)])) }
        continuation.finish()
        return stream
    }

    static func csv(_ count: Int, extra: String = "") -> String {
        "asset_tag,name,country\n" + (0..<count).map { "R-\($0),Laptop,MY\n" }.joined() + extra
    }

    @Test(arguments: Backend.allCases) func theFileIsStreamedAndImportedWithItsLineNumbers(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("admin@example.com")
            let assets: any AssetService = RemoteAssetService(client: APIClient(baseURL: server.baseURL, token: token, http: TestServer.http))
            let count = try await assets.importAssets(csv: Self.blocks(Self.csv(12_000))) { _ in }
            #expect(count == 12_000)
            #expect(try await assets.find(identifier: "R-11999")?.country == "MY")

            // Blank lines and a quoted line break still count: the server reads the file itself.
            let again = Self.csv(0, extra: "\n\"X-1\",\"two\nlines\",MY\n\nR-5,Again,MY\n")
            let error = try await #require(throws: InventoryError.self) {
                _ = try await assets.importAssets(csv: Self.blocks(again, size: 5)) { _ in }
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
