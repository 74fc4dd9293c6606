import Foundation
import HTTPGuard
import HTTPTypes
import Hummingbird
import Logging

/// What every request to the kiosk passes first:
/// - from another machine, the PIN, before anything else: a browser without a session reaches
///   only the page's files, the state and the PIN call, and learns nothing else of the kiosk;
/// - the `Host` header names this kiosk (an IP address, localhost, or the configured host), so
///   a web site cannot reach the kiosk through DNS rebinding;
/// - a known path with the wrong method answers 405, an unknown path 404;
/// - a `POST` carries `X-Kiosk: 1` and a JSON content type, which a page of another site
///   cannot send without a CORS preflight that the kiosk never allows;
/// - any failure becomes the kiosk's JSON error, with no internals.
struct KioskGuard: RouterMiddleware {
    typealias Context = KioskRequestContext
    let gate: PinGate
    let allowedHosts: Set<String>
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try check(request, peer: context.peer)
            var response = try await next(request, context)
            response.headers[.xContentTypeOptions] = "nosniff"
            response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            return response
        } catch {
            return Self.errorResponse(error, logger: logger, path: request.uri.path)
        }
    }

    func check(_ request: Request, peer: String?) throws {
        let path = request.uri.path
        if !Self.openPaths.contains(path) && !gate.admits(peer: peer, cookieHeader: request.headers[.cookie]) {
            throw KioskError(status: .unauthorized, code: .pinRequired, message: "Enter the station's PIN first")
        }
        guard let host = request.head.authority, hostAllowed(host) else {
            throw KioskError(status: .forbidden, code: .foreignHost, message: "This kiosk answers only to its own address")
        }
        guard let methods = KioskRoutes.methods[path] else {
            throw KioskError.notFound("There is no \(path) on this kiosk")
        }
        guard methods.contains(request.method) else {
            let allowed = methods.map(\.rawValue).sorted().joined(separator: ", ")
            throw KioskError(
                status: .methodNotAllowed, code: .methodNotAllowed,
                message: "\(path) takes \(allowed), not \(request.method.rawValue)", headers: [.allow: allowed])
        }
        if request.method == .post {
            guard request.headers[HTTPField.Name("X-Kiosk")!] == "1" else {
                throw KioskError(status: .forbidden, code: .notFromKioskPage, message: "Send the header X-Kiosk: 1 with every POST")
            }
            let type = request.headers[.contentType]?.lowercased() ?? ""
            guard type.hasPrefix("application/json") else {
                throw KioskError(status: .unsupportedMediaType, code: .unsupportedMediaType, message: "Send the body as application/json")
            }
        }
    }

    /// What a page on another machine loads before its PIN: the page's files, the state (which
    /// says a PIN is needed) and the PIN call itself.
    static let openPaths = Set(WebAssets.files.keys).union(["/api/state", "/api/pin"])

    private func hostAllowed(_ authority: String) -> Bool {
        var host = authority.lowercased()
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return false }
            host = String(host[host.index(after: host.startIndex)..<end])
            return host.contains(":") || allowedHosts.contains(host)
        }
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        if allowedHosts.contains(host) { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    static func errorResponse(_ error: any Error, logger: Logger, path: String) -> Response {
        let kiosk: KioskError
        if let kioskError = error as? KioskError {
            kiosk = kioskError
        } else if let refusal = error as? Refusal {
            // The connection guard stopped the body (too slow) and has answered the client itself.
            kiosk = KioskError(status: .init(code: refusal.status), code: .requestTimeout, message: "The request did not arrive in time")
        } else if let http = error as? any HTTPResponseError {
            // Hummingbird's own refusals: a body over the limit, a malformed request.
            let detail = (http as? HTTPError)?.body
            kiosk =
                switch http.status {
                case .contentTooLarge:
                    KioskError(status: .contentTooLarge, code: .bodyTooLarge, message: "The body is over \(KioskRoutes.maxBody / 1024) KiB")
                case .notFound: .notFound("There is no \(path) on this kiosk")
                case .methodNotAllowed:
                    KioskError(status: .methodNotAllowed, code: .methodNotAllowed, message: "\(path) does not take that method")
                default:
                    http.status.code < 500
                        ? KioskError(status: .badRequest, code: .badRequest, message: detail ?? "The request is malformed")
                        : KioskError(status: .internalServerError, code: .internalError, message: "The kiosk could not do that; see the kiosk's log")
                }
        } else {
            kiosk = KioskError(error)
        }
        if kiosk.status == .internalServerError { logger.error("\(path): \(error)") }
        var headers = kiosk.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        let data = (try? JSONEncoder.auditStation().encode(ErrorBody(error: kiosk.code, message: kiosk.message))) ?? Data()
        return Response(status: kiosk.status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
