import Foundation
import HTTPGuard
import Scanning

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
    /// The certificate and key to answer HTTPS with on the same port; nil: plain HTTP.
    public var tls: TLSFiles?
    /// How `POST /api/v1/decode` reads frames: the station configuration's `decoder`.
    public var decoder: DecoderConfig
    /// Frames each user may send to `POST /api/v1/decode`.
    public var decodeRate: DecodeRate

    public init(
        host: String = "127.0.0.1", port: Int = 8080, apiKey: String? = nil,
        signingKey: SigningKeySource? = nil, limits: ConnectionLimits = ConnectionLimits(), tls: TLSFiles? = nil,
        decoder: DecoderConfig = DecoderConfig(), decodeRate: DecodeRate = DecodeRate()
    ) {
        self.tls = tls
        self.decoder = decoder
        self.decodeRate = decodeRate
        self.signingKey = signingKey
        self.limits = limits
        self.host = host
        self.port = port
        self.apiKey = apiKey
    }
}
