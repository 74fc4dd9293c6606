import Foundation
import Testing

/// The outcome boxes of the kiosk, read from 2 m: each box stands out from the page (WCAG
/// contrast at least 4.5:1 against the page's background) and its words stand out from the box
/// (at least 7:1), computed from the colours and rules of kiosk.css.
@Suite("The kiosk's outcome boxes stand out from the page and their text from them")
struct KioskContrastTests {
    /// Every state the outcome box shows a scan in.
    static let states = ["found_expected", "already_scanned", "unexpected", "unknown", "rejected", "misplaced", "location", "pending"]

    @Test("Every outcome box is ≥ 4.5:1 against the page and its text ≥ 7:1 against the box")
    func outcomeBoxesContrast() throws {
        let css = try KioskPaletteTests.cssText()
        let colours = try KioskPaletteTests.cssColours()
        let page = try #require(colours["bg"], "--bg is not in kiosk.css")
        var rules: [String: (box: String, text: String)] = [:]
        for match in css.matches(of: /\.outcome\[data-status="([a-z_]+)"\][^{]*\{\s*background:\s*var\(--([a-z-]+)\);\s*color:\s*var\(--([a-z-]+)\)/)
        {
            rules[String(match.1)] = (String(match.2), String(match.3))
        }
        for state in Self.states {
            guard let rule = rules[state] else {
                Issue.record("kiosk.css gives the outcome box of \(state) no background and colour")
                continue
            }
            let box = try #require(colours[rule.box], "--\(rule.box) is not in kiosk.css")
            let text = try #require(colours[rule.text], "--\(rule.text) is not in kiosk.css")
            let boxOnPage = Contrast.ratio(box, page), textOnBox = Contrast.ratio(text, box)
            #expect(boxOnPage >= 4.5, "\(state): the box (--\(rule.box)) is \(boxOnPage):1 against the page")
            #expect(textOnBox >= 7, "\(state): the text (--\(rule.text)) is \(textOnBox):1 against the box")
        }
    }

    @Test("The contrast ratio is WCAG's: white on black 21:1, #767676 on white 4.54:1, the old ALREADY SCANNED box 1.65:1")
    func ratioMatchesWCAG() {
        #expect(abs(Contrast.ratio(RGB(hex: "#ffffff")!, RGB(hex: "#000000")!) - 21) < 0.001)
        #expect(abs(Contrast.ratio(RGB(hex: "#767676")!, RGB(hex: "#ffffff")!) - 4.54) < 0.01)
        #expect(abs(Contrast.ratio(RGB(hex: "#0729a2")!, RGB(hex: "#0b1220")!) - 1.65) < 0.01)
        #expect(abs(Contrast.ratio(RGB(hex: "#541a13")!, RGB(hex: "#0b1220")!) - 1.37) < 0.01)
    }
}

enum Contrast {
    static func luminance(_ c: RGB) -> Double {
        0.2126 * ColourScience.linear(c.r) + 0.7152 * ColourScience.linear(c.g) + 0.0722 * ColourScience.linear(c.b)
    }

    /// WCAG 2's contrast ratio of two colours, in either order.
    static func ratio(_ a: RGB, _ b: RGB) -> Double {
        let la = luminance(a), lb = luminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }
}
