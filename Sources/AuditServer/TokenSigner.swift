import Foundation
import InventoryCore
import JWTKit

/// What a token says: which user, which token, and until when.
struct TokenClaims: JWTPayload, Equatable {
    /// The user id.
    var sub: SubjectClaim
    /// The user's token key: random, made with the user and never given to another, so a token
    /// names one user even if an id were ever seen again.
    var uky: String
    /// The token id, so one token can be revoked.
    var jti: IDClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    var userID: Int64? { Int64(sub.value) }
    var expiresAt: Date { exp.value }

    /// Expiry is checked by `TokenSigner.verify`, against the time it is given.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Issues and checks JSON Web Tokens (HS256, through jwt-kit) with the server's signing key.
/// A key file is looked at again at most once a second, so a rotated key takes effect on a
/// running server and every token signed with the old one stops working.
actor TokenSigner {
    static let lifetime: TimeInterval = 30 * 24 * 3600
    private let source: SigningKeySource
    private var keys: JWTKeyCollection
    private var stamp: SigningKeyFile.Stamp?
    private var checkedAt = Date()

    init(source: SigningKeySource) async throws {
        self.source = source
        switch source {
        case .secret(let key):
            keys = await Self.collection(key)
        case .file(let path):
            let (key, stamp) = try SigningKeyFile.loadOrCreate(path: path)
            keys = await Self.collection(key)
            self.stamp = stamp
        }
    }

    private static func collection(_ key: Data) async -> JWTKeyCollection {
        await JWTKeyCollection().add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
    }

    /// The keys to use now, reloaded when the key file was replaced.
    private func currentKeys(now: Date) async throws -> JWTKeyCollection {
        guard case .file(let path) = source, now.timeIntervalSince(checkedAt) >= 1 || now < checkedAt else { return keys }
        checkedAt = now
        if let current = SigningKeyFile.stamp(path: path), current != stamp {
            let (key, newStamp) = try SigningKeyFile.load(path: path)
            keys = await Self.collection(key)
            stamp = newStamp
        }
        return keys
    }

    func issue(userID: Int64, userKey: String, now: Date = Date()) async throws -> (token: String, claims: TokenClaims) {
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = TokenClaims(
            sub: SubjectClaim(value: String(userID)), uky: userKey,
            jti: IDClaim(value: UUID().uuidString.lowercased()), iat: IssuedAtClaim(value: issued),
            exp: ExpirationClaim(value: issued.addingTimeInterval(Self.lifetime)))
        return (try await currentKeys(now: Date()).sign(claims), claims)
    }

    /// The claims of a well-signed, unexpired token.
    func verify(_ token: String, now: Date = Date()) async throws -> TokenClaims {
        let claims: TokenClaims
        do {
            claims = try await currentKeys(now: Date()).verify(token, as: TokenClaims.self)
        } catch let error as SigningKeyError {
            // The key file went bad under a running server: the server's problem, logged as such.
            throw error
        } catch {
            throw InventoryError.unauthorized("The login token is not valid; log in again")
        }
        guard claims.expiresAt > now else { throw InventoryError.unauthorized("The login has expired; log in again") }
        return claims
    }
}
