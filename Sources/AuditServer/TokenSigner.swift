import Crypto
import Foundation
import InventoryCore

/// What a token says: who, which token, and until when.
struct TokenClaims: Codable, Sendable, Equatable {
    /// The user id.
    var sub: String
    /// The token id, so one token can be revoked.
    var jti: String
    var iat: Int
    var exp: Int

    var userID: Int64? { Int64(sub) }
    var expiresAt: Date { Date(timeIntervalSince1970: TimeInterval(exp)) }
}

/// Issues and checks JSON Web Tokens signed with HMAC-SHA256 (HS256).
struct TokenSigner: Sendable {
    static let lifetime: TimeInterval = 30 * 24 * 3600
    private let secret: Data

    init(secret: Data) { self.secret = secret }

    private var key: SymmetricKey { SymmetricKey(data: secret) }

    func issue(userID: Int64, now: Date = Date()) -> (token: String, claims: TokenClaims) {
        let issued = Int(now.timeIntervalSince1970)
        let claims = TokenClaims(sub: String(userID), jti: UUID().uuidString.lowercased(), iat: issued,
                                 exp: issued + Int(Self.lifetime))
        let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode((try? JSONEncoder().encode(claims)) ?? Data())
        let signingInput = header + "." + payload
        let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
        return (signingInput + "." + Base64URL.encode(Data(signature)), claims)
    }

    /// The claims of a well-signed, unexpired token.
    func verify(_ token: String, now: Date = Date()) throws -> TokenClaims {
        let invalid = InventoryError.unauthorized("The login token is not valid; log in again")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]), let payloadData = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else { throw invalid }
        guard let header = try? JSONDecoder().decode([String: String].self, from: headerData), header["alg"] == "HS256" else {
            throw invalid
        }
        let signingInput = Data((parts[0] + "." + parts[1]).utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else { throw invalid }
        guard let claims = try? JSONDecoder().decode(TokenClaims.self, from: payloadData) else { throw invalid }
        guard claims.exp > Int(now.timeIntervalSince1970) else {
            throw InventoryError.unauthorized("The login has expired; log in again")
        }
        return claims
    }
}

/// Base64 with the URL alphabet and no padding, as JWTs use.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
