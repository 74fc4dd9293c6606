import Foundation
import HTTPGuard

/// The limits every connection is held to (`HTTPGuard`), as the server's settings name them.
public typealias ConnectionLimits = HTTPGuard.ConnectionLimits

/// How the server runs. How tags match and the station name of a scan that names none belong
/// to the audit rules, so they are settings of the back end (`ServerBackend`).
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// When set, every /api call must carry it in `X-API-Key`.
    public var apiKey: String?
    /// Where the token-signing key comes from; nil: the key file beside the database.
    public var signingKey: SigningKeySource?
    /// Connections at once, and how long headers and silence may take.
    public var limits: ConnectionLimits

    public init(
        host: String = "127.0.0.1", port: Int = 8080, apiKey: String? = nil,
        signingKey: SigningKeySource? = nil, limits: ConnectionLimits = ConnectionLimits()
    ) {
        self.signingKey = signingKey
        self.limits = limits
        self.host = host
        self.port = port
        self.apiKey = apiKey
    }
}
