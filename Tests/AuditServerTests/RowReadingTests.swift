import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
@testable import PostgresStore
import Testing
import TestKit

/// Both stores read assets, customers, accessories, users and webhook deliveries by the models'
/// own field names in snake case (GRDB's `convertFromSnakeCase`, and `PGRowDecoder`), so each model's fields are listed
/// once, in the model.
@Suite("Records read from rows")
struct RowReadingTests {
    @Test("Every field of an asset, a customer and an accessory is read back as written", arguments: Backend.allCases)
    func everyFieldIsReadBack(backend kind: Backend) async throws {
        let (backend, close) = try await kind.make()
        try await withCleanup {
            let customer = try await backend.customers.create(
                CustomerInput(name: "Acme", contactNumber: "+65 1234", address: "1 Road", country: "SG", email: "ops@acme.test"))
            #expect(customer.id > 0 && customer.contactNumber == "+65 1234" && customer.email == "ops@acme.test")
            #expect(customer.companyId == nil)
            #expect(try await backend.customers.get(id: customer.id) == customer)

            let created = try await backend.assets.create(
                AssetInput(
                    assetTag: "SG-1", serialNum: "SN1", name: "ThinkPad", model: "T14", status: "DEPLOYED", condition: "GOOD",
                    manufacturer: "Lenovo", assetType: "laptop", cpuType: "i7", cpuCores: "8", memory: "32GB", harddrive: "1TB",
                    country: "SG", location: "HQ", company: "Acme", notes: "line one\nline two", techNotes: "BIOS pw set", isErased: true,
                    hasKeyboard: true, hasCharger: true))
            let asset = try await backend.assets.transfer(id: created.id, TransferRequest(customerId: customer.id))
            let read = try await backend.assets.get(id: asset.id)
            #expect(read == asset)
            #expect(read.serialNum == "SN1" && read.status == .deployed && read.condition == .good && read.assetType == "laptop")
            #expect(read.cpuType == "i7" && read.cpuCores == "8" && read.harddrive == "1TB" && read.techNotes == "BIOS pw set")
            #expect(read.isErased && read.hasKeyboard && read.hasCharger && read.customerId == customer.id && read.customer == "Acme")
            #expect(read.lastAuditedAt == nil)

            let accessory = try await backend.accessories.create(
                AccessoryInput(
                    name: "USB-C charger", category: "Power", manufacturer: "Anker", modelNo: "A2633", totalQuantity: 5, country: "SG",
                    notes: "65 W", imageUrl: "https://example.test/a.png", tag: "ACC-1", location: "HQ"))
            let held = try await backend.accessories.checkout(id: accessory.id, AccessoryMovement(customerId: customer.id, quantity: 2))
            let readAccessory = try await backend.accessories.get(id: accessory.id)
            #expect(readAccessory == held)
            #expect(readAccessory.totalQuantity == 5 && readAccessory.availableQuantity == 3 && readAccessory.modelNo == "A2633")
            #expect(readAccessory.imageUrl == "https://example.test/a.png" && readAccessory.tag == "ACC-1" && readAccessory.location == "HQ")
        } cleanup: {
            await close()
        }
    }

    @Test("A user's comma-joined countries and a delivery's state are read back by field names", arguments: Backend.allCases)
    func usersAndDeliveries(backend kind: Backend) async throws {
        let (backend, close) = try await kind.make()
        try await withCleanup {
            let pat = try await backend.users.create(
                email: "pat@example.test", name: "Pat", passwordHash: "$2b$hash", userType: "STAFF", canEditAssets: true,
                countries: ["MY", "SG"])
            let any = try await backend.users.create(
                email: "any@example.test", name: "Any", passwordHash: "$2b$other", userType: "ADMIN", canEditAssets: false, countries: [])
            #expect(pat.countries == ["MY", "SG"] && any.countries.isEmpty, "an empty column is no country, not one empty name")
            #expect(pat.passwordHash == "$2b$hash" && pat.userType == "STAFF" && pat.canEditAssets && pat.tokenKey.count == 32)
            #expect(pat.disabledAt == nil && !any.canEditAssets)
            #expect(try await backend.users.find(email: "pat@example.test") == pat)
            #expect(try await backend.users.get(id: any.id) == any)
            #expect(try await backend.users.all() == [pat, any])
            let disabled = try await backend.users.setDisabled(email: "pat@example.test", true)
            #expect(disabled.disabledAt != nil && disabled.tokenKey != pat.tokenKey && disabled.countries == ["MY", "SG"])

            _ = try await backend.assets.create(AssetInput(assetTag: "SG-1", name: "Laptop", country: "SG"))
            let hook = try await backend.webhooks.add(
                WebhookInput(url: "http://127.0.0.1:9/hook", events: ["audit.ended"], secret: "a-secret-of-some-length"))
            let actor = Actor(user: "pat", station: "kiosk-1")
            for _ in 0..<3 {
                let audit = try await backend.audits.start(country: "SG", by: actor)
                _ = try await backend.audits.end(auditID: audit.id, by: actor)
            }
            let now = Date()
            let claimed = try await backend.webhooks.claim(at: now, limit: 10).sorted { $0.id < $1.id }
            #expect(claimed.count == 3)
            try await backend.webhooks.attempted(
                WebhookAttempt(deliveryId: claimed[0].id, at: now, status: 204, error: nil), delivered: true, nextAttemptAt: nil)
            try await backend.webhooks.attempted(
                WebhookAttempt(deliveryId: claimed[1].id, at: now, status: nil, error: "refused"), delivered: false, nextAttemptAt: nil)
            try await backend.webhooks.attempted(
                WebhookAttempt(deliveryId: claimed[2].id, at: now, status: 500, error: nil), delivered: false,
                nextAttemptAt: now.addingTimeInterval(60))
            let deliveries = try await backend.webhooks.deliveries(failedOnly: false, limit: 10).sorted { $0.id < $1.id }
            #expect(deliveries.map(\.state) == [.delivered, .failed, .pending])
            #expect(deliveries.allSatisfy { $0.webhookId == hook.id && $0.url == hook.url && $0.event == .auditEnded && $0.attempts == 1 })
            #expect(deliveries[0].deliveredAt != nil && deliveries[0].lastStatus == 204 && deliveries[0].nextAttemptAt == nil)
            #expect(deliveries[1].deliveredAt == nil && deliveries[1].lastError == "refused" && deliveries[1].lastStatus == nil)
            #expect(deliveries[2].nextAttemptAt != nil && deliveries[2].lastStatus == 500)
            #expect(try await backend.webhooks.deliveries(failedOnly: true, limit: 10).map(\.id) == [claimed[1].id])
        } cleanup: {
            await close()
        }
    }

    @Test("PostgreSQL: a field's column is its name in snake case; a missing optional one is nil, a missing required one is named")
    func missingColumns() async throws {
        #expect(PGRowDecoder.column(Field.contactNumber) == "contact_number" && PGRowDecoder.column(Field.imageUrl) == "image_url")
        try await PostgresCluster.withNewDatabase { database in
            try await database.read { connection in
                let required = "'Acme' AS name, '+65' AS contact_number, 'Road' AS address, 'SG' AS country"
                let rest = "\(required), now() AS created_at, now() AS updated_at"
                let whole = try #require(try await connection.row("SELECT 1::BIGINT AS id, \(unescaped: rest)"))
                let customer = try PGRowDecoder.decode(Customer.self, from: whole)
                #expect(customer.id == 1 && customer.name == "Acme" && customer.contactNumber == "+65" && customer.country == "SG")
                #expect(customer.email == nil && customer.companyId == nil)

                let nullEmail = try #require(try await connection.row("SELECT 1::BIGINT AS id, \(unescaped: rest), NULL::TEXT AS email"))
                #expect(try PGRowDecoder.decode(Customer.self, from: nullEmail).email == nil)

                let noTimes = try #require(try await connection.row("SELECT 1::BIGINT AS id, \(unescaped: required)"))
                #expect {
                    try PGRowDecoder.decode(Customer.self, from: noTimes)
                } throws: { error in
                    guard case DecodingError.keyNotFound(_, let context) = error else { return false }
                    return context.debugDescription.contains("created_at")
                }
                let textID = try #require(try await connection.row("SELECT 'one'::TEXT AS id, \(unescaped: rest)"))
                #expect(throws: (any Error).self) { try PGRowDecoder.decode(Customer.self, from: textID) }
            }
        }
    }

    enum Field: String, CodingKey { case contactNumber, imageUrl }
}
