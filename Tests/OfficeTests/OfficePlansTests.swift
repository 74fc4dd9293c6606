import AuditServer
import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

extension InThirdBrowser.OfficeScreensTests {
    /// The Due screen: plans overdue first, Start for whoever may start the audit (it opens the
    /// new audit), a new plan from its form; the Webhooks screen for ADMIN only, with a webhook
    /// added from its form (its secret never shown) and the delivery an audit's end queues.
    @Test func dueAuditsAreStartedAndWebhooksManagedFromTheOffice() async throws {
        let database = try AppDatabase(path: TestServer.temporaryPath())
        let backend = ServerBackend.sqlite(database)
        _ = try await backend.assets.create(AssetInput(assetTag: "SG-1", name: "Laptop", status: "IN_STOCK", country: "SG", location: "Dock A"))
        _ = try await backend.assets.create(AssetInput(assetTag: "MY-1", name: "Laptop", status: "IN_STOCK", country: "MY"))
        // A plan made 40 days ago, every 30 days: overdue; one made now: due (never audited).
        let past = SQLiteAuditPlanService(database: database, now: { Date().addingTimeInterval(-40 * 86_400) })
        _ = try await past.add(AuditPlanInput(country: "SG", everyDays: 30, assignee: "ana@example.com"))
        _ = try await backend.plans.add(AuditPlanInput(country: "MY", everyDays: 90))
        let settings = ServerSettings(host: "127.0.0.1", port: 0)
        let parts = try await ServerParts(backend: backend, settings: settings, bcryptCost: 4)
        try await TestServer.with(parts: parts, settings: settings) { server in
            _ = try await server.user("root@example.com")
            _ = try await server.user("my@example.com", type: "STAFF", countries: ["MY"], canEditAssets: false)
            try await Office.signedIn(server.baseURL, as: "root@example.com") { browser in
                try await browser.find("#nav-due").click()
                try await browser.waitUntil("the plans", js: "count('#due-table tbody tr') === 2")
                let first = try await browser.execute("return document.querySelector('#due-table tbody tr').textContent").stringValue ?? ""
                #expect(first.hasPrefix("Overdue") && first.contains("SG") && first.contains("ana@example.com"), "overdue first: \(first)")
                #expect(try await Office.cells(browser, "#due-table", holding: "MY").first == "Due")

                try await browser.find("#due-new").click()
                try await Office.submit(browser, [("country", "SG"), ("location", "Dock Z"), ("every_days", "7")])
                try await browser.waitUntil("the unknown location beside its field") {
                    try await browser.find("#record-fields-location-error").text().contains("Dock A")
                }
                try await browser.find("#record-fields-location").clear()
                try await Office.submit(browser, [("location", "Dock A")])
                try await browser.waitUntil("the new plan", js: "count('#due-table tbody tr') === 3")
                if ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"] != nil { try await browser.screenshotIfAsked("office-due.png") }

                try await Office.press(browser, "Start", inRowOf: "ana@example.com", table: "#due-table")
                try await browser.waitUntilShown("#audit-view", "the started audit")
                let running = try await server.parts.audits.activeAudits()
                #expect(running.map(\.country) == ["SG"] && running.first?.locations == nil)

                try await browser.find("#nav-webhooks").click()
                try await browser.waitUntilShown("#webhooks-view", "the webhooks")
                try await browser.find("#webhooks-new").click()
                try await Office.submit(
                    browser, [("url", "http://127.0.0.1:9/hook"), ("events", "audit.ended, audit.overdue"), ("secret", "office-secret-123456")])
                try await browser.waitUntil("the new webhook", js: "count('#webhooks-table tbody tr') === 1")
                #expect(try await !browser.find("#webhooks-view").text().contains("office-secret-123456"))
                let auditID = try #require(running.first?.id)
                _ = try await server.parts.audits.end(auditID: auditID, by: Actor(user: "root", station: "api"))
                try await browser.find("#nav-due").click()
                try await browser.waitUntilShown("#due-view", "the plans again")
                try await browser.find("#nav-webhooks").click()
                try await browser.waitUntil("the queued delivery", js: "(text('#deliveries-table tbody') || '').includes('audit.ended')")
                #expect(try await Office.cells(browser, "#deliveries-table", holding: "audit.ended").dropFirst(3).first == "pending")
                if ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"] != nil { try await browser.screenshotIfAsked("office-webhooks.png") }
                // A double click on Remove removes it once: no second call refused as not found.
                _ = try await browser.execute(
                    """
                    const b = Array.from(document.querySelectorAll('#webhooks-table tbody button')).find(b => b.textContent === 'Remove');
                    b.dispatchEvent(new MouseEvent('click', { bubbles: true })); b.dispatchEvent(new MouseEvent('click', { bubbles: true }));
                    """)
                try await browser.waitUntil("the webhook removed", js: "(text('#webhooks-message') || '').startsWith('Removed the webhook')")
                try await browser.waitUntil("no webhooks left", js: "(text('#webhooks-table tbody') || '') === 'No webhooks.'")
                try await Task.sleep(for: .milliseconds(500))
                #expect(try await browser.execute("return document.getElementById('webhooks-message').className").stringValue == "ok")
            }
            try await Office.signedIn(server.baseURL, as: "my@example.com") { browser in
                #expect(try await browser.find("#nav-webhooks").isDisplayed() == false)
                try await browser.find("#nav-due").click()
                try await browser.waitUntil("MY's plan only", js: "count('#due-table tbody tr') === 1")
                #expect(try await Office.cells(browser, "#due-table", holding: "MY").last == "StartRemove")
                try await browser.open(server.baseURL + "/#/webhooks")
                try await browser.waitUntilShown("#audits-view", "the audits instead")
            }
        }
    }
}
