import Hummingbird
import NIOCore

/// One request to the kiosk, with the address of the browser that sent it (the PIN rule).
struct KioskRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let peer: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }

    /// The kiosk's bodies are small JSON objects.
    var maxUploadSize: Int { KioskRoutes.maxBody }
}
