import AuditTestSupport
import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InThirdBrowser.OfficeScreensTests {
    /// `audit-station office`: the same page over a standalone station's own file, with the
    /// audit its `audit scan` recorded.
    @Test func aStandaloneStationServesTheBackOfficeOverItsOwnFile() async throws {
        let station = try await KioskProcess(rows: [
            .init(tag: "SG-1", name: "Laptop", country: "SG", location: "Dock A"),
            .init(tag: "SG-2", name: "<img src=x onerror=window.pwned=1>", country: "SG", location: "Dock A")
        ])
        try await station.run(
            ["users", "create", "--email", "desk@example.com", "--password-stdin", "--name", "Desk", "--type", "ADMIN"], input: "secret-pass\n")
        try await station.run(["audit", "start", "--country", "SG"])
        try await station.run(["audit", "scan"], input: "SG-1\nGHOST-9\n")
        try await station.office()
        try await Office.signedIn(station.baseURL, as: "desk@example.com") { browser in
            try await browser.waitUntil("the station's audit", js: "count('#audits-table tbody tr.link') === 1")
            try await browser.find("#audits-table tbody tr.link").click()
            try await browser.waitUntil("its numbers", js: "text('#n-found') === '1'")
            #expect(try await browser.find("#n-unexpected").text() == "1")
            try await browser.waitUntil("the missing list", js: "(text('#list-table tbody') || '').includes('onerror')")
            try await browser.waitUntil("the breakdown", js: "(text('#by-location tbody') || '').includes('Dock A')")
            try await browser.find("#nav-assets").click()
            try await browser.waitUntil("the station's assets", js: "count('#records-table tbody tr') === 2")

            // A page too busy to handle each key at once (here 80 ms of work after every key)
            // still knows a gun's burst by when its keys were pressed: the form is not sent.
            try await browser.find("#records-new").click()
            let name = try await browser.waitFor("#record-fields-name", displayed: true)
            try await browser.execute(
                """
                window.addEventListener('keydown', function () {
                  const t = performance.now(); while (performance.now() - t < 80) {}
                }, true);
                """)
            try await name.sendKeys("SG-9\n")
            try await browser.waitUntil("the burst refused aloud on a busy page") {
                try await browser.find("#record-error").text().contains("barcode scan")
            }
            #expect(try await browser.find("#record-dialog").isDisplayed())
            #expect(try await browser.find("#record-fields-name-error").text().isEmpty, "the form was not sent")
        }
        #expect(await station.stop() == 0)
    }
}
