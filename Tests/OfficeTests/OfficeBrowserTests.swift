import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

extension InOfficeBrowser {
    /// The back office that `serve` gives at `/`, in headless Chromium against a real server on
    /// each back end: log in, the audits, one audit with its lists, a void from the scan trail,
    /// and hostile asset names shown as text.
    @Suite("The back office in a real browser", BrowserChain(.office))
    struct OfficeBrowserTests {
        @Test(arguments: Backend.allCases) func anAuditorFollowsAnAuditAndVoidsAScan(backend: Backend) async throws {
            try await TestServer.with(backend) { server in
                _ = try await server.user("lead@example.com")
                try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-3", "SG")])
                _ = try await server.parts.backend.assets.create(
                    AssetInput(assetTag: "XSS-1", name: "<img src=x onerror=\"window.pwned=1\">", status: "IN_STOCK", country: "SG"))
                let audit = try await server.parts.audits.start(country: "SG", by: Actor(user: "lead", station: "api"))
                let scan = try await server.parts.audits.record(
                    ScanRequest(identifier: "SG-1", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "lead"))
                _ = try await server.parts.audits.record(
                    ScanRequest(identifier: "GHOST-1", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "lead"))
                let page = try await server.call("GET", "/")
                #expect(page.status == 200 && page.text.contains("AuditStation back office"))

                try await SharedBrowser.with(width: 1280, height: 900) { browser in
                    try await browser.open(server.baseURL + "/")
                    try await browser.waitFor("#login-email", displayed: true).sendKeys("lead@example.com")
                    try await browser.find("#login-password").sendKeys("wrong-pass")
                    try await browser.find("#login-submit").click()
                    try await browser.waitUntil("the refused login's message") {
                        try await !browser.find("#login-error").text().isEmpty
                    }
                    try await browser.find("#login-password").clear()
                    try await browser.find("#login-password").sendKeys("secret-pass")
                    try await browser.find("#login-submit").click()
                    try await browser.waitUntil("the audits", js: "count('#audits-table tbody tr.link') === 1")
                    #expect(try await Self.cells(browser, "#audits-table", holding: "SG").last == "1/4", "accuracy: found/expected")
                    // The filters: from tomorrow, nothing; at Dock A (the whole of SG covers it) and from today, the audit.
                    let day = { (offset: Double) in String(ISOTime.string(Date().addingTimeInterval(offset)).prefix(10)) }
                    try await browser.execute("document.getElementById('filter-from').value = arguments[0]", [.string(day(86_400))])
                    try await browser.find("#audits-filter button[type=submit]").click()
                    try await browser.waitUntil("no audit", js: "count('#audits-table tbody tr.link') === 0")
                    try await browser.execute("document.getElementById('filter-from').value = arguments[0]", [.string(day(0))])
                    try await browser.find("#filter-location").sendKeys("Dock A")
                    try await browser.find("#audits-filter button[type=submit]").click()
                    try await browser.waitUntil("the audit again", js: "count('#audits-table tbody tr.link') === 1")
                    try await browser.find("#audits-table tbody tr.link").click()
                    try await browser.waitUntil("the audit's numbers", js: "text('#n-found') === '1'")
                    let total = try await browser.find("#n-total").text()
                    let missing = try await browser.find("#n-missing").text()
                    #expect(total == "4" && missing == "3")
                    try await browser.waitUntil("the missing list") {
                        try await browser.find("#list-table tbody").text().contains("XSS-1")
                    }
                    // The hostile name is text on the page, and its script never ran.
                    #expect(try await browser.find("#list-table tbody").text().contains("<img src=x onerror="))
                    #expect(try await browser.execute("return window.pwned === undefined").boolValue == true)
                    #expect(try await browser.findAll("#list-table img").isEmpty)
                    // The numbers by station, user, location and hour, from the server's summary.
                    try await browser.waitUntil("the breakdown", js: "(text('#by-station tbody') || '').includes('kiosk-1')")
                    #expect(try await Self.cells(browser, "#by-station", holding: "kiosk-1") == ["kiosk-1", "2", "1", "1"])
                    #expect(try await Self.cells(browser, "#by-location", holding: "no location") == ["(no location)", "4", "1", "3", "0"])
                    #expect(try await browser.findAll("#hours-chart svg rect").count == 1)
                    if backend == .sqlite { try await browser.screenshotIfAsked("office-audit.png") }
                    // Printed (headless Chromium's PDF, read back with pdftotext): the audit's
                    // numbers and its missing list, without the page's buttons and forms.
                    let pdf = Scratch.root.appendingPathComponent("office-print-\(UUID().uuidString.prefix(8)).pdf")
                    try await browser.printPDF().write(to: pdf)
                    let printed = try await Child.run("/usr/bin/pdftotext", ["-layout", pdf.path, "-"])
                    #expect(printed.status == 0)
                    #expect(printed.stdout.contains("Audit of SG"), "\(printed.stdout.prefix(400))")
                    #expect(printed.stdout.contains("XSS-1"))
                    #expect(try await browser.find(".tabs button[data-list=trail]").isDisplayed(), "on screen, the tabs show")
                    #expect(!printed.stdout.contains("Log out") && !printed.stdout.contains("Scan trail"), "buttons are not printed")
                    // At 1920×1080, as at 1024×768, nothing is wider than the window.
                    try await browser.setViewport(width: 1920, height: 1080)
                    try await browser.waitUntil("no sideways scrolling at 1920 px") {
                        try await browser.execute("return document.documentElement.scrollWidth <= window.innerWidth").boolValue == true
                    }
                    if backend == .sqlite { try await browser.screenshotIfAsked("office-audit-1920x1080.png") }
                    try await browser.setViewport(width: 1280, height: 900)

                    try await browser.find(".tabs button[data-list=trail]").click()
                    try await browser.waitUntil("the scan trail", js: "(text('#list-table tbody') || '').includes('GHOST-1')")
                    let rows = try await browser.findAll("#list-table tbody tr")
                    var voided = false
                    for row in rows where try await row.text().contains("SG-1") {
                        try await row.find("button").click()
                        voided = true
                        break
                    }
                    #expect(voided)
                    // A gun's burst in the dialog (a tag and Enter, milliseconds apart) answers nothing.
                    try await browser.waitFor("#void-reason", displayed: true).gunKeys("SG-2")
                    try await browser.waitUntil("the burst refused aloud") {
                        try await browser.find("#void-error").text().contains("barcode scan")
                    }
                    #expect(try await browser.find("#void-dialog").isDisplayed())
                    #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 1)
                    // A burst ended by Tab (a gun set so) is refused the same way, and the focus stays in the field.
                    _ = try await browser.execute("document.getElementById('void-error').textContent = ''")
                    try await browser.find("#void-reason").gunKeys("SG-3", then: .tab)
                    try await browser.waitUntil("the Tab-ended burst refused aloud") {
                        try await browser.find("#void-error").text().contains("barcode scan")
                    }
                    #expect(try await browser.execute("return document.activeElement.id").stringValue == "void-reason")
                    #expect(try await browser.find("#void-dialog").isDisplayed())
                    // Half a reason typed by the person, then a burst: refused, and the reason kept as typed.
                    let reason = try await browser.find("#void-reason")
                    try await reason.clear()
                    try await reason.gunKeys("wrong sh", then: nil, gap: BrowserSession.personKeyGap)
                    try await Task.sleep(for: .milliseconds(300))
                    _ = try await browser.execute("document.getElementById('void-error').textContent = ''")
                    try await reason.gunKeys("SG-2")
                    try await browser.waitUntil("the burst after the typed reason refused aloud") {
                        try await browser.find("#void-error").text().contains("barcode scan")
                    }
                    #expect(try await reason.property("value").stringValue == "wrong sh")
                    #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 1)
                    try await reason.gunKeys("elf", then: nil, gap: BrowserSession.personKeyGap)
                    try await browser.find("#void-confirm").click()
                    try await browser.waitUntil("the found count to drop", js: "text('#n-found') === '0'")
                    try await browser.waitUntil("the struck-through scan", js: "count('#list-table tr.voided') === 1")
                    if backend == .sqlite { try await browser.screenshotIfAsked("office-trail.png") }

                    // Once the audit ends, its findings can be acted on: preview, then apply.
                    #expect(try await browser.find("#reconcile").isDisplayed() == false)
                    _ = try await server.parts.audits.end(auditID: audit.id, by: Actor(user: "lead", station: "api"))
                    try await browser.refresh()
                    _ = try await browser.waitFor("#reconcile", displayed: true)
                    // An ended audit's numbers never move: its breakdown comes with the page's load.
                    try await browser.waitUntil("the ended audit's breakdown") {
                        try await browser.find("#by-station tbody").text().contains("kiosk-1")
                    }
                    #expect(try await browser.find("#reconcile-apply").isEnabled() == false)
                    try await browser.find("#reconcile-preview").click()
                    try await browser.waitUntil("the preview", js: "(text('#reconcile-message') || '').includes('would make')")
                    #expect(try await browser.find("#reconcile-table tbody").text().contains("XSS-1"))
                    #expect(try await server.parts.backend.assets.find(identifier: "SG-2")?.status.rawValue == "IN_STOCK")
                    // A gun's burst with the focus on Apply is refused aloud and applies nothing.
                    _ = try await browser.execute("document.getElementById('reconcile-apply').focus()")
                    try await browser.gunKeys("SG-2")
                    try await browser.waitUntil("the burst refused aloud", js: "(text('#page-error') || '').includes('barcode scan')")
                    #expect(try await browser.find("#reconcile-message").text().contains("would make"), "nothing was applied")
                    #expect(try await server.parts.backend.assets.find(identifier: "SG-2")?.status.rawValue == "IN_STOCK")
                    try await browser.find("#reconcile-apply").click()
                    try await browser.waitUntil("the changes applied") {
                        try await browser.find("#reconcile-message").text().contains("made")
                    }
                    if backend == .sqlite { try await browser.screenshotIfAsked("office-reconcile.png") }
                    // The PDF report, and labels of the audit's unknown tags, come as files the browser saves.
                    try await browser.execute(
                        """
                        window.saved = [];
                        const make = URL.createObjectURL;
                        URL.createObjectURL = function (blob) { window.saved.push(blob.type + ' ' + blob.size); return make.call(URL, blob); };
                        """)
                    try await browser.find("#download-pdf").click()
                    try await browser.waitUntil("the PDF report") {
                        try await browser.execute("return window.saved.join(',')").stringValue?.contains("application/pdf") == true
                    }
                    try await browser.find("#print-labels").click()
                    _ = try await browser.waitFor("#record-fields-layout", displayed: true)
                    try await browser.find("#record-fields-layout option[value='a4-4x10']").click()
                    try await browser.find("#record-save").click()
                    try await browser.waitUntil("the labels, or a refusal") {
                        let refused = try await browser.find("#record-error").text()
                        return try await browser.execute("return window.saved.length").intValue == 2 || !refused.isEmpty
                    }
                    let refusal = try await browser.find("#record-error").text()
                    #expect(refusal.isEmpty, "\(refusal)")
                    #expect(try await browser.execute("return window.saved[1]").stringValue?.hasPrefix("application/pdf") == true)
                    // Nothing but the network line of the refused login.
                    let errors = try await browser.consoleErrors().filter { !"\($0)".contains("auth/login") }
                    #expect(errors.isEmpty, "\(errors)")
                }
                #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 0)
                let trail = try await server.parts.audits.scans(auditID: audit.id, query: ListQuery()).items
                #expect(trail.first { $0.scanId == scan.scanId }?.voided?.reason == "wrong shelf")
                #expect(try await server.parts.backend.assets.find(identifier: "SG-2")?.status.rawValue == "MISSING")
            }
        }

    }
}

extension InThirdBrowser {
    /// The back office's other screens (Due, Webhooks, the inventory, a standalone station's
    /// office, what the outside trial found), on a browser of their own beside the first half's,
    /// with its helpers (`Office`).
    @Suite("The back office's screens and inventory, in a real browser", BrowserChain(.third))
    struct OfficeScreensTests {
        typealias Office = InOfficeBrowser.OfficeBrowserTests
    }
}
