import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// The kiosk PC's first page (config/kiosk-waiting.html, opened from a file by the autostart):
    /// while the kiosk service is down it says it waits, and it opens the kiosk's page by itself
    /// once the service answers.
    @Suite("The kiosk PC's waiting page", BrowserChain(.second))
    struct KioskWaitingPageTests {
        @Test("With the kiosk down the page waits; once the kiosk answers the scanning screen opens by itself")
        func waitsThenOpensTheKiosk() async throws {
            let kiosk = try await KioskProcess.scanning([("T-1", "Laptop one", "SG")])
            let port = kiosk.port
            await kiosk.kill()
            let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../config/kiosk-waiting.html")
                .standardizedFileURL
            try await SharedBrowser.with { browser in
                try await browser.open(page.absoluteString + "?url=http://127.0.0.1:\(port)/")
                try await browser.waitUntil(timeout: 10, "the waiting page asking twice", js: "(text('#tries') || '').includes('(2)')")
                #expect(try await browser.currentURL().hasPrefix("file://"))
                #expect(try await browser.find("#waiting-heading").text().contains("Waiting for the kiosk service"))
                try await kiosk.start(["--no-camera", "--user", "Ben"], port: port)
                try await browser.waitUntil(timeout: 20, "the kiosk's page") {
                    try await browser.currentURL().hasPrefix("http://127.0.0.1:\(port)")
                }
                try await browser.waitUntilShown("#screen-scan", timeout: 15, "the scanning screen")
            }
        }
    }
}
