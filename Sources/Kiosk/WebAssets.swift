import Hummingbird
import NIOCore
import PageScripts

/// The page's files, embedded in the executable at build time (Sources/Kiosk/Web): the kiosk
/// needs no internet, no CDN and no files beside the binary.
struct WebAssets: Sendable {
    let bytes: [UInt8]
    let type: String

    /// Every file the page loads, by the path it is served at: the one list of them (the routes,
    /// the allowed methods and the paths open without the PIN all come from it). The script is
    /// ES modules under /js/ that the browser loads as they are; /js/main.js imports the others.
    /// A new file also needs its `.embedInCode` entry in the Kiosk target of Package.swift.
    static let files: [String: WebAssets] = [
        "/": index,
        "/index.html": index,
        "/kiosk.css": WebAssets(bytes: PackageResources.kiosk_css, type: "text/css; charset=utf-8"),
        "/js/main.js": script(PackageResources.main_js),
        "/js/app.js": script(PackageResources.app_js),
        "/js/dom.js": script(PackageResources.dom_js),
        "/js/api.js": script(PackageResources.api_js),
        "/js/screens.js": script(PackageResources.screens_js),
        "/js/connection.js": script(PackageResources.connection_js),
        "/js/pin.js": script(PackageResources.pin_js),
        "/js/start.js": script(PackageResources.start_js),
        "/js/scanqueue.js": script(PackageResources.scanqueue_js),
        "/js/outcomes.js": script(PackageResources.outcomes_js),
        "/js/progress.js": script(PackageResources.progress_js),
        "/js/recent.js": script(PackageResources.recent_js),
        "/js/lists.js": script(PackageResources.lists_js),
        "/js/focus.js": script(PackageResources.focus_js),
        "/js/dialogs.js": script(PackageResources.dialogs_js),
        "/js/count.js": script(PackageResources.count_js),
        "/js/summary.js": script(PackageResources.summary_js),
        "/js/camera.js": script(PackageResources.camera_js),
        "/js/gun.js": script(PackageResources.gun_js),
        "/js/place.js": script(PackageResources.place_js),
        "/js/bus.js": script(PackageResources.bus_js),
        "/js/mute.js": script(PackageResources.mute_js),
        "/js/dialog.js": script(PackageResources.dialog_js),
        "/js/elements.js": script(PageScripts.elements),
        "/js/burst.js": script(PageScripts.burst),
        "/js/format.js": script(PageScripts.format),
        "/js/words.js": script(PageScripts.words),
        "/js/sound.js": script(PageScripts.sound),
        "/js/queue.js": script(PageScripts.queue)
    ]

    static let index = WebAssets(bytes: PackageResources.index_html, type: "text/html; charset=utf-8")

    /// A module script must come with a JavaScript type, or the browser refuses to run it.
    static func script(_ bytes: [UInt8]) -> WebAssets {
        WebAssets(bytes: bytes, type: "text/javascript; charset=utf-8")
    }

    /// Everything from the kiosk itself; `script-src 'self'` is all the module imports need.
    static let policy =
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        + "media-src 'self'; frame-ancestors 'none'"

    func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache", .contentSecurityPolicy: Self.policy],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
