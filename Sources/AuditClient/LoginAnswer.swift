import AuditAPI
import Foundation
import InventoryCore

/// The answer to `POST /api/v1/auth/login` as any server gives it: bare, as seed 000's backend
/// sends it (`{token, token_type, user, abilities}`), or inside the envelope (`{success, data}`).
/// Only `token` and `user` are needed (an empty name or email is filled from the login); `expires_at`,
/// `user.countries`, `user.can_edit_assets` and `abilities` may be missing or null, and a
/// `user_type` this station does not know (such as seed 000's "standard") reads as STAFF.
package struct LoginAnswer: Decodable, Sendable {
    package var token: String
    package var expiresAt: Date?
    package var user: UserInfo

    package init(from decoder: any Decoder) throws {
        let top = try decoder.lenient()
        let body = top.has("token") ? top : try top.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("data"))
        token = try body.required("token")
        expiresAt = body.optional("expiresAt", as: Date.self)
        let user = try body.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("user"))
        let abilities = body.optional("abilities", as: [String: [String]].self)
        let type = user.choice("userType", as: UserType.self) ?? .staff
        let editsAssets =
            user.flag("canEditAssets")
            ?? abilities?["assets"].map { $0.contains("edit") || $0.contains("create") } ?? false
        self.user = UserInfo(
            id: Int64(user.integer("id") ?? 0), name: user.text("name") ?? "", email: user.text("email") ?? "",
            userType: type, canEditAssets: editsAssets, countries: user.optional("countries", as: [String].self) ?? [])
    }

    /// Decodes a login answer; a body without a token is an error that says what came back.
    package static func read(_ data: Data, server: String, status: Int) throws -> LoginAnswer {
        do {
            return try JSONDecoder.auditStation().decode(LoginAnswer.self, from: data)
        } catch {
            let shown = String(decoding: data.prefix(200), as: UTF8.self).filter { !$0.isNewline }
            throw InventoryError.unavailable(
                "The server at \(server) answered the login with HTTP \(status) but no token and user this station can read (\(Self.reason(error))); is it an audit API server? It answered: \(shown)"
            )
        }
    }

    package static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "\(key.stringValue) is missing"
        case DecodingError.dataCorrupted: "the body is not JSON"
        case DecodingError.typeMismatch(_, let context): "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has another type"
        default: "\(error)"
        }
    }
}
