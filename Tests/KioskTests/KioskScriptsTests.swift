import BrowserTestSupport
import Foundation
import Testing
import TestKit

extension InSecondBrowser {
    /// Asset names in Chinese, Japanese, Korean, Tamil and Thai on the kiosk's page: Chromium draws
    /// each with a font that has its glyphs (Debian's Noto, installed by scripts/setup.sh), never
    /// with the empty boxes of a font that lacks them. DevTools says which fonts drew a node's text
    /// (`CSS.getPlatformFontsForNode`); a tofu box is drawn in the font that lacks the glyph.
    @Suite("Names in every script on the kiosk's page", BrowserChain(.second))
    struct KioskScriptsTests {
        static let names: [(tag: String, name: String, font: String)] = [
            ("ZH-1", "笔记本电脑 仓库", "CJK"), ("JA-1", "ノートパソコン 倉庫", "CJK"), ("KO-1", "노트북 창고", "CJK"),
            ("TA-1", "மடிக்கணினி கிடங்கு", "Tamil"), ("TH-1", "คอมพิวเตอร์ คลังสินค้า", "Thai")
        ]

        @Test("The missing list and the outcome draw every name with a font that has its script")
        func everyScriptHasItsFont() async throws {
            let kiosk = try await KioskProcess.scanning(Self.names.map { ($0.tag, $0.name, "SG") } + [("SG-1", "Plain", "SG")])
            try await withScanningScreen(kiosk) { page in
                try await page.waitUntil(timeout: 20, "the missing list", js: "count('#missing-list li') === 6")
                try await page.devTools("DOM.enable")
                try await page.devTools("CSS.enable")
                // The list is drawn again now and then: a node may be gone between two DevTools
                // calls ("Could not find node"), and then the whole reading starts again.
                var drawn: [String: [String]] = [:]
                var root = 0
                for attempt in 1...5 {
                    do {
                        drawn = [:]
                        root = try await page.devTools("DOM.getDocument", ["depth": 1])["root"]?["nodeId"]?.intValue ?? 0
                        let nodes = try await page.devTools(
                            "DOM.querySelectorAll", ["nodeId": .number(Double(root)), "selector": "#missing-list .a-name"])
                        for node in nodes["nodeIds"]?.arrayValue ?? [] {
                            let text = try await page.devTools("DOM.getOuterHTML", ["nodeId": node])["outerHTML"]?.stringValue ?? ""
                            let fonts = try await page.devTools("CSS.getPlatformFontsForNode", ["nodeId": node])["fonts"]?.arrayValue ?? []
                            drawn[text] = fonts.compactMap { $0["familyName"]?.stringValue }
                        }
                        break
                    } catch  where attempt < 5 {
                        try await Task.sleep(for: .milliseconds(200))
                    }
                }
                for entry in Self.names {
                    let fonts = drawn.first { $0.key.contains(entry.name) }?.value
                    #expect(fonts?.contains { $0.contains(entry.font) } == true, "\(entry.name) is drawn with \(fonts ?? []), none for \(entry.font)")
                }
                // The outcome box, in its own bold face, too.
                try await page.type("TA-1", expect: "found_expected")
                root = try await page.devTools("DOM.getDocument", ["depth": 1])["root"]?["nodeId"]?.intValue ?? 0
                let outcome = try await page.devTools("DOM.querySelector", ["nodeId": .number(Double(root)), "selector": "#outcome-detail"])
                let fonts = try await page.devTools("CSS.getPlatformFontsForNode", ["nodeId": outcome["nodeId"] ?? 0])["fonts"]?.arrayValue ?? []
                let families = fonts.compactMap { $0["familyName"]?.stringValue }
                #expect(families.contains { $0.contains("Tamil") }, "the outcome's Tamil name is drawn with \(families)")
                try await page.screenshotIfAsked("kiosk-scan-scripts.png")
            }
        }
    }
}
