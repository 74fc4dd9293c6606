import AuditAPI
import Foundation
import Hummingbird
import InventoryCore
import NIOCore

extension Response {
    /// `{"success": true, "data": …, "message": …}`.
    static func envelope(_ data: some Encodable & Sendable, status: HTTPResponse.Status = .ok, message: String = "OK") throws -> Response {
        let body = try JSONEncoder.auditStation().encode(SuccessEnvelope(data: data, message: message))
        return json(body, status: status)
    }

    /// `{"success": false, "error": …, "message": …}`.
    static func failure(_ envelope: FailureEnvelope, status: Int) -> Response {
        let body =
            (try? JSONEncoder.auditStation().encode(envelope))
            ?? Data(#"{"success":false,"error":"INTERNAL_ERROR","message":"The server failed"}"#.utf8)
        return json(body, status: HTTPResponse.Status(code: status))
    }

    static func json(_ body: Data, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
