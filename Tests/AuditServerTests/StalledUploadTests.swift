import AuditTestSupport
@testable import AuditServer
import Foundation
import NIOCore
import Testing
import TestKit

/// An upload that stalls holds nothing of the database: it is written to a temporary file as
/// it arrives, and the write lock is taken only once it is whole.
@Suite("Stalled uploads and the database")
struct StalledUploadTests {
    @Test("A scan during a stalled CSV upload is answered at once, and the upload, once whole, imports every row", arguments: Backend.allCases)
    func aStalledUploadHoldsNoLock(backend: Backend) async throws {
        // A long body window, so only the spool, not a deadline, can let the scan through.
        let limits = ConnectionLimits(bodyWindow: .seconds(120))
        try await TestServer.with(backend, settings: ServerSettings(host: "127.0.0.1", port: 0, limits: limits)) { server in
            let token = try await server.user("admin@example.com")
            try await server.seed([("ON-SHELF", "SG")])
            #expect(try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token).status == 201)
            let file = CSVFixture("asset_tag", "serial_num", "name", "country")
                .assets(0..<2000, tag: "UP-", serial: "UP-SN-", name: { _ in "Laptop" })
            let whole = file.text
            let half = whole.utf8.count / 2
            let upload = try RawConnection(port: server.port)
            upload.send(
                "POST /api/v2/assets/import HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: text/csv\r\n"
                    + "Content-Length: \(whole.utf8.count)\r\nConnection: close\r\n\r\n" + String(decoding: Array(whole.utf8)[..<half], as: UTF8.self)
            )
            try await Task.sleep(for: .milliseconds(500))
            let clock = ContinuousClock()
            let started = clock.now
            let scan = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"ON-SHELF"}"#, token: token)
            let took = clock.now - started
            #expect(scan.status == 200, "\(scan.text)")
            #expect(scan.data?["status"] as? String == "found_expected", "\(scan.text)")
            print("a scan during a stalled upload (\(backend)) took \(took)")
            upload.send(String(decoding: Array(whole.utf8)[half...], as: UTF8.self))
            // The import itself may take a while when every core is busy with other tests.
            let answer = try await upload.answer(within: .seconds(90))
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(400))")
            #expect(RawConnection.jsonBody(of: answer)["data"].flatMap { ($0 as? [String: Any])?["imported"] as? Int } == 2000)
        }
    }
}
