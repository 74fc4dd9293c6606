#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation

/// A page's script modules as a browser fetches them: the page, its `<script type="module">`
/// entries, then every module those import, and the modules those import. A browser runs a
/// module only if it comes with a JavaScript type, so a module left out of Package.swift's embeds
/// or out of a server's file table shows here.
public enum PageModules {
    /// One file as the browser gets it: its status, content type, CSP and text.
    public struct File: Sendable {
        public var status: Int
        public var type: String?
        public var policy: String?
        public var text: String
    }

    /// One GET of `path` on `base` (`http://127.0.0.1:PORT`).
    public static func file(_ path: String, on base: String) async throws -> File {
        var request = URLRequest(url: URL(string: base + path)!)
        request.timeoutInterval = 20
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return File(
            status: http?.statusCode ?? 0, type: http?.value(forHTTPHeaderField: "Content-Type"),
            policy: http?.value(forHTTPHeaderField: "Content-Security-Policy"), text: String(decoding: data, as: UTF8.self))
    }

    /// Every module reached from `entries`, fetched once each, by its path.
    public static func crawl(from entries: [String], on base: String) async throws -> [String: File] {
        var waiting = entries
        var fetched: [String: File] = [:]
        while let path = waiting.popLast() {
            guard fetched[path] == nil else { continue }
            let module = try await file(path, on: base)
            fetched[path] = module
            if module.status == 200 { waiting += imports(inModule: module.text).map { resolve($0, from: path) } }
        }
        return fetched
    }

    /// The `src` of each `<script type="module">` of the page.
    public static func moduleScripts(inPage html: String) -> [String] {
        html.matches(of: /<script\b([^>]*)>/).compactMap { tag -> String? in
            let attributes = String(tag.1)
            guard attributes.contains(#"type="module""#), let src = attributes.firstMatch(of: /\bsrc="([^"]+)"/) else { return nil }
            return String(src.1)
        }
    }

    /// What a module imports: `import … from "x"`, `import "x"` and `export … from "x"`, one
    /// statement at the start of a line (the names may span lines).
    public static func imports(inModule text: String) -> [String] {
        let statements = text.matches(of: /(?m)^[ \t]*import\b[^;'"]*?['"]([^'"]+)['"]/).map { String($0.1) }
        let reexports = text.matches(of: /(?m)^[ \t]*export\s*(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s*)?from\s*['"]([^'"]+)['"]/).map { String($0.1) }
        return statements + reexports
    }

    /// An import's path, relative to the module that imports it, as the server's path.
    public static func resolve(_ specifier: String, from module: String) -> String {
        URL(string: specifier, relativeTo: URL(string: "http://page" + module))?.path ?? specifier
    }
}
