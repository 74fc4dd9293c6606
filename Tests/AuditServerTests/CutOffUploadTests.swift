import AuditTestSupport
import Foundation
import Testing
import TestKit

/// A streamed CSV import whose body does not arrive whole is all or nothing: however the body
/// is framed and however the connection ends, nothing of it is stored, and sending it again
/// whole imports every row.
@Suite("Uploads cut off mid-body")
struct CutOffUploadTests {
    /// How the upload breaks off.
    enum Cut: String, CaseIterable, Sendable {
        /// `Content-Length` promises more than arrives, then the client's side closes (FIN).
        case shortContentLength
        /// A chunked body whose last chunk never comes, then FIN.
        case chunkedThenFIN
        /// A chunked body that goes on with a chunk size that is not a number.
        case badChunk
        /// `Content-Length` promises more than arrives, then the connection is reset (RST).
        case reset
    }

    static let rows = 400

    /// The whole file, and a part of it that stops in the middle of the last row's last field,
    /// so the part is itself a valid file whose last row is cut short.
    static func files() -> (whole: String, part: String) {
        let file = CSVFixture("asset_tag", "serial_num", "country", "name")
            .assets(0..<rows, tag: "CUT-", serial: "CUT-SN-", name: { _ in "Laptop for the finance team" })
        let whole = file.text
        return (whole, String(whole.dropLast("ance team\n".count)))
    }

    @Test(arguments: Backend.allCases, Cut.allCases)
    func anImportCutOffMidBodyStoresNothing(backend: Backend, cut: Cut) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("admin@example.com")
            let (whole, part) = Self.files()
            let connection = try RawConnection(port: server.port)
            let head = "POST /api/v2/assets/import HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: text/csv\r\n"
            let partBytes = part.utf8.count
            switch cut {
            case .shortContentLength, .reset:
                connection.send(head + "Content-Length: \(whole.utf8.count)\r\n\r\n" + part)
            case .chunkedThenFIN:
                connection.send(head + "Transfer-Encoding: chunked\r\n\r\n" + String(partBytes, radix: 16) + "\r\n" + part + "\r\n")
            case .badChunk:
                connection.send(head + "Transfer-Encoding: chunked\r\n\r\n" + String(partBytes, radix: 16) + "\r\n" + part + "\r\nZZ\r\n")
            }
            switch cut {
            case .reset:
                try await Task.sleep(for: .milliseconds(200))
                connection.reset()
            case .shortContentLength, .chunkedThenFIN, .badChunk:
                if cut != .badChunk { connection.finishSending() }
                let answer = try await connection.answer()
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(300))")
            }
            // Sent again whole, every row is imported: none of them was kept from the cut-off
            // upload (on SQLite the retry waits for the writer, on PostgreSQL for the rows the
            // first upload locked, so this also waits for the first one to be rolled back).
            let retry = try await CSVImportRouteTests.post(whole, to: server, token: token)
            #expect(retry.status == 200, "\(retry.body)")
            #expect((retry.body["data"] as? [String: Any])?["imported"] as? Int == Self.rows)
            let last = try await server.call("GET", "/api/v2/assets/find?identifier=CUT-\(Self.rows - 1)", token: token)
            #expect(last.data?["name"] as? String == "Laptop for the finance team")
        }
    }
}
