@testable import AuditClient
import AuditAPI
import Foundation
import InventoryCore
import Testing

/// Answers as other servers write them: bare or enveloped, optional fields missing or null,
/// unknown fields, and error codes taken from the envelope's `error`, never from its message.
@Suite("Reading any server's answers")
struct LenientAnswerTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder.auditStation().decode(type, from: Data(json.utf8))
    }

    @Test(arguments: [
        #"{"token":"2|abc","token_type":"Bearer","user":{"id":5,"name":"Jane","email":"jane@example.com","user_type":"standard"},"abilities":{"jobcards":["list"]}}"#,
        #"{"success":true,"message":"OK","data":{"token":"2|abc","expires_at":null,"user":{"id":"5","name":"Jane","email":"jane@example.com","user_type":null,"countries":null},"abilities":null,"extra":[1,2]}}"#
    ])
    func aLoginAnswerIsReadBareOrEnveloped(json: String) throws {
        let answer = try LoginAnswer.read(Data(json.utf8), server: "http://x", status: 200)
        #expect(answer.token == "2|abc" && answer.expiresAt == nil)
        #expect(answer.user == UserInfo(id: 5, name: "Jane", email: "jane@example.com", userType: .staff, canEditAssets: false, countries: []))
    }

    @Test func ourLoginAnswerKeepsItsExpiryAndCountries() throws {
        let json =
            #"{"success":true,"data":{"token":"a.b.c","token_type":"Bearer","expires_at":"2026-12-01T10:00:00Z","user":{"id":1,"name":"Ann","email":"a@x","user_type":"ADMIN","can_edit_assets":true,"countries":["SG"]},"abilities":{"assets":["edit"]}}}"#
        let answer = try LoginAnswer.read(Data(json.utf8), server: "http://x", status: 200)
        #expect(answer.expiresAt == ISOTime.parse("2026-12-01T10:00:00Z"))
        #expect(answer.user.userType == .admin && answer.user.canEditAssets && answer.user.countries == ["SG"])
    }

    @Test func aLoginAnswerWithoutAToken() {
        #expect(throws: InventoryError.self) { try LoginAnswer.read(Data(#"{"message":"hello"}"#.utf8), server: "http://x", status: 200) }
        #expect(throws: InventoryError.self) { try LoginAnswer.read(Data("<html>".utf8), server: "http://x", status: 200) }
    }

    @Test func anAuditSessionInSeed004sShape() throws {
        let json =
            #"{"id":"a1","country":"sg","total_assets":4,"scanned_count":1,"unexpected_count":2,"completion_percentage":25,"started_at":"2026-05-12T10:30:00Z","started_by":7,"is_active":true,"team":{"id":3}}"#
        let session = try Self.decode(Lenient<AuditSession>.self, json).value
        #expect(session.country == "SG" && session.startedBy == "7" && session.missingCount == 3 && session.isActive)
        let status = try Self.decode(WireStatus.self, #"{"active":true,"audit":\#(json)}"#)
        #expect(status.audits.map(\.id) == ["a1"] && !status.offersAudits)
        let idle = try Self.decode(WireStatus.self, #"{"active":false,"audit":null}"#)
        #expect(idle.audits.isEmpty && idle.audit == nil)
    }

    @Test func anEnvelopeWithoutSuccessStillGivesItsData() throws {
        let client = APIClient(baseURL: "http://127.0.0.1:1")
        let body =
            #"{"data":{"active":true,"audit":{"id":"a1","country":"SG","total_assets":1,"scanned_count":0,"unexpected_count":0,"started_at":"2026-05-12T10:30:00Z","started_by":"Ann"}}}"#
        #expect(try client.decode(WireStatus.self, Data(body.utf8), status: 200).audits.map(\.id) == ["a1"])
    }

    @Test func aScanAnswerWithoutOurFields() throws {
        let json =
            #"{"status":"unexpected","message":"Unexpected","asset":{"id":9,"asset_tag":"M1","serial_num":null,"name":"Laptop","model":null,"status":"in_use","location":null,"company":null},"progress":{"total_assets":5,"scanned_count":1,"unexpected_count":1,"completion_percentage":20}}"#
        let answer = try Self.decode(Lenient<ScanResult>.self, json).value
        #expect(answer.status == .unexpected && answer.asset?.id == 9 && answer.asset?.status == .inStock)
        #expect(answer.givesProgress && answer.progress == AuditProgress(totalAssets: 5, scannedCount: 1, unexpectedCount: 1))
    }

    @Test func aPageWhoseArrayIsNamedOtherwise() throws {
        let page = try Self.decode(
            WirePage<WireAuditAsset>.self,
            #"{"data":[{"id":null,"asset_tag":null,"identifier":"X","reason":"unknown"}],"pagination":{"page":1,"per_page":100,"total":1,"last_page":1}}"#
        )
        #expect(page.items.count == 1 && page.items[0].asset.id == nil && page.items[0].asset.reason == .unknown && !page.items[0].hasOutcome)
    }

    @Test(arguments: [
        (409, #"{"success":false,"error":"AUDIT_ENDED","message":"Not found: anything"}"#, InventoryError.auditEnded("?")),
        (404, #"{"success":false,"error":"SOMETHING_ELSE","message":"Audit ended"}"#, InventoryError.notFound("Audit ended")),
        (403, #"{"error":"forbidden"}"#, InventoryError.forbidden("HTTP 403 from /p")),
        (
            422, #"{"message":"The given data was invalid.","errors":{"identifier":["is required"]}}"#,
            InventoryError.invalid(ValidationError(field: "identifier", message: "is required"))
        )
    ])
    func theErrorComesFromTheCodeThenTheStatus(status: Int, body: String, expected: InventoryError) {
        let client = APIClient(baseURL: "http://127.0.0.1:1")
        #expect(client.failure(status: status, data: Data(body.utf8), path: "/p") == expected)
    }

    /// An empty 404 from a proxy or an HTML page refuses nothing: the scan stays pending.
    @Test(arguments: [(404, ""), (405, "<html>no</html>"), (422, "not json")])
    func anAnswerThatIsNoAuditAPIErrorIsRetried(status: Int, body: String) {
        let client = APIClient(baseURL: "http://127.0.0.1:1")
        #expect(client.failure(status: status, data: Data(body.utf8), path: "/p").code == .unavailable)
    }

    /// Our server's envelope of each error, read back by the station: the same error, from the
    /// code and `data`, whatever the message says around it.
    @Test(arguments: [
        InventoryError.notFound("asset 12"), .forbidden("editing assets"), .duplicate(field: "asset_tag", value: "SG-1"),
        .auditAlreadyActive(country: "SG", auditID: "3f2a"), .noActiveAudit(country: "MY"), .noActiveAudit(country: nil),
        .ambiguousAudit(countries: ["MY", "SG"]), .auditEnded("3f2a"), .auditRunning("3f2a"),
        .stationsOut(auditID: "3f2a", stations: ["kiosk-2, last heard from 5 minutes ago"]), .inUse("Customer Acme still has 1 asset"),
        .invalid(ValidationError(field: "country", message: "is required"))
    ])
    func eachErrorComesBackAsItWasSent(error: InventoryError) throws {
        let body = try JSONEncoder.auditStation().encode(FailureEnvelope(error))
        let client = APIClient(baseURL: "http://127.0.0.1:1")
        #expect(client.failure(status: error.httpStatus, data: body, path: "/p") == error)
    }
}
