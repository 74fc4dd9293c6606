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
