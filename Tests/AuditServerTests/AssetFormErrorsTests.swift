import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// A form's errors come at once: a taken tag is named beside the other fields' errors, not
/// only once they are fixed.
@Suite("Asset form errors at once")
struct AssetFormErrorsTests {
    @Test(arguments: Backend.allCases) func aTakenTagIsNamedWithTheOtherErrors(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("root@example.com")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG")])
            let created = try await server.call("POST", "/api/v2/assets", json: #"{"asset_tag":"SG-1","name":"X","country":"XX"}"#, token: token)
            #expect(created.status == 422, "\(created.text)")
            let errors = created.body["errors"] as? [String: Any] ?? [:]
            #expect(errors["country"] != nil && "\(errors["asset_tag"] ?? "")".contains("SG-1"), "\(created.text)")
            // An edit that keeps its own tag is not told the tag is taken; another's tag is.
            let sg2 = try #require(try await server.parts.backend.assets.find(identifier: "SG-2"))
            let own = try await server.call("PUT", "/api/v2/assets/\(sg2.id)", json: #"{"asset_tag":"SG-2","country":"XX"}"#, token: token)
            #expect(own.status == 422 && (own.body["errors"] as? [String: Any])?["asset_tag"] == nil, "\(own.text)")
            let taken = try await server.call("PUT", "/api/v2/assets/\(sg2.id)", json: #"{"asset_tag":"SG-1","country":"XX"}"#, token: token)
            #expect(taken.status == 422 && (taken.body["errors"] as? [String: Any])?["asset_tag"] != nil, "\(taken.text)")
            // Valid otherwise: still the 409 DUPLICATE it was.
            let duplicate = try await server.call("POST", "/api/v2/assets", json: #"{"asset_tag":"SG-1","name":"X","country":"SG"}"#, token: token)
            #expect(duplicate.status == 409, "\(duplicate.text)")
        }
    }
}
