import AuditTestSupport
import Foundation
import Testing

extension SchemaCalls {
    /// A frame decoded, frames refused, and the figures.
    func decodeFrames(_ token: String) async throws {
        let operation = "POST /api/v1/decode"
        let (frame, _) = try DecodeRouteTests.sample("frame-640x480-qrcode.jpg")
        let sent: [(body: [UInt8], type: String?)] = [
            (frame, "image/jpeg"), (Array("not a frame".utf8), "image/png"), (frame, "text/plain"),
            ([0x89] + [UInt8](repeating: 0, count: 4 * 1024 * 1024), "image/png")
        ]
        for (body, type) in sent {
            let answer = try await server.callBytes("POST", "/api/v1/decode", body: body, contentType: type, token: token)
            keep(operation, status: answer.status, text: String(decoding: answer.bytes, as: UTF8.self))
        }
        let none = try await server.callBytes("POST", "/api/v1/decode", body: frame, contentType: "image/jpeg", token: nil)
        keep(operation, status: none.status, text: String(decoding: none.bytes, as: UTF8.self))
        try await call("GET /api/v1/decode/figures", token: token, expect: 200)
        try await call("GET /api/v1/decode/figures", token: nil, expect: 401)
    }
}
