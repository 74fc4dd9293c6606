import BrowserTestSupport
import Foundation
import Scanning
import Testing
import TestKit

/// The phone page (`/scan`) in Chromium with a fake camera that shows one of our sample frames
/// (a QR code of AST-000123), at phone sizes with touch: log in, name the phone, open the one
/// running audit, scan with the camera, the keyboard and a Bluetooth gun, and walk on while the
/// server is gone.
@Suite("The phone page", .serialized)
struct PhoneScanTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../SampleImages")
        .standardizedFileURL

    /// A fresh folder for a test's camera files; the test removes it.
    static func cameraFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A one-frame Y4M of a sample image (grey: the chroma planes are flat), which Chromium's
    /// fake camera plays in a loop.
    static func y4m(of sample: String, in folder: URL) throws -> URL {
        try y4m(of: sample, shown: 1, blank: 0, in: folder)
    }

    /// A Y4M of `sample` for `shown` frames, then a white page for `blank` frames, at 5 frames a
    /// second: the tag leaves the view and comes back each time Chromium's fake camera loops it.
    static func y4m(of sample: String, shown: Int, blank: Int, in folder: URL) throws -> URL {
        let image = try ImageLoader.load(path: samples.appendingPathComponent(sample).path)
        let width = image.width & ~1, height = image.height & ~1
        var luma: [UInt8] = []
        for y in 0..<height { luma += image.pixels[(y * image.width)..<(y * image.width + width)] }
        let chroma = [UInt8](repeating: 128, count: width * height / 2)
        let white = [UInt8](repeating: 255, count: width * height)
        var bytes = Array("YUV4MPEG2 W\(width) H\(height) F5:1 Ip A1:1 C420jpeg\n".utf8)
        for index in 0..<(shown + blank) { bytes += Array("FRAME\n".utf8) + (index < shown ? luma : white) + chroma }
        let url = folder.appendingPathComponent("\(sample)-\(shown)-\(blank).y4m")
        try Data(bytes).write(to: url, options: .atomic)
        return url
    }

    /// The Chromium flags of a fake camera that shows `sample` (a one-frame Y4M written into `folder`).
    static func cameraArguments(_ sample: String, in folder: URL) throws -> [String] {
        ["--use-fake-device-for-media-stream", "--use-file-for-fake-video-capture=\(try y4m(of: sample, in: folder).path)"]
    }

    /// The Chromium that this suite's tests take turns on when their camera shows no code (their
    /// scans are typed or come from a gun): one launch for them all instead of one each. Each
    /// test gets a fresh tab with the storage of the tests before it cleared (`SharedBrowser`).
    static let typingBrowser = SharedBrowser { try cameraArguments("frame-1280x720-none.jpg", in: Scratch.root) }

    /// A server over a database of three Singapore assets, with Ann (staff who may audit SG) and
    /// a running audit of SG.
    static func server(port: Int = 0, arguments: [String] = [], alsoMalaysia: Bool = false) async throws -> KioskProcess {
        let server = try await KioskProcess(
            rows: [
                .init(tag: "AST-000123", name: "Label printer", country: "SG", location: "Dock A"),
                .init(tag: "SG-2", name: "Laptop", country: "SG", location: "Dock A"),
                .init(tag: "SG-3", name: "Monitor", country: "SG", location: "Dock B")
            ] + (alsoMalaysia ? [.init(tag: "MY-1", name: "Printer", country: "MY", location: "KL")] : []))
        try await server.run(
            ["users", "create", "--email", "ann@example.com", "--name", "Ann", "--type", "ADMIN", "--password-stdin"], input: "secret-pass\n")
        try await server.run(
            ["users", "create", "--email", "bo@example.com", "--name", "Bo", "--type", "STAFF", "--countries", "SG", "--password-stdin"],
            input: "secret-pass\n")
        try await server.run(["audit", "start", "--country", "SG"])
        if alsoMalaysia { try await server.run(["audit", "start", "--country", "MY"]) }
        try await server.serve(port: port, arguments: arguments)
        return server
    }

    /// Opens `/scan` on a phone-sized browser with the fake camera, logs in and names the phone.
    static func phone(
        _ driver: Chromedriver, server: KioskProcess, camera: URL, width: Int = 390, height: Int = 844,
        email: String = "ann@example.com", device: String = "Ann's phone", address: String? = nil, arguments: [String] = []
    ) async throws -> BrowserSession {
        let page = try await driver.session(
            width: width, height: height,
            arguments: ["--use-fake-device-for-media-stream", "--use-file-for-fake-video-capture=\(camera.path)"] + arguments)
        try await scanning(page, server: server, email: email, device: device, address: address)
        return page
    }

    /// On `page` (with touch), opens `/scan`, logs in, names the phone and waits for the running
    /// audit's scanning screen.
    static func scanning(
        _ page: BrowserSession, server: KioskProcess, email: String = "ann@example.com", device: String = "Ann's phone", address: String? = nil
    ) async throws {
        _ = try await page.devTools("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
        try await page.open((address ?? server.baseURL) + "/scan")
        try await page.waitFor("#login-email", displayed: true, timeout: 20).sendKeys(email)
        try await page.find("#login-password").sendKeys("secret-pass")
        try await page.find("#login-submit").click()
        try await page.waitFor("#device-name", displayed: true, timeout: 20).sendKeys(device)
        try await page.find("#device-form button").click()
        try await page.waitUntilShown("#screen-scan", timeout: 20, "the running audit opened by itself")
    }

    /// Runs `body` with a fresh tab of `browser` (a shared Chromium whose camera shows no code)
    /// at `width` × `height`, then stops `server`, also when `body` throws.
    static func withShared(
        _ server: KioskProcess, on browser: SharedBrowser = typingBrowser, width: Int = 390, height: Int = 844,
        _ body: (BrowserSession) async throws -> Void
    ) async throws {
        do {
            try await SharedBrowser.$current.withValue(browser) {
                try await SharedBrowser.with(width: width, height: height) { page in try await body(page) }
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Runs `body` with a Chromedriver of its own, then stops it and `server`, also when `body` throws.
    static func withDriver(_ server: KioskProcess, _ body: (Chromedriver) async throws -> Void) async throws {
        let driver = try await Chromedriver.start()
        do {
            try await body(driver)
        } catch {
            await driver.stop()
            await server.stop()
            throw error
        }
        await driver.stop()
        await server.stop()
    }

    /// Runs `body` with the phone page of a new server (`server()`), its camera the file
    /// `camera` writes into a fresh folder, started.
    static func withCameraStarted(_ camera: (URL) throws -> URL, _ body: (BrowserSession) async throws -> Void) async throws {
        let server = try await Self.server()
        let folder = try Self.cameraFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withDriver(server) { driver in
            let page = try await Self.phone(driver, server: server, camera: try camera(folder))
            try await page.find("#camera-start").click()
            try await body(page)
        }
    }

    /// Runs `body` with the phone page of `server` on the shared browser, opened at `address` (a
    /// proxy in front of the server) when given, its camera showing no code: scans are typed or
    /// come from a gun.
    static func withTypingPhone(
        _ server: KioskProcess, address: String? = nil, width: Int = 390, height: Int = 844, _ body: (BrowserSession) async throws -> Void
    ) async throws {
        try await withShared(server, width: width, height: height) { page in
            try await scanning(page, server: server, address: address)
            try await body(page)
        }
    }

    /// The page's outcomes of `status` (window.scanPage.outcomes).
    static func outcomes(_ page: BrowserSession, _ status: String, _ tag: String) async throws -> Int {
        try await page.execute(
            "return (window.scanPage.outcomes || []).filter(o => o.status === \(BrowserSession.literal(status)) && o.identifier === \(BrowserSession.literal(tag))).length"
        ).intValue ?? -1
    }

    /// The server's trail of the running audit, read with the page's own login.
    static func trail(_ page: BrowserSession) async throws -> [String] {
        let json =
            try await page.executeAsync(
                """
                const done = arguments[arguments.length - 1];
                const s = JSON.parse(sessionStorage.getItem('auditstation.scan'));
                const id = window.scanPage.state.audit.id;
                fetch('/api/v1/audit/' + id + '/scans?per_page=100', { headers: { Authorization: 'Bearer ' + s.token } })
                  .then(r => r.json()).then(j => done(JSON.stringify((j.data.scans || []).map(x => x.identifier))), e => done('[]'));
                """
            ).stringValue ?? "[]"
        return (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]) ?? []
    }

    @Test("A tag in the camera's view is recorded once, with its outcome, sound and vibration, also through a late decoding")
    func cameraScanCountsOnce() async throws {
        try await Self.withCameraStarted({ try Self.y4m(of: "frame-1280x720-qrcode.jpg", in: $0) }) { page in
            try await page.waitUntil(
                timeout: 30, "the camera's tag found",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'AST-000123')")
            // The tag stays in view: frames keep reading it, and it is not a new scan.
            try await page.waitUntil(timeout: 20, "10 more frames", js: "window.scanPage.frames >= 12")
            #expect(try await Self.outcomes(page, "found_expected", "AST-000123") == 1)
            #expect(try await Self.trail(page).filter { $0 == "AST-000123" }.count == 1)
            #expect(try await page.find("#n-found").text() == "1")
            let vibrations = try await page.execute("return window.scanPage.vibrations.map(v => v.status)").arrayValue?.compactMap(\.stringValue)
            #expect(vibrations == ["found_expected"])
            try await page.screenshotIfAsked("phone-scan-found.png")

            // A decoding that answers 3 s late (a slow network) says nothing about what is in
            // view: the tag held still through it is not counted again, though more than 2 s
            // passed since the frame before.
            _ = try await page.execute(
                """
                const original = window.fetch;
                window.slowDecodings = 0;
                window.framesBefore = window.scanPage.frames;
                window.fetch = function (url, init) {
                  const answer = original.call(this, url, init);
                  if (!String(url).includes('/api/v1/decode') || window.slowDecodings > 0) return answer;
                  window.slowDecodings++;
                  return new Promise(function (resolve) { setTimeout(function () { resolve(answer); }, 3000); });
                };
                return true;
                """)
            try await page.waitUntil(timeout: 30, "6 frames after the slow one", js: "window.scanPage.frames >= window.framesBefore + 7")
            #expect(try await page.execute("return window.slowDecodings").intValue == 1)
            #expect(try await Self.trail(page).filter { $0 == "AST-000123" }.count == 1)
            #expect(try await page.execute("return window.scanPage.vibrations.length").intValue == 1, "no second outcome for the held tag")

            // A Bluetooth gun's burst, wherever the focus is, is a scan of its own.
            try await page.find("#camera-start").click()
            try await page.execute("document.activeElement && document.activeElement.blur()")
            try await page.gunKeys("GHOST-1")
            try await page.waitUntil(
                timeout: 15, "the gun's unknown tag",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'unknown' && o.identifier === 'GHOST-1')")
            #expect(
                try await page.execute("return window.scanPage.vibrations.map(v => v.status)").arrayValue?.compactMap(\.stringValue)
                    == ["found_expected", "unknown"])
            try await page.screenshotIfAsked("phone-scan-unknown.png")

            // A location label sets where the phone is; an asset registered elsewhere is then misplaced.
            try await page.gunKeys("LOC:Dock B")
            try await page.waitUntil(timeout: 15, "the location taken", js: "document.getElementById('place-name').textContent === 'Dock B'")
            try await page.gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 15, "SG-2 misplaced", js: "(window.scanPage.outcomes || []).some(o => o.status === 'misplaced' && o.identifier === 'SG-2')")
            #expect(try await page.find("#outcome-info").text().contains("Dock A"))
            #expect(
                try await page.execute("return window.scanPage.vibrations.map(v => v.status)").arrayValue?.compactMap(\.stringValue)
                    == ["found_expected", "unknown", "location", "misplaced"])
            try await page.screenshotIfAsked("phone-scan-misplaced.png")

            // The undo command label, scanned twice with the gun: the last scan (SG-2) no longer counts.
            try await page.gunKeys("CMD:UNDO")
            try await page.waitUntil(timeout: 10, "the undo asked", js: "document.getElementById('undo-dialog').open === true")
            try await page.gunKeys("CMD:UNDO")
            try await page.waitUntil(
                timeout: 15, "SG-2 undone", js: "document.querySelector('#recent-list li[data-voided=\"true\"]') !== null")
            #expect(try await Self.trail(page).contains("CMD:UNDO") == false)

            // The undo asked again, then a gun's tag instead of the confirmation: the dialog closes,
            // the tag is a scan of its own, and the earlier confirmation does not undo anything more.
            try await page.gunKeys("SG-3")
            try await page.waitUntil(
                timeout: 15, "SG-3 found", js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'SG-3')")
            try await page.gunKeys("CMD:UNDO")
            try await page.waitUntil(timeout: 10, "the undo asked again", js: "document.getElementById('undo-dialog').open === true")
            try await page.gunKeys("GHOST-2")
            try await page.waitUntil(
                timeout: 15, "the gun's tag recorded",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'unknown' && o.identifier === 'GHOST-2')")
            #expect(try await page.execute("return document.getElementById('undo-dialog').open").boolValue == false)
            #expect(try await page.execute("return document.querySelectorAll('#recent-list li[data-voided=\"true\"]').length").intValue == 1)
            let errors = try await page.consoleErrors()
            #expect(errors.isEmpty, "\(errors)")
            await page.quit()
        }
    }

    /// A tag that leaves the view (3 s shown, then 5 s of a white page, looped) counts again
    /// when it comes back: the second time as already scanned.
    @Test("A tag out of view for more than 2 s counts again when it comes back")
    func aTagBackInViewCountsAgain() async throws {
        try await Self.withCameraStarted({ try Self.y4m(of: "frame-1280x720-qrcode.jpg", shown: 15, blank: 25, in: $0) }) { page in
            try await page.waitUntil(
                timeout: 60, "the tag counted again after it came back",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'already_scanned' && o.identifier === 'AST-000123')")
            #expect(try await Self.outcomes(page, "found_expected", "AST-000123") == 1)
            #expect(try await Self.trail(page).filter { $0 == "AST-000123" }.count >= 2)
        }
    }

    @Test("An unknown tag read by the camera keeps its frame as the scan's evidence photo; a typed one has none")
    func aCameraProblemKeepsItsFrame() async throws {
        let server = try await Self.server()
        let folder = try Self.cameraFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.withDriver(server) { driver in
            // AST-000456 is in no inventory: unknown.
            let page = try await Self.phone(driver, server: server, camera: try Self.y4m(of: "frame-1280x720-code128.jpg", in: folder))
            try await page.find("#entry").gunKeys("TYPED-9")
            try await page.waitUntil(
                timeout: 15, "the typed unknown tag",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'unknown' && o.identifier === 'TYPED-9')")
            try await page.find("#camera-start").click()
            try await page.waitUntil(
                timeout: 30, "the camera's unknown tag",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'unknown' && o.identifier === 'AST-000456')")
            // The photo follows the scan's answer: ask the server, with the page's login, until it has it.
            let photo = """
                const done = arguments[arguments.length - 1];
                const s = JSON.parse(sessionStorage.getItem('auditstation.scan'));
                const id = window.scanPage.state.audit.id;
                const scan = (window.scanPage.outcomes || []).find(o => o.identifier === TAG);
                fetch('/api/v1/audit/' + id + '/scans/' + scan.scan_id + '/photo', { headers: { Authorization: 'Bearer ' + s.token } })
                  .then(r => r.arrayBuffer().then(b => { const v = new Uint8Array(b);
                    done(r.status + ' ' + (r.headers.get('Content-Type') || '') + ' ' + (v[0] === 0xFF && v[1] === 0xD8 ? 'jpeg' : 'other')); }),
                    e => done('error ' + e));
                """
            try await page.waitUntil(timeout: 20, "the camera scan's photo stored") {
                try await page.executeAsync(photo.replacingOccurrences(of: "TAG", with: "'AST-000456'")).stringValue == "200 image/jpeg jpeg"
            }
            let typed = try await page.executeAsync(photo.replacingOccurrences(of: "TAG", with: "'TYPED-9'")).stringValue ?? ""
            #expect(typed.hasPrefix("404"), "a typed scan has no frame: \(typed)")
            await page.quit()
        }
    }

    @Test("With two audits running the phone lists them, opens the one picked, and opens it again after a reload")
    func severalAuditsAreListed() async throws {
        let server = try await Self.server(alsoMalaysia: true)
        try await Self.withShared(server, width: 360, height: 640) { page in
            _ = try await page.devTools("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
            try await page.open(server.baseURL + "/scan")
            try await page.waitFor("#login-email", displayed: true, timeout: 20).sendKeys("ann@example.com")
            try await page.screenshotIfAsked("phone-login.png")
            try await page.find("#login-password").sendKeys("secret-pass")
            try await page.find("#login-submit").click()
            try await page.waitFor("#device-name", displayed: true, timeout: 20).sendKeys("Ann's phone")
            try await page.screenshotIfAsked("phone-device.png")
            try await page.find("#device-form button").click()
            try await page.waitUntilShown("#screen-audits", timeout: 20, "the list of running audits")
            try await page.waitUntil(timeout: 10, "both audits listed", js: "document.querySelectorAll('#audits-list button').length === 2")
            let names =
                try await page.execute("return Array.from(document.querySelectorAll('#audits-list strong')).map(e => e.textContent)")
                .arrayValue?.compactMap(\.stringValue) ?? []
            #expect(Set(names) == ["SG", "MY"], "\(names)")
            try await page.screenshotIfAsked("phone-audits.png")
            try await page.execute(
                "Array.from(document.querySelectorAll('#audits-list button')).find(b => b.querySelector('strong').textContent === 'MY').click()")
            try await page.waitUntilShown("#screen-scan", timeout: 20, "the audit picked")
            try await page.find("#entry").gunKeys("MY-1")
            try await page.waitUntil(
                timeout: 15, "MY-1 found in the audit of MY",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'MY-1')")
            // After a reload the phone goes back to the audit it was scanning into, without asking again.
            try await page.refresh()
            try await page.waitUntilShown("#screen-scan", timeout: 20, "the same audit again")
            #expect(try await page.execute("return window.scanPage.state.audit.country").stringValue == "MY")
        }
    }

    @Test("With the server gone mid-walk, typed scans wait on the phone and are delivered once when it is back")
    func scansWaitWhileTheServerIsGone() async throws {
        let port = try Loopback.longLivedPort() // started again on it
        let server = try await Self.server(port: port)
        try await Self.withTypingPhone(server, width: 360, height: 640) { page in
            try await page.find("#entry").gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 15, "SG-2 found", js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'SG-2')")
            // The page's files are kept on the phone by its service worker.
            try await page.waitUntil(timeout: 20, "the service worker in charge", js: "navigator.serviceWorker.controller !== null")

            await server.kill()
            try await page.find("#entry").gunKeys("SG-3")
            try await page.find("#entry").gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 30, "the page says the scans wait", js: "document.getElementById('link').textContent.includes('scans wait here (2)')")
            try await page.screenshotIfAsked("phone-offline.png")
            #expect(try await Self.outcomes(page, "found_expected", "SG-3") == 0)

            // A reload with the server still gone opens the page from the phone, with its scans waiting.
            try await page.refresh()
            try await page.waitUntilShown("#screen-scan", timeout: 20, "the page opened without the server")
            try await page.waitUntil(
                timeout: 30, "the scans still wait", js: "document.getElementById('link').textContent.includes('scans wait here (2)')")
            try await page.find("#entry").gunKeys("SG-3")
            try await page.waitUntil(
                timeout: 30, "a third scan kept too", js: "document.getElementById('link').textContent.includes('scans wait here (3)')")

            // The server back, and the page reloaded at once: the scans kept in the phone are sent
            // (by the page before the reload, or after it), each once.
            try await server.serve(port: port)
            try await page.refresh()
            try await page.waitUntil(timeout: 40, "the waiting scans delivered", js: "document.getElementById('link').textContent === 'Connected'")
            try await page.waitUntil(timeout: 20, "SG-3 in the server's trail") { try await Self.trail(page).contains("SG-3") }
            // Each scan's outcome is shown at most once on this page (it may have been shown before the reload).
            #expect(try await Self.outcomes(page, "found_expected", "SG-3") <= 1)
            // The queue is emptied once the page has taken the last answer, which may come just
            // after the server stored the scan.
            try await page.waitUntil(
                timeout: 20, "the phone's queue emptied", js: "JSON.parse(localStorage.getItem('auditstation.scan.queue') || '[]').length === 0")
            let trail = try await Self.trail(page)
            #expect(trail.filter { $0 == "SG-3" }.count == 2 && trail.filter { $0 == "SG-2" }.count == 2, "\(trail)")
        }
    }

    @Test("An answer cut off mid-way, or a Wi-Fi sign-in page in place of the server's, keeps the scan on the phone until the server answers it")
    func anAnswerThatIsNotTheServersKeepsTheScan() async throws {
        let server = try await Self.server()
        // The phone's scans go through a proxy: the first is answered by a sign-in page (the
        // server never sees it), the second reaches the server, whose answer is cut in half.
        let proxy = try FaultProxy(upstreamPort: server.port, plan: [.signInPage, .cutAnswer], only: "POST /api/v1/audit/scan HTTP")
        defer { proxy.stop() }
        try await Self.withTypingPhone(server, address: "http://127.0.0.1:\(proxy.port)") { page in
            try await page.find("#entry").gunKeys("SG-2")
            try await page.find("#entry").gunKeys("SG-3")
            for tag in ["SG-2", "SG-3"] {
                try await page.waitUntil(
                    timeout: 30, "\(tag) found",
                    js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === '\(tag)')")
            }
            try await page.waitUntil(
                timeout: 20, "the phone's queue emptied", js: "JSON.parse(localStorage.getItem('auditstation.scan.queue') || '[]').length === 0")
            #expect(proxy.applied.prefix(2) == [.signInPage, .cutAnswer])
            // Neither scan was shown as anything but kept, sent, then found.
            let shown = try await page.execute(
                "return (window.scanPage.outcomes || []).filter(o => o.identifier.startsWith('SG-')).map(o => o.status).join(',')")
            #expect(shown.stringValue?.split(separator: ",").allSatisfy { $0 == "pending" || $0 == "found_expected" } == true, "\(shown)")
            let trail = try await Self.trail(page)
            #expect(trail.filter { $0 == "SG-2" }.count == 1 && trail.filter { $0 == "SG-3" }.count == 1, "\(trail)")
        }
    }

    @Test("A gun typing into a full-width input method: its location label, tag and undo label read as ASCII; with Caps Lock on, its tag is named")
    func fullWidthGun() async throws {
        try await Self.withTypingPhone(try await Self.server()) { page in
            try await page.find("#entry").gunKeys("ＬＯＣ：Ｄｏｃｋ\u{3000}Ｂ")
            try await page.waitUntil(timeout: 15, "the phone at Dock B", js: "document.getElementById('place-name').textContent === 'Dock B'")
            try await page.find("#entry").gunKeys("ＳＧ－２")
            try await page.waitUntil(
                timeout: 15, "SG-2 found away from its Dock A",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'misplaced' && o.identifier === 'SG-2')")
            try await page.find("#entry").gunKeys("ＣＭＤ：ＵＮＤＯ")
            try await page.waitUntil(timeout: 10, "the undo of SG-2 asked", js: "document.getElementById('undo-dialog').open === true")
            // With Caps Lock on, the gun types sg-3 (the undo is left as it is): recorded as
            // unknown, and named as the kiosk names it.
            try await page.find("#entry").gunKeys("sg-3")
            try await page.waitUntil(
                timeout: 15, "the Caps Lock hint in the box",
                js: "document.getElementById('outcome-info').textContent.includes('Did you mean SG-3? (Caps Lock?)')")
            try await page.waitUntil(
                timeout: 10, "the hint in Last scans", js: "document.getElementById('recent-list').textContent.includes('Did you mean SG-3?')")
            // A tag no asset has in any case gets none.
            try await page.find("#entry").gunKeys("zz-9")
            try await page.waitUntil(
                timeout: 15, "zz-9 unknown", js: "(window.scanPage.outcomes || []).some(o => o.status === 'unknown' && o.identifier === 'zz-9')")
            #expect(try await page.find("#outcome-info").text().contains("Did you mean") == false)
            #expect(try await Self.trail(page).sorted() == ["SG-2", "sg-3", "zz-9"])
        }
    }

    @Test("Two phones on one audit: the second sees the first's find as already scanned, and both show the same numbers")
    func twoPhonesOnOneAudit() async throws {
        let server = try await Self.server()
        let folder = try Self.cameraFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = try Self.y4m(of: "frame-1280x720-none.jpg", in: folder)
        let first = try await Chromedriver.start()
        let second = try await Chromedriver.start()
        do {
            let ann = try await Self.phone(first, server: server, camera: camera)
            let bo = try await Self.phone(second, server: server, camera: camera, email: "bo@example.com", device: "Bo's phone")
            try await ann.find("#entry").gunKeys("SG-2")
            try await ann.waitUntil(
                timeout: 15, "Ann finds SG-2",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'SG-2')")
            try await bo.find("#entry").gunKeys("SG-2")
            try await bo.waitUntil(
                timeout: 15, "Bo sees it found before",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'already_scanned' && o.identifier === 'SG-2')")
            #expect(try await bo.find("#outcome-info").text().contains("Ann's phone"))
            try await bo.find("#entry").gunKeys("SG-3")
            try await bo.waitUntil(
                timeout: 15, "Bo finds SG-3",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'SG-3')")
            // Ann's page learns Bo's find within its 5-second reading.
            try await ann.waitUntil(timeout: 15, "Ann's numbers move", js: "document.getElementById('n-found').textContent === '2'")
            #expect(try await bo.find("#n-found").text() == "2")
            let trail = try await Self.trail(ann)
            #expect(trail.count == 3, "\(trail)")
            await ann.quit()
            await bo.quit()
        } catch {
            await first.stop()
            await second.stop()
            await server.stop()
            throw error
        }
        await first.stop()
        await second.stop()
        await server.stop()
    }

    @Test("Over HTTPS with a certificate made by tls self-signed, the page has its camera and records a scan")
    func overHTTPS() async throws {
        let folder = try Self.cameraFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tls = folder.appendingPathComponent("tls").path
        let maker = try await KioskProcess(inventory: [])
        try await maker.run(["tls", "self-signed", "--host", "localhost", "--ip", "127.0.0.1", "--out", tls])
        let server = try await Self.server(arguments: ["--tls-cert", tls + "/server.crt", "--tls-key", tls + "/server.key"])
        try await Self.withDriver(server) { driver in
            // The phone trusts no authority of ours here: Chromium is told to take the certificate.
            let page = try await Self.phone(
                driver, server: server, camera: try Self.y4m(of: "frame-1280x720-qrcode.jpg", in: folder),
                address: "https://localhost:\(server.port)", arguments: ["--ignore-certificate-errors"])
            #expect(try await page.execute("return window.isSecureContext").boolValue == true)
            try await page.find("#camera-start").click()
            try await page.waitUntil(
                timeout: 30, "the camera's tag found over HTTPS",
                js: "(window.scanPage.outcomes || []).some(o => o.status === 'found_expected' && o.identifier === 'AST-000123')")
            await page.quit()
        }
    }

    @Test("A gun's burst before login is refused aloud, keeps what was typed, and sends no form")
    func aBurstBeforeLoginPressesNothing() async throws {
        let server = try await Self.server()
        try await Self.withShared(server) { page in
            try await page.open(server.baseURL + "/scan")
            let email = try await page.waitFor("#login-email", displayed: true, timeout: 20)
            try await email.sendKeys("ann@")
            try await page.find("#login-password").sendKeys("secret-pass")
            try await email.gunKeys("SG-2")
            try await page.waitUntil(
                timeout: 10, "the refusal said", js: "document.getElementById('login-error').textContent.includes('Not recorded: SG-2')")
            #expect(try await page.execute("return document.getElementById('login-email').value").stringValue == "ann@")
            #expect(try await page.execute("return sessionStorage.getItem('auditstation.scan')").stringValue == nil, "no login was sent")
            #expect(try await page.find("#screen-login").isDisplayed())
            // With the focus on the button, the burst's Enter does not press it either.
            try await page.execute("document.getElementById('login-submit').focus()")
            try await page.gunKeys("SG-3")
            try await page.waitUntil(timeout: 10, "the second refusal", js: "document.getElementById('login-error').textContent.includes('SG-3')")
            #expect(try await page.execute("return sessionStorage.getItem('auditstation.scan')").stringValue == nil)
        }
    }
}
