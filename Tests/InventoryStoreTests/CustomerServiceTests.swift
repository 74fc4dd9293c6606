import Foundation
import InventoryCore
import InventoryStore
import Testing

@Suite("Customers")
struct CustomerServiceTests {
    @Test(
        "Required fields and bad values give field errors",
        arguments: [
            (CustomerInput(), ["address", "contact_number", "country", "name"]),
            (CustomerInput(name: "A", contactNumber: "+65 6123", address: "x", country: "XX"), ["country"]),
            (CustomerInput(name: " ", contactNumber: "+65 6123", address: " ", country: "SG"), ["address", "name"]),
            (CustomerInput(name: "A", contactNumber: "call me", address: "x", country: "SG"), ["contact_number"]),
            (CustomerInput(name: "A", contactNumber: "123", address: "x", country: "SG", email: "not-an-email"), ["email"]),
            (CustomerInput(name: "A", contactNumber: "123", address: "x", country: "SG", email: "a@b@c"), ["email"])
        ])
    func invalidInput(input: CustomerInput, fields: [String]) async throws {
        let store = try TemporaryStore()
        let error = await failure { _ = try await store.customers.create(input) }
        #expect(error?.fields.keys.sorted() == fields)
        #expect(try await store.count("customers") == 0)
    }

    @Test func createGetUpdateAndList() async throws {
        let store = try TemporaryStore()
        let acme = try await store.customers.create(
            CustomerInput(
                name: " Acme ", contactNumber: "+65 (6) 123-4567", address: "1 Road",
                country: "sg", email: "ops@acme.example"))
        #expect(acme.id > 0 && acme.name == "Acme" && acme.country == "SG" && acme.email == "ops@acme.example")
        #expect(try await Self.withoutTimes(store.customers.get(id: acme.id)) == Self.withoutTimes(acme))
        let updated = try await store.customers.update(id: acme.id, CustomerInput(country: "my", email: ""))
        #expect(updated.country == "MY" && updated.email == nil && updated.name == "Acme")
        #expect(try await Self.withoutTimes(store.customers.get(id: acme.id)) == Self.withoutTimes(updated))
        #expect(
            await failure { _ = try await store.customers.update(id: acme.id, CustomerInput(country: "ZZ")) }?.fields.keys.sorted() == ["country"])
        _ = try await store.addCustomer("Globex")
        #expect(try await store.customers.list(query: ListQuery(search: "glob")).items.map(\.name) == ["Globex"])
        #expect(await failure { _ = try await store.customers.get(id: 999) } == .notFound("customer 999"))
    }

    static func withoutTimes(_ customer: Customer) -> Customer {
        var copy = customer
        copy.createdAt = .distantPast
        copy.updatedAt = .distantPast
        return copy
    }

    @Test func createAndUpdateReturnWhatIsStored() async throws {
        let store = try TemporaryStore()
        let created = try await store.addCustomer("Acme")
        let stored = try await store.customers.get(id: created.id)
        #expect(abs(stored.createdAt.timeIntervalSince(created.createdAt)) < 0.001)
        let updated = try await store.customers.update(id: created.id, CustomerInput(name: "Acme Two"))
        let storedUpdate = try await store.customers.get(id: created.id)
        #expect(stored == created)
        #expect(storedUpdate == updated)
    }

    @Test func deleteIsRefusedWhileAssetsAreAssigned() async throws {
        let store = try TemporaryStore()
        let acme = try await store.addCustomer("Acme")
        let globex = try await store.addCustomer("Globex")
        let laptop = try await store.addAsset("SG-1", customerId: acme.id)
        let error = await failure { try await store.customers.delete(id: acme.id) }
        guard case .inUse(let message) = error else {
            Issue.record("expected inUse, got \(String(describing: error))")
            return
        }
        #expect(message.contains("1 asset") && error?.code == .inUse)
        #expect(try await store.customers.get(id: acme.id).name == "Acme")
        _ = try await store.assets.transfer(id: laptop.id, TransferRequest(customerId: globex.id))
        try await store.customers.delete(id: acme.id)
        #expect(await failure { _ = try await store.customers.get(id: acme.id) } == .notFound("customer \(acme.id)"))
        #expect(try await store.assets.get(id: laptop.id).customer == "Globex")
    }

    @Test func deleteIsRefusedWhileAccessoriesAreHeld() async throws {
        let store = try TemporaryStore()
        let acme = try await store.addCustomer("Acme")
        let mouse = try await store.accessories.create(AccessoryInput(name: "Mouse", category: "Input", totalQuantity: 3))
        _ = try await store.accessories.checkout(id: mouse.id, AccessoryMovement(customerId: acme.id, quantity: 2))
        let error = await failure { try await store.customers.delete(id: acme.id) }
        guard case .inUse(let message) = error else {
            Issue.record("expected inUse, got \(String(describing: error))")
            return
        }
        #expect(message.contains("2 accessories"))
        _ = try await store.accessories.checkin(id: mouse.id, AccessoryMovement(customerId: acme.id, quantity: 2))
        try await store.customers.delete(id: acme.id)
        #expect(try await store.count("customers") == 0)
    }

    @Test func anAssetCannotPointAtAMissingCustomer() async throws {
        let store = try TemporaryStore()
        let asset = try await store.addAsset("SG-1")
        #expect(
            await failure { _ = try await store.assets.update(id: asset.id, AssetInput(customerId: 77)) }?.fields.keys.sorted() == ["customer_id"])
        #expect(try await store.assets.get(id: asset.id).customerId == nil)
    }
}
