import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InBrowser {
    /// The lists follow the counters while the scans go on: a gun scanning a tag every 300 ms for
    /// about 5 s, and the unexpected list never stays more than about a second behind the
    /// "Unexpected" counter, 2.5 s under a full run's load (it used to wait for the end of the burst).
    @Suite("The kiosk's lists keep up with its counters")
    struct KioskListLagTests {
        static let tags = (1...16).map { "MY-\($0)" }

        @Test("During a long run of scans the unexpected list is never more than about 1 s behind its counter")
        func listsFollowTheCounters() async throws {
            let kiosk = try await KioskProcess.scanning(Self.tags.map { ($0, "Malaysian asset \($0)", "MY") } + [("SG-1", "Plain", "SG")])
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil("the entry field to have the focus", js: "focusedID() === 'entry'")
                // The page watches itself: how long the list's rows stayed fewer than the counter says.
                _ = try await page.execute(
                    """
                    window.__lag = {behindSince: null, worst: 0};
                    window.__lagTimer = setInterval(function () {
                      var counted = parseInt((document.getElementById('count-unexpected').textContent || '0').replace(/\\D/g, ''), 10) || 0;
                      var listed = document.querySelectorAll('#unexpected-list li').length;
                      var now = performance.now(), lag = window.__lag;
                      if (listed < counted) {
                        if (lag.behindSince === null) lag.behindSince = now;
                        lag.worst = Math.max(lag.worst, now - lag.behindSince);
                      } else lag.behindSince = null;
                    }, 25);
                    """)
                for tag in Self.tags {
                    try await page.gunKeys(tag)
                    try await Task.sleep(for: .milliseconds(300))
                }
                try await page.waitUntil(
                    timeout: 20, "16 unexpected listed", js: "count('#unexpected-list li') === 16 && num('#count-unexpected') === 16")
                let worst = try await page.execute("clearInterval(window.__lagTimer); return window.__lag.worst").doubleValue ?? .infinity
                // The page reloads a list at most once a second; with the whole suite beside it on two
                // cores one reload answered late and the list stayed 1.7 s behind. Before, it waited for
                // the burst's end: 5 s and more here.
                #expect(worst <= 2500, "the unexpected list stayed \(Int(worst)) ms behind its counter")
                try await page.expectNoScriptErrors()
            }
        }
    }
}
