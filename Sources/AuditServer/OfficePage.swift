import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PageScripts

/// The back office: a page for auditors, supervisors and exporters, served by `serve` at `/`.
/// Plain HTML, CSS and JS modules embedded in the executable (Sources/AuditServer/Office), with
/// no build step and no CDN. It talks to the server only through the public API, as any client
/// does, with the token in sessionStorage (never a cookie). The files themselves hold nothing
/// secret, so they are open; every call the page makes needs the login (and the API key, when
/// the server has one).
enum OfficePage {
    struct File: Sendable {
        let bytes: [UInt8]
        let type: String
    }

    static let html = "text/html; charset=utf-8"
    static let script = "text/javascript; charset=utf-8"

    static let files: [String: File] = [
        "/": File(bytes: PackageResources.index_html, type: html),
        "/office/office.css": File(bytes: PackageResources.office_css, type: "text/css; charset=utf-8"),
        "/office/js/main.js": File(bytes: PackageResources.main_js, type: script),
        "/office/js/api.js": File(bytes: PackageResources.api_js, type: script),
        "/office/js/dom.js": File(bytes: PackageResources.dom_js, type: script),
        "/office/js/views.js": File(bytes: PackageResources.views_js, type: script),
        "/office/js/chart.js": File(bytes: PackageResources.chart_js, type: script),
        "/office/js/form.js": File(bytes: PackageResources.form_js, type: script),
        "/office/js/records.js": File(bytes: PackageResources.records_js, type: script),
        "/office/js/users.js": File(bytes: PackageResources.users_js, type: script),
        "/office/js/labels.js": File(bytes: PackageResources.labels_js, type: script),
        "/office/js/plans.js": File(bytes: PackageResources.plans_js, type: script),
        "/office/js/webhooks.js": File(bytes: PackageResources.webhooks_js, type: script),
        "/office/js/elements.js": File(bytes: PageScripts.elements, type: script),
        "/office/js/burst.js": File(bytes: PageScripts.burst, type: script),
        "/office/js/format.js": File(bytes: PageScripts.format, type: script),
        "/office/js/login.js": File(bytes: PageScripts.login, type: script)
    ]

    /// Only the server's own files and calls; no inline script or style; photos come as blobs.
    static let policy =
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    static func add<Context: RequestContext>(to router: Router<Context>) {
        serve(files, policy: policy, on: router)
    }

    /// Serves a page's files: each with its type, revalidated on every load (a new build's page
    /// is never mixed with an old one's modules), under `policy`.
    static func serve<Context: RequestContext>(
        _ files: [String: File], policy: String, extra: HTTPFields = [:], on router: Router<Context>
    ) {
        for (path, file) in files {
            router.get(RouterPath(path)) { _, _ in
                var headers: HTTPFields = [
                    .contentType: file.type, .cacheControl: "no-cache", .contentSecurityPolicy: policy,
                    HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer"
                ]
                headers.append(contentsOf: extra)
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
            }
        }
    }

    /// Whether `path` is a file of a page (open without the API key: the files hold no secret).
    static func isPageFile(_ path: String) -> Bool {
        files[path] != nil || ScanPage.files[path] != nil || path == "/scan/sw.js"
    }
}
