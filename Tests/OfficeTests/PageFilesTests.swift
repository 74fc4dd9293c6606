import AuditTestSupport
import BrowserTestSupport
import Foundation
import Testing

/// The back office and the phone page as a browser loads them from `serve`: the page, then every
/// module it imports, and the modules those import. A module left out of Package.swift's embeds
/// or out of the server's file table would leave the page blank on a real browser.
@Suite("The back office and the phone page serve every module they import")
struct PageFilesTests {
    /// The page's path, the folder of its own modules, the path the server gives them, and a
    /// module of the folder no import reaches (the phone's service worker, served as /scan/sw.js).
    @Test(arguments: [("/", "AuditServer/Office/js", "/office/js/", ""), ("/scan", "AuditServer/Scan/js", "/scan/js/", "worker.js")])
    func everyImportedModuleIsServed(page path: String, folder: String, served: String, apart: String) async throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        try await TestServer.with(.sqlite) { server in
            let page = try await PageModules.file(path, on: server.baseURL)
            #expect(page.status == 200 && page.type?.hasPrefix("text/html") == true, "\(path): \(page.status) \(page.type ?? "no type")")
            let entries = PageModules.moduleScripts(inPage: page.text)
            #expect(entries.count == 1 && entries.allSatisfy { $0.hasPrefix(served) }, "the page's module scripts: \(entries)")
            let modules = try await PageModules.crawl(from: entries, on: server.baseURL)
            for (module, file) in modules {
                #expect(file.status == 200, "\(module): \(file.text.prefix(200))")
                #expect(file.type?.hasPrefix("text/javascript") == true, "\(module) came as \(file.type ?? "no type")")
                #expect(file.policy?.contains("script-src 'self'") == true, "\(module): \(file.policy ?? "no CSP")")
            }
            // Every module of the page's own folder is reached, and each shared one it imports
            // (Sources/PageScripts) is one of those.
            let own = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".js") && $0 != apart }.map { served + $0 }
            let shared = try FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent("PageScripts").path)
                .filter { $0.hasSuffix(".js") }.map { served + $0 }
            let fetched = Set(modules.keys)
            #expect(Set(own).isSubset(of: fetched), "not imported: \(Set(own).subtracting(fetched).sorted())")
            #expect(
                fetched.subtracting(own).isSubset(of: Set(shared)), "fetched, not on disk: \(fetched.subtracting(own).subtracting(shared).sorted())")
            #expect(fetched.contains(served + "login.js"), "the login's module, shared by both pages")
        }
    }
}
