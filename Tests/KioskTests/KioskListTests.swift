import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InBrowser {
    /// The kiosk's lists as a supervisor walks them: every row a page away, headers that agree
    /// with the counters, a summary that lists everything, and a printed missing list grouped by
    /// location (printed to PDF by headless Chromium, read back with pdftotext).
    @Suite("The kiosk's lists and their print, in a real browser")
    struct KioskListTests {
        static let rows: [KioskProcess.Row] = (1...250).map {
            KioskProcess.Row(tag: String(format: "SG-%05d", $0), name: "Item \($0)", country: "SG", location: "Dock \(["A", "B", "C"][$0 % 3])")
        }

        @Test("Every row is reachable by paging, headers agree with the counters, the summary pages too, and the print groups by location")
        func pagingSummaryAndPrint() async throws {
            let kiosk = try await KioskProcess(rows: Self.rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            let pdf = kiosk.folder.appendingPathComponent("missing.pdf")
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                // The header and the counter are drawn from one snapshot: read together, right
                // after each outcome, they agree.
                for tag in ["SG-00001", "SG-00002"] {
                    try await page.type(tag, expect: "found_expected")
                    let pair =
                        try await page.execute(
                            "return [document.getElementById('missing-total').textContent, document.getElementById('count-missing').textContent]"
                        ).arrayValue ?? []
                    #expect(pair.first?.stringValue == "(\(pair.last?.stringValue ?? "?"))", "\(pair)")
                }
                try await page.waitUntil("the first page", js: "(text('#missing-range') || '').startsWith('Rows 1–50 of 248')")
                try await page.find("#missing-pager [data-go=\"next\"]").click()
                try await page.waitUntil("the second page", js: "(text('#missing-range') || '').startsWith('Rows 51–100 of 248')")
                try await page.find("#missing-pager [data-go=\"last\"]").click()
                try await page.waitUntil("the last page", js: "(text('#missing-range') || '').startsWith('Rows 201–248 of 248')")
                let last = try await page.execute("return document.querySelector('#missing-list li:last-child .a-id').textContent").stringValue
                #expect(last == "SG-00250")
                // A gun's burst with the focus on a pager button: recorded, and the button is not
                // pressed (its Enter would go back to the first page).
                _ = try await page.execute("document.querySelector('#missing-pager [data-go=\"first\"]').focus()")
                try await page.gun("NOPE-1", expect: "unknown")
                try await Task.sleep(for: .seconds(1))
                #expect(try await page.find("#missing-range").text().hasPrefix("Rows 201–248 of 248"))
                // A search narrows and starts again from its first page.
                try await page.find("#missing-search").sendKeys("SG-0024")
                try await page.waitUntil("the search", js: "text('#missing-total') === '(10 matching)'")
                #expect(try await page.find("#missing-range").text().hasPrefix("Rows 1–10 of 10"))

                try await kiosk.run(["audit", "end", "--country", "SG"])
                try await page.waitUntilShown("#screen-summary", timeout: 15, "the summary")
                try await page.waitUntil("the summary's first page") {
                    try await page.find("#summary-missing-range").text().hasPrefix("Rows 1–50 of 248")
                }
                try await page.find("#summary-missing-pager [data-go=\"last\"]").click()
                try await page.waitUntil("the summary's last page") {
                    try await page.find("#summary-missing-range").text().hasPrefix("Rows 201–248 of 248")
                }
                // On the summary a burst is NOT RECORDED, and a focused pager button is not pressed.
                _ = try await page.execute("document.querySelector('#summary-missing-pager [data-go=\"first\"]').focus()")
                try await page.gun("NOPE-2", expect: "rejected")
                try await Task.sleep(for: .seconds(1))
                #expect(try await page.find("#summary-missing-range").text().hasPrefix("Rows 201–248 of 248"))
                #expect(try await page.find("#screen-summary").isDisplayed())
                _ = try await page.execute("window.kiosk.preparePrint()")
                try await page.waitUntil(timeout: 20, "the print sheet") {
                    try await page.execute("return document.body.dataset.printReady === 'true'").boolValue == true
                }
                try await page.printPDF().write(to: pdf)
                try await page.expectNoScriptErrors()
            }
            let text = try await Child.run("/usr/bin/pdftotext", ["-layout", pdf.path, "-"])
            #expect(text.status == 0)
            let printed = text.stdout
            #expect(printed.contains("Missing assets"))
            for heading in ["Dock A (83)", "Dock B (83)", "Dock C (82)"] { #expect(printed.contains(heading), "\(heading)") }
            // Grouped: Dock A's rows come before Dock B's heading, every missing tag is printed once.
            let tags = printed.matches(of: /SG-\d{5}/).map { String($0.output) }
            #expect(tags.count == 248 && Set(tags).count == 248, "\(tags.count) tags printed")
            #expect(!tags.contains("SG-00001") && !tags.contains("SG-00002"))
            let dockB = try #require(printed.range(of: "Dock B (83)"))
            #expect(printed[..<dockB.lowerBound].contains("SG-00003") && !printed[..<dockB.lowerBound].contains("SG-00004"))
            // Light pages, many of them: not one dark page with a few rows.
            let info = try await Child.run("/usr/bin/pdfinfo", [pdf.path])
            let pages = Int(info.stdout.firstMatch(of: /Pages:\s+(\d+)/)?.1 ?? "0") ?? 0
            #expect(pages >= 5, "\(pages) pages")
            let prefix = kiosk.folder.appendingPathComponent("page").path
            #expect(
                try await Child.run("/usr/bin/pdftoppm", ["-r", "20", "-f", "1", "-l", "1", "-gray", "-singlefile", pdf.path, prefix]).status == 0)
            let pixels = Array(try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")).suffix(4000))
            let light = pixels.filter { $0 > 200 }.count
            #expect(light * 10 > pixels.count * 8, "the page is mostly white")
        }
    }
}
