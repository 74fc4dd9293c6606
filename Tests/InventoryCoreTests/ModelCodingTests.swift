import Foundation
@testable import InventoryCore
import Testing

/// The models' initializers (hand-written, or the memberwise ones of the models the stores read
/// from rows) and encoders: defaults from the properties' initial values, and every key written,
/// an absent optional as null (the API and the stores promise it).
@Suite("Model initializers and encoders")
struct ModelCodingTests {
    static func json(_ value: some Encodable) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return try #require(JSONSerialization.jsonObject(with: encoder.encode(value)) as? [String: Any])
    }

    @Test("The memberwise initializer takes a property's initial value as its default, and nil for an optional")
    func defaults() {
        let asset = Asset(assetTag: "SG-1", name: "Laptop", country: "SG")
        #expect(asset.id == 0 && asset.status == .inStock && asset.condition == nil && asset.serialNum == nil)
        #expect(!asset.isErased && !asset.hasKeyboard && !asset.hasCharger)
        let input = AssetInput()
        #expect(input.assetTag == nil && input.isErased == nil)
        let customer = Customer(name: "Acme", contactNumber: "1", address: "Road 1", country: "SG", createdAt: .distantPast)
        #expect(customer.createdAt == .distantPast && customer.email == nil)
    }

    @Test("Every key is written, an absent optional as null, and what is written decodes back")
    func nullsAndRoundTrip() throws {
        let tally = LocationTally(location: nil, expected: 3, found: 1, misplaced: 0)
        let written = try Self.json(tally)
        #expect(Set(written.keys) == ["location", "expected", "found", "missing", "misplaced"])
        #expect(written["location"] is NSNull && written["missing"] as? Int == 2)

        let summary = ReportSummary(
            AuditSession(
                id: "a1", country: "SG", progress: AuditProgress(totalAssets: 3, scannedCount: 1, unexpectedCount: 0),
                startedAt: Date(timeIntervalSince1970: 1_800_000_000), startedBy: "alice"),
            byLocation: [tally])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(summary)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["endedAt"] is NSNull && object["endedBy"] is NSNull && object["locations"] is NSNull)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(ReportSummary.self, from: data) == summary)
    }

    /// `@Nullable` writes an absent optional as null, and reads a missing key, or a null, as absent.
    @Test("A Nullable property is written as null, and a missing key reads as absent")
    func nullableProperties() throws {
        struct Sample: Codable, Equatable {
            var name: String
            @Nullable var note: String? = nil
            @Nullable var count: Int? = nil
        }
        #expect(try Self.json(Sample(name: "a"))["note"] is NSNull)
        #expect(try Self.json(Sample(name: "a", note: "n", count: 2))["count"] as? Int == 2)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"a"}"#.utf8)) == Sample(name: "a"))
        #expect(try decoder.decode(Sample.self, from: Data(#"{"name":"a","note":null,"count":3}"#.utf8)) == Sample(name: "a", count: 3))
        #expect(throws: DecodingError.self) { try decoder.decode(Sample.self, from: Data(#"{"name":"a","count":"x"}"#.utf8)) }

        let accessory = try Self.json(
            ReportAccessory(AccessoryTally(accessoryId: 1, tag: "CABLE-1", name: "Cable", location: nil, expected: 2, counted: 1)))
        #expect(accessory["location"] is NSNull && accessory["difference"] as? Int == -1)
    }
}
