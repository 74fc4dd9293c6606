import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v1/webhooks`: receivers of audit events and their deliveries, for ADMIN users only.
/// A secret goes in once, with the webhook, and never comes back out.
struct WebhookController {
    let webhooks: any WebhookService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.webhooks, on: router) { _, context, user in
            try requireAdmin(user)
            return try Response.envelope(WebhooksResponse(webhooks: try await webhooks.list()))
        }
        routes.add(.post, Routes.webhooks, on: router) { request, _, user in
            var request = request
            try requireAdmin(user)
            let body = try await request.decodeJSON(WebhookInput.self)
            let hook = try await webhooks.add(body)
            return try Response.envelope(WebhookResponse(webhook: hook), status: .created, message: "Webhook \(hook.id) added")
        }
        routes.add(.delete, Routes.webhook, on: router) { _, context, user in
            try requireAdmin(user)
            let id = try context.id()
            try await webhooks.remove(id: id)
            return try Response.envelope(Empty(), message: "Webhook \(id) removed")
        }
        routes.add(.get, Routes.webhookDeliveries, on: router) { request, _, user in
            try requireAdmin(user)
            let failed = request.query("failed").map { ["1", "true", "yes"].contains($0.lowercased()) } ?? false
            let limit = try request.intQuery("limit", range: 1...1000) ?? 100
            return try Response.envelope(DeliveriesResponse(deliveries: try await webhooks.deliveries(failedOnly: failed, limit: limit)))
        }
    }

    private func requireAdmin(_ user: UserInfo) throws {
        guard user.userType == .admin else { throw InventoryError.forbidden("only ADMIN users may manage webhooks") }
    }
}

struct WebhooksResponse: Encodable, Sendable { var webhooks: [Webhook] }
struct WebhookResponse: Encodable, Sendable { var webhook: Webhook }
struct DeliveriesResponse: Encodable, Sendable { var deliveries: [WebhookDelivery] }
