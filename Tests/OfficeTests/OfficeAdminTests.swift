import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

extension InOfficeBrowser.OfficeBrowserTests {
    @Test(arguments: Backend.allCases) func anAdminManagesUsersAndAClientSeesNoAdministration(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            _ = try await server.user("root@example.com")
            _ = try await server.user("client@example.com", type: "CLIENT", canEditAssets: false)
            let hostile = "<img src=x onerror=\"window.pwned=1\">"
            func login(_ password: String) async throws -> Int {
                try await server.call(
                    "POST", "/api/v1/auth/login", json: #"{"email":"pat@example.com","password":"\#(password)","device_name":"t"}"#
                ).status
            }
            try await Self.signedIn(server.baseURL, as: "root@example.com") { browser in
                try await browser.find("#nav-users").click()
                try await browser.waitUntil("the users", js: "count('#users-table tbody tr') === 2")
                // A gun's burst with the focus on "New user": refused aloud, the button not pressed.
                try await browser.execute("document.getElementById('users-new').focus()")
                try await browser.gunKeys("T-1")
                try await browser.waitUntil("the burst refused aloud", js: "(text('#page-error') || '').includes('barcode scan')")
                #expect(try await browser.find("#record-dialog").isDisplayed() == false)
                try await Task.sleep(for: .milliseconds(400)) // a person's press, not a gun's Enter
                try await browser.find("#users-new").click()
                try await Self.submit(browser, [("email", "pat"), ("name", hostile), ("password", "short")])
                try await browser.waitUntil("the errors beside the fields") {
                    try await !browser.find("#record-fields-password-error").text().isEmpty
                }
                #expect(try await !browser.find("#record-fields-email-error").text().isEmpty)
                try await Self.submit(
                    browser,
                    [
                        ("email", "pat@example.com"), ("password", "first-pass"), ("user_type", "STAFF"), ("countries", "sg, MY"),
                        ("can_edit_assets", "")
                    ])
                try await browser.waitUntil("the new user", js: "count('#users-table tbody tr') === 3")
                let pat = try #require(try await server.parts.users.store.find(email: "pat@example.com"))
                #expect(pat.name == hostile && pat.countries == ["MY", "SG"] && pat.canEditAssets && pat.userType == "STAFF")
                #expect(try await browser.find("#users-table tbody").text().contains(hostile))
                #expect(try await login("first-pass") == 200)

                try await Self.press(browser, "Disable", inRowOf: "pat@example.com", table: "#users-table")
                try await browser.waitUntil("the user disabled") {
                    try await Self.cells(browser, "#users-table", holding: "pat@example.com").dropFirst(5).first?.hasPrefix("disabled") == true
                }
                #expect(try await login("first-pass") == 401)
                try await Self.press(browser, "Enable", inRowOf: "pat@example.com", table: "#users-table")
                try await browser.waitUntil("the user enabled") {
                    try await Self.cells(browser, "#users-table", holding: "pat@example.com").dropFirst(5).first == "active"
                }
                try await Self.press(browser, "Reset password", inRowOf: "pat@example.com", table: "#users-table")
                try await Self.submit(browser, [("password", "second-pass")])
                try await browser.waitUntil("the new password", js: "(text('#users-message') || '').includes('password')")
                #expect(try await login("first-pass") == 401)
                #expect(try await login("second-pass") == 200)
                // The admin's own row cannot disable itself.
                let own = try await Self.row(browser, "#users-table", holding: "root@example.com")
                #expect(try await own.text().contains("Disable") == false)
                if backend == .sqlite { try await browser.screenshotIfAsked("office-users.png") }
            }
            try await Self.signedIn(server.baseURL, as: "client@example.com") { browser in
                #expect(try await browser.find("#nav-users").isDisplayed() == false)
                #expect(try await browser.find("#nav-devices").isDisplayed() == false)
                try await browser.open(server.baseURL + "/#/users")
                try await browser.waitUntilShown("#audits-view", "the audits instead")
                #expect(try await browser.find("#users-view").isDisplayed() == false)
                // The page's own token is refused by the API too.
                let status = try await browser.executeAsync(
                    """
                    const done = arguments[arguments.length - 1];
                    const s = JSON.parse(sessionStorage.getItem('auditstation.office'));
                    fetch('/api/v1/users', { headers: { Authorization: 'Bearer ' + s.token } }).then(function (r) { done(r.status); });
                    """)
                #expect(status.intValue == 403)
                // A CLIENT may not change customers: no New button there.
                try await browser.find("#nav-customers").click()
                try await browser.waitUntil("the customers", js: "text('#records-title') === 'Customers'")
                #expect(try await browser.find("#records-new").isDisplayed() == false)
            }
        }
    }

    /// A gun's burst on the screens the other tests do not send one to: the audits' filters and the
    /// devices are refused aloud and change nothing; in the labels form's list of tags, a burst's
    /// Enter is the new line between tags it means.
    @Test func aGunOnTheFiltersTheDevicesAndTheLabelsForm() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("root@example.com")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG")])
            try await Self.signedIn(server.baseURL, as: "root@example.com") { browser in
                let refused = "(text('#page-error') || '').includes('barcode scan')"
                let address = try await browser.execute("return location.href").stringValue
                try await browser.find("#filter-location").gunKeys("SG-1")
                try await browser.waitUntil("the burst on a filter refused aloud", js: refused)
                #expect(try await browser.execute("return location.href").stringValue == address, "no filter applied")
                #expect(try await browser.find("#audits-error").text().isEmpty)
                // A gun that ends its tags with Tab is the same burst (the kiosk's rule, burst.js).
                _ = try await browser.execute("document.getElementById('page-error').textContent = ''; return true")
                try await browser.find("#filter-location").gunKeys("SG-2", then: .tab)
                try await browser.waitUntil("the Tab-ended burst on a filter refused aloud", js: refused)
                #expect(try await browser.execute("return document.activeElement.id").stringValue == "filter-location", "the Tab moved nothing")
                // Half-typed by a person, then the gun: refused aloud, and the filter keeps the person's text.
                _ = try await browser.execute("document.getElementById('page-error').textContent = ''; return true")
                let place = try await browser.find("#filter-location")
                try await place.gunKeys("Dock", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(300))
                try await place.gunKeys("SG-1")
                try await browser.waitUntil("the burst after typed text refused aloud", js: refused)
                #expect(try await place.property("value").stringValue == "Dock")
                #expect(try await browser.execute("return location.href").stringValue == address, "no filter applied")

                try await browser.find("#nav-devices").click()
                try await browser.waitUntilShown("#devices-view", "the devices")
                _ = try await browser.execute("document.getElementById('page-error').textContent = ''; document.activeElement.blur(); return true")
                try await browser.gunKeys("SG-2")
                try await browser.waitUntil("the burst on the devices refused aloud", js: refused)
                #expect(try await browser.find("#devices-view").isDisplayed())

                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 2")
                _ = try await browser.execute(
                    """
                    document.getElementById('page-error').textContent = '';
                    window.savedText = [];
                    const make = URL.createObjectURL;
                    URL.createObjectURL = function (blob) { blob.text().then((t) => window.savedText.push(t)); return make.call(URL, blob); };
                    return true;
                    """)
                try await browser.find("#records-labels").click()
                let tags = try await browser.waitFor("#record-fields-tags", displayed: true)
                try await tags.clear()
                try await tags.gunKeys("SG-2")
                try await Task.sleep(for: .milliseconds(150))
                try await tags.gunKeys("SG-1", then: .tab)
                #expect(try await tags.property("value").stringValue == "SG-2\nSG-1\n", "a Tab-ended tag is a line too")
                #expect(try await browser.find("#page-error").text().isEmpty)
                #expect(try await browser.find("#record-dialog").isDisplayed(), "the form stays open")
                try await browser.find("#record-fields-format option[value='zpl']").click()
                try await browser.find("#record-save").click()
                try await browser.waitUntil("the labels saved", js: "window.savedText.length === 1")
                let zpl = try await browser.execute("return window.savedText[0]").stringValue ?? ""
                #expect(zpl.components(separatedBy: "^XA").count - 1 == 2 && zpl.contains("SG-1") && zpl.contains("SG-2"), "\(zpl.prefix(400))")
            }
        }
    }

    /// Text a person typed into the assets' search and left there ("SG-", given up on) is not glued
    /// onto a gun's tag: the burst searches for its own tag alone, and the search box shows it.
    @Test func aBurstAfterLeftoverTypedTextSearchesItsOwnTag() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("root@example.com")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-12", "SG")])
            try await Self.signedIn(server.baseURL, as: "root@example.com") { browser in
                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 3")
                let query = try await browser.find("#records-query")
                try await query.gunKeys("SG-", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(1500))
                try await query.gunKeys("SG-2")
                try await browser.waitUntil(
                    "the search for SG-2 alone", js: "count('#records-table tbody tr') === 1 && text('#records-table tbody').includes('SG-2')")
                #expect(try await query.property("value").stringValue == "SG-2", "the leftover SG- is not part of the tag")
                #expect(try await browser.find("#page-error").text().isEmpty)
            }
        }
    }

    /// Text a person left in a form's field is never glued onto a gun's tag: in the labels form's
    /// list of tags the burst goes on a line of its own, and in a record's field the burst is
    /// refused aloud and the field keeps what the person typed.
    @Test func aBurstAfterLeftoverTypedTextInTheFormsKeepsItApart() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("root@example.com")
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG")])
            try await Self.signedIn(server.baseURL, as: "root@example.com") { browser in
                try await browser.find("#nav-assets").click()
                try await browser.waitUntil("the assets", js: "count('#records-table tbody tr') === 2")
                try await browser.find("#records-labels").click()
                let tags = try await browser.waitFor("#record-fields-tags", displayed: true)
                try await tags.clear()
                try await tags.gunKeys("SG-1", then: .enter, gap: BrowserSession.personKeyGap)
                try await tags.gunKeys("SG-", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(1500))
                try await tags.gunKeys("SG-2")
                #expect(try await tags.property("value").stringValue == "SG-1\nSG-\nSG-2\n", "the burst on a line of its own")
                try await tags.gunKeys("SG-", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(1500))
                try await tags.gunKeys("SG-1", then: .tab)
                #expect(try await tags.property("value").stringValue == "SG-1\nSG-\nSG-2\nSG-\nSG-1\n", "a Tab-ended burst too")
                try await browser.find("#record-cancel").click()

                try await browser.find("#records-new").click()
                let tag = try await browser.waitFor("#record-fields-asset_tag", displayed: true)
                try await tag.gunKeys("SG-", then: nil, gap: BrowserSession.personKeyGap)
                try await Task.sleep(for: .milliseconds(1500))
                try await tag.gunKeys("SG-00009")
                try await browser.waitUntil("the burst refused aloud", js: "(text('#record-error') || '').includes('barcode scan')")
                #expect(try await tag.property("value").stringValue == "SG-", "the field keeps what the person typed")
                #expect(try await browser.find("#record-dialog").isDisplayed(), "nothing was saved")
            }
        }
    }
}
