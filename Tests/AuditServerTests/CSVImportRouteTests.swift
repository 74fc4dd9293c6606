import AsyncHTTPClient
import AuditTestSupport
import Foundation
import NIOCore
import TestKit
import Testing

/// `POST /api/v2/assets/import` with the CSV file itself as the body (`text/csv`).
@Suite("CSV import through the API")
struct CSVImportRouteTests {
    /// `count` rows after the header: row n is on line n + 2, tag API-n, serial API-SN-n, in SG.
    static func csv(_ count: Int) -> CSVFixture {
        CSVFixture("asset_tag", "serial_num", "name", "country").assets(0..<count, tag: "API-", serial: "API-SN-", name: { _ in "Laptop" })
    }

    /// Sends `text` in 16 KiB pieces as a streamed body of unknown length.
    static func post(_ text: String, to server: TestServer, token: String) async throws -> (status: Int, body: [String: Any]) {
        var request = HTTPClientRequest(url: server.baseURL + "/api/v2/assets/import")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "text/csv; charset=utf-8")
        let bytes = Array(text.utf8)
        let pieces = stride(from: 0, to: bytes.count, by: 16 * 1024).map { ByteBuffer(bytes: bytes[$0..<min($0 + 16 * 1024, bytes.count)]) }
        request.body = .stream(pieces.asStream, length: .unknown)
        let response = try await TestServer.http.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        let body = (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
        return (Int(response.status.code), body)
    }

    @Test func aCSVLargerThanTheUploadLimitIsStreamedAndImportedWhole() async throws {
        try await TestServer.with { server in
            let token = try await server.user("admin@example.com")
            let text = Self.csv(40_000).text
            #expect(text.utf8.count > 1 << 20, "larger than any collected body")
            let answer = try await Self.post(text, to: server, token: token)
            #expect(answer.status == 200, "\(answer.body)")
            #expect((answer.body["data"] as? [String: Any])?["imported"] as? Int == 40_000)
            let found = try await server.call("GET", "/api/v2/assets/find?identifier=API-SN-39999", token: token)
            #expect(found.data?["asset_tag"] as? String == "API-39999")
        }
    }

    @Test func badRowsAreA422ByLineAndNothingIsImported() async throws {
        try await TestServer.with { server in
            let token = try await server.user("admin@example.com")
            try await server.seed([("SEEDED", "SG")])
            let text = Self.csv(25_000).replacing([4: "A,,,SG", 15_000: "API-1,X,Laptop,SG", 24_000: "SEEDED,Y,Laptop,SG", 25_001: "Z,\"open"]).text
            let answer = try await Self.post(text, to: server, token: token)
            #expect(answer.status == 422)
            #expect(answer.body["error"] as? String == "VALIDATION_ERROR")
            let errors = try #require(answer.body["errors"] as? [String: [String]])
            #expect(errors.keys.sorted() == ["line 15000", "line 24000", "line 25001", "line 4"])
            #expect(errors["line 15000"] == ["asset_tag 'API-1' repeats line 3"])
            #expect(errors["line 24000"] == ["asset_tag 'SEEDED' is already in the inventory"])
            #expect(errors["line 25001"] == ["opens a quoted field that never closes"])
            let list = try await server.call("GET", "/api/v2/assets/find?identifier=API-5", token: token)
            #expect(list.status == 200 && list.body["data"] is NSNull, "nothing was half-imported")
        }
    }

    @Test func aBadHeaderIsA422OnLineOne() async throws {
        try await TestServer.with { server in
            let token = try await server.user("admin@example.com")
            let answer = try await Self.post(CSVFixture("asset_tag", "colour").row("T", "red").text, to: server, token: token)
            #expect(answer.status == 422)
            #expect((answer.body["errors"] as? [String: [String]])?.keys.sorted() == ["line 1"])
        }
    }

    @Test func aUserWhoMayNotEditAssetsIsRefusedBeforeTheUpload() async throws {
        try await TestServer.with { server in
            let token = try await server.user("viewer@example.com", type: "CLIENT", countries: ["SG"], canEditAssets: false)
            let answer = try await Self.post(Self.csv(10).text, to: server, token: token)
            #expect(answer.status == 403)
        }
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence, for a streamed request body.
    var asStream: AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        for element in self { continuation.yield(element) }
        continuation.finish()
        return stream
    }
}
