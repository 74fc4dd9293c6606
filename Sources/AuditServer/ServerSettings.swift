import Foundation

/// How the server runs.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// When set, every /api call must carry it in `X-API-Key`.
    public var apiKey: String?
    /// Tags and serial numbers match case-sensitively unless configured otherwise.
    public var caseSensitiveTags: Bool
    /// The station name recorded for a scan that names none.
    public var defaultStation: String
    /// Where the token-signing key comes from; nil: the key file beside the database.
    public var signingKey: SigningKeySource?
    /// Connections at once, and how long headers and silence may take.
    public var limits: ConnectionLimits

    public init(host: String = "127.0.0.1", port: Int = 8080, apiKey: String? = nil, caseSensitiveTags: Bool = true,
                defaultStation: String = "server", signingKey: SigningKeySource? = nil, limits: ConnectionLimits = ConnectionLimits()) {
        self.signingKey = signingKey; self.limits = limits
        self.host = host; self.port = port; self.apiKey = apiKey
        self.caseSensitiveTags = caseSensitiveTags; self.defaultStation = defaultStation
    }
}
