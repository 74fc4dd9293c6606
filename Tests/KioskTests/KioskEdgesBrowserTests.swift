import AuditTestSupport
import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InBrowser {
    /// A connected kiosk's page at an audit's edges, in headless Chromium: a gun's burst with the
    /// server down, the kiosk killed while the page holds scans, an END with scans waiting, an
    /// audit ended at the server, and scans the server refused.
    @Suite("A connected kiosk's page at an audit's edges, in a real browser")
    struct KioskEdgesBrowserTests {
        static let queueLength = "return JSON.parse(localStorage.getItem('auditstation.kiosk.queue.v1') || '[]').length"

        @Test("Server down after the join: a gun's 20 tags are all kept, also those the page held while the kiosk was killed")
        func burstOfflineAcrossAKill() async throws {
            let (server, kiosk, _) = try await KioskAuditEdgesTests.joinedKiosk()
            let tags = KioskAuditEdgesTests.tags
            try await withScanningScreen(kiosk) { page in
                await server.kill()
                try await page.waitUntil(timeout: 15, "offline", js: "attr('#connection', 'data-state') === 'offline'")
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                for tag in tags.prefix(10) { try await page.gunKeys(tag) }
                try await page.waitUntil(timeout: 20, "10 outcomes", js: "((window.kiosk && window.kiosk.outcomes) || []).length >= 10")
                try await page.waitUntil(timeout: 10, "10 to sync", js: "(text('#pending') || '').includes('10 to sync')")

                // Killed outright: the page keeps what the gun sends meanwhile.
                await kiosk.kill()
                for tag in tags.dropFirst(10) { try await page.gunKeys(tag) }
                try await page.waitUntil(timeout: 10, "10 scans held by the page") {
                    try await page.execute(Self.queueLength).intValue == 10
                }
                try await kiosk.start(["--no-camera"], port: kiosk.port)
                try await page.waitUntil(timeout: 30, "the held scans stored") {
                    try await page.execute(Self.queueLength).intValue == 0
                }
                try await page.waitUntil(timeout: 15, "20 to sync", js: "(text('#pending') || '').includes('20 to sync')")
                #expect(try await page.find("body").attribute("data-screen") == "scan")
                // The held scans' outcomes follow one another, each shown at least 600 ms.
                try await page.waitUntil(timeout: 30, "an outcome for every tag") {
                    Set(try await page.outcomes().compactMap { $0["identifier"]?.stringValue }).isSuperset(of: tags)
                }
                let outcomes = try await page.outcomes()
                let shown = outcomes.filter { $0["status"]?.stringValue == "found_expected" }.compactMap { $0["identifier"]?.stringValue }
                #expect(
                    Set(shown) == Set(tags),
                    "outcomes: \(outcomes.map { "\($0["identifier"]?.stringValue ?? "?") \($0["status"]?.stringValue ?? "?")" })")
                #expect(!outcomes.contains { $0["status"]?.stringValue == "rejected" }, "a kept scan was called NOT RECORDED")
                try await page.expectNoScriptErrors()
            }
            try await server.serve(port: server.port)
            try await KioskAuditEdgesTests.waitUntil("all 20 sent", timeout: 60) {
                (try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any])?["pending_scans"] as? Int == 0
            }
            let status = try jsonObject(try await server.run(["audit", "status", "--json"]))
            #expect((status["audit"] as? [String: Any])?["scanned_count"] as? Int == 20)
        }

        @Test("END with scans waiting warns in the confirmation and refuses in plain words; an end at the server shows the summary and says so")
        func endWaitingAndEndedElsewhere() async throws {
            let (server, kiosk, auditID) = try await KioskAuditEdgesTests.joinedKiosk()
            try await withScanningScreen(kiosk) { page in
                await server.kill()
                try await page.waitUntil(timeout: 15, "offline", js: "attr('#connection', 'data-state') === 'offline'")
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                for tag in KioskAuditEdgesTests.tags.prefix(5) { try await page.gunKeys(tag) }
                try await page.waitUntil(timeout: 15, "5 to sync", js: "(text('#pending') || '').includes('5 to sync')")

                try await page.find("#end-button").click()
                try await page.waitUntilShown("#confirm-dialog", "the END confirmation")
                let warning = try await page.find("#confirm-warning").text()
                #expect(warning.contains("5 scans are waiting for the server; the audit can end once they are sent"), "\(warning)")
                try await page.find("#confirm-yes").click()
                try await page.waitUntil(timeout: 20, "the refusal", js: "(text('#confirm-error') || '').length > 0")
                let refusal = try await page.find("#confirm-error").text()
                #expect(refusal.contains("5 scans are waiting for the server; the audit can end once they are sent"), "\(refusal)")
                #expect(!refusal.contains("audit-station") && !refusal.contains("`"), "\(refusal)")
                try await page.find("#confirm-no").click()

                try await server.serve(port: server.port)
                try await page.waitUntil(timeout: 60, "all synced", js: "(text('#pending') || '') === 'all synced'")
                try await server.run(["audit", "end", "--audit", auditID])
                try await page.waitUntilShown("#screen-summary", timeout: 15, "the summary")
                let notice = try await page.find("#summary-notice").text()
                #expect(notice.contains("This audit was ended") && notice.contains("no more scans"), "\(notice)")
                try await page.expectNoScriptErrors()
            }
        }

        @Test("A scan the server refused: the top bar never says all synced")
        func refusedIsNotAllSynced() async throws {
            try await SpecServer.with { server in
                await server.audits.add(tag: "S-1", country: "SG")
                await server.audits.add(tag: "S-2", country: "SG")
                await server.audits.refuseScans(of: "S-1")
                let kiosk = try await KioskProcess.connected(to: server)
                try await withScanningScreen(kiosk) { page in
                    try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                    try await page.gunKeys("S-2")
                    try await page.gunKeys("S-1")
                    try await page.waitUntil(timeout: 20, "the refusal counted", js: "attr('#pending', 'data-refused') === '1'")
                    let pending = try await page.find("#pending").text()
                    #expect(!pending.contains("all synced") && pending.contains("1 scan refused by the server"), "\(pending)")
                }
            }
        }
    }
}
