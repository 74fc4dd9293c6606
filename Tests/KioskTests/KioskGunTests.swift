import BrowserTestSupport
import CameraTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// A keyboard-wedge barcode gun on every screen and in every dialog of the kiosk, outcomes in
    /// the order they were scanned, the lost-camera alarm, undo and locations: in headless
    /// Chromium over WebDriver, with keys sent back-to-back to whatever has the focus.
    @Suite("The kiosk with a barcode gun, in a real browser", BrowserChain(.second))
    struct KioskGunTests {
        static let inventory: [(tag: String, name: String, country: String)] = [
            ("T-1", "Laptop one", "SG"), ("T-2", "Dock two", "SG"), ("T-3", "Monitor three", "SG"), ("M-1", "Phone", "MY")
        ]
        static let placed: [KioskProcess.Row] = [
            .init(tag: "T-1", name: "Laptop one", country: "SG", location: "Dock A"),
            .init(tag: "T-2", name: "Dock two", country: "SG", location: "Dock A"),
            .init(tag: "T-3", name: "Monitor three", country: "SG", location: "Dock B"),
            .init(tag: "SG-0002", name: "Phone two", country: "SG", location: "Dock B"),
            .init(tag: "M-1", name: "Phone", country: "MY", location: "KL")
        ]

        @Test("No audit: a burst on the start screen, a Start button, the name field or the start dialog is NOT RECORDED")
        func burstsWithoutAnAudit() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-start", "the start screen")
                #expect(try await page.activeElement().tagName().lowercased() == "body", "no button takes the focus by itself")

                // Nothing focused.
                try await page.gun("T-1", expect: "rejected")
                #expect(try await page.find("#gun-alarm").isDisplayed())
                #expect(try await page.find("#gun-alarm").text().contains("NOT RECORDED"))
                #expect(try await page.find("#gun-alarm").text().lowercased().contains("no audit is running"))

                // A focused Start button: the burst's Enter does not press it.
                _ = try await page.execute("document.querySelector('button[data-country=\"SG\"]').focus()")
                try await page.gun("T-2", expect: "rejected")
                #expect(try await page.execute("return document.getElementById('scope-dialog').open").boolValue == false)

                // The name field: the tag is not saved as the scanner's name, and the field keeps its text.
                _ = try await page.execute("const f = document.getElementById('user-name'); f.focus(); f.select()")
                try await page.gun("T-3", expect: "rejected")
                #expect(try await page.find("#user-name").property("value").stringValue == "Ben")

                // The start dialog, opened on purpose: the burst neither starts nor ticks anything.
                try await page.find("button[data-country=\"SG\"]").click()
                try await page.waitUntilShown("#scope-dialog", "the start dialog")
                try await page.gun("T-1", expect: "rejected")
                #expect(try await page.find("#scope-dialog").isDisplayed())
                #expect(try await page.find("#screen-start").isDisplayed())
                try await page.find("#scope-cancel").click()

                // A page too busy to handle each key at once (80 ms of work after every key): the
                // keys are still a burst by when they were pressed, and Enter presses nothing.
                try await page.waitUntilHidden("#scope-dialog", "the start dialog closed")
                try await page.execute(
                    """
                    window.addEventListener('keydown', function () {
                      const t = performance.now(); while (performance.now() - t < 80) {}
                    }, true);
                    document.querySelector('button[data-country="SG"]').focus();
                    """)
                try await page.gun("T-4", expect: "rejected")
                #expect(try await page.execute("return document.getElementById('scope-dialog').open").boolValue == false)
                try await page.expectNoScriptErrors()
            }
            let state = try await kiosk.call("GET", "/api/state")
            #expect(state.body["audit"] is NSNull, "no audit was started or joined: \(state.text.prefix(300))")
            #expect(state.body["user"] as? String == "Ben")
            #expect(try await kiosk.run(["audit", "history"]).contains("SG") == false)
        }

        @Test("Keys sent with their text alone (no key names): a burst in the entry field, on a button and in a search box is one scan")
        func burstsOfTextAlone() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                try await page.gun("T-1", expect: "found_expected", textAlone: true)
                #expect(try await page.find("#entry").property("value").stringValue == "")
                // A button has the focus: the keys go to the entry field, and the Enter presses nothing.
                _ = try await page.execute("document.getElementById('change-user').focus()")
                try await page.gun("T-2", expect: "found_expected", textAlone: true)
                #expect(try await page.find("#user-dialog").isDisplayed() == false)
                // A search box with a person's text: recorded, and the box keeps its text.
                let search = try await page.find("#missing-search")
                try await search.click()
                try await search.gunKeys("Mon", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(300))
                try await page.gun("NOPE-1", expect: "unknown", textAlone: true)
                #expect(try await search.property("value").stringValue == "Mon")
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json"]))
            let identifiers = ((trail["scans"] as? [[String: Any]]) ?? []).compactMap { $0["identifier"] as? String }
            #expect(identifiers == ["T-1", "T-2", "NOPE-1"], "each burst is one scan of its own tag")
        }

        @Test("An audit open: a burst in a search box or any dialog is recorded and presses nothing; on the summary NOT RECORDED")
        func burstsWithAnAudit() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in

                // A search box: recorded, and the box keeps what the person had typed.
                let search = try await page.find("#missing-search")
                try await search.click()
                try await search.sendKeys("Mon")
                // A person's keys, then the gun a moment later: WebDriver types "Mon" at a gun's speed,
                // and a burst that followed it within 50 ms would be one scan of "MonT-1".
                try await Task.sleep(for: .milliseconds(300))
                try await page.gun("T-1", expect: "found_expected")
                #expect(try await search.property("value").stringValue == "Mon")

                // The name dialog: recorded, the name is not changed, the dialog stays for the person.
                try await page.find("#change-user").click()
                try await page.waitUntilShown("#user-dialog", "the name dialog")
                // The dialog opens with the name selected; the person had begun a new one ("Al"), then
                // the gun fired: the burst is a scan, and the field keeps what the person typed.
                try await page.find("#user-dialog-name").gunKeys("Al", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(300))
                try await page.gun("T-2", expect: "found_expected")
                #expect(try await page.find("#user-dialog-name").property("value").stringValue == "Al")
                #expect(try await page.find("#user-dialog").isDisplayed())
                try await page.find("#user-dialog-cancel").click()

                // The end confirmation, with the focus on "End audit": the audit does not end.
                try await page.find("#end-button").click()
                try await page.waitUntilShown("#confirm-dialog", "the confirmation")
                _ = try await page.execute("document.getElementById('confirm-yes').focus()")
                try await page.gun("T-3", expect: "found_expected")
                #expect(try await page.find("#screen-scan").isDisplayed())

                // The undo confirmation, with the focus on "Undo scan": nothing is undone.
                try await page.find("#undo-button").click()
                try await page.waitUntilShown("#undo-dialog", "the undo dialog")
                _ = try await page.execute("document.getElementById('undo-yes').focus()")
                try await page.gun("T-1", expect: "already_scanned")
                #expect(try await page.number("#count-scanned") == 3)

                // A focused button of the top bar: the tag goes to the entry field and is recorded.
                _ = try await page.execute("document.getElementById('leave-button').focus()")
                try await page.gun("M-1", expect: "unexpected")
                #expect(try await page.find("#screen-scan").isDisplayed())

                // Ended elsewhere: the summary, where a burst is NOT RECORDED and does not leave it.
                try await kiosk.run(["audit", "end", "--country", "SG"])
                try await page.waitUntilShown("#screen-summary", timeout: 15, "the summary")
                _ = try await page.execute("document.getElementById('back-to-start').focus()")
                try await page.gun("T-2", expect: "rejected")
                #expect(try await page.find("#gun-alarm").text().lowercased().contains("ended"))
                #expect(try await page.find("#screen-summary").isDisplayed())
                try await page.expectNoScriptErrors()
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json", "--per-page", "100"]))
            let scans = try #require(trail["scans"] as? [[String: Any]])
            #expect(scans.map { $0["identifier"] as? String ?? "" } == ["T-1", "T-2", "T-3", "T-1", "M-1"])
            #expect(Set(scans.compactMap { $0["user"] as? String }) == ["Ben"])
            #expect(scans.allSatisfy { ($0["voided"] ?? NSNull()) is NSNull })
        }

        /// What the kiosk answers a browser on another machine (the only one it asks a PIN of): its
        /// state is locked, and a PIN is checked. Tests reach the kiosk on loopback alone, so the
        /// page gets these answers from this script, run before its own; it counts the PINs sent.
        static let browserOnAnotherMachine = """
            (function () {
              var kioskFetch = window.fetch.bind(window);
              window.pinsSent = [];
              function answer(status, body) {
                return Promise.resolve(new Response(JSON.stringify(body), { status: status, headers: { 'Content-Type': 'application/json' } }));
              }
              window.fetch = function (input, init) {
                var url = String((input && input.url) || input);
                if (url.indexOf('/api/state') >= 0) return answer(200, { station: 'kiosk-7', pin_required: true });
                if (url.indexOf('/api/pin') >= 0) {
                  window.pinsSent.push(JSON.parse((init && init.body) || '{}').pin);
                  return answer(401, { error: 'WRONG_PIN', message: 'Wrong PIN' });
                }
                return kioskFetch(input, init);
              };
            })();
            """

        @Test("The PIN screen: keys into the PIN field are the PIN however fast (a badge reader, auto-type); a burst elsewhere is refused aloud")
        func burstOnThePinScreen() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            try await withPage(kiosk) { page in
                try await page.devTools("Page.addScriptToEvaluateOnNewDocument", ["source": .string(Self.browserOnAnotherMachine)])
                try await page.refresh()
                try await page.waitUntilShown("#screen-pin", "the PIN screen")
                try await page.waitUntil("the PIN field to have the focus", js: "focusedID() === 'pin'")
                func pinsSent() async throws -> [String] {
                    try await page.execute("return window.pinsSent").arrayValue?.compactMap(\.stringValue) ?? []
                }
                // A badge reader types the PIN at a gun's pace, then Enter: it is the PIN.
                try await page.gunKeys("7305")
                try await page.waitUntil("the badge's PIN answered") { try await pinsSent() == ["7305"] }
                #expect(try await page.find("#gun-alarm").isDisplayed() == false, "a PIN is never a scan")
                try await page.waitUntil("the wrong PIN said", js: "(text('#pin-error') || '').includes('Wrong PIN')")
                // A password manager's auto-type: a key every 25 ms, then Enter.
                try await page.waitUntil("the PIN field to have the focus", js: "focusedID() === 'pin'")
                try await page.gunKeys("5190", gap: BrowserSession.autoTypeKeyGap)
                try await page.waitUntil("the auto-typed PIN answered") { try await pinsSent() == ["7305", "5190"] }
                #expect(try await page.find("#gun-alarm").isDisplayed() == false)
                // A person's PIN, a key at a time, is sent.
                let pin = try await page.find("#pin")
                for key in ["4", "8", "2", "1"] {
                    try await pin.sendKeys(key)
                    try await Task.sleep(for: .milliseconds(120))
                }
                try await pin.sendKeys(Element.enter)
                try await page.waitUntil("the person's PIN answered") { try await pinsSent() == ["7305", "5190", "4821"] }
                // A gun's burst with the focus off the PIN field is a scan, and no audit takes it here.
                _ = try await page.execute("document.activeElement.blur()")
                try await page.gun("T-1", expect: "rejected")
                #expect(try await page.find("#gun-alarm").isDisplayed())
                #expect(try await page.find("#gun-alarm").text().contains("Type the station PIN"))
                #expect(try await pinsSent() == ["7305", "5190", "4821"], "the tag was not sent as a PIN")
                try await page.expectNoScriptErrors()
            }
            #expect(try await kiosk.run(["audit", "scans"]).contains("T-1") == false, "nothing was recorded")
        }

        @Test("The loading screen: a burst while the kiosk does not answer yet is refused aloud")
        func burstOnTheLoadingScreen() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            try await withPage(kiosk) { page in
                // The kiosk's state never comes: the page stays on its loading screen.
                let silent =
                    "(function () { var f = window.fetch.bind(window); window.fetch = function (i, o) { "
                    + "return String((i && i.url) || i).indexOf('/api/state') >= 0 ? new Promise(function () {}) : f(i, o); }; })();"
                try await page.devTools("Page.addScriptToEvaluateOnNewDocument", ["source": .string(silent)])
                try await page.refresh()
                try await page.waitUntilShown("#screen-loading", "the loading screen")
                try await page.gun("T-1", expect: "rejected")
                #expect(try await page.find("#gun-alarm").isDisplayed())
                #expect(try await page.find("#gun-alarm").text().contains("not ready yet"))
            }
            #expect(try await kiosk.run(["audit", "scans"]).contains("T-1") == false, "nothing was recorded")
        }

        @Test("A kiosk restarted with two audits running reopens on its own audit; a new kiosk with two running asks and joins none")
        func remembersItsAudit() async throws {
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.run(["audit", "start", "--country", "MY"])
            try await kiosk.start(["--no-camera"])
            // Two running, none chosen here: the start screen.
            try await waitForTwoRunning(kiosk)
            #expect(try await kiosk.call("GET", "/api/state").body["audit"] is NSNull)
            let my = try #require(
                ((try await kiosk.call("GET", "/api/state").body["countries"] as? [[String: Any]]) ?? []).first { $0["country"] as? String == "MY" }?[
                    "active_audit_id"] as? String)
            #expect(try await kiosk.call("POST", "/api/join", json: #"{"audit_id":"\#(my)"}"#).status == 200)
            await kiosk.stop()
            try await kiosk.start(["--no-camera"])
            try await waitFor("the kiosk to reopen on MY") {
                ((try? await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any])?["country"] as? String) == "MY"
            }
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.gun("M-1", expect: "found_expected")
            }
            // Leaving forgets it: the next start asks again.
            #expect(try await kiosk.call("POST", "/api/leave", json: "{}").status == 200)
            await kiosk.stop()
            try await kiosk.start(["--no-camera"])
            try await waitForTwoRunning(kiosk)
            #expect(try await kiosk.call("GET", "/api/state").body["audit"] is NSNull)
        }

        @Test("A tag scanned with Caps Lock on is recorded as unknown, and the page names the asset it matches but for case")
        func capsLockHint() async throws {
            let kiosk = try await KioskProcess.scanning([("SG-0002", "Phone two", "SG"), ("T-1", "Laptop one", "SG")])
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                try await page.gun("sg-0002", expect: "unknown")
                try await page.waitUntil(
                    "the hint in the outcome box", js: "(text('#outcome-info') || '').includes('Did you mean SG-0002? (Caps Lock?)')")
                #expect(try await page.find("#outcome-info").text().contains("recorded as scanned"))
                try await page.waitUntil("the hint in Last scans", js: "(text('#recent') || '').includes('Did you mean SG-0002?')")
                // Recorded as scanned: an unknown tag, counted beside the expected ones.
                try await page.waitUntil("the scan counted", js: "num('#count-unexpected') === 1")
                #expect(try await page.number("#count-scanned") == 0)
                // A tag that matches no asset in any case gets no hint.
                try await page.gun("XX-9999", expect: "unknown")
                try await page.waitUntil("the second scan counted", js: "num('#count-unexpected') === 2")
                #expect(try await page.find("#outcome-info").text().contains("Did you mean") == false)
            }
            let report = try await kiosk.run(["audit", "report", "--format", "csv"])
            #expect(report.contains("sg-0002"), "the scan is stored as it was typed: \(report.prefix(600))")
        }

        @Test("Connected, a tag scanned with Caps Lock on is named from the station's copy: left to the server, then unknown, and offline")
        func capsLockHintConnected() async throws {
            let rows = ["SG-0002", "SG-0003"].map { KioskProcess.Row(tag: $0, name: "Phone \($0)", country: "SG") }
            let (server, kiosk) = try await KioskProcess.connected(rows: rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera"])
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil("online", js: "attr('#connection', 'data-state') === 'online'")
                // Not in the copy as typed: the server decides (unknown), and both outcomes name the tag.
                try await page.gun("sg-0002", expect: "unknown")
                try await page.waitUntil(
                    "the hint in the outcome box", js: "(text('#outcome-info') || '').includes('Did you mean SG-0002? (Caps Lock?)')")
                try await page.waitUntil("the hint in Last scans", js: "(text('#recent') || '').includes('Did you mean SG-0002?')")
                #expect(
                    try await page.outcomes().contains { $0["status"]?.stringValue == "awaiting" },
                    "first shown as left to the server")

                await server.kill()
                try await page.waitUntil(timeout: 15, "offline", js: "attr('#connection', 'data-state') === 'offline'")
                try await page.gun("sg-0003", expect: "awaiting")
                try await page.waitUntil(
                    "the offline hint in the outcome box",
                    js: "(text('#outcome-info') || '').includes('Did you mean SG-0003? (Caps Lock?) \\u2014 the server decides.')")
                // A tag no expected asset has in any case gets no hint.
                try await page.gun("XX-9", expect: "awaiting")
                #expect(try await page.find("#outcome-info").text().contains("Did you mean") == false)
            }
        }

        @Test("Last scans come from the audit's trail: a scan another station recorded shows, newest first, with its user")
        func lastScansFromTheTrail() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                try await page.type("T-1", expect: "found_expected")
                // Another station on the same store: the terminal's scan command, as Rosa.
                _ = try await kiosk.run(["audit", "scan", "--user", "Rosa"], input: "T-2\n")
                try await page.refresh()
                try await page.waitUntil("both scans in Last scans", js: "/T-2[\\s\\S]*T-1/.test(text('#recent') || '')")
                var rows: [String] = []
                for row in try await page.findAll("#recent li") { rows.append(try await row.text()) }
                #expect(rows.count == 2, "\(rows)")
                #expect(rows.first?.contains("Rosa") == true && rows.first?.contains("T-2") == true, "\(rows)")
                #expect(rows.last?.contains("Ben") == true && rows.last?.contains("T-1") == true, "\(rows)")
                // The scan the page never saw comes from the trail with its asset's name too.
                #expect(rows.first?.contains("Dock two") == true && rows.last?.contains("Laptop one") == true, "\(rows)")
            }
        }

        @Test("A 20-tag burst is shown and stored in order; a problem stays beside the next FOUND; sounds never overlap")
        func burstInOrder() async throws {
            let kiosk = try await KioskProcess(inventory: (1...20).map { ("B-\($0)", "Box \($0)", "SG") })
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--no-camera"])
            let tags = (1...20).map { $0 == 7 ? "NOPE-7" : "B-\($0)" }
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                // Sound on, as after a person's first touch.
                _ = try await page.execute("document.dispatchEvent(new PointerEvent('pointerdown'))")
                // Every write of the entry field's value is a layout of the page: count them.
                try await page.execute(
                    """
                    const entry = document.getElementById('entry');
                    const plain = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
                    window.kiosk.entryWrites = 0;
                    Object.defineProperty(entry, 'value', {
                      configurable: true,
                      get() { return plain.get.call(this); },
                      set(v) { window.kiosk.entryWrites++; plain.set.call(this, v); }
                    });
                    """)
                try await page.activeElement().sendKeys(tags.map { $0 + Element.enter }.joined())
                try await page.waitUntil(timeout: 20, "20 outcomes", js: "((window.kiosk && window.kiosk.outcomes) || []).length >= 20")
                // A burst's characters go from the keys into the tags, not through the field: the
                // capital letters' Shift and each Enter write nothing (it was twice a tag).
                let writes = try await page.execute("return window.kiosk.entryWrites").intValue ?? -1
                #expect((0..<tags.count).contains(writes), "the field's value was written \(writes) times for \(tags.count) tags")
                try await page.execute("delete document.getElementById('entry').value")
                let shown = try await page.outcomes().map { $0["identifier"]?.stringValue ?? "" }
                #expect(shown == tags)
                // Every answered scan has left the kept queue: a reload sends none of them again.
                let kept = try await page.execute("return JSON.parse(localStorage.getItem('auditstation.kiosk.queue.v1') || '[]').length")
                #expect(kept.intValue == 0, "\(kept) scans still queued after their answers")
                #expect(try await page.find("#sending").text().isEmpty)
                #expect(try await page.find("#outcome").attribute("data-status") == "found_expected")
                // NOPE-7 was replaced at once; it is listed beside the box.
                #expect(try await page.find("#problem-stack").text().contains("NOPE-7"))
                let sounds = try await page.execute("return window.kiosk.sounds || []").arrayValue ?? []
                for (earlier, later) in zip(sounds, sounds.dropFirst()) {
                    let end = earlier["end"]?.doubleValue ?? 0, start = later["start"]?.doubleValue ?? 0
                    #expect(start >= end, "sounds overlap: \(earlier) and \(later)")
                }
                #expect(sounds.contains { $0["status"]?.stringValue == "unknown" }, "the problem's sound was queued: \(sounds)")
                // After 8 s without a scan the box says READY; the stack has emptied.
                try await page.waitUntil(timeout: 15, "READY again", js: "attr('#outcome', 'data-status') === 'idle'")
                #expect(try await page.find("#problem-stack").isDisplayed() == false)

                // A gun's keys are gathered and put in the field once they pause: without its Enter
                // yet, the burst shows whole; a key typed inside the text lands where the caret is, and
                // Enter sends the text as the field shows it.
                let entry = try await page.find("#entry")
                try await entry.sendKeys("B7")
                try await page.waitUntil("the burst in the field") { try await entry.property("value").stringValue == "B7" }
                try await entry.sendKeys(Element.arrowLeft + "-")
                try await page.waitUntil("the key inside the text") { try await entry.property("value").stringValue == "B-7" }
                try await entry.sendKeys(Element.enter)
                try await page.waitUntil("B-7 found") {
                    try await page.outcomes().last.map { $0["identifier"]?.stringValue == "B-7" && $0["status"]?.stringValue == "found_expected" }
                        == true
                }
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json", "--per-page", "100"]))
            #expect((trail["scans"] as? [[String: Any]])?.map { $0["identifier"] as? String ?? "" } == tags + ["B-7"])
        }

        @Test("A camera unplugged and back: a full-width alarm in plain words that clears by itself; typing still works")
        func lostCameraAlarm() async throws {
            let (camera, environment, gone) = try await FakeCamera.unpluggable()
            let kiosk = try await KioskProcess(inventory: Self.inventory)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--device", camera.device], environment: environment)
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil(timeout: 20, "the camera ready", js: "attr('#preview-box', 'data-camera') === 'ready'")
                #expect(try await page.find("#camera-alarm").isDisplayed() == false)
                try Data().write(to: gone)
                try await page.waitUntilShown("#camera-alarm", timeout: 20, "the camera alarm")
                let text = try await page.find("#camera-alarm").text()
                #expect(text.contains("The camera has stopped working."))
                #expect(!text.contains("camera.device") && !text.contains("audit-station"), "plain words: \(text)")
                let width = try await page.execute(
                    "return document.getElementById('camera-alarm').getBoundingClientRect().width === document.documentElement.clientWidth")
                #expect(width.boolValue == true)
                #expect(
                    (try await page.execute("return window.kiosk.sounds || []").arrayValue ?? []).contains {
                        $0["status"]?.stringValue == "camera_lost"
                    })
                try await page.type("T-1", expect: "found_expected")
                try FileManager.default.removeItem(at: gone)
                try await page.waitUntilHidden("#camera-alarm", timeout: 30, "the alarm to clear")
                #expect(try await page.find("#preview-box").attribute("data-camera") == "ready")
                try await page.screenshotIfAsked("kiosk-camera-ready-again.png")
            }
        }

        @Test("The sound is suspended a few seconds after the last one, and the next scan's sound plays")
        func soundRestsBetweenScans() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                _ = try await page.execute("document.dispatchEvent(new PointerEvent('pointerdown'))")
                try await page.type("T-1", expect: "found_expected")
                try await page.waitUntil(timeout: 5, "the sound running", js: "window.kiosk.audioState() === 'running'")
                // Quiet for 3 s after its end: the browser renders no more silence.
                try await page.waitUntil(timeout: 10, "the sound suspended", js: "window.kiosk.audioState() === 'suspended'")
                try await page.type("T-2", expect: "found_expected")
                try await page.waitUntil(
                    timeout: 5, "the next sound playing",
                    js: """
                        window.kiosk.audioState() === 'running'
                          && window.kiosk.sounds.filter((s) => s.status === 'found_expected').length === 2
                        """)
                try await page.expectNoScriptErrors()
            }
        }

        @Test("Undo last scan asks first, voids the scan in the trail, corrects the numbers and strikes the scan through")
        func undoLastScan() async throws {
            let kiosk = try await KioskProcess.scanning(Self.inventory)
            try await withScanningScreen(kiosk) { page in
                try await page.type("T-1", expect: "found_expected")
                try await page.type("T-2", expect: "found_expected")
                #expect(try await page.number("#count-scanned") == 2)
                try await page.find("#undo-button").click()
                try await page.waitUntilShown("#undo-dialog", "the undo dialog")
                #expect(try await page.find("#undo-dialog").text().contains("T-2"))
                #expect(try await page.activeElement().attribute("id") == "undo-no", "the safe choice has the focus")
                try await page.find("#undo-yes").click()
                try await page.waitUntilHidden("#undo-dialog", "the dialog to close")
                try await page.waitUntil("1 scanned", js: "num('#count-scanned') === 1")
                let struck = try await page.find("#recent li[data-voided=\"true\"]")
                #expect(try await struck.text().contains("T-2"))
                #expect(try await struck.find(".r-id").cssValue("text-decoration-line") == "line-through")
                try await page.screenshotIfAsked("kiosk-undone.png")
            }
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json"]))
            let scans = try #require(trail["scans"] as? [[String: Any]])
            let voided = try #require(scans.first { $0["identifier"] as? String == "T-2" }?["voided"] as? [String: Any])
            #expect(voided["user"] as? String == "Ben")
            #expect((scans.first { $0["identifier"] as? String == "T-1" }?["voided"] ?? NSNull()) is NSNull)
            // Restarted: the last scans come from the trail, still struck through.
            await kiosk.stop()
            try await kiosk.start(["--no-camera"])
            try await waitFor("the audit reopened") { (try? await kiosk.call("GET", "/api/state").body["audit"]) is [String: Any] }
            let recent = try #require(try await kiosk.call("GET", "/api/state").body["recent"] as? [[String: Any]])
            #expect(recent.map { $0["identifier"] as? String ?? "" } == ["T-2", "T-1"])
            #expect(recent.first?["voided"] as? Bool == true)
        }

        @Test("Locations: chosen at the start, shown and chosen while scanning, set by LOC: labels; misplaced is its own outcome")
        func locationsAndMisplaced() async throws {
            let kiosk = try await KioskProcess(rows: Self.placed)
            try await kiosk.start(["--no-camera", "--user", "Ben"])
            try await withPage(kiosk) { page in
                try await page.waitUntilShown("#screen-start", "the start screen")
                try await page.find("button[data-country=\"SG\"]").click()
                try await page.waitUntil("the locations to choose", js: "count('#scope-choices input[type=checkbox]') === 2")
                try await page.screenshotIfAsked("kiosk-start-locations.png")
                try await page.find("#scope-choices input[value=\"Dock A\"]").click()
                try await page.find("#scope-start").click()
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                #expect(try await page.number("#count-total") == 2, "only Dock A's assets are expected")
                #expect(try await page.find("#location-label").text() == "Location not set")

                // Chosen on the page.
                try await page.find("#change-location").click()
                try await page.waitUntilShown("#location-dialog", "the location dialog")
                // A gun's burst with the focus on Dock B's button: refused aloud (no such
                // location), stored nowhere, and the focused button is not pressed.
                _ = try await page.execute("document.querySelector('#location-choices button[data-location=\"Dock B\"]').focus()")
                try await page.gun("LOC:Nowhere", expect: "rejected")
                #expect(try await page.find("#location-label").text() == "Location not set")
                if try await page.find("#location-dialog").isDisplayed() == false {
                    try await page.find("#change-location").click()
                    try await page.waitUntilShown("#location-dialog", "the location dialog")
                }
                try await page.find("#location-choices button[data-location=\"Dock A\"]").click()
                try await page.waitUntil("At Dock A", js: "text('#location-label') === 'At Dock A'")
                try await page.type("T-1", expect: "found_expected")

                // A location label: shown as a move, never NOT RECORDED, and never stored.
                try await page.type("LOC:Dock B", expect: "location")
                #expect(try await page.find("#outcome").text().contains("NOW AT DOCK B"))
                try await page.waitUntil("At Dock B", js: "text('#location-label') === 'At Dock B'")
                try await page.type("T-2", expect: "misplaced")
                let text = try await page.find("#outcome").text()
                #expect(text.contains("MISPLACED") && text.contains("wrong place") && text.contains("Dock A") && text.contains("Dock B"), "\(text)")
                try await page.screenshotIfAsked("kiosk-scan-misplaced.png")
                #expect(try await page.number("#count-scanned") == 2, "a misplaced asset counts as found")
                try await page.type("LOC:Nowhere", expect: "rejected")
                try await page.expectNoScriptErrors()
            }
            let state = try await kiosk.call("GET", "/api/state")
            #expect(state.body["location"] as? String == "Dock B")
            let trail = try jsonObject(try await kiosk.run(["audit", "scans", "--json"]))
            #expect((trail["scans"] as? [[String: Any]])?.map { $0["identifier"] as? String ?? "" } == ["T-1", "T-2"])
            let misplaced = try jsonObject(try await kiosk.run(["audit", "details", "misplaced", "--json"]))
            #expect(String(describing: misplaced).contains("T-2"))
        }

        /// The kiosk has listed the countries with both audits running, and had a moment to
        /// look for one to reopen on.
        func waitForTwoRunning(_ kiosk: KioskProcess) async throws {
            try await waitFor("both audits listed as running") {
                let countries = (try? await kiosk.call("GET", "/api/state").body["countries"] as? [[String: Any]]) ?? []
                return countries.filter { $0["active_audit_id"] is String }.count == 2
            }
            try await Task.sleep(for: .seconds(2))
        }

        func waitFor(_ what: String, timeout: Double = 30, _ condition: () async throws -> Bool) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if try await condition() { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw KioskTestError("timed out waiting for \(what)")
        }
    }
}

extension BrowserSession {
    /// A keyboard-wedge burst: the tag and Enter sent back-to-back to whatever has the focus
    /// (the body when nothing does), then the page's outcome with `status`.
    func gun(_ tag: String, expect status: String, textAlone: Bool = false) async throws {
        let before = try await outcomes().count
        try await gunKeys(tag, textAlone: textAlone)
        try await waitUntil(
            timeout: 15, "the outcome of the burst \(tag) as \(status)",
            js: """
                ((window.kiosk && window.kiosk.outcomes) || []).slice(\(before))
                  .some((o) => o.identifier === \(Self.literal(tag)) && o.status === \(Self.literal(status)))
                """)
    }
}
