import AuditTestSupport
@testable import AuditServer
import Foundation
import HTTPTypes
import Hummingbird
import InventoryCore
import Logging
import NIOCore
import Testing

@Suite("The OpenAPI document and the 500 envelope")
struct OpenAPITests {
    /// `path → methods` read from the YAML's `paths:` section.
    static func documentedRoutes(_ yaml: String) -> Set<String> {
        var routes = Set<String>()
        var path: String?
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("components:") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "),
                let method = ["get", "post", "put", "delete", "patch"].first(where: { line == "    \($0):" })
            {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteIsServed() async throws {
        try await TestServer.routes { server in
            let (_, routes) = buildRouter(server.parts, settings: server.settings, logger: Logger(label: "test"))
            let served = Set(routes.map(\.description))
            let documented = Self.documentedRoutes(OpenAPIDocument.yaml)
            #expect(served.count > 30)
            #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
            #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
            let answer = try await server.call("GET", "/openapi.yaml")
            #expect(answer.status == 200 && answer.text == OpenAPIDocument.yaml)
            // Every documented route answers with something other than "no such route".
            let token = try await server.user("doc@example.com")
            for route in documented {
                let parts = route.split(separator: " ")
                let path = String(parts[1]).replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{audit_id}", with: "x")
                    .replacingOccurrences(of: "{list}", with: "all")
                let reply = try await server.call(String(parts[0]), path, json: parts[0] == "GET" || parts[0] == "DELETE" ? nil : "{}", token: token)
                #expect(!(reply.status == 404 && (reply.body["message"] as? String)?.hasPrefix("No such call") == true), "\(route)")
                #expect(reply.status < 500, "\(route) answered \(reply.status)")
            }
        }
    }

    @Test("Every documented route, in odd spellings and without credentials, is refused")
    func oddSpellingsGetNoFurtherThanTheChecks() async throws {
        try await TestServer.routes(apiKey: "k-odd") { server in
            _ = try await server.parts.users.create(
                email: "odd@example.com", password: "secret-pass", name: "odd", type: .admin,
                countries: [], canEditAssets: true)
            let login = #"{"email":"odd@example.com","password":"secret-pass","device_name":"t"}"#
            for route in Self.documentedRoutes(OpenAPIDocument.yaml) {
                let parts = route.split(separator: " ")
                let method = String(parts[0])
                let path = String(parts[1]).replacingOccurrences(of: "{id}", with: "1").replacingOccurrences(of: "{audit_id}", with: "x")
                    .replacingOccurrences(of: "{list}", with: "all")
                let spellings = [
                    "/" + path, path.replacingOccurrences(of: "/api/", with: "/./api/"), path + "/",
                    path.replacingOccurrences(of: "/api/", with: "/api//"), path.replacingOccurrences(of: "/api/", with: "/%61pi/"),
                    path.replacingOccurrences(of: "/api/", with: "/api/%2e/"), path.uppercased(),
                    path.replacingOccurrences(of: "/api/", with: "/api/x/../")
                ]
                for spelling in spellings where spelling != path {
                    let reply = try await server.call(method, spelling, json: method == "GET" || method == "DELETE" ? nil : login)
                    #expect((400..<500).contains(reply.status), "\(method) \(spelling) answered \(reply.status): \(reply.text.prefix(120))")
                    #expect(reply.body["success"] as? Bool == false, "\(method) \(spelling): \(reply.text.prefix(120))")
                }
            }
            // The plain spelling still needs the key, and works with it.
            #expect(try await server.call("POST", "/api/v1/auth/login", json: login).status == 401)
            #expect(try await server.call("POST", "/api/v1/auth/login", json: login, headers: ["X-API-Key": "k-odd"]).status == 200)
        }
    }

    struct Secret: Error { let detail = "password=hunter2 at /srv/db.sqlite" }

    @Test func anUnexpectedFailureIs500AndSaysNothingAboutInternals() async throws {
        let middleware = ErrorMiddleware<BasicRequestContext>(logger: Logger(label: "test"))
        let request = Request(head: .init(method: .get, scheme: "http", authority: "x", path: "/boom"), body: .init(buffer: .init()))
        let response = middleware.response(for: Secret(), request: request)
        #expect(response.status.code == 500)
        let sink = BodySink()
        try await response.body.write(CollectingWriter(sink: sink))
        let body = String(buffer: sink.buffer)
        #expect(body.contains("\"success\":false"), "the envelope: \(body)")
        #expect(!body.contains("hunter2") && !body.contains("/srv/db.sqlite") && !body.contains("Secret"), "\(body)")
        try await TestServer.routes { server in
            let token = try await server.user("db@example.com")
            try await server.parts.database.writer.write { db in try db.execute(sql: "DROP TABLE accessory_holdings") }
            let failed = try await server.call("GET", "/api/v2/accessories", token: token)
            #expect(failed.status >= 500)
            #expect(failed.error == "STORAGE_ERROR")
            #expect(!failed.text.contains("accessory_holdings") && !failed.text.lowercased().contains("sqlite"))
        }
    }
}

/// Collects a response body written by the middleware.
final class BodySink: @unchecked Sendable { var buffer = ByteBuffer() }

struct CollectingWriter: ResponseBodyWriter {
    let sink: BodySink
    mutating func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        sink.buffer.writeBuffer(&copy)
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
