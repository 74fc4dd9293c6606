import BrowserTestSupport
import Foundation
import Testing
import TestKit

/// A Bluetooth gun on every screen of the phone page (`/scan`), wherever the focus happens to be:
/// the phone's name, the list of running audits, a focused button of the scanning screen, the
/// location dialog and "How many?" after an accessory's scan. A burst never presses a button,
/// never answers a dialog and never leaves its characters in a field; where an audit is open it
/// is a scan, and where none is it is refused aloud on the screen.
@Suite("The phone page with a gun on every screen", .serialized)
struct PhoneGunScreensTests {
    static let session = "return sessionStorage.getItem('auditstation.scan')"

    /// The Chromium this suite's tests take turns on (beside `PhoneScanTests.typingBrowser`, so the
    /// two suites still run side by side).
    static let browser = SharedBrowser { try PhoneScanTests.cameraArguments("frame-1280x720-none.jpg", in: Scratch.root) }

    /// Logs in on `/scan` with typed keys and waits for the screen that asks the phone's name.
    static func logIn(_ page: BrowserSession, _ server: KioskProcess) async throws {
        _ = try await page.devTools("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
        try await page.open(server.baseURL + "/scan")
        try await page.waitFor("#login-email", displayed: true, timeout: 20).sendKeys("ann@example.com")
        try await page.find("#login-password").sendKeys("secret-pass")
        try await page.find("#login-submit").click()
        try await page.waitUntilShown("#screen-device", timeout: 20, "the phone's name asked")
    }

    /// A server over two assets of SG and the accessory CABLE-1 (10 at Dock A), with Ann and a
    /// running audit of SG.
    static func serverWithCable(port: Int = 0) async throws -> KioskProcess {
        let server = try await KioskProcess(rows: [
            .init(tag: "SG-2", name: "Laptop", country: "SG", location: "Dock A"),
            .init(tag: "SG-3", name: "Monitor", country: "SG", location: "Dock B")
        ])
        try await server.run([
            "accessories", "create", "--name", "Cable", "--category", "Cables", "--total-quantity", "10", "--country", "SG", "--tag", "CABLE-1",
            "--location", "Dock A"
        ])
        try await server.run(
            ["users", "create", "--email", "ann@example.com", "--name", "Ann", "--type", "ADMIN", "--password-stdin"], input: "secret-pass\n")
        try await server.run(["audit", "start", "--country", "SG"])
        try await server.serve(port: port)
        return server
    }

    /// Logged in, the phone named, on the scanning screen of the one running audit.
    static func scanning(_ page: BrowserSession, _ server: KioskProcess) async throws {
        try await logIn(page, server)
        try await page.find("#device-name").sendKeys("Ann's phone")
        try await page.find("#device-form button").click()
        try await page.waitUntilShown("#screen-scan", timeout: 20, "the running audit opened by itself")
    }

    @Test("How many? with the server gone: the typed count is kept on the phone and reaches the server, before the scan made after it")
    func countKeptOnThePhone() async throws {
        let port = try Loopback.longLivedPort() // started again on it
        let server = try await Self.serverWithCable(port: port)
        try await PhoneScanTests.withShared(server, on: Self.browser) { page in
            try await Self.scanning(page, server)
            try await page.gunKeys("LOC:Dock A")
            try await page.waitUntil(timeout: 15, "at Dock A", js: "document.getElementById('place-name').textContent === 'Dock A'")
            try await page.gunKeys("CABLE-1")
            try await page.waitUntil(timeout: 15, "How many? asked", js: "document.getElementById('count-dialog').open === true")
            await server.kill()
            try await page.find("#count-quantity").gunKeys("4", gap: BrowserSession.personKeyGap)
            try await page.waitUntil(timeout: 5, "the dialog closed at once", js: "document.getElementById('count-dialog').open === false")
            try await page.gunKeys("CABLE-1")
            try await page.waitUntil(
                timeout: 30, "the count and the scan wait", js: "document.getElementById('link').textContent.includes('scans wait here (2)')")
            try await server.serve(port: port)
            try await page.waitUntil(timeout: 40, "both delivered", js: "document.getElementById('link').textContent === 'Connected'")
        }
        let report = try jsonObject(try await server.run(["audit", "report", "--format", "json"]))
        let accessories = try #require(report["accessories"] as? [[String: Any]])
        #expect(accessories.first?["counted"] as? Int == 5, "4 typed at Dock A, then one more scanned: \(accessories)")
    }

    @Test("Naming the phone and picking an audit: a burst is refused aloud and never saves the name or opens an audit")
    func burstBeforeAnAuditIsOpen() async throws {
        let server = try await PhoneScanTests.server(alsoMalaysia: true)
        try await PhoneScanTests.withShared(server, on: Self.browser) { page in
            try await Self.logIn(page, server)
            // In the name field, after a person's "Ann": the burst's characters come back out.
            let name = try await page.find("#device-name")
            try await name.gunKeys("Ann", then: nil, gap: BrowserSession.personKeyGap)
            try await Task.sleep(for: .milliseconds(300))
            try await name.gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 10, "the refusal", js: "document.getElementById('device-error').textContent.includes('Not recorded: SG-2')")
            #expect(try await name.property("value").stringValue == "Ann")
            // On the Save button, a location label: its space does not press Save.
            _ = try await page.execute("document.querySelector('#device-form button').focus()")
            try await page.gunKeys("LOC:Dock B")
            try await page.waitUntil(
                timeout: 10, "the label refused", js: "document.getElementById('device-error').textContent.includes('Not recorded: LOC:Dock B')")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await page.find("#screen-device").isDisplayed(), "the name was not saved")
            #expect(try await page.execute("return localStorage.getItem('auditstation.scan.device')").stringValue == nil)
            try await page.screenshotIfAsked("phone-device-burst.png")

            // Saved by the person: two audits run, so the phone asks which.
            try await page.find("#device-form button").click()
            try await page.waitUntilShown("#screen-audits", timeout: 20, "the list of running audits")
            try await page.waitUntil(timeout: 10, "both audits listed", js: "document.querySelectorAll('#audits-list button').length === 2")
            _ = try await page.execute("document.querySelector('#audits-list button').focus()")
            try await page.gunKeys("LOC:Dock B")
            try await page.waitUntil(
                timeout: 10, "the label refused on the list",
                js: "document.getElementById('audits-error').textContent.includes('Not recorded: LOC:Dock B')")
            try await page.gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 10, "the tag refused on the list", js: "document.getElementById('audits-error').textContent.includes('Not recorded: SG-2')")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await page.find("#screen-audits").isDisplayed(), "no audit was opened")
            #expect(try await page.find("#audits-note").text().contains("Several audits are running"))
            #expect(try await page.execute("return localStorage.getItem('auditstation.scan.audit')").stringValue == nil)
            try await page.screenshotIfAsked("phone-audits-burst.png")
            let errors = try await page.consoleErrors()
            #expect(errors.isEmpty, "\(errors)")
        }
        let status = try jsonObject(try await server.run(["audit", "status", "--country", "SG", "--json"]))
        #expect((status["audit"] as? [String: Any])?["scanned_count"] as? Int == 0, "nothing was recorded")
    }

    @Test("Scanning: a burst on a focused button, in the location dialog and in How many? is a scan, and presses or sets nothing")
    func burstWhileScanning() async throws {
        let server = try await Self.serverWithCable()
        try await PhoneScanTests.withShared(server, on: Self.browser) { page in
            try await Self.scanning(page, server)

            // "Log out" has the focus: a location label's space does not press it.
            _ = try await page.execute("document.getElementById('logout').focus()")
            try await page.gunKeys("LOC:Dock A")
            try await page.waitUntil(timeout: 15, "the location taken", js: "document.getElementById('place-name').textContent === 'Dock A'")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await page.find("#screen-scan").isDisplayed())
            #expect(try await page.execute(Self.session).stringValue != nil, "still logged in")

            // The location dialog, its list focused: the tag is a scan, the dialog closes unanswered.
            try await page.find("#place").click()
            try await page.waitUntil(timeout: 10, "the location dialog", js: "document.getElementById('place-dialog').open === true")
            _ = try await page.execute("const s = document.getElementById('place-select'); s.value = 'Dock B'; s.focus()")
            try await page.gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 15, "SG-2 found", js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'SG-2')")
            #expect(try await page.execute("return document.getElementById('place-dialog').open").boolValue == false)
            #expect(try await page.find("#place-name").text() == "Dock A", "the choice nobody confirmed is not taken")
            // Again, with the focus on Set: a location label sets the place, its space presses nothing.
            try await page.find("#place").click()
            try await page.waitUntil(timeout: 10, "the location dialog again", js: "document.getElementById('place-dialog').open === true")
            _ = try await page.execute("document.querySelector('#place-dialog button[value=ok]').focus()")
            try await page.gunKeys("LOC:Dock B")
            try await page.waitUntil(timeout: 15, "the label taken", js: "document.getElementById('place-name').textContent === 'Dock B'")
            #expect(try await page.execute("return document.getElementById('place-dialog').open").boolValue == false)
            // Keys sent with their text alone (no key names, as some harnesses send them) are a burst too.
            try await page.gunKeys("LOC:Dock A", textAlone: true)
            try await page.waitUntil(timeout: 15, "back at Dock A", js: "document.getElementById('place-name').textContent === 'Dock A'")

            // How many? after the accessory's scan: the tag scanned again counts one more.
            try await page.gunKeys("CABLE-1")
            try await page.waitUntil(timeout: 15, "How many? asked", js: "document.getElementById('count-dialog').open === true")
            #expect(try await page.find("#count-title").text() == "How many Cable?")
            try await page.waitUntil(timeout: 10, "the quantity focused", js: "document.activeElement.id === 'count-quantity'")
            #expect(try await page.find("#count-text").text().contains("1 of 10"))
            // A person types 5 and has not set it; the gun scans the tag again: one more counted, the 5 stays typed.
            try await page.find("#count-quantity").gunKeys("5", then: nil, gap: BrowserSession.personKeyGap)
            try await Task.sleep(for: .milliseconds(300))
            try await page.gunKeys("CABLE-1")
            try await page.waitUntil(timeout: 15, "2 counted", js: "document.getElementById('count-text').textContent.includes('2 of 10')")
            #expect(try await page.find("#count-quantity").property("value").stringValue == "5")
            #expect(try await page.execute("return document.getElementById('count-dialog').open").boolValue == true)
            try await page.screenshotIfAsked("phone-how-many.png")
            // The person's Enter sets 5 here.
            try await page.find("#count-quantity").gunKeys("", then: .enter, gap: BrowserSession.personKeyGap)
            try await page.waitUntil(timeout: 15, "the count set", js: "document.getElementById('count-dialog').open === false")

            // Asked again; then the gun scans another tag: a scan of its own, the dialog gives way.
            try await page.gunKeys("CABLE-1")
            try await page.waitUntil(timeout: 15, "How many? asked again", js: "document.getElementById('count-dialog').open === true")
            try await page.waitUntil(timeout: 15, "6 counted", js: "document.getElementById('count-text').textContent.includes('6 of 10')")
            try await page.find("#count-quantity").gunKeys("9", then: nil, gap: BrowserSession.personKeyGap)
            try await Task.sleep(for: .milliseconds(300))
            try await page.gunKeys("SG-3", textAlone: true)
            try await page.waitUntil(
                timeout: 15, "SG-3 misplaced", js: "(window.scanPage.outcomes || []).some(o => o.status === 'misplaced' && o.identifier === 'SG-3')")
            try await page.waitUntil(timeout: 10, "the dialog closed", js: "document.getElementById('count-dialog').open === false")
            #expect(try await page.find("#outcome-tag").text() == "SG-3")
            let errors = try await page.consoleErrors()
            #expect(errors.isEmpty, "\(errors)")
        }
        let report = try jsonObject(try await server.run(["audit", "report", "--format", "json"]))
        let accessories = try #require(report["accessories"] as? [[String: Any]])
        // 5 set at Dock A, then one more scanned; the 9 typed but never set is not counted.
        #expect(accessories.first?["counted"] as? Int == 6, "\(accessories)")
        let scanned = (report["summary"] as? [String: Any])?["scanned_count"] as? Int
        #expect(scanned == 2, "SG-2 and SG-3")
    }

    @Test("Text a person left in the tag field is not glued onto a gun's tag: the burst is a tag of its own, the typed text stays apart")
    func burstAfterLeftoverTypedText() async throws {
        let server = try await Self.serverWithCable()
        try await PhoneScanTests.withShared(server, on: Self.browser) { page in
            try await Self.scanning(page, server)
            let entry = try await page.find("#entry")
            try await entry.gunKeys("SG-", then: nil, gap: BrowserSession.personKeyGap)
            try await Task.sleep(for: .milliseconds(1500))
            try await entry.gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 15, "SG-2 found", js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'SG-2')")
            #expect(try await page.find("#outcome-tag").text() == "SG-2")
            #expect(try await entry.property("value").stringValue == "SG-", "what the person typed stays in the field, apart")
            let outcomes = try await page.execute("return (window.scanPage.outcomes || []).map(o => o.identifier).join(',')").stringValue ?? ""
            #expect(!outcomes.contains("SG-SG"), "\(outcomes)")
        }
        let report = try jsonObject(try await server.run(["audit", "report", "--format", "json"]))
        let summary = report["summary"] as? [String: Any]
        #expect(summary?["scanned_count"] as? Int == 1)
        #expect(summary?["unexpected_count"] as? Int == 0, "no unknown glued tag: \(summary ?? [:])")
    }
}
