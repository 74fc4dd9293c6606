import Foundation
import InventoryCore
import InventoryStore
import Testing

@Suite("Accessories")
struct AccessoryServiceTests {
    static func stock(_ total: Int = 5) async throws -> (TemporaryStore, Accessory, Customer, Customer) {
        let store = try TemporaryStore()
        let charger = try await store.accessories.create(
            AccessoryInput(
                name: "USB-C charger", category: "Power",
                manufacturer: "Anker", totalQuantity: total, country: "sg"))
        let acme = try await store.addCustomer("Acme")
        let globex = try await store.addCustomer("Globex")
        return (store, charger, acme, globex)
    }

    @Test func createRequiresNameAndCategory() async throws {
        let store = try TemporaryStore()
        let error = await failure { _ = try await store.accessories.create(AccessoryInput(totalQuantity: 3)) }
        #expect(error?.fields.keys.sorted() == ["category", "name"])
        let blank = await failure {
            _ = try await store.accessories.create(AccessoryInput(name: " ", category: "Power", totalQuantity: -1, country: "XX"))
        }
        #expect(blank?.fields.keys.sorted() == ["country", "name", "total_quantity"])
        #expect(try await store.count("accessories") == 0)
        let cable = try await store.accessories.create(AccessoryInput(name: "Cable", category: "Cables", totalQuantity: 4, country: "my"))
        #expect(cable.availableQuantity == 4 && cable.totalQuantity == 4 && cable.country == "MY")
    }

    @Test func checkoutIsLimitedToWhatIsAvailable() async throws {
        let (store, charger, acme, globex) = try await Self.stock()
        #expect(try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: acme.id, quantity: 3)).availableQuantity == 2)
        let snapshot = try await store.snapshot()
        let tooMany = await failure {
            _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: globex.id, quantity: 3))
        }
        #expect(tooMany?.fields.keys.sorted() == ["quantity"])
        #expect(tooMany?.fields["quantity"]?.first?.contains("2") == true, "the message says how many are available")
        #expect(
            await failure { _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: globex.id, quantity: 0)) }?
                .fields.keys.sorted() == ["quantity"])
        #expect(
            await failure { _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: 999)) }
                == .notFound("customer 999"))
        #expect(
            await failure { _ = try await store.accessories.checkout(id: 999, AccessoryMovement(customerId: acme.id)) } == .notFound("accessory 999"))
        #expect(try await store.snapshot() == snapshot)
        #expect(try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: globex.id, quantity: 2)).availableQuantity == 0)
        #expect(
            await failure { _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: acme.id)) }?
                .fields.keys.sorted() == ["quantity"])
        #expect(try await store.count("accessory_movements", where: "kind = 'checkout'") == 2)
    }

    @Test func checkinIsLimitedToWhatThatCustomerHolds() async throws {
        let (store, charger, acme, globex) = try await Self.stock()
        _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: acme.id, quantity: 3))
        let snapshot = try await store.snapshot()
        let stranger = await failure { _ = try await store.accessories.checkin(id: charger.id, AccessoryMovement(customerId: globex.id)) }
        #expect(stranger?.fields.keys.sorted() == ["quantity"])
        let tooMany = await failure { _ = try await store.accessories.checkin(id: charger.id, AccessoryMovement(customerId: acme.id, quantity: 4)) }
        #expect(tooMany?.fields.keys.sorted() == ["quantity"])
        #expect(try await store.snapshot() == snapshot)
        let partial = try await store.accessories.checkin(id: charger.id, AccessoryMovement(customerId: acme.id, quantity: 2, condition: "scuffed"))
        #expect(partial.availableQuantity == 4)
        #expect(try await store.accessories.checkin(id: charger.id, AccessoryMovement(customerId: acme.id)).availableQuantity == 5)
        #expect(try await store.count("accessory_holdings") == 0)
        #expect(
            await failure { _ = try await store.accessories.checkin(id: charger.id, AccessoryMovement(customerId: acme.id)) }?
                .fields.keys.sorted() == ["quantity"])
    }

    @Test func deleteIsRefusedWhileAnyAreCheckedOut() async throws {
        let (store, charger, acme, _) = try await Self.stock()
        _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: acme.id, quantity: 1))
        let error = await failure { try await store.accessories.delete(id: charger.id) }
        guard case .inUse(let message) = error else {
            Issue.record("expected inUse, got \(String(describing: error))")
            return
        }
        #expect(message.contains("USB-C charger") && error?.code == .inUse)
        #expect(try await store.accessories.get(id: charger.id).availableQuantity == 4)
        _ = try await store.accessories.checkin(id: charger.id, AccessoryMovement(customerId: acme.id))
        try await store.accessories.delete(id: charger.id)
        #expect(await failure { _ = try await store.accessories.get(id: charger.id) } == .notFound("accessory \(charger.id)"))
    }

    @Test func totalQuantityCannotDropBelowWhatIsCheckedOut() async throws {
        let (store, charger, acme, globex) = try await Self.stock(10)
        _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: acme.id, quantity: 4))
        _ = try await store.accessories.checkout(id: charger.id, AccessoryMovement(customerId: globex.id, quantity: 2))
        let error = await failure { _ = try await store.accessories.update(id: charger.id, AccessoryInput(totalQuantity: 5)) }
        #expect(error?.fields.keys.sorted() == ["total_quantity"])
        #expect(try await store.accessories.get(id: charger.id).totalQuantity == 10)
        let exact = try await store.accessories.update(id: charger.id, AccessoryInput(totalQuantity: 6))
        #expect(exact.totalQuantity == 6 && exact.availableQuantity == 0)
        let more = try await store.accessories.update(id: charger.id, AccessoryInput(name: "Charger 65W", totalQuantity: 9))
        #expect(more.availableQuantity == 3 && more.name == "Charger 65W" && more.category == "Power")
    }

    @Test func listSearchesAndPages() async throws {
        let (store, _, _, _) = try await Self.stock()
        for n in 1...12 { _ = try await store.accessories.create(AccessoryInput(name: "Mouse \(n)", category: "Input", totalQuantity: n)) }
        let mice = try await store.accessories.list(query: ListQuery(search: "mouse", perPage: 5))
        #expect(mice.pagination.total == 12 && mice.items.count == 5 && mice.pagination.lastPage == 3)
        let power = try await store.accessories.list(query: ListQuery(search: "Power"))
        #expect(power.items.map(\.name) == ["USB-C charger"])
    }
}
