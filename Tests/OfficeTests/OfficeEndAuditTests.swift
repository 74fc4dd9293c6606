import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

/// Ending an audit from the back office, and a page left open on an audit that ends elsewhere.
extension InOfficeBrowser.OfficeBrowserTests {
    /// WebDriver's Enter key: a person's press, alone (no burst before it).
    static let enterKey = "\u{E007}"

    /// Starts an SG audit of SG-1…SG-3 as `token`'s user with SG-1 found from kiosk-1; answers its id.
    static func runningAudit(_ server: TestServer, token: String) async throws -> String {
        try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-3", "SG")])
        let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
        let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String, "\(started.text)")
        let scan = try await server.call(
            "POST", "/api/v1/audit/scan", json: #"{"identifier":"SG-1","audit_id":"\#(id)","device_name":"kiosk-1"}"#, token: token)
        #expect(scan.status == 200, "\(scan.text)")
        return id
    }

    static func isActive(_ server: TestServer, _ id: String, token: String) async throws -> Bool? {
        let answer = try await server.call("GET", "/api/v1/audit/\(id)", token: token)
        return (answer.data?["audit"] as? [String: Any])?["is_active"] as? Bool
    }

    /// Holds back, in the page, the answers to the requests whose URL holds `part` by 1.5 s (a
    /// slow network); `window.slowAnswered` turns true when the first is let through.
    static func holdAnswers(_ browser: BrowserSession, toURLsHolding part: String) async throws {
        _ = try await browser.execute(
            """
            const original = window.fetch;
            const part = arguments[0];
            window.slowAnswered = false;
            window.fetch = function (url, init) {
              const answer = original.call(this, url, init);
              if (!String(url).includes(part)) return answer;
              return new Promise(function (resolve) {
                setTimeout(function () { window.slowAnswered = true; resolve(answer); }, 1500);
              });
            };
            return true;
            """, [.string(part)])
    }

    /// Counts, in the page, its reads of the audit's numbers (`GET /api/v1/audit/ID`) from now on.
    static func countPolls(_ browser: BrowserSession, _ id: String) async throws {
        _ = try await browser.execute(
            """
            window.polls = 0;
            const path = '/api/v1/audit/' + encodeURIComponent(arguments[0]);
            const original = window.fetch;
            window.fetch = function (url, init) { if (String(url) === path) window.polls += 1; return original.call(this, url, init); };
            return true;
            """, [.string(id)])
    }

    /// The End button, keyboard only: a gun's burst on it, in its dialog and on the second
    /// confirmation is refused aloud and ends nothing; a station that said it holds 5 scans
    /// turns the first confirmation into a warning naming it, and only the second button, which
    /// names it too, ends the audit (with force). The page then shows the end, loses End and the
    /// Void buttons, and stops polling once a second.
    @Test(arguments: Backend.allCases) func anAuditorEndsAnAuditPastAStationStillOut(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            let id = try await Self.runningAudit(server, token: token)
            let report = try await server.call(
                "POST", "/api/v1/audit/\(id)/stations", json: #"{"device_name":"dock-b","waiting":5}"#, token: token)
            #expect(report.status == 200, "\(report.text)")
            try await Self.signedIn(server.baseURL, as: "lead@example.com") { browser in
                try await browser.open(server.baseURL + "/#/audit/" + id)
                try await browser.waitUntilShown("#end-audit", "the End button of the running audit")
                try await browser.waitUntil("the stations table", js: "(text('#audit-stations tbody') || '').includes('dock-b')")
                let station = try await Self.cells(browser, "#audit-stations", holding: "dock-b")
                #expect(station.count == 4 && station[0] == "dock-b" && station[1] == "lead" && station[3] == "5", "\(station)")
                #expect(station.count == 4 && (station[2] == "just now" || station[2].hasSuffix(" s ago")), "\(station)")

                // A gun's burst on the End button opens nothing.
                _ = try await browser.execute("document.getElementById('end-audit').focus(); return true")
                try await browser.gunKeys("SG-2")
                try await browser.waitUntil("the burst on End refused aloud", js: "(text('#page-error') || '').includes('barcode scan')")
                #expect(try await browser.execute("return document.getElementById('end-dialog').open").boolValue == false)

                // Enter on End asks first; the focus is on the dialog's End button.
                try await browser.find("#end-audit").sendKeys(Self.enterKey)
                try await browser.waitUntil("the End dialog", js: "$('#end-dialog').open && focusedID() === 'end-confirm'")
                #expect(try await browser.find("#end-what").text().contains("1 of 3"))
                try await browser.gunKeys("SG-3")
                try await browser.waitUntil("the burst in the dialog refused aloud", js: "(text('#end-error') || '').includes('barcode scan')")
                #expect(try await Self.isActive(server, id, token: token) == true)

                // Enter on the dialog's End: the server says dock-b may still hold scans, and nothing ends.
                try await browser.find("#end-confirm").sendKeys(Self.enterKey)
                try await browser.waitUntilShown("#end-force", "the second confirmation")
                let warning = try await browser.find("#end-stations").text()
                #expect(warning.contains("dock-b joined this audit and last synced") && warning.contains("with 5 scans waiting"), "\(warning)")
                #expect(try await browser.find("#end-force").text() == "End anyway: dock-b may still send scans")
                #expect(try await browser.find("#end-confirm").isDisplayed() == false)
                #expect(try await browser.execute("return document.activeElement.id").stringValue == "end-cancel", "a stray Enter keeps it running")
                #expect(try await Self.isActive(server, id, token: token) == true)
                if backend == .sqlite { try await browser.screenshotIfAsked("office-end-warning.png") }

                // A burst on the second confirmation is refused too.
                _ = try await browser.execute("document.getElementById('end-error').textContent = ''; return true")
                try await browser.find("#end-force").gunKeys("SG-2")
                try await browser.waitUntil("the burst on End anyway refused aloud", js: "(text('#end-error') || '').includes('barcode scan')")
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await Self.isActive(server, id, token: token) == true)

                // Enter on "End anyway" ends it.
                try await browser.find("#end-force").sendKeys(Self.enterKey)
                let shownEnded = "(text('#audit-ended') || '').startsWith('Ended at ') && text('#audit-ended').endsWith(' by lead')"
                try await browser.waitUntil("the page to show the end", js: shownEnded)
                #expect(try await Self.isActive(server, id, token: token) == false)
                #expect(try await browser.execute("return document.getElementById('end-dialog').open").boolValue == false)
                #expect(try await browser.find("#end-audit").isDisplayed() == false)
                #expect(try await browser.find("#audit-title").text() == "Audit of SG (ended)")
                try await browser.waitUntilShown("#reconcile", "the reconcile panel of the ended audit")
                try await browser.find(".tabs button[data-list=trail]").click()
                try await browser.waitUntil("the trail", js: "(text('#list-table tbody') || '').includes('SG-1')")
                #expect(try await browser.findAll("#list-table tbody button").isEmpty, "no Void button on an ended audit")
                if backend == .sqlite { try await browser.screenshotIfAsked("office-ended.png") }
                // No more polling once a second: at most one read of the numbers in 3.5 s.
                try await Self.countPolls(browser, id)
                try await Task.sleep(for: .milliseconds(3500))
                let polls = try await browser.execute("return window.polls").intValue ?? -1
                #expect(polls >= 0 && polls <= 1, "\(polls) reads of the ended audit's numbers in 3.5 s")
            }
        }
    }

    /// A tab chosen while the list before it is still on its way keeps its own rows when that
    /// earlier answer arrives last: the page's fetch of the missing list is held 1.5 s (a slow
    /// network), and the Trail tab is chosen meanwhile.
    @Test func aSlowEarlierListNeverCoversTheTabChosenAfterIt() async throws {
        try await TestServer.with(.sqlite) { server in
            let token = try await server.user("lead@example.com")
            let id = try await Self.runningAudit(server, token: token)
            try await Self.signedIn(server.baseURL, as: "lead@example.com") { browser in
                try await browser.open(server.baseURL + "/#/audit/" + id)
                try await browser.waitUntil("the missing list", js: "(text('#list-table tbody') || '').includes('SG-2')")
                try await Self.holdAnswers(browser, toURLsHolding: "/details/missing")
                try await browser.find(".tabs button[data-list=missing]").click()
                try await browser.find(".tabs button[data-list=trail]").click()
                try await browser.waitUntil("the trail's Void button", js: "count('#list-table tbody button') === 1")
                try await browser.waitUntil("the missing list's late answer", js: "window.slowAnswered === true")
                try await Task.sleep(for: .milliseconds(400))
                let rows = try await browser.find("#list-table tbody").text()
                #expect(rows.contains("SG-1") && !rows.contains("SG-2"), "the trail, not the missing list: \(rows)")
                #expect(try await browser.findAll("#list-table tbody button").count == 1, "the scan's Void button")
                #expect(try await browser.find(".tabs button[data-list=trail]").attribute("aria-selected") == "true")
            }
        }
    }
}
