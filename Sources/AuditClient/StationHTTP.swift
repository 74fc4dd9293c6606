import AsyncHTTPClient

extension HTTPClient {
    /// The client a station talks to its server with. A connection that is refused fails at
    /// once: the station's own retry policy (`SyncPolicy`) waits and tries again, and the kiosk
    /// shows "offline" at once. With AsyncHTTPClient's default, each call to a stopped server
    /// instead kept retrying the connection until its own deadline (15 s), so a push of six
    /// attempts took a minute and a half before it said the server was down.
    public static let station: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
