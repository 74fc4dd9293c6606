import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

extension InOfficeBrowser.OfficeBrowserTests {
    /// A browser session on the back office, logged in as `email`, quit however `body` ends.
    static func signedIn(
        _ baseURL: String, as email: String, width: Int = 1280, height: Int = 900, password: String = "secret-pass",
        _ body: (BrowserSession) async throws -> Void
    ) async throws {
        try await SharedBrowser.with(width: width, height: height) { browser in
            try await browser.open(baseURL + "/")
            // A gun's burst on the login screen logs nobody in and is refused aloud.
            try await browser.waitFor("#login-email", displayed: true).gunKeys("SG-1")
            try await browser.waitUntil("the burst refused aloud", js: "(text('#login-error') || '').includes('barcode scan')")
            #expect(try await browser.find("#login-view").isDisplayed())
            try await browser.find("#login-email").clear()
            try await browser.find("#login-email").sendKeys(email)
            try await browser.find("#login-password").sendKeys(password)
            try await browser.find("#login-submit").click()
            try await browser.waitUntilShown("#audits-view", "the audits screen")
            try await body(browser)
            // No script the page did not write ran, and nothing failed in the console but the
            // refusals the test asked for.
            #expect(try await browser.execute("return window.pwned === undefined").boolValue == true)
        }
    }

    /// Types `values` into the editing dialog's fields (by API field name) and presses its button;
    /// a checkbox is clicked.
    static func submit(_ browser: BrowserSession, _ values: [(String, String)]) async throws {
        for (name, value) in values {
            let field = try await browser.find("#record-fields-\(name)")
            if try await field.attribute("type") == "checkbox" {
                try await field.click()
            } else if try await field.tagName() == "select" {
                try await browser.find("#record-fields-\(name) option[value='\(value)']").click()
            } else {
                try await field.clear()
                try await field.sendKeys(value)
            }
        }
        try await browser.find("#record-save").click()
    }

    /// The row of `table` whose text holds `text`.
    static func row(_ browser: BrowserSession, _ table: String, holding text: String) async throws -> Element {
        for row in try await browser.findAll("\(table) tbody tr") where try await row.text().contains(text) { return row }
        throw WebDriverError("no row", "no row of \(table) holds \(text)")
    }

    /// The cells' texts of the row of `table` whose text holds `text` (empty when there is none).
    static func cells(_ browser: BrowserSession, _ table: String, holding text: String) async throws -> [String] {
        let found = try await browser.execute(
            """
            for (const r of document.querySelectorAll(arguments[0] + ' tbody tr'))
              if (r.textContent.includes(arguments[1])) return Array.from(r.cells).map(function (c) { return c.textContent; });
            return [];
            """, [.string(table), .string(text)])
        return (found.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// Presses the row's button labelled `label`.
    /// Presses the button `label` in the row holding `text`, once the page shows them (a list
    /// that is being drawn again has neither for a moment).
    static func press(_ browser: BrowserSession, _ label: String, inRowOf text: String, table: String = "#records-table") async throws {
        try await browser.waitUntil("the \(label) button in the row of \(text)") {
            guard let row = try? await row(browser, table, holding: text) else { return false }
            for button in try await row.findAll("button") where try await button.text() == label {
                try await button.click()
                return true
            }
            return false
        }
    }
}

extension InThirdBrowser.OfficeScreensTests {
    @Test(arguments: Backend.allCases) func aSupervisorKeepsTheInventory(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            _ = try await server.user("lead@example.com")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG")])
            let hostile = "<img src=x onerror=\"window.pwned=1\">"
            try await Office.signedIn(server.baseURL, as: "lead@example.com") { browser in
                // Assets: the list, a search, then a new asset refused field by field, and made.
                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 2")
                try await browser.find("#records-query").sendKeys("SG-2")
                try await browser.find("#records-search button[type=submit]").click()
                try await browser.waitUntil("the search", js: "count('#records-table tbody tr') === 1")
                #expect(try await browser.find("#records-table tbody").text().contains("SG-2"))
                // A gun's scan into the search box looks its tag up: the box holds the tag alone,
                // not added to what a person typed there before, and nothing is refused.
                try await browser.find("#records-query").clear()
                try await browser.find("#records-query").sendKeys("zz")
                try await Task.sleep(for: .milliseconds(150))
                try await browser.find("#records-query").gunKeys("SG-1")
                try await browser.waitUntil("the scanned tag looked up") {
                    let rows = try await browser.find("#records-table tbody").text()
                    return rows.contains("SG-1") && !rows.contains("SG-2")
                }
                #expect(try await browser.find("#records-query").property("value").stringValue == "SG-1")
                #expect(try await browser.find("#page-error").text().isEmpty)
                // A gun that ends its tags with Tab looks the tag up too, and the box keeps the focus.
                try await browser.find("#records-query").gunKeys("SG-2", then: .tab)
                try await browser.waitUntil("the Tab-ended tag looked up") {
                    let rows = try await browser.find("#records-table tbody").text()
                    return rows.contains("SG-2") && !rows.contains("SG-1")
                }
                #expect(try await browser.find("#records-query").property("value").stringValue == "SG-2")
                #expect(try await browser.execute("return document.activeElement.id").stringValue == "records-query")
                try await browser.find("#records-query").clear()
                try await browser.find("#records-new").click()
                try await Office.submit(browser, [("asset_tag", "SG-1"), ("name", hostile), ("country", "XX")])
                try await browser.waitUntil("the errors beside the fields") {
                    try await !browser.find("#record-fields-country-error").text().isEmpty
                }
                #expect(try await browser.find("#record-fields-country").attribute("aria-invalid") == "true")
                #expect(
                    try await browser.find("#record-fields-asset_tag-error").text().contains("SG-1"), "the taken tag is said with the other errors")
                if backend == .sqlite { try await browser.screenshotIfAsked("office-asset-form.png") }
                // A gun's burst in the form (a tag and Enter, milliseconds apart) saves nothing and is refused aloud.
                try await browser.find("#record-fields-name").gunKeys("SG-9")
                try await browser.waitUntil("the burst refused aloud", js: "(text('#record-error') || '').includes('barcode scan')")
                #expect(try await browser.find("#record-dialog").isDisplayed())
                #expect(try await server.parts.backend.assets.find(identifier: "SG-9") == nil)
                try await browser.find("#record-fields-name").clear()
                try await browser.find("#record-fields-name").sendKeys(hostile)
                try await Office.submit(browser, [("country", "SG")])
                try await browser.waitUntil("the duplicate tag beside its field") {
                    try await browser.find("#record-fields-asset_tag-error").text().contains("SG-1")
                }
                try await Office.submit(browser, [("asset_tag", "NEW-1"), ("location", "Dock A")])
                try await browser.waitUntil("the new asset", js: "(text('#records-message') || '').includes('NEW-1')")
                try await browser.waitUntilHidden("#record-dialog", "the dialog closed")
                try await browser.waitUntil("the new asset listed", js: "count('#records-table tbody tr') === 3")
                #expect(try await browser.find("#records-table tbody").text().contains(hostile))
                #expect(try await browser.findAll("#records-table img").isEmpty)
                if backend == .sqlite { try await browser.screenshotIfAsked("office-assets.png") }

                // Edit, then archive (a second press confirms).
                try await Office.press(browser, "Edit", inRowOf: "NEW-1")
                #expect(try await browser.find("#record-fields-name").property("value").stringValue == hostile)
                try await Office.submit(browser, [("location", "Dock B"), ("status", "REPAIR")])
                try await browser.waitUntil("the edit", js: "(text('#records-message') || '').includes('saved')")
                let edited = try #require(try await server.parts.backend.assets.find(identifier: "NEW-1"))
                #expect(edited.location == "Dock B" && edited.status.rawValue == "REPAIR" && edited.name == hostile)
                try await Office.press(browser, "Archive", inRowOf: "NEW-1")
                try await Office.press(browser, "Archive it?", inRowOf: "NEW-1")
                try await browser.waitUntil("the archive", js: "(text('#records-message') || '').includes('archived')")
                #expect(try await server.parts.backend.assets.find(identifier: "NEW-1")?.status.rawValue == "ARCHIVED")

                // A customer and an accessory, with hostile names; the accessory checked out and in.
                try await browser.find("#nav-customers").click()
                try await browser.waitUntil("the customers", js: "text('#records-title') === 'Customers'")
                try await browser.find("#records-new").click()
                try await Office.submit(browser, [("name", hostile), ("contact_number", "call me"), ("country", "SG"), ("address", "1 Harbour Rd")])
                try await browser.waitUntil("the bad number beside its field") {
                    try await !browser.find("#record-fields-contact_number-error").text().isEmpty
                }
                try await Office.submit(browser, [("contact_number", "+65 6123 4567")])
                try await browser.waitUntil("the customer", js: "count('#records-table tbody tr .row-actions') === 1")
                if backend == .sqlite { try await browser.screenshotIfAsked("office-customers.png") }
                let customer = try #require(try await server.parts.backend.customers.list(query: ListQuery()).items.first)

                try await browser.find("#nav-accessories").click()
                try await browser.waitUntil("the accessories", js: "text('#records-title') === 'Accessories'")
                try await browser.find("#records-new").click()
                try await Office.submit(browser, [("name", "USB-C cable " + hostile), ("category", "Cables"), ("total_quantity", "5")])
                try await browser.waitUntil("the accessory", js: "count('#records-table tbody tr .row-actions') === 1")
                try await Office.press(browser, "Check out", inRowOf: "Cables")
                _ = try await browser.waitFor("#record-fields-customer_id", displayed: true)
                // A gun's burst in the check-out dialog checks nothing out and is refused aloud.
                try await browser.find("#record-fields-quantity").gunKeys("SG-1")
                try await browser.waitUntil("the burst refused aloud", js: "(text('#record-error') || '').includes('barcode scan')")
                #expect(try await browser.find("#record-dialog").isDisplayed())
                #expect(try await server.parts.backend.accessories.list(query: ListQuery()).items.first?.availableQuantity == 5)
                try await browser.find("#record-fields-quantity").clear()
                try await Office.submit(browser, [("quantity", "9")])
                try await browser.waitUntil("a refusal: no customer") { try await !browser.find("#record-error").text().isEmpty }
                try await Office.submit(browser, [("customer_id", String(customer.id))])
                try await browser.waitUntil("a refusal: more than available") {
                    try await !browser.find("#record-fields-quantity-error").text().isEmpty
                }
                try await Office.submit(browser, [("quantity", "2")])
                try await browser.waitUntil("two checked out", js: "(text('#records-message') || '').includes('Checked out 2')")
                try await browser.waitUntil("three available") {
                    try await Office.cells(browser, "#records-table", holding: "Cables").dropFirst(4).prefix(2) == ["5", "3"]
                }
                try await Office.press(browser, "Check in", inRowOf: "Cables")
                try await browser.waitUntil("the check-in form", js: "(text('#record-dialog-title') || '').startsWith('Check in')")
                try await Office.submit(browser, [("customer_id", String(customer.id)), ("quantity", "1"), ("condition", "scuffed")])
                try await browser.waitUntil("four available") {
                    try await Office.cells(browser, "#records-table", holding: "Cables").dropFirst(4).prefix(2) == ["5", "4"]
                }
                if backend == .sqlite { try await browser.screenshotIfAsked("office-accessories.png") }
                // Readable at 1024×768: nothing wider than the window.
                try await browser.setViewport(width: 1024, height: 768)
                try await browser.waitUntil("no sideways scrolling at 1024 px") {
                    try await browser.execute("return document.documentElement.scrollWidth <= window.innerWidth").boolValue == true
                }
                if backend == .sqlite { try await browser.screenshotIfAsked("office-accessories-1024x768.png") }
                try await browser.setViewport(width: 1280, height: 900)

                // A customer who holds an accessory cannot be deleted: the refusal is shown.
                try await browser.find("#nav-customers").click()
                try await browser.waitUntil("the customers", js: "text('#records-title') === 'Customers'")
                try await browser.waitUntil("the customer's row", js: "count('#records-table tbody tr .row-actions') === 1")
                try await Office.press(browser, "Delete", inRowOf: "Harbour")
                try await Office.press(browser, "Delete it?", inRowOf: "Harbour")
                try await browser.waitUntil("the refusal") { try await browser.find("#records-message").getClass() == "error" }
                #expect(try await server.parts.backend.customers.list(query: ListQuery()).items.count == 1)
                #expect(try await browser.find("#records-table tbody").text().contains(hostile))
            }
        }
    }
    /// A search whose answer is slow never covers the search typed after it: the page's fetch
    /// of the search for SG-2 is held 1.5 s, and SG-3 is searched meanwhile.
    @Test func aSlowEarlierSearchNeverCoversTheLaterOne() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("lead@example.com")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-3", "SG")])
            try await Office.signedIn(server.baseURL, as: "lead@example.com") { browser in
                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 3")
                try await Office.holdAnswers(browser, toURLsHolding: "search=SG-2")
                for tag in ["SG-2", "SG-3"] {
                    try await browser.find("#records-query").clear()
                    try await browser.find("#records-query").sendKeys(tag)
                    try await browser.find("#records-search button[type=submit]").click()
                }
                try await browser.waitUntil(
                    "the later search", js: "count('#records-table tbody tr') === 1 && text('#records-table tbody').includes('SG-3')")
                try await browser.waitUntil("the earlier search's late answer", js: "window.slowAnswered === true")
                try await Task.sleep(for: .milliseconds(400))
                let rows = try await browser.find("#records-table tbody").text()
                #expect(rows.contains("SG-3") && !rows.contains("SG-2"), "the later search's rows: \(rows)")
            }
        }
    }
}

extension Element {
    func getClass() async throws -> String { try await attribute("class") ?? "" }
}
