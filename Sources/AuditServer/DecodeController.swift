import AuditAPI
import Foundation
import Hummingbird
import InventoryCore
import NIOCore

/// `POST /api/v1/decode`: a phone's camera frame in, the codes the station's decoder reads in it
/// out; and `GET /api/v1/decode/figures`, what it has done since the server started.
struct DecodeController {
    let frames: FrameDecoder
    let rate: FrameRate

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.post, Routes.decode, on: router) { request, _, user in
            try await decode(request, user: user)
        }
        routes.add(.get, Routes.decodeFigures, on: router) { _, _, user in
            guard user.userType == .admin else { throw InventoryError.forbidden("the decode figures are for ADMIN users") }
            return try Response.envelope(frames.counted)
        }
    }

    /// In this order, each before any work the next would cost: who (403: a user who may not
    /// audit), the user's rate (429 with Retry-After), the type (415), the size (413 past
    /// `BodyLimits.frame`, read no further than that), then the image itself (413 past 12 MP,
    /// 422 when damaged or not an image).
    private func decode(_ request: Request, user: UserInfo) async throws -> Response {
        guard user.userType != .client else { throw InventoryError.forbidden("CLIENT users may not run audits, so they may not decode frames") }
        if let wait = rate.admit(user.id) {
            frames.refused()
            throw APIFailure.tooManyFrames(retryAfter: wait)
        }
        let type = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard FrameDecoder.contentTypes.contains(type) else {
            frames.refused()
            throw APIFailure.unsupportedMediaType(given: type, accepted: FrameDecoder.contentTypes)
        }
        var request = request
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: BodyLimits.frame) } catch is NIOTooManyBytesError {
            frames.refused()
            throw APIFailure.frameTooLarge(limit: BodyLimits.frame)
        }
        let codes = try await frames.codes(in: Array(body.readableBytesView))
        return try Response.envelope(DecodeResponse(codes: codes), message: codes.isEmpty ? "No code in this frame" : "\(codes.count) codes read")
    }
}
