@testable import AuditClient
@testable import ConnectedStation
import AuditAPI
import AuditTestSupport
import ConnectedStore
import Foundation
import InventoryCore
import Testing

/// The client against the OpenAPI document: every answer it reads is read from bodies made from
/// the document's schemas (only the required fields; every field, null where allowed; every
/// field and unknown ones), and every body it sends matches the request schema with no field
/// the document does not name.
@Suite("The client reads and sends what the OpenAPI document says")
struct OpenAPIClientTests {
    static let client = APIClient(baseURL: "http://127.0.0.1:9")

    /// How the client reads the answer of each target, as its calls do.
    static func readers() -> [(target: String, read: @Sendable (Data) throws -> Void)] {
        func enveloped<T: Decodable & Sendable>(_ type: T.Type, check: @escaping @Sendable (T) -> Void = { _ in }) -> @Sendable (Data) throws -> Void
        {
            { data in check(try client.decode(T.self, data, status: 200)) }
        }
        let login: @Sendable (Data) throws -> Void = { data in
            let answer = try LoginAnswer.read(data, server: client.baseURL, status: 200)
            #expect(answer.token == "text" && answer.user.id == 1 && answer.user.userType == .admin)
        }
        let session: @Sendable (Lenient<AuditResponse>) -> Void = { #expect($0.value.audit.id == "text" && $0.value.audit.totalAssets == 1) }
        let asset: @Sendable (Asset) -> Void = { #expect($0.assetTag == "text" && $0.status == .inStock) }
        let accessory: @Sendable (Accessory) -> Void = { #expect($0.name == "text" && $0.totalQuantity >= 0) }
        let customer: @Sendable (Customer) -> Void = { #expect($0.contactNumber == "text") }
        return [
            ("POST /api/v1/auth/login 200", login),
            ("#/components/schemas/Login", login),
            ("POST /api/v1/auth/logout 200", enveloped(Empty.self)),
            ("GET /api/v1/audit/status 200", enveloped(WireStatus.self) { #expect($0.audit == nil || $0.audit?.id == "text") }),
            ("GET /api/v1/audit/countries 200", enveloped(Lenient<CountriesResponse>.self) { #expect($0.value.countries.count == 1) }),
            ("POST /api/v1/audit/start 201", enveloped(Lenient<AuditResponse>.self, check: session)),
            ("GET /api/v1/audit/{audit_id} 200", enveloped(Lenient<AuditResponse>.self, check: session)),
            (
                "POST /api/v1/audit/scan 200",
                enveloped(Lenient<ScanResult>.self) { #expect($0.value.status == .foundExpected && $0.value.progress.totalAssets == 1) }
            ),
            ("POST /api/v1/audit/scans 200", enveloped(Lenient<BatchScanResponse>.self) { #expect($0.value.results.count == 1) }),
            (
                "POST /api/v1/audit/end 200",
                enveloped(Lenient<EndResponse>.self) { #expect($0.value.summary.audit.id == "text" && !$0.value.summary.audit.isActive) }
            ),
            (
                "GET /api/v1/audit/details/{list} 200",
                enveloped(WirePage<WireAuditAsset>.self) { #expect($0.items.count == 1 && $0.pagination.total == 1) }
            ),
            ("GET /api/v1/audit/history 200", enveloped(WirePage<Lenient<AuditSession>>.self) { #expect($0.items.count == 1) }),
            ("GET /api/v2/assets 200", enveloped(ListResponse<Asset>.self) { #expect($0.items.count == 1 && $0.key == "assets") }),
            ("POST /api/v2/assets 201", enveloped(Asset.self, check: asset)),
            ("GET /api/v2/assets/{id} 200", enveloped(Asset.self, check: asset)),
            ("PUT /api/v2/assets/{id} 200", enveloped(Asset.self, check: asset)),
            ("POST /api/v2/assets/{id}/transfer 200", enveloped(Asset.self, check: asset)),
            ("GET /api/v2/assets/find 200", enveloped(Asset?.self)),
            ("DELETE /api/v2/assets/{id} 200", enveloped(DeleteAssetResponse.self)),
            ("POST /api/v2/assets/import 200", enveloped(ImportResponse.self) { #expect($0.imported >= 0) }),
            ("GET /api/v2/accessories 200", enveloped(ListResponse<Accessory>.self) { #expect($0.items.count == 1) }),
            ("POST /api/v2/accessories 201", enveloped(Accessory.self, check: accessory)),
            ("GET /api/v2/accessories/{id} 200", enveloped(Accessory.self, check: accessory)),
            ("PUT /api/v2/accessories/{id} 200", enveloped(Accessory.self, check: accessory)),
            ("POST /api/v2/accessories/{id}/checkout 200", enveloped(Accessory.self, check: accessory)),
            ("POST /api/v2/accessories/{id}/checkin 200", enveloped(Accessory.self, check: accessory)),
            ("DELETE /api/v2/accessories/{id} 200", enveloped(Empty.self)),
            ("GET /api/v2/customers 200", enveloped(ListResponse<Customer>.self) { #expect($0.items.count == 1) }),
            ("POST /api/v2/customers 201", enveloped(Customer.self, check: customer)),
            ("GET /api/v2/customers/{id} 200", enveloped(Customer.self, check: customer)),
            ("PUT /api/v2/customers/{id} 200", enveloped(Customer.self, check: customer)),
            ("DELETE /api/v2/customers/{id} 200", enveloped(Empty.self)),
            (
                "#/components/schemas/Failure",
                { data in
                    let failure = try JSONDecoder.auditStation().decode(WireFailure.self, from: data)
                    #expect(failure.error == "VALIDATION_ERROR" && failure.message == "text")
                    let error = client.failure(status: 422, data: data, path: Routes.auditScan)
                    if case .unavailable = error { Issue.record("an error envelope read as no answer: \(error)") }
                }
            )
        ]
    }

    @Test func everyAnswerTheClientReadsIsReadWithOnlyRequiredFieldsWithNullsAndWithUnknownFields() async throws {
        let readers = Self.readers()
        let examples = try await OpenAPICheck.examples(readers.map(\.target))
        for (target, read) in readers {
            let made = try #require(examples[target], "no examples for \(target)")
            #expect(made.problems.isEmpty, "the examples of \(target) do not match its schema: \(made.problems)")
            for (variant, body) in made.variants {
                do { try read(body.data) } catch {
                    Issue.record("\(target), \(variant): the client cannot read \(String(decoding: body.data, as: UTF8.self).prefix(600)): \(error)")
                }
            }
        }
    }

    @Test func everyBodyTheClientSendsMatchesItsRequestSchemaExactly() async throws {
        let time = ISOTime.parse("2026-05-12T10:30:00Z") ?? Date()
        let entry = OutboxEntry(
            scanID: "s-1", auditID: "a-1", identifier: "SG-1", source: .camera, station: "Dock 1", user: "sam",
            scannedAt: time, localStatus: .foundExpected, localMessage: "Found", addsScanned: true, addsUnexpected: false)
        let asset = AssetInput(
            assetTag: "T-1", serialNum: "S-1", name: "Laptop", model: "X1", status: "DEPLOYED", condition: "GOOD",
            manufacturer: "Lenovo", assetType: "laptop", cpuType: "i7", cpuCores: "8", memory: "16GB", harddrive: "1TB",
            country: "SG", location: "Shelf", company: "Acme", customerId: 3, notes: "n", techNotes: "t",
            isErased: false, hasKeyboard: true, hasCharger: true)
        let accessory = AccessoryInput(
            name: "Mouse", category: "Input", manufacturer: "Logi", modelNo: "M1", totalQuantity: 3,
            country: "SG", notes: "n", imageUrl: "https://example.com/m.png", companyId: 7)
        let customer = CustomerInput(name: "Ann", contactNumber: "+65 1", address: "1 Road", country: "SG", email: "a@example.com", companyId: 7)
        let movement = MovementBody(AccessoryMovement(customerId: 3, quantity: 2, condition: "GOOD", notes: "n"))
        let sent: [(String, any Encodable & Sendable)] = [
            ("POST /api/v1/auth/login", LoginRequest(email: "a@example.com", password: "secret", deviceName: "Dock 1")),
            ("POST /api/v1/audit/start", StartRequest(country: "SG")),
            ("POST /api/v1/audit/scan", ScanRequest(entry)),
            ("POST /api/v1/audit/scans", BatchScanRequest(scans: [ScanRequest(entry)])),
            ("POST /api/v1/audit/end", EndRequest(auditId: "a-1")),
            ("POST /api/v1/audit/end", EndRequest()),
            ("POST /api/v2/assets", asset),
            ("PUT /api/v2/assets/{id}", AssetInput(location: "Shelf 4")),
            ("POST /api/v2/assets/{id}/transfer", TransferRequest(customerId: 3, reason: "r", notes: "n", effectiveDate: "2026-05-12")),
            ("POST /api/v2/assets/import", ImportRequest(rows: [ImportRow(line: 2, input: asset)])),
            ("POST /api/v2/accessories", accessory),
            ("PUT /api/v2/accessories/{id}", accessory),
            ("POST /api/v2/accessories/{id}/checkout", movement),
            ("POST /api/v2/accessories/{id}/checkin", movement),
            ("POST /api/v2/customers", customer),
            ("PUT /api/v2/customers/{id}", customer)
        ]
        let cases = try sent.map { operation, body in
            let data = try JSONEncoder.auditStation().encode(body)
            return OpenAPICheck.Case(
                label: "\(operation) with \(type(of: body))", target: "\(operation) request",
                body: try #require(JSONValue.parse(data)), strict: true)
        }
        let problems = try await OpenAPICheck.validate(cases)
        #expect(
            problems.isEmpty, "bodies the client sends that openapi.yaml does not describe:\n\(problems.map(\.description).joined(separator: "\n"))")
    }

    @Test func theQueryParametersTheClientSendsAreDocumented() async throws {
        let operations = try await OpenAPICheck.operations()
        func names(_ path: String) -> Set<String> {
            Set(operations.first { $0.method == "GET" && $0.path == path }?.parameters.filter { $0.in == "query" }.map(\.name) ?? [])
        }
        let paging = Set(APIClient.listItems(ListQuery(search: "x")).keys)
        for path in [Routes.auditDetails, Routes.auditHistory, Routes.assets, Routes.accessories, Routes.customers] {
            #expect(paging.isSubset(of: names(path)), "\(path) documents \(names(path).sorted()), the client sends \(paging.sorted())")
        }
        #expect(Set(["audit_id", "country"]).isSubset(of: names(Routes.auditDetails)))
        #expect(Set(["status", "country", "customer_id"]).isSubset(of: names(Routes.assets)))
        #expect(names(Routes.auditStatus) == ["country"] && names(Routes.auditHistory).contains("country"))
        #expect(names(Routes.assetFind) == ["identifier"] && names(Routes.auditReport) == ["format", "full"])
    }
}
