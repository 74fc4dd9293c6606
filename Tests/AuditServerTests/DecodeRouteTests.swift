import AsyncHTTPClient
import AuditServer
import AuditTestSupport
import Foundation
import NIOCore
import Testing

/// `POST /api/v1/decode`: real frames from SampleImages read by the station's decoder, who may
/// call it, what it refuses and how, the rate per user, and the figures it keeps.
@Suite("Frames decoded through the API")
struct DecodeRouteTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages")

    static func sample(_ name: String) throws -> (bytes: [UInt8], text: String) {
        let image = try Data(contentsOf: samples.appendingPathComponent(name))
        let text = try String(contentsOf: samples.appendingPathComponent((name as NSString).deletingPathExtension + ".txt"), encoding: .utf8)
        return ([UInt8](image), text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func json(_ bytes: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    @Test(arguments: [
        ("frame-1280x720-qrcode.jpg", "image/jpeg", "qrcode"), ("frame-1280x720-code128.jpg", "image/jpeg", "code128"),
        ("code128-01-clean.png", "image/png", "code128"), ("qrcode-10-noise.png", "image/png", "qrcode")
    ])
    func aRealFrameIsReadWithItsSymbologyAndOutline(name: String, type: String, symbology: String) async throws {
        try await TestServer.routes { server in
            let token = try await server.user("ann@example.com", type: "STAFF")
            let (frame, text) = try Self.sample(name)
            let answer = try await server.callBytes("POST", "/api/v1/decode", body: frame, contentType: type, token: token)
            #expect(answer.status == 200, "\(String(decoding: answer.bytes, as: UTF8.self))")
            let codes = try #require((Self.json(answer.bytes)["data"] as? [String: Any])?["codes"] as? [[String: Any]])
            #expect(codes.map { $0["text"] as? String } == [text])
            #expect(codes.first?["symbology"] as? String == symbology)
            #expect(((codes.first?["points"] as? [[String: Int]]) ?? []).count >= 2)
        }
    }

    @Test func eachRefusalHasItsStatusAndCodeAndTheFiguresCountIt() async throws {
        try await TestServer.routes { server in
            let admin = try await server.user("lead@example.com")
            let client = try await server.user("client@example.com", type: "CLIENT")
            let (jpeg, _) = try Self.sample("frame-1280x720-qrcode.jpg")
            let (small, _) = try Self.sample("frame-640x480-qrcode.jpg")
            let cases: [(body: [UInt8], type: String?, token: String?, status: Int, error: String)] = [
                (jpeg, "image/jpeg", nil, 401, "UNAUTHORIZED"),
                (jpeg, "image/jpeg", client, 403, "FORBIDDEN"),
                (jpeg, "application/json", admin, 415, "UNSUPPORTED_MEDIA_TYPE"),
                (jpeg, nil, admin, 415, "UNSUPPORTED_MEDIA_TYPE"),
                ([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 4 * 1024 * 1024), "image/jpeg", admin, 413, "FRAME_TOO_LARGE"),
                (Array("GIF89a, not a frame".utf8), "image/png", admin, 422, "VALIDATION_ERROR"),
                (Array(jpeg.prefix(600)), "image/jpeg", admin, 422, "VALIDATION_ERROR")
            ]
            for (body, type, token, status, error) in cases {
                let answer = try await server.callBytes("POST", "/api/v1/decode", body: body, contentType: type, token: token)
                let envelope = Self.json(answer.bytes)
                #expect(answer.status == status && envelope["error"] as? String == error, "\(type ?? "no type"): \(envelope)")
                #expect((envelope["message"] as? String)?.isEmpty == false)
            }
            for frame in [jpeg, small] {
                #expect(try await server.callBytes("POST", "/api/v1/decode", body: frame, contentType: "image/jpeg; q=1", token: admin).status == 200)
            }
            // 401 and 403 are refused before the route; the other five are counted, as are both frames.
            let figures = try await server.call("GET", "/api/v1/decode/figures", token: admin)
            #expect(figures.data?["frames"] as? Int == 2 && figures.data?["refused"] as? Int == 5, "\(figures.text)")
            #expect(figures.data?["frames_with_codes"] as? Int == 2 && figures.data?["codes"] as? Int == 2, "\(figures.text)")
            #expect(try await server.call("GET", "/api/v1/decode/figures", token: client).status == 403)
        }
    }

    @Test func aUserOverTheRateIsToldWhenToSendAgainAndOthersAreNotSlowed() async throws {
        let settings = ServerSettings(host: "127.0.0.1", port: 0, decodeRate: DecodeRate(framesPerSecond: 0.02, burst: 2))
        try await TestServer.with(.sqlite, settings: settings) { server in
            let ann = try await server.user("ann@example.com", type: "STAFF")
            let bob = try await server.user("bob@example.com", type: "STAFF")
            let (frame, _) = try Self.sample("frame-640x480-qrcode.jpg")
            func send(_ token: String) async throws -> HTTPClientResponse {
                var request = HTTPClientRequest(url: server.baseURL + "/api/v1/decode")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Content-Type", value: "image/jpeg")
                request.body = .bytes(ByteBuffer(bytes: frame))
                let response = try await TestServer.http.execute(request, timeout: .seconds(20))
                _ = try await response.body.collect(upTo: 1 << 20)
                return response
            }
            #expect(try await send(ann).status.code == 200)
            #expect(try await send(ann).status.code == 200)
            let over = try await send(ann)
            #expect(over.status.code == 429)
            let wait = over.headers.first(name: "Retry-After").flatMap(Int.init)
            // One frame every 50 s: even on a loaded machine the bucket has not refilled between sends.
            #expect(wait.map { (1...50).contains($0) } == true, "Retry-After: \(String(describing: wait))")
            #expect(try await send(bob).status.code == 200)
        }
    }
}
