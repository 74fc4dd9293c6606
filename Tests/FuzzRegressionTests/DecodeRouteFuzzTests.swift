import AuditTestSupport
import Foundation
import Testing

/// The image fuzzer's regressions sent to `POST /api/v1/decode` of a real server on 127.0.0.1, as
/// a phone would send a frame: each is answered (never a crash or a 5xx), a file named `refused-`
/// with a 4xx, a `decoded-` one with 200, or 413 when it has more pixels than a frame may.
@Suite struct DecodeRouteFuzzTests {
    @Test func everyHostileImageIsAnsweredWithoutAServerError() async throws {
        let inputs = Regression.all(in: "images")
        try #require(!inputs.isEmpty)
        try await TestServer.with { server in
            let token = try await server.user("fuzz@example.com")
            for input in inputs {
                let type = input.name.hasSuffix(".png") ? "image/png" : "image/jpeg"
                let answer = try await server.callBytes("POST", "/api/v1/decode", body: input.bytes, contentType: type, token: token)
                let text = String(decoding: answer.bytes.prefix(300), as: UTF8.self)
                #expect((200..<500).contains(answer.status), "\(input.name): \(answer.status) \(text)")
                if input.expectsRefusal {
                    #expect((400..<500).contains(answer.status), "\(input.name): \(text)")
                } else {
                    #expect(answer.status == 200 || text.contains("FRAME_TOO_MANY_PIXELS"), "\(input.name): \(text)")
                }
            }
            // The server still answers after the whole corpus.
            #expect(try await server.call("GET", "/health").status == 200)
        }
    }
}
