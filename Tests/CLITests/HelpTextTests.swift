import ArgumentParser
import Testing

@testable import audit_station

/// What a newcomer reads first: every command's `--help`, walked in-process through the whole
/// command tree (no child process a command).
@Suite("Help texts")
struct HelpTextTests {
    /// Every command of the tree with its words (`["audit", "start"]`), the root first.
    static func commands(_ command: any ParsableCommand.Type = AuditStation.self, path: [String] = []) -> [([String], any ParsableCommand.Type)] {
        [(path, command)]
            + command.configuration.subcommands.flatMap { sub in
                commands(sub, path: path + [sub.configuration.commandName ?? "\(sub)"])
            }
    }

    @Test("Each command's overview is prose: wrapped by the parser, with no run of spaces inside a sentence")
    func overviewsReadAsProse() {
        let all = Self.commands()
        #expect(all.count > 40, "the walk found only \(all.count) commands")
        for (path, command) in all {
            let help = AuditStation.helpMessage(for: command, columns: 100)
            let overview = help.components(separatedBy: "USAGE:").first ?? help
            #expect(help.contains("USAGE:"), "\(path.joined(separator: " ")): no usage line")
            for line in overview.split(separator: "\n") {
                let text = line.drop(while: { $0 == " " })
                #expect(!text.contains("  "), "audit-station \(path.joined(separator: " ")) --help: '\(line)'")
            }
        }
    }
}

/// Numbers a person types that no list has: told, not quietly taken as the nearest page.
@Suite("Paging options")
struct PagingOptionTests {
    @Test("--page counts from 1 and --per-page is 1 to 100, in every list command")
    func pagesCountFromOne() throws {
        let refused: [([String], String)] = [
            (["assets", "list", "--page", "0"], "--page counts from 1 (at most 10000000), not 0"),
            (["customers", "list", "--page=-3"], "--page counts from 1 (at most 10000000), not -3"),
            (["audit", "history", "--page", "10000001"], "--page counts from 1 (at most 10000000), not 10000001"),
            (["accessories", "list", "--per-page", "500"], "--per-page must be between 1 and 100, not 500"),
            (["audit", "scans", "--per-page", "0"], "--per-page must be between 1 and 100, not 0"),
            // A negative number after a space is the option's value, not a missing one.
            (["assets", "list", "--page", "-1"], "--page counts from 1 (at most 10000000), not -1"),
            (["audit", "history", "--page", "-2"], "--page counts from 1 (at most 10000000), not -2"),
            (["customers", "list", "--per-page", "-5"], "--per-page must be between 1 and 100, not -5"),
            (["serve", "--port", "-1"], "--port must be between 0 and 65535, not -1"),
            (["kiosk", "--max-connections", "-3"], "--max-connections must be between 1 and 900, not -3"),
            (["kiosk", "--header-timeout", "0"], "--header-timeout must be between 1 and 600 seconds, not 0"),
            (["serve", "--header-timeout", "601"], "--header-timeout must be between 1 and 600 seconds, not 601")
        ]
        for (arguments, message) in refused {
            #expect(throws: (any Error).self, "\(arguments)") { _ = try AuditStation.parseAsRoot(arguments) }
            do {
                _ = try AuditStation.parseAsRoot(arguments)
            } catch {
                #expect(AuditStation.message(for: error) == message, "\(arguments)")
            }
        }
        for arguments in [["assets", "list", "--page", "1", "--per-page", "100"], ["audit", "history", "--page", "2"]] {
            #expect(throws: Never.self, "\(arguments)") { _ = try AuditStation.parseAsRoot(arguments) }
        }
    }
}
