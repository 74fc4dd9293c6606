import Foundation
import Testing

/// The README's module map is the newcomer's first view of the code: it must name every target
/// of `Package.swift`, and nothing that is not one.
@Suite("The README's module map")
struct ModuleMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// Every target's name, and whether it is a test target.
    static func targets() throws -> [(name: String, test: Bool)] {
        let manifest = try text("Package.swift")
        let pattern = try NSRegularExpression(pattern: #"\.(target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#)
        let whole = NSRange(manifest.startIndex..., in: manifest)
        return pattern.matches(in: manifest, range: whole).compactMap { match in
            guard let kind = Range(match.range(at: 1), in: manifest), let name = Range(match.range(at: 2), in: manifest) else { return nil }
            return (String(manifest[name]), manifest[kind] == "testTarget")
        }
    }

    /// The names in backquotes in the first two columns of the map's table rows.
    static func mapped() throws -> Set<String> {
        let readme = try text("README.md")
        var names = Set<String>()
        for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 3 else { continue }
            let named = cells[1] + (cells[2].contains("tests") ? cells[3] : "")
            for piece in named.split(separator: "`").enumerated() where piece.offset % 2 == 1 {
                names.insert(String(piece.element))
            }
        }
        return names
    }

    @Test("Every target of Package.swift is in the README's map, and every module the map names is a target")
    func theMapMatchesThePackage() throws {
        let targets = try Self.targets()
        #expect(targets.count > 20, "Package.swift was read: \(targets.count) targets")
        let mapped = try Self.mapped()
        let missing = targets.map(\.name).filter { !mapped.contains($0) }
        #expect(missing.isEmpty, "targets the README's map leaves out: \(missing)")
        let names = Set(targets.map(\.name))
        let unknown = mapped.filter { !names.contains($0) && !$0.contains("*") }
        #expect(unknown.isEmpty, "modules the README's map names that Package.swift has not: \(unknown.sorted())")
    }

    @Test("Every arrow of the README's dependency diagram joins two targets")
    func theDiagramNamesTargets() throws {
        let names = Set(try Self.targets().map(\.name)).union(["exe", "C"])
        let readme = try Self.text("README.md")
        let arrows = readme.split(separator: "\n").filter { $0.contains(" --> ") }
        #expect(arrows.count > 10)
        for arrow in arrows {
            let ends = arrow.components(separatedBy: " --> ").map { $0.trimmingCharacters(in: .whitespaces).prefix { $0 != "[" } }
            #expect(ends.allSatisfy { names.contains(String($0)) }, "\(arrow)")
        }
    }
}
