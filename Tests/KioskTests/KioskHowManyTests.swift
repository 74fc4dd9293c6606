import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// "How many?" after the scan of an accessory the audit counts: a gun's burst of its tag
    /// counts one more and is never typed into the field; a number a person types sets the count
    /// where the station stands. In headless Chromium, with the gun's keys sent through DevTools.
    @Suite("The kiosk asks how many of an accessory, in a real browser", BrowserChain(.second))
    struct KioskHowManyTests {
        @Test("A burst in the How many? dialog is a count, a typed number sets the quantity here")
        func howMany() async throws {
            let kiosk = try await KioskProcess(rows: [.init(tag: "T-1", name: "Laptop one", country: "SG", location: "Dock A")])
            _ = try await kiosk.run([
                "accessories", "create", "--name", "Cable", "--category", "Cables", "--total-quantity", "10", "--country", "SG",
                "--tag", "CABLE-1", "--location", "Dock A"
            ])
            _ = try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben", "--location", "Dock A"])
            try await withScanningScreen(kiosk) { page in
                try await page.gun("CABLE-1", expect: "accessory_counted")
                try await page.waitUntilShown("#count-dialog", "the How many? dialog")
                #expect(try await page.find("#count-title").text() == "How many Cable?")
                try await page.waitUntil("the field has the focus", js: "document.activeElement.id === 'count-quantity'")
                #expect(try await page.find("#count-text").text().contains("1 of 10"))

                // The tag scanned again: one more counted; the dialog stays, its field stays empty.
                try await page.gun("CABLE-1", expect: "accessory_counted")
                try await page.waitUntil("2 counted", js: "document.getElementById('count-text').textContent.includes('2 of 10')")
                #expect(try await page.find("#count-quantity").property("value").stringValue == "")
                #expect(try await page.find("#count-dialog").isDisplayed())
                // A burst of digits is a scan too (an unknown tag), never a quantity: another tag, so
                // the dialog gives way and its outcome is seen.
                try await page.find("#count-quantity").gunKeys("3", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(300))
                try await page.gun("4242", expect: "unknown")
                try await page.waitUntilHidden("#count-dialog", "the dialog closed by another tag")
                #expect(try await page.find("#count-quantity").property("value").stringValue == "3", "typed, never set")
                #expect(try await page.number("#count-scanned") == 0, "the assets' numbers do not move")
                try await page.gun("CABLE-1", expect: "accessory_counted")
                try await page.waitUntilShown("#count-dialog", "How many? asked again")
                try await page.waitUntil("3 counted", js: "document.getElementById('count-text').textContent.includes('3 of 10')")

                // A person types 7 and Enter: 7 stand here.
                try await page.find("#count-quantity").gunKeys("7", gap: BrowserSession.personKeyGap)
                try await page.waitUntilHidden("#count-dialog", "the dialog to close once the count is set")
                try await page.waitUntil("the count's answer", js: "!!(window.kiosk && window.kiosk.lastCount)")
                let here = try await page.execute("return window.kiosk.lastCount.counted_here").doubleValue
                #expect(here == 7)
                try await page.expectNoScriptErrors()
            }
            let listed = try jsonObject(try await kiosk.run(["audit", "report", "--format", "json"]))
            let accessories = try #require(listed["accessories"] as? [[String: Any]])
            #expect(accessories.first?["counted"] as? Int == 7 && accessories.first?["expected"] as? Int == 10)
        }
    }
}
