import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

extension InOfficeBrowser.OfficeBrowserTests {
    /// Saves a screenshot to /tmp/office-shots (to look at), and to docs/ when KIOSK_SCREENSHOTS is set.
    static func shot(_ browser: BrowserSession, _ name: String) async throws {
        let folder = URL(fileURLWithPath: "/tmp/office-shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await Task.sleep(for: .milliseconds(300))
        try await browser.screenshot(to: folder.appendingPathComponent(name).path)
        try await browser.screenshotIfAsked(name)
    }
}

/// What the back office's outside trial found: a page that froze when its user was disabled,
/// tables that covered each other, buttons a user may not press, filters and polish.
extension InThirdBrowser.OfficeScreensTests {
    @Test(arguments: [(1280, 720), (1024, 768)]) func aFailedRefreshIsSaidAndA401GoesToTheLogin(size: (Int, Int)) async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("sam@example.com", type: "STAFF")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-3", "SG")])
            let audit = try await server.parts.audits.start(country: "SG", by: Actor(user: "sam", station: "api"))
            _ = try await server.parts.audits.record(
                ScanRequest(identifier: "SG-1", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "sam"))
            try await Office.signedIn(server.baseURL, as: "sam@example.com", width: size.0, height: size.1) { browser in
                try await browser.execute("location.hash = arguments[0]", [.string("#/audit/" + audit.id)])
                try await browser.waitUntil("the audit's numbers", js: "text('#n-found') === '1'")
                #expect(try await !browser.find("#audit-refresh").isDisplayed())
                // The server cannot answer (here: every audit call answers 503) while a scan arrives.
                try await browser.execute(
                    """
                    window.realFetch = window.fetch;
                    window.fetch = function (url, init) {
                      if (String(url).indexOf('/api/v1/audit/') >= 0)
                        return Promise.resolve(new Response(JSON.stringify({ error: 'UNAVAILABLE', message: 'The database is busy' }),
                          { status: 503, headers: { 'Content-Type': 'application/json' } }));
                      return window.realFetch(url, init);
                    };
                    """)
                _ = try await server.parts.audits.record(
                    ScanRequest(identifier: "SG-2", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "sam"))
                try await browser.waitUntil("the failed refresh said") {
                    let said = try await browser.find("#audit-refresh")
                    guard try await said.isDisplayed() else { return false }
                    let text = try await said.text()
                    return text.contains("Not refreshed") && text.contains("The database is busy")
                }
                #expect(try await browser.find("#n-found").text() == "1", "the old number stays, marked as old")
                try await Office.shot(browser, "office-refresh-failed-\(size.0)x\(size.1).png")
                // The server answers again: the message goes and the numbers catch up.
                try await browser.execute("window.fetch = window.realFetch")
                try await browser.waitUntil("the numbers caught up", js: "text('#n-found') === '2'")
                try await browser.waitUntilHidden("#audit-refresh", "the message gone")
                // The user is disabled: the next refresh is a 401, and the page goes to the login and says why.
                _ = try await server.parts.users.store.setDisabled(email: "sam@example.com", true)
                try await browser.waitUntilShown("#login-view", timeout: 15, "the login")
                try await browser.waitUntil("why the login", js: "(text('#login-error') || '').includes('signed out')")
                #expect(try await !browser.find("#audit-view").isDisplayed())
                try await Office.shot(browser, "office-signed-out-\(size.0)x\(size.1).png")
            }
        }
    }

    @Test(arguments: [(1280, 720), (1024, 768)]) func noTableCoversAnotherOnScreenOrPaper(size: (Int, Int)) async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("lead@example.com")
            let places = ["Warehouse North, loading dock A", "Warehouse South, cold room 2", "Head office, 14th floor store"]
            for (index, place) in places.enumerated() {
                for n in 1...3 {
                    _ = try await server.parts.backend.assets.create(
                        AssetInput(assetTag: "SG-\(index)\(n)", name: "Laptop \(index)\(n)", status: "IN_STOCK", country: "SG", location: place))
                }
            }
            let audit = try await server.parts.audits.start(country: "SG", by: Actor(user: "lead", station: "api"))
            for (tag, station) in [("SG-01", "receiving-dock-kiosk-1"), ("SG-11", "cold-room-kiosk-2"), ("GHOST-9", "receiving-dock-kiosk-1")] {
                _ = try await server.parts.audits.record(
                    ScanRequest(identifier: tag, auditId: audit.id, source: .manual, deviceName: station, user: "lead", location: places[2]))
            }
            try await Office.signedIn(server.baseURL, as: "lead@example.com", width: size.0, height: size.1) { browser in
                try await browser.execute("location.hash = arguments[0]", [.string("#/audit/" + audit.id)])
                try await browser.waitUntil("the breakdown", js: "count('#by-location tbody tr') === 3 && count('#by-station tbody tr') === 2")
                // Every breakdown table apart from the others, and the Misplaced column's cells
                // are the by-location table's own where they are drawn.
                let check = """
                    const tables = ['by-location', 'by-station', 'by-user', 'audit-stations'].map(function (id) { return document.getElementById(id); })
                      .filter(function (t) { return t.offsetParent !== null; });
                    const rects = tables.map(function (t) { return t.getBoundingClientRect(); });
                    for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
                      const a = rects[i], b = rects[j];
                      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
                        return 'overlap: ' + tables[i].id + ' and ' + tables[j].id;
                    }
                    const cells = Array.from(document.querySelectorAll('#by-location tr > :last-child'));
                    for (const cell of cells) {
                      cell.scrollIntoView({ block: 'center', inline: 'center' });
                      const r = cell.getBoundingClientRect();
                      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                      if (!hit || !hit.closest('#by-location')) return 'Misplaced covered by ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing');
                      if (r.right > document.documentElement.clientWidth + 0.5) return 'Misplaced beyond the window';
                    }
                    return 'ok';
                    """
                #expect(try await browser.execute(check).stringValue == "ok", "on screen at \(size.0)×\(size.1)")
                try await browser.execute("window.scrollTo(0, 0)")
                try await Office.shot(browser, "office-audit-\(size.0)x\(size.1).png")
                // On paper (print media, an A4 page's width at 96 dpi less its margins).
                _ = try await browser.devTools("Emulation.setEmulatedMedia", ["media": "print"])
                try await browser.setViewport(width: 718, height: 1000)
                #expect(try await browser.execute(check).stringValue == "ok", "in print")
                // A printed list says what it is.
                #expect(
                    try await browser.execute("return document.querySelector('#list-table caption').offsetHeight > 4").boolValue == true)
                _ = try await browser.devTools("Emulation.setEmulatedMedia", ["media": ""])
                try await browser.setViewport(width: size.0, height: size.1)
                let pdf = Scratch.root.appendingPathComponent("office-print-\(UUID().uuidString.prefix(8)).pdf")
                try await browser.printPDF().write(to: pdf)
                let printed = try await Child.run("/usr/bin/pdftotext", ["-layout", pdf.path, "-"])
                #expect(printed.stdout.contains("Missing assets · audit of SG"), "\(printed.stdout.prefix(600))")
                #expect(printed.stdout.contains("Misplaced"))
                // The assets screen: "Archive" on one line.
                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 9")
                let wrapped = try await browser.execute(
                    """
                    return Array.from(document.querySelectorAll('#records-table button')).filter(function (b) {
                      const r = document.createRange(); r.selectNodeContents(b); return r.getClientRects().length > 1;
                    }).map(function (b) { return b.textContent; });
                    """)
                #expect(wrapped.arrayValue?.isEmpty == true, "wrapped: \(wrapped)")
                try await Office.shot(browser, "office-assets-\(size.0)x\(size.1).png")
            }
        }
    }

    @Test func aClientSeesNoVoidButtonsNorTheReconcilePanelAndThePreviewIsPaged() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("lead@example.com")
            _ = try await server.user("cleo@example.com", type: "CLIENT", canEditAssets: false)
            try await server.seed((1...120).map { (String(format: "SG-%03d", $0), "SG") })
            let audit = try await server.parts.audits.start(country: "SG", by: Actor(user: "lead", station: "api"))
            _ = try await server.parts.audits.record(
                ScanRequest(identifier: "SG-001", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "lead"))
            try await Office.signedIn(server.baseURL, as: "cleo@example.com", width: 1280, height: 720) { browser in
                try await browser.execute("location.hash = arguments[0]", [.string("#/audit/" + audit.id)])
                try await browser.waitUntil("the audit's numbers", js: "text('#n-found') === '1'")
                try await browser.find(".tabs button[data-list=trail]").click()
                try await browser.waitUntil("the scan trail", js: "(text('#list-table tbody') || '').includes('SG-001')")
                #expect(try await browser.findAll("#list-table tbody button").isEmpty, "no Void button for a CLIENT")
                #expect(try await !browser.find("#end-audit").isDisplayed())
                _ = try await server.parts.audits.end(auditID: audit.id, by: Actor(user: "lead", station: "api"), force: true)
                try await browser.waitUntil(timeout: 20, "the audit ended", js: "(text('#audit-title') || '').includes('ended')")
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await !browser.find("#reconcile").isDisplayed(), "no reconcile panel for a CLIENT")
            }
            try await Office.signedIn(server.baseURL, as: "lead@example.com", width: 1280, height: 720) { browser in
                try await browser.execute("location.hash = arguments[0]", [.string("#/audit/" + audit.id)])
                try await browser.waitUntilShown("#reconcile", "the reconcile panel")
                try await browser.find("#reconcile-preview").click()
                try await browser.waitUntil("the preview", js: "count('#reconcile-table tbody tr') === 50")
                #expect(try await browser.find("#reconcile-pager").text().contains("Page 1 of 3 (119 rows)"))
                try await browser.find("#reconcile-pager button:last-child").click()
                try await browser.waitUntil("the second page", js: "(text('#reconcile-pager') || '').includes('Page 2 of 3')")
                #expect(try await browser.findAll("#reconcile-table tbody tr").count == 50)
                try await Office.shot(browser, "office-reconcile-paged.png")
            }
        }
    }

    @Test func filtersSayWhatTheyFoundAndFormsShowEveryErrorAtOnce() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("lead@example.com")
            let longTag = "SG-" + String(repeating: "L", count: 37)
            for tag in ["SG-1", "SG-2", longTag] {
                _ = try await server.parts.backend.assets.create(
                    AssetInput(assetTag: tag, name: "Laptop \(tag.prefix(6))", status: "IN_STOCK", country: "SG", location: "Dock A"))
            }
            let audit = try await server.parts.audits.start(country: "SG", locations: ["Dock A"], by: Actor(user: "lead", station: "api"))
            _ = try await server.parts.audits.record(
                ScanRequest(identifier: "SG-1", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "lead"))
            try await Office.signedIn(server.baseURL, as: "lead@example.com", width: 1280, height: 720) { browser in
                try await browser.waitUntil("the audit", js: "count('#audits-table tbody tr.link') === 1")
                // An invalid country: the error, and the rows of the filter before go.
                try await browser.find("#filter-country").sendKeys("Q1")
                try await browser.find("#audits-filter button[type=submit]").click()
                try await browser.waitUntil("the error", js: "(text('#audits-error') || '').length > 0")
                #expect(try await browser.findAll("#audits-table tbody tr.link").isEmpty, "the old rows go")
                // The location filter ignores case.
                try await browser.find("#filter-country").clear()
                try await browser.find("#filter-location").sendKeys("dock a")
                try await browser.find("#audits-filter button[type=submit]").click()
                try await browser.waitUntil("the audit at Dock A", js: "count('#audits-table tbody tr.link') === 1")
                #expect(try await browser.find("#audits-error").text().isEmpty)
                // A trail search with no match says so.
                try await browser.find("#audits-table tbody tr.link").click()
                try await browser.waitUntil("the audit's numbers", js: "text('#n-found') === '1'")
                try await browser.find(".tabs button[data-list=trail]").click()
                try await browser.waitUntil("the scan trail", js: "(text('#list-table tbody') || '').includes('SG-1')")
                try await browser.find("#list-query").sendKeys("NOTHING-LIKE-IT")
                try await browser.find("#list-search button[type=submit]").click()
                try await browser.waitUntil("no match said", js: "(text('#list-table tbody') || '').includes('No scan matches \"NOTHING-LIKE-IT\"')")
                // A bad audit id in the address: a plain message, and the audits to choose from.
                try await browser.execute("location.hash = '#/audit/not-an-audit'")
                try await browser.waitUntil("the plain message", js: "(text('#page-error') || '').includes('There is no audit \"not-an-audit\"')")
                #expect(try await browser.find("#audits-view").isDisplayed())
                #expect(try await !browser.find("#page-error").text().contains("Malformed"))
                try await Office.shot(browser, "office-no-such-audit.png")
                // A new asset with a taken tag and a bad country: both errors at once.
                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 3")
                try await browser.find("#records-new").click()
                try await Office.submit(browser, [("asset_tag", "SG-2"), ("name", "Another"), ("country", "XX")])
                try await browser.waitUntil("both errors") {
                    let country = try await browser.find("#record-fields-country-error").text()
                    let tag = try await browser.find("#record-fields-asset_tag-error").text()
                    return !country.isEmpty && tag.contains("SG-2")
                }
                try await Office.shot(browser, "office-asset-form.png")
                try await browser.find("#record-cancel").click()
                // Print labels starts from the country of the assets listed, not the 50 tags on screen.
                try await browser.find("#records-labels").click()
                try await browser.waitUntilShown("#record-dialog", "the labels form")
                #expect(try await browser.find("#record-fields-country").property("value").stringValue == "SG")
                #expect(try await browser.find("#record-fields-tags").property("value").stringValue == "")
                // Tags, one of them too long for a Code 128 label: the file holds the others and the dialog names it.
                try await browser.find("#record-fields-country").clear()
                try await browser.find("#record-fields-tags").sendKeys("SG-1\n\(longTag)")
                try await browser.find("#record-fields-symbology option[value='code128']").click()
                try await browser.find("#record-fields-layout option[value='a4-4x10']").click()
                try await browser.find("#record-save").click()
                try await browser.waitUntil("the tag named") {
                    let said = try await browser.find("#record-error").text()
                    return said.contains("could not be made") && said.contains(longTag)
                }
                try await Office.shot(browser, "office-labels-refused.png")
            }
        }
    }
}
