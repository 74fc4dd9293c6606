import Foundation

extension BrowserSession {
    /// Saves a screenshot to docs/ when KIOSK_SCREENSHOTS is set (how the pictures of the kiosk,
    /// the back office and the phone page in docs/ are made).
    public func screenshotIfAsked(_ name: String) async throws {
        guard ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"] != nil else { return }
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs").standardizedFileURL
        try await Task.sleep(for: .milliseconds(400))
        try await screenshot(to: docs.appendingPathComponent(name).path)
    }
}
