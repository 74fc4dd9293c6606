import BrowserTestSupport
import CameraTestSupport
import Foundation
import Testing
import TestKit

extension InBrowser {
    /// The scanning screen at the two small sizes kiosks have, measured in the browser
    /// (`getBoundingClientRect`): with the camera banner up, four locations, a long asset name and
    /// lists longer than a page, every list shows its rows, every control and row is inside the
    /// window, no outcome's text leaves its box, and the outcome's title stays readable from 2 m.
    @Suite("The kiosk's scanning screen fits 1280×720 and 1024×768")
    struct KioskLayoutTests {
        struct Size: Sendable, CustomStringConvertible {
            var width: Int
            var height: Int
            /// The rows each list shows at least, whole and inside the window.
            var rows: Int
            var description: String { "\(width)×\(height)" }
        }

        static let longName = "Industrial label printer with rewinder and cutter and the wide ribbon kit for pallet labels on the second floor"
        static let places = ["Dock A", "Dock B", "Shelf C", "Room D"]

        /// 60 SG assets over four locations (more than a page of missing ones), one with a long
        /// name, and 8 MY assets that SG's audit finds unexpected.
        static let rows: [KioskProcess.Row] =
            (1...60).map { i in
                .init(
                    tag: String(format: "SG-%04d", i), name: i == 1 ? longName : "Asset number \(i)", country: "SG",
                    location: places[i % places.count])
            } + (1...8).map { .init(tag: "MY-\($0)", name: $0 == 1 ? longName : "Malaysian asset \($0)", country: "MY", location: "KL") }

        @Test(
            "Every list shows its rows, every control and row is inside the window, the outcome's text stays in its box",
            arguments: [Size(width: 1280, height: 720, rows: 5), Size(width: 1024, height: 768, rows: 3)])
        func scanningScreenFits(_ size: Size) async throws {
            let (camera, environment, gone) = try await FakeCamera.unpluggable()
            let kiosk = try await KioskProcess(rows: Self.rows)
            try await kiosk.run(["audit", "start", "--country", "SG"])
            try await kiosk.start(["--device", camera.device, "--user", "Ben"], environment: environment)
            try await withPage(kiosk, width: size.width, height: size.height) { page in
                try await page.waitUntilShown("#screen-scan", "the scanning screen")
                try await page.waitUntil(timeout: 20, "the camera ready", js: "attr('#preview-box', 'data-camera') === 'ready'")
                // The camera stops: its banner stays across the top while scanning goes on.
                try Data().write(to: gone)
                try await page.waitUntilShown("#camera-alarm", timeout: 20, "the camera banner")

                var titles: [String: Double] = [:]
                func scan(_ tag: String, _ status: String) async throws {
                    try await page.type(tag, expect: status)
                    let box = try await Self.measure(page, rows: size.rows)
                    #expect(box.overflow.isEmpty, "\(size) after \(tag) (\(status)): text out of the outcome box: \(box.overflow)")
                    titles[status] = min(titles[status] ?? .infinity, box.title)
                }
                try await scan("LOC:Dock A", "location")
                try await scan("SG-0001", "misplaced")
                try await scan("SG-0001", "already_scanned")
                try await scan("MY-1", "unexpected")
                try await scan("UNKNOWN-TAG-WITH-A-LONG-NAME-0000000000000001", "unknown")
                try await scan(String(repeating: "A", count: 200), "rejected")
                try await scan("SG-0004", "found_expected")
                for i in 2...8 { try await page.type("MY-\(i)", expect: "unexpected") }
                for i in [8, 12, 16] { try await page.type(String(format: "SG-%04d", i), expect: "found_expected") }
                // The lists follow the numbers: 55 missing (a second page), 8 unexpected and the unknown tag.
                try await page.waitUntil(
                    timeout: 20, "the lists loaded", js: "count('#missing-list li') === 50 && count('#unexpected-list li') === 9")
                try await page.waitUntil(timeout: 10, "the location panel", js: "count('#places-body tr') === 4")
                // A problem replaced by a newer outcome: stacked above a smaller box.
                try await page.type("NOT-IN-THE-LIST-1", expect: "unknown")
                try await page.type("SG-0020", expect: "found_expected")
                try await page.waitUntilShown("#problem-stack", "the problem stack")
                let stacked = try await Self.measure(page, rows: size.rows)
                titles["stacked"] = stacked.title
                #expect(stacked.overflow.isEmpty, "\(size) with the problem stack: \(stacked.overflow)")

                let layout = try await Self.measure(page, rows: size.rows)
                print("\(size): whole rows shown \(layout.shown.sorted { $0.key < $1.key }), of \(layout.present.sorted { $0.key < $1.key })")
                #expect(layout.outside.isEmpty, "\(size): outside the window: \(layout.outside)")
                for (list, shown) in layout.shown.sorted(by: { $0.key < $1.key }) {
                    let wanted = min(size.rows, layout.present[list] ?? 0)
                    #expect(shown >= wanted, "\(size): \(list) shows \(shown) whole rows of \(layout.present[list] ?? 0), wanted \(wanted)")
                }
                #expect(
                    layout.present["places"] == 4 && layout.shown["places"] == 4,
                    "\(size): the location panel shows \(layout.shown["places"] ?? 0) of 4")
                for (status, px) in titles.sorted(by: { $0.key < $1.key }) {
                    #expect(px >= 48, "\(size): the outcome title of \(status) is \(px) px")
                }
                try await page.screenshotIfAsked("kiosk-scan-\(size.width)x\(size.height).png")
                try await page.expectNoScriptErrors()
            }
        }

        struct Layout {
            /// List name → rows wholly visible, inside the list's box and the window.
            var shown: [String: Int]
            /// List name → rows in the list.
            var present: [String: Int]
            /// Controls, lists and rows not wholly inside the window.
            var outside: [String]
            /// Parts of the outcome's text that leave its box.
            var overflow: [String]
            /// The outcome title's font size, in CSS pixels.
            var title: Double
        }

        static let measureScript = """
            const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
            const inWindow = (b) => b.left >= -0.5 && b.top >= -0.5 && b.right <= W + 0.5 && b.bottom <= H + 0.5;
            const visible = (e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
            const name = (e) => '#' + (e.id || e.className || e.tagName) + ' "' + (e.textContent || e.value || '').trim().slice(0, 30) + '"';
            const lists = {missing: ['#missing-list', '#missing-list > li', null], unexpected: ['#unexpected-list', '#unexpected-list > li', null],
              recent: ['#recent', '#recent > li', null], places: ['#places-card .places-scroll', '#places-body > tr', '#places-card thead']};
            const shown = {}, present = {}, outside = [], overflow = [];
            for (const [key, [box, rowCSS, headCSS]] of Object.entries(lists)) {
              const container = document.querySelector(box);
              const rows = Array.from(document.querySelectorAll(rowCSS));
              present[key] = rows.length;
              if (!container || !visible(container)) { shown[key] = 0; continue; }
              const c = container.getBoundingClientRect();
              const head = headCSS ? document.querySelector(headCSS).getBoundingClientRect().bottom : c.top;
              const top = Math.max(c.top, head);
              shown[key] = rows.filter((r) => { const b = r.getBoundingClientRect();
                return b.height > 0 && b.top >= top - 0.5 && b.bottom <= c.bottom + 0.5 && inWindow(b); }).length;
              if (!inWindow(c)) outside.push(key + ' list ' + JSON.stringify(c));
            }
            const scope = '#camera-alarm, #topbar, #screen-scan';
            for (const e of document.querySelectorAll(scope.split(', ').map((s) => s + ' :is(button, input, a, .pager, .list-range, .list-note, .card-title, .outcome)').join(', '))) {
              if (!visible(e) || e.closest('[hidden]')) continue;
              if (!inWindow(e.getBoundingClientRect())) outside.push(name(e) + ' ' + JSON.stringify(e.getBoundingClientRect()));
            }
            const outcome = document.getElementById('outcome');
            const o = outcome.getBoundingClientRect();
            for (const part of outcome.querySelectorAll('.outcome-symbol, .outcome-title, .outcome-detail, .outcome-info, .outcome-message')) {
              if (!visible(part)) continue;
              const b = part.getBoundingClientRect();
              if (b.left < o.left - 0.5 || b.right > o.right + 0.5 || b.top < o.top - 0.5 || b.bottom > o.bottom + 0.5
                  || part.scrollWidth > part.clientWidth + 1) {
                overflow.push(part.className + ' ' + JSON.stringify(b) + ' in ' + JSON.stringify(o));
              }
            }
            const title = parseFloat(getComputedStyle(document.getElementById('outcome-title')).fontSize);
            return JSON.stringify({shown, present, outside, overflow, title});
            """

        static func measure(_ page: BrowserSession, rows: Int) async throws -> Layout {
            let text = try await page.execute(measureScript).stringValue ?? "{}"
            let object = try jsonObject(text)
            return Layout(
                shown: object["shown"] as? [String: Int] ?? [:], present: object["present"] as? [String: Int] ?? [:],
                outside: object["outside"] as? [String] ?? [], overflow: object["overflow"] as? [String] ?? [],
                title: object["title"] as? Double ?? 0)
        }
    }
}

extension FakeCamera {
    /// An emulated camera showing blank frames again and again, that is unplugged once a file is
    /// written at `gone`; with the environment a kiosk needs to use it.
    static func unpluggable() async throws -> (camera: FakeCamera, environment: [String: String], gone: URL) {
        let camera = try await FakeCamera()
        let blank = try await camera.frame("blank", width: 640, height: 480)
        try camera.play([(blank, 30)], fps: 15)
        let gone = camera.directory.appendingPathComponent("unplugged")
        var environment = camera.environment
        environment["FAKEV4L2_AT_END"] = "loop"
        environment["FAKEV4L2_GONE_FILE"] = gone.path
        environment["LD_PRELOAD"] = camera.library.path
        return (camera, environment, gone)
    }
}
