import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// A gun on the kiosk's screens that take no scan (the kiosk PC's waiting page while the
    /// kiosk is down, the summary with its downloads), and a typed count on a connected kiosk
    /// whose server has gone. In headless Chromium, with the gun's keys sent through DevTools.
    @Suite("The kiosk's other screens with a gun, and a count kept offline", BrowserChain(.second))
    struct KioskGunScreensTests {
        static let waitingPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/kiosk-waiting.html").standardizedFileURL

        @Test("The waiting page: a burst while the kiosk is down is NOT RECORDED aloud, each tag listed; the kiosk still opens by itself")
        func burstOnTheWaitingPage() async throws {
            let kiosk = try await KioskProcess.scanning([("T-1", "Laptop one", "SG")])
            let port = kiosk.port
            await kiosk.kill()
            try await SharedBrowser.with(width: 1024, height: 768) { browser in
                try await browser.open(Self.waitingPage.absoluteString + "?url=http://127.0.0.1:\(port)/")
                try await browser.waitUntil(timeout: 10, "the waiting page asking", js: "(text('#tries') || '').includes('(1)')")
                // Keys sent with their text alone (no key names) are a burst here too.
                try await browser.gunKeys("T-1", textAlone: true)
                try await browser.waitUntil(
                    timeout: 10, "the burst refused on the page", js: "document.getElementById('not-recorded').hidden === false")
                try await browser.gunKeys("LOC:Dock A")
                try await browser.waitUntil(
                    timeout: 10, "both tags listed", js: "(text('#not-recorded-tags') || '').includes('LOC:Dock A')")
                #expect(try await browser.find("#not-recorded-tags").text().contains("T-1"))
                #expect(try await browser.find("#not-recorded").text().contains("NOT RECORDED"))
                // A person's slow keys are not a scan.
                try await browser.gunKeys("abc", gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(200))
                #expect(try await !browser.find("#not-recorded-tags").text().contains("abc"))
                try await browser.screenshotIfAsked("kiosk-waiting-burst.png")
                try await kiosk.start(["--no-camera", "--user", "Ben"], port: port)
                try await browser.waitUntil(timeout: 20, "the kiosk's page") {
                    try await browser.currentURL().hasPrefix("http://127.0.0.1:\(port)")
                }
                try await browser.waitUntilShown("#screen-scan", timeout: 15, "the scanning screen")
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json"]))
            #expect((trail["scans"] as? [Any])?.isEmpty == true, "nothing was recorded while the kiosk was down")
        }

        @Test("The summary: a burst with the focus on Download PDF downloads nothing and is NOT RECORDED; a person's Enter downloads it")
        func burstOnTheDownloadButton() async throws {
            let kiosk = try await KioskProcess.scanning([("T-1", "Laptop one", "SG"), ("T-2", "Laptop two", "SG")])
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-downloads-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            func downloaded() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path) }
            try await withScanningScreen(kiosk) { page in
                let into: JSONValue = ["behavior": "allow", "downloadPath": .string(folder.path)]
                do { _ = try await page.devTools("Browser.setDownloadBehavior", into) } catch {
                    _ = try await page.devTools("Page.setDownloadBehavior", into)
                }
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                try await page.gun("T-1", expect: "found_expected")
                try await kiosk.run(["audit", "end", "--country", "SG"])
                try await page.waitUntilShown("#screen-summary", timeout: 15, "the summary")
                _ = try await page.execute("document.getElementById('download-pdf').focus()")
                try await page.gun("T-2", expect: "rejected")
                try await page.gun("LOC:Dock A", expect: "rejected")
                #expect(try await page.find("#gun-alarm").text().contains("NOT RECORDED"))
                try await Task.sleep(for: .seconds(2))
                let files = try downloaded()
                #expect(files.isEmpty, "a burst downloaded \(files)")
                #expect(try await page.find("#screen-summary").isDisplayed())
                #expect(try await page.execute("return document.activeElement.id").stringValue == "download-pdf")
                try await page.screenshotIfAsked("kiosk-summary-burst.png")

                // The same button pressed by a person: the PDF arrives (so the check above could see one).
                try await page.gunKeys("", then: .enter, gap: BrowserSession.personKeyGap)
                try await page.waitUntil(timeout: 30, "the PDF downloaded") { try downloaded().contains { $0.hasSuffix(".pdf") } }
                try await page.expectNoScriptErrors()
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json"]))
            #expect((trail["scans"] as? [[String: Any]])?.map { $0["identifier"] as? String ?? "" } == ["T-1"])
        }

        @Test(
            "A connected kiosk whose server has gone keeps a typed count at once and sends it, in its place among the scans, when the server is back")
        func countKeptOffline() async throws {
            let (server, kiosk) = try await KioskProcess.connected(rows: [.init(tag: "T-1", name: "Laptop one", country: "SG", location: "Dock A")])
            try await server.run([
                "accessories", "create", "--name", "Cable", "--category", "Cables", "--total-quantity", "10", "--country", "SG", "--tag",
                "CABLE-1", "--location", "Dock A"
            ])
            try await server.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben", "--location", "Dock A"])
            try await KioskAuditEdgesTests.waitForAudit(kiosk)
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                try await page.gunKeys("CABLE-1")
                try await page.waitUntilShown("#count-dialog", timeout: 20, "How many? once the server counted the scan")
                try await page.waitUntil(timeout: 10, "1 counted", js: "(text('#count-text') || '').includes('1 of 10')")

                await server.kill()
                // The person types 7 and Enter: the dialog closes at once, the count kept here.
                try await page.find("#count-quantity").gunKeys("7", gap: BrowserSession.personKeyGap)
                try await page.waitUntilHidden("#count-dialog", timeout: 5, "the dialog closed without waiting for the server")
                let kept = try await page.execute("return window.kiosk.lastCount").objectValue ?? [:]
                #expect(kept["pending"]?.boolValue == true && kept["counted_here"]?.doubleValue == 7, "\(kept)")
                // One more scanned after it, offline: it counts on top of the 7 once both reach the server.
                try await page.gunKeys("CABLE-1")
                try await page.waitUntil(timeout: 15, "the scan kept", js: "(text('#pending') || '').includes('1 to sync')")
                try await page.expectNoScriptErrors()
            }
            try await server.serve(port: server.port)
            try await KioskAuditEdgesTests.waitUntil("the scan sent", timeout: 60) {
                (try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any])?["pending_scans"] as? Int == 0
            }
            var counted: Int?
            try await KioskAuditEdgesTests.waitUntil("the server's count", timeout: 30) {
                let report = try jsonObject(try await server.run(["audit", "report", "--format", "json"]))
                counted = (report["accessories"] as? [[String: Any]])?.first?["counted"] as? Int
                return counted == 8
            }
            #expect(counted == 8, "7 typed, then one more scanned")
        }
    }
}
