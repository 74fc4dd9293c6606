import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v1/audit/plans` and `/api/v1/audit/due`: cycle counts. Anyone sees the plans of the
/// countries they may audit; whoever may start an audit of a country may add or remove its plans.
struct PlanController {
    let plans: any AuditPlanService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.auditPlans, on: router) { _, context, user in
            return try Response.envelope(PlansResponse(plans: try await plans.list().filter { user.mayAudit($0.country) }))
        }
        routes.add(.post, Routes.auditPlans, on: router) { request, context, user in
            var request = request
            let body = try await request.decodeJSON(AuditPlanInput.self)
            try user.requireAuditing(try Country.normalize(body.country))
            let plan = try await plans.add(body)
            return try Response.envelope(PlanResponse(plan: plan), status: .created, message: "Plan \(plan.id) added")
        }
        routes.add(.delete, Routes.auditPlan, on: router) { _, context, user in
            let plan = try await plans.plan(id: try context.id())
            try user.requireAuditing(plan.country)
            try await plans.remove(id: plan.id)
            return try Response.envelope(Empty(), message: "Plan \(plan.id) removed")
        }
        routes.add(.get, Routes.auditDue, on: router) { request, context, user in
            let window = try request.intQuery("within", range: 0...AuditPlanInput.maxDays) ?? DuePlan.defaultWindowDays
            let due = try await plans.due(at: Date(), windowDays: window).filter { user.mayAudit($0.country) }
            return try Response.envelope(
                DueResponse(
                    windowDays: window,
                    plans: due.map { DueRow(plan: $0, mayStart: user.userType != .client && user.mayAudit($0.country)) }))
        }
    }
}

struct PlansResponse: Encodable, Sendable { var plans: [AuditPlan] }
struct PlanResponse: Encodable, Sendable { var plan: AuditPlan }
struct DueResponse: Encodable, Sendable {
    var windowDays: Int
    var plans: [DueRow]
}

/// A due plan as the API sends it: its fields, and whether the user may start its audit (the
/// back office's Start button).
struct DueRow: Encodable, Sendable {
    var plan: DuePlan
    var mayStart: Bool

    enum Keys: String, CodingKey { case mayStart }

    func encode(to encoder: any Encoder) throws {
        try plan.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(mayStart, forKey: .mayStart)
    }
}
