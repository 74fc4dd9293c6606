import Foundation
import TestKit
import Testing

/// `audit plan add|list|remove` and `audit due` on a station's file: clear refusals of bad
/// input, and an audit of a plan's scope that ends moves its due date.
@Suite struct PlanCommandTests {
    @Test func plansAreAddedListedDueAndRemoved() async throws {
        let scratch = try StationProcess.scratch()
        let base = ["--database", scratch.database]
        let file = scratch.folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "name", "country", "location")
            .row("A-1", "Laptop", "SG", "Dock A").row("B-1", "Laptop", "SG", "Dock B").row("M-1", "Laptop", "MY", "").write(to: file)
        #expect(try await StationProcess.run(base + ["assets", "import", file.path]).status == 0)

        for (arguments, message) in [
            (["--country", "SG", "--every", "0d"], "'0d' is not a number of days"),
            (["--country", "SG", "--every", "x"], "'x' is not a number of days"),
            (["--country", "Singapore", "--every", "30d"], "'Singapore' is not an ISO 3166-1 alpha-2 country code"),
            (["--country", "SG", "--location", "Dock Z", "--every", "30d"], "'Dock Z' is not a location of SG"),
            (["--country", "SG", "--every", "30d", "--assignee", "nobody"], "'nobody' is not an email address")
        ] {
            let refused = try await StationProcess.run(base + ["audit", "plan", "add"] + arguments)
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }

        let added = try await StationProcess.run(
            base + ["audit", "plan", "add", "--country", "sg", "--location", "Dock A", "--every", "7d", "--json"])
        let plan = try jsonObject(added.stdout)
        #expect(added.status == 0 && plan["country"] as? String == "SG" && plan["every_days"] as? Int == 7)
        let planID = try #require(plan["id"] as? Int)
        #expect(try await StationProcess.run(base + ["audit", "plan", "add", "--country", "MY", "--every", "30"]).status == 0)
        let twice = try await StationProcess.run(base + ["audit", "plan", "add", "--country", "SG", "--location", "Dock A", "--every", "9d"])
        #expect(twice.status != 0 && twice.stderr.contains("already has plan \(planID)"))

        // Dock A's audit ends: its plan is ok for a week, MY's (never audited) is due.
        let started = try await StationProcess.run(base + ["audit", "start", "--country", "SG", "--location", "Dock A", "--json"])
        let auditID = try #require(try jsonObject(started.stdout)["id"] as? String)
        #expect(try await StationProcess.run(base + ["audit", "end"]).status == 0)
        let due = try await StationProcess.run(base + ["audit", "due", "--within", "3d", "--json"])
        let lines = try due.lines.map(jsonObject)
        #expect(due.status == 0 && lines.count == 2)
        #expect(lines.map { $0["state"] as? String } == ["due", "ok"])
        #expect(lines[1]["plan_id"] as? Int == planID && lines[1]["last_audit_id"] as? String == auditID && lines[1]["next_due_at"] is String)
        #expect(Set(lines[0].keys).isSuperset(of: ["plan_id", "country", "every_days", "next_due_at", "state"]))
        let table = try await StationProcess.run(base + ["audit", "due"])
        #expect(table.stdout.contains("SG / Dock A") && table.stdout.contains("DUE"))
        let badWindow = try await StationProcess.run(base + ["audit", "due", "--within", "soon"])
        #expect(badWindow.status != 0 && badWindow.stderr.contains("--within"))

        #expect(try await StationProcess.run(base + ["audit", "plan", "remove", String(planID)]).status == 0)
        let again = try await StationProcess.run(base + ["audit", "plan", "remove", String(planID)])
        #expect(again.status != 0 && again.stderr.contains("audit plan \(planID)"))
        let listed = try await StationProcess.run(base + ["audit", "plan", "list", "--json"])
        #expect(listed.stdout.contains(#""country":"MY""#) && !listed.stdout.contains("Dock A"))
    }
}
