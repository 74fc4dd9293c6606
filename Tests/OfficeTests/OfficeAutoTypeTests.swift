import AuditTestSupport
import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InOfficeBrowser.OfficeBrowserTests {
    /// A password is never a tag: a password manager's auto-type or a badge reader in the login
    /// form logs the user in, however fast its keys come.
    @Test func aPasswordManagersAutoTypeAndABadgeReaderLogIn() async throws {
        try await TestServer.with { server in
            _ = try await server.user("lead@example.com")
            try await SharedBrowser.with(width: 1280, height: 900) { browser in
                try await browser.open(server.baseURL + "/")
                // KeePassXC's {USERNAME}{TAB}{PASSWORD}{ENTER}, a key about every 25 ms.
                try await browser.waitFor("#login-email", displayed: true)
                    .gunKeys("lead@example.com", then: .tab, gap: BrowserSession.autoTypeKeyGap)
                try await browser.waitUntil("the Tab to move to the password", js: "focusedID() === 'login-password'")
                try await browser.gunKeys("secret-pass", gap: BrowserSession.autoTypeKeyGap)
                try await browser.waitUntilShown("#audits-view", "the audits screen after the auto-typed login")
                #expect(try await browser.find("#page-error").text().contains("barcode") == false)
                try await browser.find("#logout").click()

                // A badge reader types the password at a gun's pace, then Enter.
                let email = try await browser.waitFor("#login-email", displayed: true)
                try await email.clear()
                try await email.sendKeys("lead@example.com")
                try await browser.find("#login-password").gunKeys("secret-pass")
                try await browser.waitUntilShown("#audits-view", "the audits screen after the badge's password")
                #expect(try await browser.find("#page-error").text().contains("barcode") == false)
            }
        }
    }
}
