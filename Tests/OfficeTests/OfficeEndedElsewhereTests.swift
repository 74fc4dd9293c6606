import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

extension TimingSensitive {
    /// The back office's page learning of an end made elsewhere. It waits mostly for the page's
    /// slow polling of an ended audit (10 s, twice a back end) and checks how often the page
    /// polls, so it runs in the chain of checks that depend on time, with a browser of its own
    /// (`SharedBrowser.timing`). That chain ends well before the browser chains: in theirs, its
    /// 28 s of waiting came last, with the cores half idle.
    @Suite("The back office learns of an end made elsewhere, in a real browser", BrowserChain(.timing))
    struct OfficeEndedElsewhereTests {
        typealias Office = InOfficeBrowser.OfficeBrowserTests

        /// A CLIENT user's page has no End and no Void buttons. A page open on a running audit (its
        /// trail, with Void buttons) learns that the audit was
        /// ended elsewhere: End and the Void buttons go, "Ended at … by …" shows, the polling slows
        /// down; then a late scan (made before the end, sent after it) still reaches the page: its
        /// numbers, the late count in the header, the late mark in the trail and the station.
        @Test(arguments: Backend.allCases) func anOpenPageLearnsItsAuditEndedElsewhereAndItsLateScans(backend: Backend) async throws {
            try await TestServer.with(backend) { server in
                let token = try await server.user("lead@example.com")
                let id = try await Office.runningAudit(server, token: token)
                // A CLIENT user sees the audit, and may neither end it nor void its scans (the API refuses both).
                _ = try await server.user("client@example.com", type: "CLIENT", canEditAssets: false)
                try await Office.signedIn(server.baseURL, as: "client@example.com") { browser in
                    try await browser.open(server.baseURL + "/#/audit/" + id)
                    try await browser.waitUntil(
                        "the audit's numbers", js: "text('#n-found') === '1' && text('#audit-title') === 'Audit of SG (running)'")
                    try await browser.find(".tabs button[data-list=trail]").click()
                    try await browser.waitUntil("the trail", js: "(text('#list-table tbody') || '').includes('SG-1')")
                    #expect(try await browser.find("#end-audit").isDisplayed() == false)
                    #expect(try await browser.findAll("#list-table tbody button").isEmpty)
                }
                try await Office.signedIn(server.baseURL, as: "lead@example.com") { browser in
                    try await browser.open(server.baseURL + "/#/audit/" + id)
                    try await browser.waitUntilShown("#end-audit", "the End button of the running audit")
                    try await browser.find(".tabs button[data-list=trail]").click()
                    try await browser.waitUntil("the trail's Void button", js: "count('#list-table tbody button') === 1")
                    #expect(try await browser.find("#audit-ended").isDisplayed() == false)

                    let ended = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
                    #expect(ended.status == 200, "\(ended.text)")
                    let endedAt = try #require(
                        (((ended.data?["summary"] as? [String: Any])?["audit"] as? [String: Any])?["ended_at"] as? String).flatMap {
                            ISOTime.parse($0)
                        })
                    try await browser.waitUntil(
                        timeout: 5, "the page to learn of the end",
                        js:
                            "!shown('#end-audit') && (text('#audit-ended') || '').startsWith('Ended at ') && text('#audit-ended').endsWith(' by lead')"
                    )
                    try await browser.waitUntil("the Void button gone", js: "count('#list-table tbody button') === 0")
                    #expect(try await browser.find("#audit-title").text() == "Audit of SG (ended)")
                    #expect(try await browser.find("#audit-late").isDisplayed() == false)
                    try await Office.countPolls(browser, id)
                    try await Task.sleep(for: .milliseconds(3500))
                    let polls = try await browser.execute("return window.polls").intValue ?? -1
                    #expect(polls >= 0 && polls <= 1, "\(polls) reads of the ended audit's numbers in 3.5 s")

                    // dock-b was offline at the end; it sends SG-2, scanned a minute before it.
                    let before = ISOTime.string(endedAt.addingTimeInterval(-60))
                    let batch =
                        #"{"scans":[{"identifier":"SG-2","scan_id":"late-1","audit_id":"\#(id)","scanned_at":"\#(before)","device_name":"dock-b"}],"#
                        + #""station_clock":"\#(ISOTime.string(Date()))","device_name":"dock-b","waiting":0}"#
                    let sent = try await server.call("POST", "/api/v1/audit/scans", json: batch, token: token)
                    #expect(sent.status == 200 && sent.text.contains("found_expected"), "\(sent.text)")
                    try await browser.waitUntil(
                        timeout: 25, "the late scan on the open page", js: "text('#n-found') === '2' && text('#n-missing') === '1'")
                    try await browser.waitUntil("the late count in the header", js: "(text('#audit-late') || '').startsWith('1 late scan ')")
                    try await browser.waitUntil("the late mark in the trail", js: "(text('#list-table tbody') || '').includes('late: arrived ')")
                    let late = try await Office.cells(browser, "#list-table", holding: "SG-2")
                    #expect(late.count > 2 && late[2].hasPrefix("found expected") && late[2].contains("late: arrived "), "\(late)")
                    #expect(try await Office.cells(browser, "#list-table", holding: "SG-1").joined().contains("late") == false)
                    try await browser.waitUntil("dock-b among the stations", js: "(text('#audit-stations tbody') || '').includes('dock-b')")
                    #expect(try await Office.cells(browser, "#audit-stations", holding: "dock-b").last == "0")
                    if backend == .sqlite { try await browser.screenshotIfAsked("office-late-scan.png") }
                }
            }
        }
    }
}
