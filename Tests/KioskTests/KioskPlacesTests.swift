import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

extension InThirdBrowser {
    /// The kiosk's panel of expected and found assets by location, standalone and connected,
    /// its name prompt, its evidence photos, and its rows' sync state against a server that
    /// speaks only the seeds' API. On the third chain, after the back office was split in two:
    /// last on the kiosk's first chain, it made that chain the run's longest.
    @Suite("The kiosk's locations, name prompt, photos and sync state, in a real browser", BrowserChain(.third))
    struct KioskPlacesTests {
        static let rows: [KioskProcess.Row] = [
            .init(tag: "T-1", name: "Laptop one", country: "SG", location: "Dock A"),
            .init(tag: "T-2", name: "Dock two", country: "SG", location: "Dock A"),
            .init(tag: "T-3", name: "Monitor three", country: "SG", location: "Dock B"),
            .init(tag: "T-4", name: "Phone four", country: "SG", location: nil)
        ]

        /// The panel's rows as [name: [found, expected, missing, misplaced]], and its total.
        static func places(_ page: BrowserSession, _ prefix: String = "places") async throws -> [String: [String]] {
            let rows =
                try await page.execute(
                    """
                    return [...document.querySelectorAll('#\(prefix)-body tr, #\(prefix)-foot tr')].map(r =>
                      [...r.children].map(c => c.textContent.replace(/[^0-9A-Za-z ,.'-]/g, '').trim()))
                    """
                ).arrayValue ?? []
            var byName: [String: [String]] = [:]
            for row in rows {
                let cells = (row.arrayValue ?? []).compactMap(\.stringValue)
                if let name = cells.first { byName[name] = Array(cells.dropFirst()) }
            }
            return byName
        }

        /// The four counters of the scanning screen as the panel writes numbers.
        static func counters(_ page: BrowserSession) async throws -> [String] {
            var shown: [String] = []
            for id in ["count-scanned", "count-total", "count-missing"] { shown.append(try await page.find("#\(id)").text()) }
            return shown
        }

        @Test("Standalone: expected, found, missing and misplaced per location add up to the counters, on the scanning screen and the summary")
        func standalonePanel() async throws {
            let kiosk = try await KioskProcess(rows: Self.rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben", "--location", "Dock A"])
            try await withPage(kiosk, width: 1024, height: 768) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil("the panel") { try await Self.places(page)["Dock A"] == ["0", "2", "2", "0"] }
                try await page.type("T-1", expect: "found_expected")
                try await page.type("T-3", expect: "misplaced")
                let want = [
                    "Dock A": ["1", "2", "1", "0"], "Dock B": ["1", "1", "0", "1"], "No location": ["0", "1", "1", "0"],
                    "All locations": ["2", "4", "2", "1"]
                ]
                let seen = Locked([String: [String]]())
                do {
                    try await page.waitUntil("the panel after two scans") {
                        seen.set(try await Self.places(page))
                        return seen.get() == want
                    }
                } catch { throw KioskTestError("\(error); panel: \(seen.get())") }
                // The total row and the counters show the same snapshot.
                let total = try #require(seen.get()["All locations"])
                #expect(try await Self.counters(page) == Array(total.prefix(3)))
                #expect(try await page.find("#places-card").isDisplayed())
                try await page.expectNoScriptErrors()

                try await kiosk.run(["audit", "end", "--country", "SG"])
                try await page.waitUntil(timeout: 15, "the summary's panel") {
                    guard try await page.find("#screen-summary").isDisplayed() else { return false }
                    return try await Self.places(page, "summary-places")["All locations"] == ["2", "4", "2", "1"]
                }
                #expect(try await Self.places(page, "summary-places")["Dock B"] == ["1", "1", "0", "1"])
            }
        }

        @Test("Connected: the panel counts from the station's copy, and another station's find shows as found elsewhere until the copy learns it")
        func connectedPanel() async throws {
            let (server, kiosk) = try await KioskProcess.connected(rows: Self.rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--location", "Dock A"])
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.type("T-3", expect: "misplaced")
                try await page.waitUntil("Dock B found and misplaced") { try await Self.places(page)["Dock B"] == ["1", "1", "0", "1"] }
                // Another station scans T-1 at the server: the counters move with the server's
                // numbers, and the panel still adds up to them.
                try await server.run(["audit", "scan", "--country", "SG", "--user", "Other"], input: "T-1\n")
                let seen = Locked([String: [String]]())
                do {
                    try await page.waitUntil(timeout: 15, "the other station's find") {
                        seen.set(try await Self.places(page))
                        return seen.get()["All locations"]?.first == "2"
                            && seen.get()["Found by other stations, place not known here yet"]?.first == "1"
                    }
                } catch { throw KioskTestError("\(error); panel: \(seen.get())") }
                #expect(try await Self.counters(page).first == "2")
                try await page.expectNoScriptErrors()
            }
        }

        @Test("With no name given the scanning screen asks; a gun's burst in the name field is a scan, never the name")
        func nameIsAsked() async throws {
            let kiosk = try await KioskProcess(rows: Self.rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera"], askName: true)
            #expect(try await kiosk.call("GET", "/api/state").body["user"] is NSNull)
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#user-dialog", "the name dialog")
                #expect(try await page.activeElement().attribute("id") == "user-dialog-name")
                let before = try await page.outcomes().count
                try await page.gunKeys("T-2")
                try await page.waitUntil("the burst recorded as a scan") {
                    try await page.outcomes().dropFirst(before).contains { $0["identifier"]?.stringValue == "T-2" }
                }
                #expect(try await page.find("#user-dialog").isDisplayed(), "the dialog still asks")
                #expect(try await page.find("#user-dialog-name").property("value").stringValue == "")
                #expect(try await kiosk.call("GET", "/api/state").body["user"] is NSNull, "no name was saved")
                let field = try await page.find("#user-dialog-name")
                try await field.sendKeys("Dana")
                try await Task.sleep(for: .milliseconds(400))
                try await page.find("#user-dialog-save").click()
                try await page.waitUntil("the name saved", js: "(text('#scanner-label') || '').includes('Dana')")
                try await page.waitUntil("the dialog closed and the entry field focused") {
                    guard try await page.find("#user-dialog").isDisplayed() == false else { return false }
                    return try await page.activeElement().attribute("id") == "entry"
                }
                try await page.type("T-1", expect: "found_expected")
            }
            #expect(try await kiosk.call("GET", "/api/state").body["user"] as? String == "Dana")
        }

        @Test("A scan with a kept camera photo has a picture in Last scans and the unexpected list that opens the photo")
        func photosInTheLists() async throws {
            let kiosk = try await KioskProcess(rows: Self.rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../SampleImages")
            let jpeg = try Data(contentsOf: samples.appendingPathComponent("qrcode-15-photo.jpg").standardized)
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.type("NO-SUCH-1", expect: "unknown")
                let scanID = try #require(try await page.outcomes().last?["scan_id"]?.stringValue)
                // The camera's frame, attached as the scan loop attaches it.
                let store = SQLiteAuditService(database: try AppDatabase(path: kiosk.database), caseSensitive: true, defaultStation: "test")
                try await store.attachPhoto(try ScanPhoto(scanId: scanID, jpeg: jpeg, takenAt: Date()), auditID: nil)
                // The last scans come from the audit's trail: a restarted kiosk reads them again.
                await kiosk.stop()
                try await kiosk.start(["--no-camera", "--user", "Ben"], port: kiosk.port)
                try await page.refresh()
                try await page.waitUntil(timeout: 15, "the photo in Last scans") {
                    try await page.execute("return !!document.querySelector('#recent li[data-scan-id=\"\(scanID)\"] .photo-mark')").boolValue == true
                }
                try await page.waitUntil("the photo in the unexpected list") {
                    try await page.execute("return !!document.querySelector('#unexpected-list .photo-mark[data-photo-scan=\"\(scanID)\"]')")
                        .boolValue == true
                }
                // The list may be drawn again between finding the marker and clicking it: try again.
                try await page.waitUntil("the photo dialog") {
                    if try await !page.find("#photo-dialog").isDisplayed() { try? await page.find("#unexpected-list .photo-mark").click() }
                    return try await page.find("#photo-dialog").isDisplayed()
                }
                try await page.waitUntil("the photo loaded") {
                    try await page.execute("const i = document.getElementById('photo-image'); return i.complete && i.naturalWidth > 0").boolValue
                        == true
                }
                // A gun's burst while the photo is open: recorded, and the photo stays for the person.
                try await page.gun("NO-SUCH-2", expect: "unknown")
                #expect(try await page.find("#photo-dialog").isDisplayed())
                try await page.find("#photo-close").click()
                try await page.waitUntil("the entry field again", js: "focusedID() === 'entry'")
                try await page.expectNoScriptErrors()
            }
            let served = try await kiosk.call("GET", "/api/state")
            let audit = try #require((served.body["audit"] as? [String: Any])?["id"] as? String)
            #expect(try await kiosk.call("GET", "/api/photo?audit_id=\(audit)&scan_id=missing-scan").status == 404)
        }

        @Test("Connected to a server of the seeds' API: once all is synced, no row says to sync and the unexpected list agrees with its counter")
        func seedsServerRowsAgreeWithTheHeader() async throws {
            try await SpecServer.with { server in
                await server.audits.add(tag: "S-1", country: "SG")
                await server.audits.add(tag: "S-2", country: "SG")
                let kiosk = try await KioskProcess.connected(to: server)
                try await withScanningScreen(kiosk) { page in
                    try await page.type("S-1", expect: "found_expected")
                    try await page.type("NOT-THERE-9", expect: "unknown")
                    try await page.waitUntil(timeout: 20, "all synced", js: "text('#pending') === 'all synced'")
                    let seen = Locked("")
                    do {
                        try await page.waitUntil(timeout: 10, "rows and list agreeing with the header") {
                            let recent = try await page.find("#recent").text()
                            let list = try await page.execute("return document.querySelectorAll('#unexpected-list li').length").intValue ?? -1
                            let header = try await page.find("#unexpected-total").text()
                            let counter = try await page.find("#count-unexpected").text()
                            seen.set("recent: \(recent) | list rows \(list), header \(header), counter \(counter)")
                            return !recent.contains("to sync") && list == 1 && header == "(1)" && counter == "1"
                        }
                    } catch { throw KioskTestError("\(error); seen: \(seen.get())") }
                    try await page.expectNoScriptErrors()
                }
            }
        }

        @Test("Connected: a scan shown found that the server then refuses is shown refused, in the box and in Last scans")
        func scanRefusedByTheServer() async throws {
            try await SpecServer.with { server in
                await server.audits.add(tag: "S-1", country: "SG")
                await server.audits.add(tag: "S-2", country: "SG")
                await server.audits.refuseScans(of: "S-1")
                let kiosk = try await KioskProcess.connected(to: server)
                try await withScanningScreen(kiosk) { page in
                    // Nothing sent, nothing waiting: the bar says "all synced" and nothing of a last sync.
                    try await page.waitUntil("all synced", js: "text('#pending') === 'all synced' && !shown('#last-sync')")
                    try await page.find("#entry").sendKeys("S-1" + Element.enter)
                    // Found in the station's copy first; the server's refusal comes after.
                    try await page.waitUntil(
                        timeout: 20, "S-1 shown found, then refused by the server",
                        js: """
                            (window.kiosk.outcomes || []).map((o) => o.identifier + ' ' + o.status).join(',') === 'S-1 found_expected,S-1 rejected'
                            """)
                    try await page.waitUntil(
                        timeout: 5, "S-1 refused in the box and in Last scans",
                        js: """
                            attr('#outcome', 'data-status') === 'rejected' && text('#outcome').indexOf('server refused') >= 0
                              && Array.from(document.querySelectorAll('#recent li'))
                                .some((li) => li.textContent.indexOf('S-1') >= 0 && li.getAttribute('data-status') === 'rejected'
                                  && li.textContent.indexOf('Kim') >= 0)
                            """)
                    // The numbers went to the page before the refusal: S-1 no longer counts.
                    #expect(try await page.number("#count-scanned") == 0)
                    try await page.screenshotIfAsked("kiosk-scan-refused-by-server.png")
                    // The next scan is taken as ever, and S-1 scanned again is found again here
                    // (not "already scanned": the refused scan left no mark).
                    try await page.type("S-2", expect: "found_expected")
                    try await page.find("#entry").sendKeys("S-1" + Element.enter)
                    // A refusal is an answer: the server was reached.
                    try await page.waitUntil(timeout: 10, "a last sync shown", js: "text('#last-sync').indexOf('synced ') === 0")
                    try await page.waitUntil(
                        timeout: 20, "S-1 found again, refused again, and only S-2 counted",
                        js: """
                            (window.kiosk.outcomes || []).map((o) => o.identifier + ' ' + o.status).join(',')
                                === 'S-1 found_expected,S-1 rejected,S-2 found_expected,S-1 found_expected,S-1 rejected'
                              && text('#count-scanned') === '1'
                            """)
                    try await page.expectNoScriptErrors()
                }
                #expect(await server.audits.stored.count == 1)
            }
        }

        @Test("Connected: the server's decision pushed while the page's batch is on its way, behind a location label in it, is shown")
        func decisionPushedDuringTheBatch() async throws {
            try await SpecServer.with { server in
                await server.audits.add(tag: "S-1", country: "SG")
                let kiosk = try await KioskProcess.connected(to: server)
                try await withScanningScreen(kiosk) { page in
                    // The kiosk's answers to the page's scans are held back until the test lets them
                    // go, one request at a time; a second stream of the kiosk's events shows the
                    // test what the kiosk pushed meanwhile.
                    _ = try await page.execute(
                        """
                        window.testReleased = 0; window.testPushed = [];
                        let posted = 0; const plainFetch = window.fetch;
                        window.fetch = function (url, init) {
                          const answer = plainFetch.apply(this, arguments);
                          if (!(init && init.method === 'POST' && String(url).indexOf('/api/scans') === 0)) return answer;
                          const number = ++posted;
                          return answer.then((res) => new Promise((resolve) => {
                            const wait = () => (window.testReleased >= number ? resolve(res) : setTimeout(wait, 20));
                            wait();
                          }));
                        };
                        new EventSource('/api/events').addEventListener('scan', (e) => window.testPushed.push(JSON.parse(e.data)));
                        return true;
                        """)
                    try await page.find("#entry").sendKeys("S-1" + Element.enter)
                    // Scanned while the first scan is on its way: the two leave together, the label
                    // first. A gun's keys (10–15 ms apart by their own time stamps), not WebDriver's
                    // typing, whose keys a loaded machine delivers with gaps of any length: a gap
                    // of more than 50 ms after the L made the rest a burst of its own ("OC:Nowhere")
                    // and the L text typed before it, as the page must take a person's L and a gun's tag.
                    try await page.find("#entry").gunKeys("LOC:Nowhere")
                    try await page.find("#entry").gunKeys("NOT-THERE-9")
                    _ = try await page.execute("window.testReleased = 1; return true")
                    do {
                        try await page.waitUntil(
                            timeout: 20, "the server's decision on NOT-THERE-9 pushed by the kiosk",
                            js: "window.testPushed.some((e) => e.identifier === 'NOT-THERE-9' && e.status === 'unknown')")
                    } catch {
                        let pushed = try await page.execute("return JSON.stringify(window.testPushed)")
                        let connection = try await kiosk.call("GET", "/api/state").body["connection"] ?? ""
                        throw KioskTestError("\(error); pushed: \(pushed); connection: \(connection)")
                    }
                    _ = try await page.execute("window.testReleased = 2; return true")
                    try await page.waitUntil(
                        timeout: 10, "NOT-THERE-9 shown as unknown in the box and in Last scans",
                        js: """
                            ((window.kiosk && window.kiosk.outcomes) || []).some((o) => o.identifier === 'NOT-THERE-9' && o.status === 'unknown')
                              && attr('#outcome', 'data-status') === 'unknown'
                              && Array.from(document.querySelectorAll('#recent li'))
                                .some((li) => li.textContent.indexOf('NOT-THERE-9') >= 0 && li.getAttribute('data-status') === 'unknown')
                            """)
                    let shown = try await page.outcomes().compactMap { $0["identifier"]?.stringValue }
                    #expect(shown.filter { $0 != "NOT-THERE-9" } == ["S-1", "LOC:Nowhere"], "\(shown)")
                    try await page.expectNoScriptErrors()
                }
            }
        }
    }
}

extension KioskProcess {
    /// A kiosk logged in to `server` (one of the seeds' API alone) with the audit of SG running,
    /// started without a camera.
    static func connected(to server: SpecServer) async throws -> KioskProcess {
        let kiosk = try await KioskProcess(inventory: [])
        try await kiosk.run(
            ["login", "--server", server.baseURL, "--email", "jane@example.com", "--password-stdin"], input: SpecAudits.password + "\n")
        try await kiosk.run(["audit", "start", "--country", "SG"])
        try await kiosk.start(["--no-camera"])
        return kiosk
    }
}
