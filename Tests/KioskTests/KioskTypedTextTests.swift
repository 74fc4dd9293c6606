import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// A person's keys and a barcode gun's burst in the same entry field: a burst is a tag of its
    /// own, and what the person typed before it is set aside with a note, never glued onto it.
    @Suite("The kiosk: typed text and a gun's burst, in a real browser", BrowserChain(.second))
    struct KioskTypedTextTests {
        static let inventory: [(tag: String, name: String, country: String)] = [
            ("SG-00009", "Laptop nine", "SG"), ("SG-00013", "Dock thirteen", "SG"), ("T-1", "Monitor one", "SG"),
            ("T-2", "Dock two", "SG"), ("T-3", "Screen three", "SG")
        ]

        /// Whether the note about text set aside is on screen (the page before it had none).
        static let noteShown = "(function () { const n = document.getElementById('entry-note'); return !!n && !n.hidden; })()"

        @Test("Text typed before a gun's burst is set aside with a note, never glued onto its tag, at once or 10 s later")
        func typedTextBeforeABurst() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                let entry = try await page.find("#entry")
                #expect(try await page.execute("return " + Self.noteShown).boolValue == false, "no note before anything is set aside")

                // A worker types "SG-", gives up and scans SG-00009 with the gun.
                try await page.gunKeys("SG-", then: nil, gap: BrowserSession.personKeyGap)
                try await page.waitUntil("the typed text in the field") { try await entry.property("value").stringValue == "SG-" }
                try await page.gun("SG-00009", expect: "found_expected")
                #expect(try await entry.property("value").stringValue == "")
                let note = try await page.find("#entry-note")
                #expect(try await note.isDisplayed())
                #expect(try await note.text().contains("\u{201C}SG-\u{201D}"), "the note names the text set aside")
                #expect(try await page.find("#outcome").text().contains("SG-00009"))
                try await page.shot("kiosk-set-aside-1280x720.png")
                try await page.setViewport(width: 1024, height: 768)
                try await page.shot("kiosk-set-aside-1024x768.png")
                try await page.setViewport(width: 1280, height: 720)

                // "SG-0001" left in the field for 10 s, then the gun scans SG-00013.
                try await page.gunKeys("SG-0001", then: nil, gap: BrowserSession.personKeyGap)
                try await page.waitUntil("the typed text in the field") { try await entry.property("value").stringValue == "SG-0001" }
                try await Task.sleep(for: .seconds(10))
                try await page.gun("SG-00013", expect: "found_expected")
                #expect(try await entry.property("value").stringValue == "")
                #expect(try await note.text().contains("\u{201C}SG-0001\u{201D}"))

                // A tag a person types whole, key by key, is still the field's text.
                try await page.gunKeys("T-1", gap: BrowserSession.personKeyGap)
                try await page.waitUntil("T-1 typed and found") {
                    try await page.outcomes().last.map { $0["identifier"]?.stringValue == "T-1" && $0["status"]?.stringValue == "found_expected" }
                        == true
                }
                try await page.expectNoScriptErrors()
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json", "--per-page", "100"]))
            let scans = try #require(trail["scans"] as? [[String: Any]])
            #expect(scans.map { $0["identifier"] as? String ?? "" }.sorted() == ["SG-00009", "SG-00013", "T-1"])
        }

        @Test("In a fast burst each outcome stays at least 600 ms (ALREADY SCANNED too), unless a problem replaces it")
        func outcomesStayInAFastBurst() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                try await page.gun("T-1", expect: "found_expected")
                // Every outcome the box shows, with when it came.
                try await page.execute(
                    """
                    const box = document.getElementById('outcome');
                    window.boxLog = [];
                    new MutationObserver(function () {
                      const now = { status: box.getAttribute('data-status'), scan: box.getAttribute('data-scan-id'), at: performance.now() };
                      const last = window.boxLog[window.boxLog.length - 1];
                      if (!last || last.status !== now.status || last.scan !== now.scan) window.boxLog.push(now);
                    }).observe(box, { attributes: true, attributeFilter: ['data-status', 'data-scan-id'] });
                    """)
                // T-1 again and T-2, back to back: ALREADY SCANNED, then FOUND.
                try await page.gunKeys("T-1")
                try await page.gunKeys("T-2")
                try await page.waitUntil(
                    "T-2 in the box", js: "attr('#outcome', 'data-status') === 'found_expected' && text('#outcome').includes('T-2')")
                let log = try await page.execute("return window.boxLog").arrayValue ?? []
                let statuses = log.compactMap { $0["status"]?.stringValue }
                #expect(statuses.contains("already_scanned"), "ALREADY SCANNED was shown: \(log)")
                if let i = statuses.firstIndex(of: "already_scanned"), i + 1 < log.count,
                    let from = log[i]["at"]?.doubleValue, let to = log[i + 1]["at"]?.doubleValue
                {
                    #expect(to - from >= 590, "ALREADY SCANNED stayed \(Int(to - from)) ms: \(log)")
                }
                // A problem does not wait: T-3's FOUND gives way to NOPE-1 at once.
                try await page.execute("window.boxLog = []")
                try await page.gunKeys("T-3")
                try await page.gunKeys("NOPE-1")
                try await page.waitUntil("NOPE-1 in the box", js: "attr('#outcome', 'data-status') === 'unknown'")
                let problem = try await page.execute("return window.boxLog").arrayValue ?? []
                #expect(problem.last?["status"]?.stringValue == "unknown")
                if problem.count >= 2, let from = problem[problem.count - 2]["at"]?.doubleValue, let to = problem.last?["at"]?.doubleValue {
                    #expect(to - from < 590, "the problem waited \(Int(to - from)) ms")
                }
                let order = try await page.outcomes().map { $0["identifier"]?.stringValue ?? "" }
                #expect(order == ["T-1", "T-1", "T-2", "T-3", "NOPE-1"], "every outcome is noted, in order")
                try await page.expectNoScriptErrors()
            }
        }
    }
}

extension BrowserSession {
    /// Saves a screenshot under $KIOSK_SHOTS_DIR when it is set (for a person to look at).
    func shot(_ name: String) async throws {
        guard let folder = ProcessInfo.processInfo.environment["KIOSK_SHOTS_DIR"] else { return }
        try await Task.sleep(for: .milliseconds(300))
        try await screenshot(to: URL(fileURLWithPath: folder).appendingPathComponent(name).path)
    }
}
