import BrowserTestSupport
import Foundation
import TestKit

/// Opens the kiosk in the chain's shared headless Chromium (`SharedBrowser`; 1280×720 unless told)
/// and runs `body`; a failure comes with a screenshot, the last outcomes shown and the end of the
/// kiosk's log.
func withPage(_ kiosk: KioskProcess, width: Int = 1280, height: Int = 720, _ body: (BrowserSession) async throws -> Void) async throws {
    try await SharedBrowser.with(width: width, height: height) { page in
        do {
            try await page.open(kiosk.baseURL)
            try await body(page)
        } catch {
            let shot = kiosk.folder.deletingLastPathComponent().appendingPathComponent("kiosk-failure-\(UUID().uuidString.prefix(8)).png")
            try? await page.screenshot(to: shot.path)
            let shown = (try? await page.outcomes().suffix(4).map { "\($0)" }) ?? []
            // Where the page stood: its screen, what had the focus and which dialogs were open.
            let pageState =
                (try? await page.execute(
                    """
                    const a = document.activeElement;
                    return JSON.stringify({screen: document.body.getAttribute('data-screen'), focus: a ? (a.id || a.tagName) : null,
                      dialogs: Array.from(document.querySelectorAll('dialog[open]')).map((d) => d.id)});
                    """
                ).stringValue) ?? "unknown"
            throw KioskTestError(
                "\(error)\n(screenshot: \(shot.path))\npage: \(pageState)\noutcomes: \(shown)\nkiosk log:\n\(kiosk.logText.suffix(2000))")
        }
    }
}

extension KioskProcess {
    /// A kiosk over `inventory` with the audit of SG running, started without a camera, scanning
    /// as Ben.
    static func scanning(_ inventory: [(tag: String, name: String, country: String)]) async throws -> KioskProcess {
        let kiosk = try await KioskProcess(inventory: inventory)
        try await kiosk.run(["audit", "start", "--country", "SG"])
        try await kiosk.start(["--no-camera", "--user", "Ben"])
        return kiosk
    }
}

/// `withPage`, once the page shows the scanning screen.
func withScanningScreen(_ kiosk: KioskProcess, _ body: (BrowserSession) async throws -> Void) async throws {
    try await withPage(kiosk) { page in
        try await page.waitUntilShown("#screen-scan", "the scanning screen")
        try await body(page)
    }
}
