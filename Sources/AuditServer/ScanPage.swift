import Foundation
import HTTPTypes
import Hummingbird
import PageScripts

/// The phone page at `/scan`: a roaming audit with a phone's camera, a Bluetooth gun or the
/// keyboard, served by `serve` and `audit-station office` beside the back office. It decodes
/// nothing itself: frames go to `POST /api/v1/decode`, scans to `POST /api/v1/audit/scan`, each
/// kept in the browser until the server answered it. A phone's browser gives the page its
/// camera only over HTTPS (`--tls-cert`/`--tls-key`), or on the phone's own loopback.
enum ScanPage {
    typealias File = OfficePage.File

    static let files: [String: File] = [
        "/scan": File(bytes: PackageResources.scan_html, type: OfficePage.html),
        "/scan/scan.css": File(bytes: PackageResources.scan_css, type: "text/css; charset=utf-8"),
        "/scan/js/phone.js": File(bytes: PackageResources.phone_js, type: OfficePage.script),
        "/scan/js/server.js": File(bytes: PackageResources.server_js, type: OfficePage.script),
        "/scan/js/camera.js": File(bytes: PackageResources.camera_js, type: OfficePage.script),
        "/scan/js/outcome.js": File(bytes: PackageResources.outcome_js, type: OfficePage.script),
        "/scan/js/count.js": File(bytes: PackageResources.count_js, type: OfficePage.script),
        "/scan/js/elements.js": File(bytes: PageScripts.elements, type: OfficePage.script),
        "/scan/js/burst.js": File(bytes: PageScripts.burst, type: OfficePage.script),
        "/scan/js/format.js": File(bytes: PageScripts.format, type: OfficePage.script),
        "/scan/js/words.js": File(bytes: PageScripts.words, type: OfficePage.script),
        "/scan/js/sound.js": File(bytes: PageScripts.sound, type: OfficePage.script),
        "/scan/js/queue.js": File(bytes: PageScripts.queue, type: OfficePage.script),
        "/scan/js/login.js": File(bytes: PageScripts.login, type: OfficePage.script)
    ]

    /// The back office's policy, with the camera's preview (a MediaStream) and the frames drawn
    /// from it; the camera itself is allowed to this origin only.
    static let policy =
        "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    /// The service worker, at /scan/sw.js with the scope /scan (its header allows that scope, a
    /// level above its own folder): it keeps the files above on the phone, so a reload without
    /// Wi-Fi still opens the page and its waiting scans. The list of files is filled in from
    /// `files`, so the two never differ.
    static let worker: File = {
        let template = String(decoding: PackageResources.worker_js, as: UTF8.self)
        let list = files.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return File(bytes: Array(template.replacingOccurrences(of: "[\"/*FILES*/\"]", with: "[\(list)]").utf8), type: OfficePage.script)
    }()

    static func add<Context: RequestContext>(to router: Router<Context>) {
        OfficePage.serve(files, policy: policy, extra: [HTTPField.Name("Permissions-Policy")!: "camera=(self)"], on: router)
        OfficePage.serve(["/scan/sw.js": worker], policy: policy, extra: [HTTPField.Name("Service-Worker-Allowed")!: "/scan"], on: router)
    }
}
