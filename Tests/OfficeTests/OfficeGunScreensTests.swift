import AuditServer
import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

extension InOfficeBrowser.OfficeBrowserTests {
    static let refusedAloud = "(text('#page-error') || '').includes('barcode scan')"

    /// Clears the page's refusal, then sends a gun's burst to whatever has the focus and waits
    /// for the refusal.
    static func refusedBurst(_ browser: BrowserSession, _ tag: String, textAlone: Bool = false) async throws {
        _ = try await browser.execute("document.getElementById('page-error').textContent = ''")
        try await browser.gunKeys(tag, textAlone: textAlone)
        try await browser.waitUntil("the burst \(tag) refused aloud", js: refusedAloud)
        // Long enough for a click a key's release would have made to have been answered.
        try await Task.sleep(for: .milliseconds(500))
    }

    /// Focuses the button `label` of `table` once the table shows it (a table drawn again has none for a moment).
    static func focusButton(_ browser: BrowserSession, _ label: String, in table: String) async throws {
        try await browser.waitUntil(
            "the \(label) button focused",
            js: """
                (() => { const b = Array.from(document.querySelectorAll('\(table) tbody button')).find(b => b.textContent === '\(label)');
                  if (b) b.focus(); return !!b && document.activeElement === b; })()
                """)
    }
}

extension InThirdBrowser.OfficeScreensTests {
    /// A gun on the Due and Webhooks screens: a location label's space does not press the focused
    /// Start or Remove, a burst's Enter submits no form, and its characters come back out of the
    /// form's field (a later Save never sends them).
    @Test func aBurstOnTheDueAndWebhooksScreensStartsRemovesAndAddsNothing() async throws {
        let database = try AppDatabase(path: TestServer.temporaryPath())
        let backend = ServerBackend.sqlite(database)
        _ = try await backend.assets.create(AssetInput(assetTag: "SG-1", name: "Laptop", status: "IN_STOCK", country: "SG", location: "Dock A"))
        let past = SQLiteAuditPlanService(database: database, now: { Date().addingTimeInterval(-40 * 86_400) })
        _ = try await past.add(AuditPlanInput(country: "SG", everyDays: 30, assignee: "ana@example.com"))
        let settings = ServerSettings(host: "127.0.0.1", port: 0)
        let parts = try await ServerParts(backend: backend, settings: settings, bcryptCost: 4)
        try await TestServer.with(parts: parts, settings: settings) { server in
            _ = try await server.user("root@example.com")
            try await Office.signedIn(server.baseURL, as: "root@example.com") { browser in
                try await browser.find("#nav-due").click()
                try await browser.waitUntil("the plan with its buttons", js: "count('#due-table tbody button') === 2")
                // Start has the focus: neither the label's space nor a tag's Enter presses it.
                try await Office.focusButton(browser, "Start", in: "#due-table")
                try await Office.refusedBurst(browser, "LOC:Dock A")
                try await Office.refusedBurst(browser, "SG-1")
                #expect(try await server.parts.audits.activeAudits().isEmpty, "no audit was started")
                #expect(try await browser.find("#due-view").isDisplayed())
                #expect(try await browser.find("#due-message").text().contains("barcode scan"), "said above the plans too")
                if ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"] != nil { try await browser.screenshotIfAsked("office-due-burst.png") }
                // Nor Remove.
                try await Office.focusButton(browser, "Remove", in: "#due-table")
                try await Office.refusedBurst(browser, "LOC:Dock A")
                #expect(try await browser.execute("return document.querySelectorAll('#due-table tbody tr').length").intValue == 1)
                // Nor keys sent with their text alone (no key names, as some harnesses send them).
                try await Office.focusButton(browser, "Remove", in: "#due-table")
                try await Office.refusedBurst(browser, "SG-1", textAlone: true)
                #expect(try await browser.execute("return document.querySelectorAll('#due-table tbody tr').length").intValue == 1)

                // The new plan's form: the tag comes back out of the field, nothing is added.
                try await browser.find("#due-new").click()
                let every = try await browser.waitFor("#record-fields-every_days", displayed: true)
                try await every.gunKeys("SG-1")
                try await browser.waitUntil("the refusal in the dialog", js: "(text('#record-error') || '').includes('barcode scan')")
                #expect(try await every.property("value").stringValue == "30")
                let country = try await browser.find("#record-fields-country")
                try await country.gunKeys("SG-1")
                try await browser.waitUntil("the refusal", js: Office.refusedAloud)
                #expect(try await country.property("value").stringValue == "")
                #expect(try await browser.execute("return document.getElementById('record-dialog').open").boolValue == true)
                try await browser.find("#record-cancel").click()
                #expect(try await backend.plans.list().count == 1)

                // Webhooks: one added by the person, then the gun with Remove focused, and in the form.
                try await browser.find("#nav-webhooks").click()
                try await browser.waitUntilShown("#webhooks-view", "the webhooks")
                try await browser.find("#webhooks-new").click()
                try await Office.submit(browser, [("url", "http://127.0.0.1:9/hook"), ("events", "audit.ended"), ("secret", "office-secret-123456")])
                try await browser.waitUntil("the new webhook", js: "count('#webhooks-table tbody tr') === 1")
                try await Office.focusButton(browser, "Remove", in: "#webhooks-table")
                try await Office.refusedBurst(browser, "LOC:Dock A")
                try await Office.refusedBurst(browser, "SG-1")
                #expect(try await browser.execute("return document.querySelectorAll('#webhooks-table tbody tr').length").intValue == 1)

                try await browser.find("#webhooks-new").click()
                let url = try await browser.waitFor("#record-fields-url", displayed: true)
                try await url.clear()
                try await url.sendKeys("http://127.0.0.1:9/other")
                try await Task.sleep(for: .milliseconds(300))
                try await url.gunKeys("SG-1")
                try await browser.waitUntil("the refusal in the webhook's form", js: "(text('#record-error') || '').includes('barcode scan')")
                #expect(try await url.property("value").stringValue == "http://127.0.0.1:9/other")
                #expect(try await browser.execute("return document.getElementById('record-dialog').open").boolValue == true)
                if ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"] != nil {
                    try await browser.screenshotIfAsked("office-webhooks-burst.png")
                }
                try await browser.find("#record-cancel").click()
                #expect(try await browser.execute("return document.querySelectorAll('#webhooks-table tbody tr').length").intValue == 1)
            }
        }
    }
}
