import Foundation
import InventoryCore
import Testing

/// Field validation of the inputs, before any store sees them.
@Suite("Input validation")
struct InputValidationTests {
    @Test(
        "Identifiers are read from full-width forms and trimmed, then refused when empty, too long or holding control characters",
        arguments: [
            (" \t SG-1 \r\n", "SG-1"), ("\u{2}SG-1\u{3}", "SG-1"), ("\u{FEFF}SG-1", "SG-1"), ("SG 1", "SG 1"),
            // A gun typing into a Chinese or Japanese input method in full-width mode.
            ("ＳＧ－００２６", "SG-0026"), ("ＳＧ-１", "SG-1"), ("\u{3000}ｓｇ－１\u{3000}", "sg-1"), ("ＬＯＣ：Ｄｏｃｋ\u{3000}Ａ", "LOC:Dock A"),
            ("～！＠＃", "~!@#"), ("Café-1", "Café-1"), ("倉庫-1", "倉庫-1"), ("SG-１", "SG-1"),
            (String(repeating: "a", count: 128), String(repeating: "a", count: 128))
        ])
    func acceptedIdentifiers(raw: String, normalized: String) throws {
        #expect(try Identifier.normalize(raw) == normalized)
    }

    @Test(
        "Refused identifiers name the problem",
        arguments: [
            ("", "is empty"), (" \r\n\t", "is empty"), ("SG\u{7}1", "U+0007"), ("SG\u{0}1", "U+0000"), ("SG\u{1B}1", "U+001B"),
            (String(repeating: "a", count: 129), "129 bytes"), (String(repeating: "a", count: 10_240), "10240 bytes")
        ])
    func refusedIdentifiers(raw: String, problem: String) {
        do {
            _ = try Identifier.normalize(raw, field: "asset_tag")
            Issue.record("accepted \(raw.debugDescription)")
        } catch {
            #expect(error.fields.keys.sorted() == ["asset_tag"])
            #expect(error.errorDescription?.contains(problem) == true, "\(error.errorDescription ?? "")")
        }
    }

    @Test(
        "Names keep the joiners and marks of real writing, and refuse controls and bidi overrides",
        arguments: [
            ("Ann 👩\u{200D}💻", true), ("می\u{200C}خواهم", true), ("\u{200F}שלום", true), ("க்ஷ", true),
            ("evil\u{202E}gpj.exe", false), ("a\u{2066}b\u{2069}", false), ("bell\u{7}", false), ("c1\u{85}x", false)
        ])
    func freeTextKeepsRealScripts(text: String, kept: Bool) throws {
        do {
            let stored = try FreeText.normalize(text, field: "name")
            #expect(kept && stored == text, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        } catch {
            #expect(!kept && error.fields["name"] == ["contains control characters"])
        }
    }

    @Test func matchKeysFoldCaseOnlyWhenConfigured() {
        #expect(Identifier.matchKey("sg-1", caseSensitive: true) == "sg-1")
        #expect(Identifier.matchKey("sg-1", caseSensitive: false) == Identifier.matchKey("SG-1", caseSensitive: false))
    }

    @Test("Countries: ISO alpha-2 in any case, stored upper-case", arguments: [("sg", "SG"), (" My ", "MY"), ("gb", "GB"), ("US", "US")])
    func countries(raw: String, code: String) throws {
        #expect(try Country.normalize(raw) == code)
    }

    @Test("Unknown countries are refused with the value named", arguments: ["XX", "UK", "EU", "SGP", "Singapore", "S", "1", "S G"])
    func unknownCountries(raw: String) {
        do {
            _ = try Country.normalize(raw)
            Issue.record("accepted \(raw)")
        } catch {
            #expect(error.fields.keys.sorted() == ["country"])
            #expect(error.errorDescription?.contains("'\(raw)'") == true)
        }
    }

    @Test func assetInputReportsEveryFieldAtOnce() {
        let input = AssetInput(assetTag: "", name: "  ", status: "LOST", condition: "MINT", country: "XX", notes: "a\u{7}b")
        do {
            _ = try input.makeAsset()
            Issue.record("accepted an invalid asset")
        } catch {
            #expect(error.fields.keys.sorted() == ["asset_tag", "condition", "country", "name", "notes", "status"])
        }
    }

    @Test func assetInputAppliesOnlyPresentFields() throws {
        var asset = try AssetInput(assetTag: "SG-1", serialNum: "SN", name: "Laptop", model: "T14", country: "sg").makeAsset()
        #expect(asset.country == "SG" && asset.status == .inStock && asset.model == "T14")
        try AssetInput(serialNum: " ", model: "", status: "repair", condition: "").apply(to: &asset)
        #expect(asset.serialNum == nil && asset.status == .repair && asset.model == nil && asset.name == "Laptop")
        let before = asset
        #expect(throws: ValidationError.self) { try AssetInput(name: "", country: "ZZ").apply(to: &asset) }
        #expect(asset == before, "a failed edit changes nothing")
    }

    @Test func assetNamesRefuseControlCharactersLikeOtherNames() {
        // Customer and accessory names go through FreeText; an asset name with an escape
        // sequence would reach every terminal that lists it.
        let customer = CustomerInput(name: "Acme\u{1B}[2J", contactNumber: "1", address: "x", country: "SG")
        #expect(throws: ValidationError.self) { try customer.makeCustomer() }
        let asset = AssetInput(assetTag: "SG-1", name: "Laptop\u{1B}[2J", country: "SG")
        #expect(throws: ValidationError.self) { try asset.makeAsset() }
    }

    @Test func freeTextKeepsLineBreaksButNotOtherControls() throws {
        #expect(try FreeText.normalize(" two\nlines\tand tab ", field: "notes") == "two\nlines\tand tab")
        #expect(try FreeText.normalize("   ", field: "notes") == nil)
        #expect(throws: ValidationError.self) { try FreeText.normalize("bell\u{7}", field: "notes") }
        #expect(throws: ValidationError.self) { try FreeText.normalize(String(repeating: "x", count: 2001), field: "notes") }
        #expect(throws: ValidationError.self) { try FreeText.required(" ", field: "name") }
    }

    @Test func customerInputChecksContactEmailAndCountry() throws {
        let customer = try CustomerInput(
            name: "Acme", contactNumber: "+65 (6) 123-4567", address: "1 Road", country: "sg",
            email: " ops@acme.example "
        ).makeCustomer()
        #expect(customer.country == "SG" && customer.email == "ops@acme.example")
        do {
            _ = try CustomerInput(name: "Acme", contactNumber: "ring me", address: "", country: "XX", email: "x@").makeCustomer()
            Issue.record("accepted an invalid customer")
        } catch {
            #expect(error.fields.keys.sorted() == ["address", "contact_number", "country", "email"])
        }
    }

    @Test func accessoryTotalsNeverFallBelowWhatIsCheckedOut() throws {
        var accessory = try AccessoryInput(name: "Mouse", category: "Input", totalQuantity: 10).makeAccessory()
        #expect(accessory.availableQuantity == 10)
        #expect(throws: ValidationError.self) { try AccessoryInput(totalQuantity: 3).apply(to: &accessory, checkedOut: 4) }
        #expect(accessory.totalQuantity == 10)
        try AccessoryInput(totalQuantity: 4).apply(to: &accessory, checkedOut: 4)
        #expect(accessory.totalQuantity == 4 && accessory.availableQuantity == 0)
        #expect(throws: ValidationError.self) { try AccessoryInput(name: "X", category: "Y", totalQuantity: -1).makeAccessory() }
    }

    @Test(
        "Movements: at least one, no more than the limit",
        arguments: [(0, 5, false), (-1, 5, false), (1, 5, true), (5, 5, true), (6, 5, false), (1, 0, false)])
    func movementQuantities(quantity: Int, limit: Int, allowed: Bool) {
        let movement = AccessoryMovement(customerId: 1, quantity: quantity)
        #expect(((try? movement.validate(limit: limit, limitName: "available")) != nil) == allowed)
    }
}
