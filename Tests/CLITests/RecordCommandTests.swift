import Foundation
import Testing

/// `accessories` and `customers` share one set of commands (list, show, create, update, delete):
/// each keeps its own words, columns, lines and errors.
@Suite("accessories and customers: list, show, create, update, delete")
struct RecordCommandTests {
    @Test("Each kind prints its own table, line, messages and errors")
    func commandsOfBothKinds() async throws {
        let (_, database) = try StationProcess.scratch()
        func run(_ arguments: String...) async throws -> StationProcess.Output {
            try await StationProcess.run(arguments + ["--database", database])
        }

        let customer = try await run(
            "customers", "create", "--name", "Acme", "--contact-number", "123", "--address", "1 Road",
            "--country", "sg", "--email", "a@b.c")
        #expect(customer.status == 0 && customer.stdout == "1  Acme  123  SG  a@b.c\n", "\(customer.stderr)")
        let missing = try await run("customers", "create", "--name", "Beta")
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(
            missing.stderr == "error: Invalid input: address is required; contact_number is required; "
                + "country is required (an ISO 3166-1 alpha-2 code such as SG or MY)\n")
        let customers = try await run("customers", "list")
        #expect(customers.stdout == "ID  NAME  CONTACT  COUNTRY  EMAIL\n1   Acme  123      SG       a@b.c\npage 1 of 1, 1 in all\n")
        let changed = try await run("customers", "update", "1", "--email", "new@b.c")
        #expect(changed.stdout == "1  Acme  123  SG  new@b.c\n")
        let json = try jsonObject(try await run("customers", "show", "1", "--json").stdout)
        #expect(json["name"] as? String == "Acme" && json["contact_number"] as? String == "123")

        let accessory = try await run("accessories", "create", "--name", "Mouse", "--category", "Input", "--total-quantity", "5")
        #expect(accessory.stdout == "1  Mouse [Input]  5 of 5 available\n", "\(accessory.stderr)")
        let accessories = try jsonObject(try await run("accessories", "list", "--json").stdout)
        #expect((accessories["accessories"] as? [[String: Any]])?.first?["available_quantity"] as? Int == 5)
        #expect((accessories["pagination"] as? [String: Any])?["total"] as? Int == 1)
        let out = try await run("accessories", "checkout", "1", "--customer-id", "1", "--quantity", "2")
        #expect(out.stdout == "1  Mouse [Input]  3 of 5 available\n", "\(out.stderr)")
        let held = try await run("accessories", "delete", "1")
        #expect(held.status == 1 && held.stderr == "error: 2 of Mouse are checked out; check them in before deleting it\n")
        let assigned = try await run("customers", "delete", "1")
        #expect(assigned.stderr == "error: Customer Acme still has 2 accessories assigned; transfer or check them in first\n")
        #expect(try await run("accessories", "checkin", "1", "--customer-id", "1", "--quantity", "2").status == 0)

        let deleted = try await run("accessories", "delete", "1")
        #expect(deleted.status == 0 && deleted.stdout == "Deleted accessory 1\n")
        #expect(try await run("customers", "delete", "1").stdout == "Deleted customer 1\n")
        #expect(try await run("customers", "show", "1").stderr == "error: Not found: customer 1\n")
        #expect(try await run("accessories", "update", "1", "--name", "Pad").stderr == "error: Not found: accessory 1\n")
        let noID = try await run("customers", "show", "abc")
        #expect(noID.status == 64 && noID.stderr.contains("Usage: audit-station customers show"), "\(noID.stderr)")
    }

    @Test("Each kind's help lists its commands with their own words")
    func help() async throws {
        let customers = try await StationProcess.run(["customers", "--help"])
        for line in [
            "list                    List customers.", "show                    Show one customer.",
            "update                  Change fields of a customer.", "delete                  Delete a customer"
        ] {
            #expect(customers.stdout.contains(line), "\(customers.stdout)")
        }
        let accessories = try await StationProcess.run(["accessories", "--help"])
        for line in [
            "list                    List accessories.", "create                  Create an accessory (name and category are",
            "delete                  Delete an accessory", "checkout", "checkin"
        ] {
            #expect(accessories.stdout.contains(line), "\(accessories.stdout)")
        }
        let create = try await StationProcess.run(["accessories", "create", "--help"])
        #expect(create.stdout.contains("--total-quantity <total-quantity>") && create.stdout.contains("USAGE: audit-station accessories create"))
    }
}
