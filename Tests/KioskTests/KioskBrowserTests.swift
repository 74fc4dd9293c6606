import BrowserTestSupport
import CameraTestSupport
import Foundation
import Testing
import TestKit
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension InBrowser {
    /// The kiosk as a person sees it: `audit-station kiosk` in a child process on 127.0.0.1 with a
    /// temporary database, opened in headless Chromium over WebDriver. One browser test at a time,
    /// so Chromium and the kiosk are not starved on a 2-core machine.
    @Suite("The kiosk in a real browser")
    struct KioskBrowserTests {
        static let inventory: [(tag: String, name: String, country: String)] = [
            ("T-1", "Laptop one", "SG"), ("T-2", "Dock two", "SG"), ("T-3", "Monitor three", "SG"), ("M-1", "Phone", "MY")
        ]

        @Test("A kiosk started while one audit runs opens on the scanning screen; typed tags show their outcome and numbers")
        func typedTagsShowTheirOutcomes() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG", "--user", "ann"])
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            try await withPage(kiosk) { page in
                // No clicks: straight to scanning, with the entry field focused.
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                #expect(try await page.find("#screen-start").isDisplayed() == false)

                try await page.type("T-1", expect: "found_expected")
                #expect(try await page.number("#count-total") == 3)
                #expect(try await page.number("#count-scanned") == 1)
                #expect(try await page.number("#count-missing") == 2)
                #expect(try await page.number("#count-unexpected") == 0)
                #expect(try await page.find("#outcome").text().contains("Laptop one"))

                try await page.type("T-1", expect: "already_scanned")
                let repeatText = try await page.find("#outcome").text()
                #expect(repeatText.contains("Ben"), "a repeat says who scanned it first: \(repeatText)")

                try await page.type("NOT-A-TAG-404", expect: "unknown")
                try await page.type("M-1", expect: "unexpected")
                #expect(try await page.find("#outcome").text().lowercased().contains("country"))
                try await page.waitUntil("2 unexpected", js: "num('#count-unexpected') === 2")

                // A tag of 200 characters is refused with the same message as at the terminal.
                try await page.type(String(repeating: "A", count: 200), expect: "rejected")
                #expect(try await page.find("#outcome").text().contains("128"))
                // The focus is back in the field for the next scan.
                #expect(try await page.activeElement().attribute("id") == "entry")
                try await page.expectNoScriptErrors()
            }
            let status = try jsonObject(try await kiosk.run(["audit", "status", "--json"]))
            let audit = try #require(status["audit"] as? [String: Any])
            #expect(audit["scanned_count"] as? Int == 1)
            #expect(audit["unexpected_count"] as? Int == 2)
        }

        @Test("A tag held up to the emulated camera shows its outcome with no typing, beside the live preview")
        func cameraTagsNeedNoTyping() async throws {
            let camera = try await FakeCamera()
            let blank = try await camera.frame("blank", width: 1280, height: 720)
            let tag = try await camera.frame("t2", width: 1280, height: 720, ["--qr", "T-2"])
            // Blank for 5 s, then the tag for 2 s, again and again: on a busy machine the page may
            // open after the tag's first showing (the kiosk records it then; the page sees the next).
            try camera.play([(blank, 150), (tag, 60)], fps: 30, atEnd: "loop")
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            var environment = camera.environment
            environment["LD_PRELOAD"] = camera.library.path
            try await kiosk.start(["--device", camera.device], environment: environment)
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil(timeout: 15, "the preview to show camera frames") {
                    try await page.execute("const i = document.getElementById('preview'); return !!i && i.naturalWidth === 1280").boolValue == true
                }
                let seen = Locked("")
                try await page.waitUntil(timeout: 90, "the camera's scan of T-2 on the page") {
                    let shown = try await page.outcomes().filter { $0["identifier"]?.stringValue == "T-2" }
                    guard let status = shown.last?["status"]?.stringValue else { return false }
                    seen.set(status)
                    return true
                }
                // Found the first time it is seen; if the page opened after that, already scanned.
                #expect(["found_expected", "already_scanned"].contains(seen.get()))
                #expect(["found_expected", "already_scanned"].contains(try await page.find("#outcome").attribute("data-status") ?? ""))
                #expect(try await page.number("#count-scanned") == 1)
                try await page.expectNoScriptErrors()
            }
            let state = try await kiosk.call("GET", "/api/state")
            #expect((state.body["camera"] as? [String: Any])?["state"] as? String == "ready")
            let recent = try #require(state.body["recent"] as? [[String: Any]])
            #expect(recent.first?["source"] as? String == "camera")
        }

        @Test("Without a camera the page says so and typing still works")
        func noCameraStillTakesTypedTags() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--device", "/dev/video-missing-\(UUID().uuidString.prefix(6))"])
            try await withPage(kiosk) { page in
                try await page.waitUntil("the camera message") {
                    let text = try await page.find("#camera-status").text().lowercased()
                    return text.contains("camera") && (text.contains("not") || text.contains("no "))
                }
                try await page.type("T-3", expect: "found_expected")
            }
        }

        @Test("The scanner's name changes on the page, by keyboard, and the next scans are recorded under it")
        func scannerNameChanges() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                // The page has settled: it puts the focus in the entry field when it shows the screen.
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                // The window's focus event, late as a busy machine delivers it, leaves a button that has the focus alone.
                let kept = try await page.executeAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    document.getElementById('change-user').focus();
                    window.dispatchEvent(new Event('focus'));
                    setTimeout(() => done(document.activeElement && document.activeElement.id), 100);
                    """)
                #expect(kept.stringValue == "change-user", "the focus went to \(kept)")
                try await page.find("#change-user").sendKeys(Element.enter)
                try await page.waitUntilShown("#user-dialog", "the name dialog")
                let field = try await page.find("#user-dialog-name")
                try await field.clear()
                // A person's Enter, a moment after the name (a burst ending in Enter would be a scan).
                try await field.sendKeys("Chidi Okafor")
                try await Task.sleep(for: .milliseconds(400))
                try await field.sendKeys(Element.enter)
                try await page.waitUntilHidden("#user-dialog", "the dialog to close")
                try await page.waitUntil("the entry field to have the focus again", js: "focusedID() === 'entry'")
                try await page.type("T-1", expect: "found_expected")
            }
            let report = try jsonObject(try await kiosk.run(["audit", "report", "--format", "json"]))
            let row = try #require((report["assets"] as? [[String: Any]])?.first { $0["asset_tag"] as? String == "T-1" })
            #expect(row["user"] as? String == "Chidi Okafor")
            // Kept for the station: a restarted kiosk still scans as Chidi Okafor.
            await kiosk.stop()
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            #expect(try await kiosk.call("GET", "/api/state").body["user"] as? String == "Chidi Okafor")
        }

        @Test("Two pages on one audit both show each other's scans")
        func twoPagesSeeEachOther() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera"])
            // The chain's browser and a second one (a browser of its own, as another machine's
            // would be: the two pages share no storage), on the chain's chromedriver.
            try await SharedBrowser.with { first in
                let second = try await first.driver.session()
                do {
                    for page in [first, second] {
                        try await page.open(kiosk.baseURL)
                        try await page.waitUntilShown("#screen-scan", "the scanning screen")
                    }
                    try await first.type("T-1", expect: "found_expected")
                    try await second.type("T-2", expect: "found_expected")
                    for page in [first, second] {
                        try await page.waitUntil("both scans in the last scans") {
                            let text = try await page.find("#recent").text()
                            return text.contains("T-1") && text.contains("T-2")
                        }
                        try await page.waitUntil("2 scanned on both pages", js: "num('#count-scanned') === 2")
                    }
                } catch {
                    await second.quit()
                    throw error
                }
                await second.quit()
            }
        }

        @Test("The chain's shared browser starts each test clean: no storage left by the test before, and a new browser after a failure")
        func theSharedBrowserStartsEachTestClean() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.start(["--no-camera"])
            struct Planted: Error {}
            var failedSession = ""
            // The same origin twice, as when a later kiosk gets a port an earlier one had.
            let failure = await #expect(throws: KioskTestError.self) {
                try await withPage(kiosk) { page in
                    try await page.execute("localStorage.setItem('left-behind', '1'); sessionStorage.setItem('left-behind', '1')")
                    failedSession = page.id
                    throw Planted()
                }
            }
            #expect(failure?.description.contains("Planted") == true)
            var keptSession = ""
            try await withPage(kiosk) { page in
                #expect(page.id != failedSession, "a failed test's browser is not lent again")
                try await page.execute("localStorage.setItem('left-behind', '2'); sessionStorage.setItem('left-behind', '2')")
                keptSession = page.id
            }
            try await withPage(kiosk) { page in
                #expect(page.id == keptSession, "a passing test's browser is lent again")
                let left = try await page.execute("return [localStorage.getItem('left-behind'), sessionStorage.getItem('left-behind')]")
                #expect(left == [.null, .null], "\(left)")
                #expect(try await page.execute("return window.innerWidth * 10000 + window.innerHeight").intValue == 1280 * 10000 + 720)
            }
        }

        @Test("Start from the page, end with a confirmation by keyboard, and download a CSV whose rows match the store, and the PDF")
        func startEndAndDownload() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.start(["--no-camera"])
            var auditID = ""
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-start", "the start screen")
                let start = try await page.execute(
                    """
                    const b = [...document.querySelectorAll('#screen-start button')].find(b => /start/i.test(b.textContent) && /SG/.test(b.closest('li,tr,div')?.textContent ?? ''));
                    if (b) b.focus();
                    return !!b
                    """)
                #expect(start.boolValue == true)
                try await page.activeElement().sendKeys(Element.enter)
                // The start dialog asks for locations; none ticked: the whole country.
                try await page.waitUntilShown("#scope-dialog", "the start dialog")
                try await page.find("#scope-start").sendKeys(Element.enter)
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.type("T-1", expect: "found_expected")
                try await page.type("T-2", expect: "found_expected")

                // Escape keeps scanning.
                try await page.find("#end-button").sendKeys(Element.enter)
                try await page.waitUntilShown("#confirm-dialog", "the confirmation")
                #expect(try await page.activeElement().attribute("id") == "confirm-no", "the safe choice has the focus")
                try await page.activeElement().sendKeys(Element.escape)
                try await page.waitUntilHidden("#confirm-dialog", "the dialog to close")
                #expect(try await page.find("#screen-scan").isDisplayed())

                try await page.find("#end-button").sendKeys(Element.enter)
                try await page.waitUntilShown("#confirm-dialog", "the confirmation")
                try await Task.sleep(for: .milliseconds(400)) // a person's deliberate press, not a gun's Enter
                try await page.find("#confirm-yes").sendKeys(Element.enter)
                try await page.waitUntilShown("#screen-summary", "the summary")
                let href = try #require(try await page.find("#download-csv").property("href").stringValue)
                let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: href)))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                let fromPage = String(decoding: data, as: UTF8.self)
                auditID = try #require(URLComponents(string: href)?.queryItems?.first { $0.name == "audit_id" }?.value)
                let fromStore = try await kiosk.run(["audit", "report", "--format", "csv", "--audit", auditID])
                #expect(fromPage == fromStore)
                #expect(fromPage.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 4, "a header and the three SG assets")
                #expect(try await page.find("#screen-summary").text().contains("T-3"), "the missing asset is listed")

                // The PDF to sign is offered too: the same document as `audit report --format pdf`.
                let pdfLink = try #require(try await page.find("#download-pdf").property("href").stringValue)
                let (pdf, pdfResponse) = try await URLSession.shared.data(from: try #require(URL(string: pdfLink)))
                #expect((pdfResponse as? HTTPURLResponse)?.statusCode == 200)
                #expect((pdfResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/pdf")
                let file = kiosk.folder.appendingPathComponent("report.pdf")
                try await kiosk.run(["audit", "report", "--format", "pdf", "--audit", auditID, "--output", file.path])
                let fromStation = try Data(contentsOf: file)
                #expect(pdf.starts(with: Array("%PDF".utf8)) && pdf == fromStation, "the kiosk's PDF differs from the station's")
            }
            let history = try await kiosk.run(["audit", "history"])
            #expect(history.contains(auditID.prefix(8)))
            let after = try await kiosk.call("POST", "/api/scan", json: #"{"identifier":"T-3","scan_id":"after-end"}"#)
            #expect(after.status == 409)
        }

        @Test("A reload right after Enter neither loses nor doubles the scan")
        func reloadMidScan() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera"])
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.find("#entry").sendKeys("T-3" + Element.enter)
                try await page.refresh()
                try await page.waitUntilShown("#screen-scan", "the scanning screen after the reload")
                try await page.waitUntil(timeout: 15, "the scan stored", js: "num('#count-scanned') === 1")
                try await Task.sleep(for: .seconds(2))
            }
            let report = try await kiosk.run(["audit", "report", "--format", "json"])
            let assets = try #require(try jsonObject(report)["assets"] as? [[String: Any]])
            let row = try #require(assets.first { $0["asset_tag"] as? String == "T-3" })
            #expect(row["scan_count"] as? Int == 1)
            #expect(row["outcome"] as? String == "scanned")
        }

        @Test("Connected: with the server down the page says offline, keeps taking scans, and catches up when it is back")
        func offlineAndBack() async throws {
            // The server is `audit-station serve` in a process of its own, killed outright (as a
            // crashed or unplugged server is) and started again on the same port.
            let (server, kiosk) = try await KioskProcess.connected(
                rows: ["T-1", "T-2", "T-3"].map { KioskProcess.Row(tag: $0, name: "Asset \($0)", country: "SG") })
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera"])
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil("online", js: "attr('#connection', 'data-state') === 'online'")
                try await page.type("T-1", expect: "found_expected")

                await server.kill()
                try await page.waitUntil(timeout: 15, "offline", js: "attr('#connection', 'data-state') === 'offline'")
                // The box's READY after 8 s without a scan is put off, so that what the sync does
                // to the box is seen however long the server takes to come back.
                try await page.execute(
                    """
                    const later = window.setTimeout;
                    window.setTimeout = function (f, ms) { return later(f, ms === 8000 ? 600000 : ms); };
                    """)
                try await page.type("T-2", expect: "found_expected")
                #expect(try await page.find("#outcome-message").text().contains("waiting to sync"))
                // However crowded the top bar (offline, scans to sync, the last sync), every
                // scanning control is inside the window at 1280×720: "End audit" is never cut off.
                try await page.waitUntilShown("#pending", "the pending count in the top bar")
                let outside = try await page.execute(
                    """
                    return Array.from(document.querySelectorAll('#scan-controls button'))
                      .filter(function (b) { const r = b.getBoundingClientRect(); return r.right > window.innerWidth || r.left < 0; })
                      .map(function (b) { return b.textContent; });
                    """)
                #expect(outside.arrayValue?.isEmpty == true, "controls outside the window: \(outside)")
                let seen = Locked("")
                do {
                    try await page.waitUntil(timeout: 20, "2 scanned, one of them waiting to sync") {
                        let state = try await kiosk.call("GET", "/api/state")
                        let waiting = (state.body["connection"] as? [String: Any])?["pending_scans"] as? Int ?? 0
                        let shown = try await page.number("#count-scanned")
                        seen.set("page shows \(shown ?? -1) scanned; kiosk state \(state.text.prefix(600))")
                        return shown == 2 && waiting >= 1
                    }
                } catch {
                    throw KioskTestError("\(error); last seen: \(seen.get())")
                }

                try await server.serve(port: server.port)
                try await page.waitUntil(timeout: 30, "online again with nothing waiting") {
                    let state = try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any]
                    return try await page.find("#connection").attribute("data-state") == "online" && state?["pending_scans"] as? Int == 0
                }
                // The box still shows T-2, now on the server: it no longer says it waits to sync.
                try await page.waitUntil(
                    timeout: 10, "the box's T-2 no longer waiting to sync",
                    js: "attr('#outcome', 'data-status') === 'found_expected' && !text('#outcome-message').includes('waiting to sync')")
                #expect(try await page.find("#outcome-detail").text().hasPrefix("T-2"))
            }
            let status = try jsonObject(try await server.run(["audit", "status", "--json"]))
            let audit = try #require(status["audit"] as? [String: Any])
            #expect(audit["scanned_count"] as? Int == 2)
        }

    }
}

extension BrowserSession {
    /// The outcomes the page has shown, oldest first (window.kiosk.outcomes).
    func outcomes() async throws -> [JSONValue] {
        try await execute("return (window.kiosk && window.kiosk.outcomes) || []").arrayValue ?? []
    }

    /// Types a tag and Enter into the entry field, as a keyboard-wedge scanner does, and waits
    /// for the page to show an outcome with `status`.
    func type(_ tag: String, expect status: String) async throws {
        let before = try await outcomes().count
        try await find("#entry").sendKeys(tag + Element.enter)
        try await waitUntil(
            timeout: 15, "the outcome of \(tag.prefix(20)) as \(status)",
            js: """
                ((window.kiosk && window.kiosk.outcomes) || []).slice(\(before)).some((o) => o.status === \(Self.literal(status)))
                  && attr('#outcome', 'data-status') === \(Self.literal(status))
                """)
    }

    /// The page threw nothing. Refused requests (a 422 for a bad tag) are logged by Chromium as
    /// failed loads; they are answers the page shows, not errors of the page.
    func expectNoScriptErrors() async throws {
        let errors = try await consoleErrors().filter { !$0.message.contains("Failed to load resource") }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
    }

    /// The whole number shown in an element ("1,234" reads as 1234).
    func number(_ css: String) async throws -> Int? {
        Int(try await find(css).text().filter(\.isNumber))
    }
}
