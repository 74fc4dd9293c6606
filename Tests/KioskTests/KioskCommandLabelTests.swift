import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// The undo command label (`assets labels --command undo`, CMD:UNDO) with a gun in hand: the
    /// first scan opens the undo of the last scan, a second confirms it, and it is never recorded.
    @Suite("The undo command label on the kiosk", BrowserChain(.second))
    struct KioskCommandLabelTests {
        @Test("Scanned once it opens the undo of the last scan, twice it undoes it (also typed full-width); it is never a tag")
        func undoLabelUndoesTheLastScan() async throws {
            let kiosk = try await KioskProcess.scanning([("T-1", "Laptop one", "SG"), ("T-2", "Dock two", "SG")])
            let labels = kiosk.folder.appendingPathComponent("undo.pdf")
            try await kiosk.run(["assets", "labels", "--command", "undo", "--symbology", "qr", "--layout", "a4-3x8", "--output", labels.path])
            let text = try await Child.run("/usr/bin/pdftotext", [labels.path, "-"])
            #expect(text.stdout.contains("CMD:UNDO"), "\(text.stdout)")

            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                try await page.gun("T-1", expect: "found_expected")
                try await page.gun("T-2", expect: "found_expected")
                let before = try await page.outcomes().count
                try await page.gunKeys("CMD:UNDO")
                try await page.waitUntilShown("#undo-dialog", "the undo confirmation")
                #expect(try await page.find("#undo-title").text().contains("T-2"))
                // The second from a gun typing into a full-width input method.
                try await page.gunKeys("ＣＭＤ：ＵＮＤＯ")
                try await page.waitUntilHidden("#undo-dialog", "the undo to be done")
                try await page.waitUntil("T-2 struck through", js: "document.querySelector('#recent li[data-voided=\"true\"]') !== null")
                #expect(try await page.outcomes().count == before, "the command label was shown as a scan")
                try await page.waitUntil("1 scanned", js: "num('#count-scanned') === 1")
                try await page.expectNoScriptErrors()
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json"]))
            let identifiers = (trail["scans"] as? [[String: Any]])?.map { $0["identifier"] as? String ?? "" }
            #expect(identifiers == ["T-1", "T-2"], "\(identifiers ?? [])")
            // Sent as a scan anyway (an old page), it is refused, not recorded.
            let sent = try await kiosk.call("POST", "/api/scan", json: #"{"identifier": "cmd:undo", "scan_id": "command-1"}"#)
            #expect(sent.status == 422 && sent.text.contains("command label"), "\(sent.status) \(sent.text)")
            let wide = try await kiosk.call("POST", "/api/scan", json: #"{"identifier": "ｃｍｄ：ｕｎｄｏ", "scan_id": "command-2"}"#)
            #expect(wide.status == 422 && wide.text.contains("command label"), "\(wide.status) \(wide.text)")
        }
    }
}
