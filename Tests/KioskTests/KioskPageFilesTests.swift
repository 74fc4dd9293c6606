import BrowserTestSupport
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import Kiosk
import Testing

/// The page's files as a browser fetches them: the page, then every ES module it imports and
/// the modules those import. A browser runs a module only if it comes with a JavaScript type,
/// so a module left out of Package.swift's embeds or out of `WebAssets.files` fails here.
@Suite("The kiosk serves its page and every module the page imports")
struct KioskPageFilesTests {
    @Test("Every module the page imports, and every module those import, answers 200 as JavaScript")
    func everyImportedModuleIsServed() async throws {
        let kiosk = try await KioskProcess(inventory: [])
        try await kiosk.start(["--no-camera"])
        let page = try await PageModules.file("/", on: kiosk.baseURL)
        #expect(page.status == 200)
        #expect(page.type?.hasPrefix("text/html") == true, "\(page.type ?? "no type")")
        let entries = PageModules.moduleScripts(inPage: page.text)
        #expect(entries == ["/js/main.js"], "the page's module scripts: \(entries)")
        let modules = try await PageModules.crawl(from: entries, on: kiosk.baseURL)
        for (path, module) in modules {
            #expect(module.status == 200, "\(path): \(module.text.prefix(200))")
            #expect(module.type?.hasPrefix("text/javascript") == true, "\(path) came as \(module.type ?? "no type")")
            // Same-origin module imports need nothing more than script-src 'self'.
            #expect(module.policy?.contains("script-src 'self'") == true, "\(path): \(module.policy ?? "no CSP")")
        }
        let fetched = Set(modules.keys)
        await kiosk.stop()

        // Every module in Sources/Kiosk/Web/js and Sources/PageScripts (the modules both pages
        // share) is reached from the page, and the kiosk serves no other script.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        var onDisk: Set<String> = []
        let names = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent("Kiosk/Web/js").path)
        onDisk.formUnion(names.filter { $0.hasSuffix(".js") }.map { "/js/" + $0 })
        // Of the modules the pages share (Sources/PageScripts), those the kiosk serves.
        let shared = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent("PageScripts").path)
        onDisk.formUnion(shared.filter { $0.hasSuffix(".js") }.map { "/js/" + $0 }.filter { WebAssets.files[$0] != nil })
        #expect(onDisk.count > 1)
        #expect(fetched == onDisk, "not imported: \(onDisk.subtracting(fetched).sorted()); not in Web/js: \(fetched.subtracting(onDisk).sorted())")
        #expect(Set(WebAssets.files.keys.filter { $0.hasSuffix(".js") }) == fetched)
    }

    @Test("A page on another machine loads every file of the page before its PIN, by GET or HEAD only")
    func pageFilesAreOpenBeforeThePin() {
        for path in WebAssets.files.keys {
            #expect(KioskGuard.openPaths.contains(path), "\(path)")
            #expect(KioskRoutes.methods[path]?.map(\.rawValue).sorted() == ["GET", "HEAD"], "\(path)")
        }
        #expect(KioskGuard.openPaths.subtracting(WebAssets.files.keys) == ["/api/state", "/api/pin"])
    }

    @Test(
        "The modules of each page form no import cycle, so each can be loaded and tested alone",
        arguments: [("Kiosk/Web/js", "main.js"), ("AuditServer/Office/js", "main.js"), ("AuditServer/Scan/js", "phone.js")])
    func modulesFormNoCycle(folder: String, entry: String) throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        var graph: [String: [String]] = [:]
        for dir in [folder, "PageScripts"] {
            let url = sources.appendingPathComponent(dir)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".js") {
                let text = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
                graph[name] = PageModules.imports(inModule: text).map { String($0.split(separator: "/").last ?? Substring($0)) }
            }
        }
        #expect(graph.count > 3)
        #expect(graph[entry]?.isEmpty == false)
        let cycles = Self.cycles(in: graph)
        #expect(cycles.isEmpty, "import cycles in \(folder): \(cycles.map { $0.joined(separator: " → ") })")
        // The check itself finds a cycle where there is one.
        #expect(Self.cycles(in: ["a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js"]]).count == 1)
    }

    @Test(
        "Every name a page's module imports is exported by the module it names, or the browser refuses the whole page",
        arguments: ["Kiosk/Web/js", "AuditServer/Office/js", "AuditServer/Scan/js"])
    func everyImportedNameIsExported(folder: String) throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        var texts: [String: String] = [:]
        for dir in [folder, "PageScripts"] {
            let url = sources.appendingPathComponent(dir)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".js") {
                texts[name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
        }
        var missing: [String] = []
        for (name, text) in texts {
            for (names, from) in Self.namedImports(inModule: text) {
                let module = String(from.split(separator: "/").last ?? Substring(from))
                let exported = Self.exports(inModule: texts[module] ?? "")
                missing += names.filter { !exported.contains($0) }.map { "\(name) imports \($0) from \(module)" }
            }
        }
        #expect(texts.count > 3)
        #expect(missing.isEmpty, "\(missing.sorted())")
        // The check finds what it looks for.
        let twoExports = "export const a = 1, b = f(2);\nexport async function c() {}\nclass D {}\nexport { D };"
        #expect(Self.exports(inModule: twoExports) == ["a", "b", "c", "D"])
        #expect(Self.namedImports(inModule: "import { a, b as x,\n  c } from './m.js';").first?.names == ["a", "b", "c"])
    }

    /// The names a module exports: `export function|class|const|let NAME`, `export { A, B as C }`.
    static func exports(inModule text: String) -> Set<String> {
        var names = Set(text.matches(of: /(?m)^export\s+(?:async\s+)?(?:function\*?|class)\s+([A-Za-z_$][\w$]*)/).map { String($0.1) })
        for line in text.matches(of: /(?m)^export\s+(?:const|let)\s+(.*)$/) {
            names.formUnion(line.1.matches(of: /(?:^|,)\s*([A-Za-z_$][\w$]*)\s*=/).map { String($0.1) })
        }
        for list in text.matches(of: /(?m)^export\s*\{([^}]*)\}/) {
            names.formUnion(list.1.split(separator: ",").compactMap { $0.split(separator: " ").last.map(String.init) })
        }
        return names
    }

    /// Each `import { a, b as c } from 'x'` of a module: the names as the module `x` exports them.
    static func namedImports(inModule text: String) -> [(names: [String], from: String)] {
        text.matches(of: /(?m)^import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/).map { match in
            let names = match.1.split(separator: ",").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
            return (names, String(match.2))
        }
    }

    @Test("Every page's modules are written in one style (no `var`), and the DOM helpers are defined once, in PageScripts")
    func pagesShareOneStyleAndTheirHelpers() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        var scripts: [String: String] = [:]
        for dir in ["Kiosk/Web/js", "AuditServer/Office/js", "AuditServer/Scan/js", "PageScripts"] {
            let url = sources.appendingPathComponent(dir)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".js") {
                scripts[dir + "/" + name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
        }
        #expect(scripts.count > 40)
        let withVar = scripts.filter { Self.declaresWithVar($0.value) }.keys.sorted()
        #expect(withVar.isEmpty, "modules that still declare with var: \(withVar)")
        for helper in ["$", "make", "setText"] {
            let defining = scripts.filter { $0.value.contains("function \(helper)(") }.keys.sorted()
            #expect(defining == ["PageScripts/elements.js"], "\(helper) is defined in \(defining)")
        }
        // The checks find what they look for.
        #expect(Self.declaresWithVar("function f() {\n  var n = 1;\n}"))
        #expect(!Self.declaresWithVar("const variance = 1; // a var in a comment\nlet v = 'var x';"))
    }

    /// Whether a module declares a variable with `var` (outside comments and strings).
    static func declaresWithVar(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("*") || trimmed.hasPrefix("/*") { return false }
            let outsideStrings = code.replacing(/'[^']*'/, with: "''")
            return outsideStrings.contains(/(^|[\s;({])var\s+[A-Za-z_$]/)
        }
    }

    /// Each import cycle of a module graph once, as the path that closes it.
    static func cycles(in graph: [String: [String]]) -> [[String]] {
        var state: [String: Bool] = [:] // false: on the path; true: done
        var found: [[String]] = []
        func visit(_ node: String, _ path: [String]) {
            state[node] = false
            for next in graph[node] ?? [] {
                if state[next] == false, let start = path.firstIndex(of: next) {
                    found.append(Array(path[start...]) + [next])
                } else if state[next] == nil {
                    visit(next, path + [next])
                }
            }
            state[node] = true
        }
        for node in graph.keys.sorted() where state[node] == nil { visit(node, [node]) }
        return found
    }
}
