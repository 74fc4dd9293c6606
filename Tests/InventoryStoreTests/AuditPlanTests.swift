import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// Cycle counts (SPEC "Cycle counts"): plans, their due dates and states at an injected time,
/// and the end of an audit of a plan's exact scope moving its date, on both back ends.
@Suite("Audit plans")
struct AuditPlanTests {
    static let day: TimeInterval = 86_400

    /// A back end with SG assets at Dock A and Dock B, and one MY asset.
    static func setUp(_ backend: Backend) async throws -> (server: ServerBackend, close: @Sendable () async -> Void) {
        let (server, close) = try await backend.make()
        do {
            _ = try await server.assets.create(AssetInput(assetTag: "SG-1", name: "Laptop 1", country: "SG", location: "Dock A"))
            _ = try await server.assets.create(AssetInput(assetTag: "SG-2", name: "Laptop 2", country: "SG", location: "Dock B"))
            _ = try await server.assets.create(AssetInput(assetTag: "MY-1", name: "Laptop 3", country: "MY"))
            return (server, close)
        } catch {
            await close()
            throw error
        }
    }

    @Test("A plan never audited is due from its creation and overdue once its interval has run out", arguments: Backend.allCases)
    func neverAudited(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        let before = Date()
        let plan = try await server.plans.add(AuditPlanInput(country: "sg", everyDays: 30, assignee: " ana@example.com "))
        #expect(plan.country == "SG" && plan.location == nil && plan.assignee == "ana@example.com" && plan.lastAuditId == nil)
        #expect(abs(plan.nextDueAt.timeIntervalSince(plan.createdAt) - 30 * Self.day) < 1)
        #expect(plan.createdAt >= before.addingTimeInterval(-1))
        let now = plan.createdAt
        #expect(try await server.plans.due(at: now.addingTimeInterval(Self.day)).map(\.state) == [.due])
        #expect(try await server.plans.due(at: now.addingTimeInterval(29 * Self.day)).map(\.state) == [.due])
        let late = try #require(try await server.plans.due(at: now.addingTimeInterval(31 * Self.day)).first)
        #expect(late.state == .overdue && late.planId == plan.id && late.lastEndedAt == nil)
    }

    @Test("Ending an audit of exactly a plan's scope sets its next due date to the end plus the interval", arguments: Backend.allCases)
    func endMovesTheDueDate(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        let country = try await server.plans.add(AuditPlanInput(country: "SG", everyDays: 90))
        let dock = try await server.plans.add(AuditPlanInput(country: "SG", location: "Dock A", everyDays: 7))
        let other = try await server.plans.add(AuditPlanInput(country: "MY", everyDays: 30))

        // An audit of Dock A moves the Dock A plan only.
        let docked = try await server.audits.start(country: "SG", locations: ["Dock A"], by: alice)
        let dockEnd = try #require(try await server.audits.end(auditID: docked.id, by: alice).audit.endedAt)
        var dockPlan = try await server.plans.plan(id: dock.id)
        #expect(dockPlan.lastAuditId == docked.id)
        #expect(abs(dockPlan.nextDueAt.timeIntervalSince(dockEnd) - 7 * Self.day) < 1)
        #expect(try await server.plans.plan(id: country.id).lastAuditId == nil)

        // An audit of two locations is no plan's scope; one of the whole country is the country plan's.
        let both = try await server.audits.start(country: "SG", locations: ["Dock A", "Dock B"], by: alice)
        _ = try await server.audits.end(auditID: both.id, by: alice)
        #expect(try await server.plans.plan(id: dock.id).lastAuditId == docked.id)
        let whole = try await server.audits.start(country: "SG", locations: [], by: alice)
        let wholeEnd = try #require(try await server.audits.end(auditID: whole.id, by: alice).audit.endedAt)
        let countryPlan = try await server.plans.plan(id: country.id)
        #expect(countryPlan.lastAuditId == whole.id)
        #expect(abs(countryPlan.nextDueAt.timeIntervalSince(wholeEnd) - 90 * Self.day) < 1)
        dockPlan = try await server.plans.plan(id: dock.id)
        #expect(dockPlan.lastAuditId == docked.id, "an audit of the whole country is not the Dock A plan's scope")

        // Eight days on: Dock A is overdue, MY (never audited) due, SG ok; overdue first.
        let due = try await server.plans.due(at: dockEnd.addingTimeInterval(8 * Self.day), windowDays: 14)
        #expect(due.map(\.planId) == [dock.id, other.id, country.id])
        #expect(due.map(\.state) == [.overdue, .due, .ok])
        #expect(due[2].lastAuditId == whole.id)
        // With a window as long as the interval, SG is due too.
        #expect(try await server.plans.due(at: wholeEnd.addingTimeInterval(Self.day), windowDays: 90).map(\.state) == [.due, .due, .due])
    }

    @Test("Bad plans are refused with the field named, and nothing is stored", arguments: Backend.allCases)
    func badPlans(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        #expect(await failure { _ = try await server.plans.add(AuditPlanInput(country: "Singapore", everyDays: 30)) }?.fields["country"] != nil)
        #expect(await failure { _ = try await server.plans.add(AuditPlanInput(country: "SG", everyDays: 0)) }?.fields["every_days"] != nil)
        #expect(await failure { _ = try await server.plans.add(AuditPlanInput(country: "SG", everyDays: 4000)) }?.fields["every_days"] != nil)
        let unknown = await failure { _ = try await server.plans.add(AuditPlanInput(country: "SG", location: "Dock Z", everyDays: 3)) }
        #expect(unknown?.fields["location"]?.first?.contains("Dock A") == true)
        #expect(
            await failure { _ = try await server.plans.add(AuditPlanInput(country: "SG", everyDays: 3, assignee: "ana")) }?.fields["assignee"] != nil)
        #expect(try await server.plans.list().isEmpty)

        let plan = try await server.plans.add(AuditPlanInput(country: "SG", location: "Dock B", everyDays: 3))
        let twice = await failure { _ = try await server.plans.add(AuditPlanInput(country: "sg", location: "Dock B", everyDays: 9)) }
        #expect(twice?.fields["location"]?.first?.contains("plan \(plan.id)") == true)
        // The same country without a location is another scope.
        _ = try await server.plans.add(AuditPlanInput(country: "SG", everyDays: 9))
        try await server.plans.remove(id: plan.id)
        guard case .notFound = await failure({ try await server.plans.remove(id: plan.id) }) else {
            Issue.record("a second remove must be not found")
            return
        }
        #expect(try await server.plans.list().map(\.everyDays) == [9])
    }
}
