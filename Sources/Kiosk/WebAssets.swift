import Hummingbird
import NIOCore

/// The page's files, embedded in the executable at build time (Sources/Kiosk/Web): the kiosk
/// needs no internet, no CDN and no files beside the binary.
struct WebAssets: Sendable {
    let bytes: [UInt8]
    let type: String

    static let index = WebAssets(bytes: PackageResources.index_html, type: "text/html; charset=utf-8")
    static let css = WebAssets(bytes: PackageResources.kiosk_css, type: "text/css; charset=utf-8")
    static let js = WebAssets(bytes: PackageResources.kiosk_js, type: "text/javascript; charset=utf-8")

    func response() -> Response {
        Response(status: .ok,
                 headers: [.contentType: type, .cacheControl: "no-cache",
                           .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; media-src 'self'; frame-ancestors 'none'"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
