import AuditAPI
import Foundation
import HTTPGuard
import Hummingbird
import InventoryCore
import Logging
import NIOHTTP1

/// Turns every error into the JSON envelope, in one place. A failure that is not a known
/// error is logged with its details and answered with a 500 that says nothing about internals.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return response(for: error, request: request)
        }
    }

    /// The error as a client may see it: a storage failure's message may quote SQLite, so it
    /// goes to the log and the client gets a plain one. Every answer that carries a domain
    /// error (whole requests here, each scan of a batch) goes through this.
    static func clientFacing(_ error: InventoryError, path: String, logger: Logger) -> InventoryError {
        guard case .storage = error else { return error }
        logger.error("storage failure", metadata: ["path": "\(path)", "error": "\(error)"])
        return .storage("the server's database could not complete this request; nothing was stored, try again")
    }

    func response(for error: any Error, request: Request) -> Response {
        if let failure = error as? APIFailure {
            var response = Response.failure(FailureEnvelope(failure), status: failure.status)
            if let seconds = failure.retryAfter { response.headers[.retryAfter] = String(seconds) }
            return response
        }
        if let inventoryError = InventoryError(error) {
            let told = Self.clientFacing(inventoryError, path: request.uri.path, logger: logger)
            return .failure(FailureEnvelope(told), status: told.httpStatus)
        }
        if let refusal = error as? Refusal {
            // The connection guard stopped the body (too slow); it has answered the client itself.
            let failure = refusal.failure
            return .failure(FailureEnvelope(failure), status: failure.status)
        }
        if let parserError = error as? HTTPParserError {
            // The body broke off or was not HTTP (a bad chunk size, say): the client's fault.
            let failure = APIFailure.malformed("the request body is not valid HTTP/1.1 (\(parserError))")
            return .failure(FailureEnvelope(failure), status: failure.status)
        }
        if let httpError = error as? HTTPError {
            switch httpError.status {
            case .notFound:
                let failure = APIFailure.routeNotFound(method: request.method.rawValue, path: request.uri.path)
                return .failure(FailureEnvelope(failure), status: failure.status)
            case .contentTooLarge:
                let failure = APIFailure.bodyTooLarge(limit: BodyLimits.standard)
                return .failure(FailureEnvelope(failure), status: failure.status)
            case .badRequest:
                return .failure(FailureEnvelope(APIFailure.malformed(httpError.body ?? "bad request")), status: 400)
            default:
                if httpError.status.code < 500 {
                    return .failure(
                        FailureEnvelope(code: ErrorCode(refusedWith: httpError.status.code), message: httpError.status.reasonPhrase),
                        status: httpError.status.code)
                }
            }
        }
        logger.error(
            "request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(String(reflecting: error))"])
        return .failure(FailureEnvelope(APIFailure.internalError), status: 500)
    }
}

/// Refuses any path that is not written plainly before another middleware or the router sees
/// it: an empty, `.` or `..` segment, percent-encoding, or a trailing slash. The router would
/// match some of those spellings to a route while a check on the text of the path would not,
/// so with one spelling per route every check sees the path the router serves.
struct CanonicalPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isCanonical(request.uri.path) else {
            throw APIFailure.malformed("the path must be written plainly: no empty, '.' or '..' parts, no percent-encoding and no trailing '/'")
        }
        return try await next(request, context)
    }

    static func isCanonical(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return !segments.contains { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("%") || $0.contains("\\") }
    }
}

/// Every API answer is the caller's own and changes from call to call: `Cache-Control: no-store`,
/// so neither a shared cache nor a browser keeps a user's data after they log out, unless the
/// answer names its own policy (a photo: private, no-store). Every answer says `nosniff`, so a
/// browser never runs an answer as another type than it is labelled. Outermost, so refusals
/// carry both too.
struct NoStoreMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.uri.path.hasPrefix("/api/"), response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}

/// When the server has an API key, every call but `/health` and `/openapi.yaml` must send it
/// in `X-API-Key`: the list of exceptions is closed, so a spelling that is not on it is checked.
struct APIKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let key: String
    static var open: Set<String> { [Routes.health, Routes.openAPI] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if !Self.open.contains(request.uri.path), !OfficePage.isPageFile(request.uri.path) {
            let sent = request.headers.first { $0.name.canonicalName == "x-api-key" }?.value ?? ""
            guard ConstantTime.equal(sent, key) else {
                throw InventoryError.unauthorized(sent.isEmpty ? "This server needs an API key: send it in X-API-Key" : "The API key is wrong")
            }
        }
        return try await next(request, context)
    }
}

/// Checks the bearer token and puts its user in the context; 401 when absent or not valid.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AuditRequestContext
    let signer: TokenSigner
    let users: UserDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw InventoryError.unauthorized("Log in first: send `Authorization: Bearer <token>` from POST \(Routes.login)")
        }
        let claims = try await signer.verify(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        var context = context
        context.user = try await users.tokenUser(claims)
        context.token = claims
        return try await next(request, context)
    }
}
