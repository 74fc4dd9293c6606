import ArgumentParser
import AuditServer
import Foundation
import InventoryCore
import Logging
import Station

extension AuditStation {
    struct Webhooks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webhooks",
            abstract: "Tell other systems when audits start, end or fall overdue: signed JSON POSTs from a durable outbox.",
            discussion: """
                Webhooks live in the database of --database (or of --postgres). The processes that serve it (`serve`, \
                `office`, a standalone `kiosk`) send the outbox, retrying with backoff for up to 24 hours; a standalone \
                `audit end` tries once for a few seconds after it has stored the end.
                """,
            subcommands: [Add.self, List.self, Remove.self, Deliveries.self])
    }
}

extension AuditStation.Webhooks {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a receiver; each POST carries X-AuditStation-Signature: sha256=<HMAC-SHA256 of the body>.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Argument(help: "The receiver's http:// or https:// URL.") var url: String
        @Option(help: "Comma-separated: audit.started, audit.ended, audit.overdue.") var events: String
        @Flag(
            name: .customLong("secret-stdin"),
            help: "Read the signing secret (16 to 512 bytes) from the first line of standard input; without it, it is asked for at the terminal.")
        var secretStdin = false
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let names = events.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let secret = try PasswordInput.read(fromStdin: secretStdin, prompt: "Signing secret for \(url): ", what: "secret")
                let hook = try await WebhookCommands.with(global, postgres) {
                    try await $0.add(WebhookInput(url: url, events: names, secret: secret))
                }
                if json { return try Terminal.json(hook) }
                Terminal.line("Added webhook \(hook.id): \(hook.url) for \(hook.events.map(\.rawValue).joined(separator: ", "))")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every webhook (never its secret).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let hooks = try await WebhookCommands.with(global, postgres) { try await $0.list() }
                if json { return try Terminal.json(hooks) }
                Terminal.table(
                    ["ID", "URL", "EVENTS", "ADDED"],
                    hooks.map { [String($0.id), $0.url, $0.events.map(\.rawValue).joined(separator: ","), ISOTime.string($0.createdAt)] })
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a webhook and its deliveries.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Argument(help: "The webhook's id, as `webhooks list` shows it.") var id: Int64

        func run() async throws {
            try await runReportingErrors {
                try await WebhookCommands.with(global, postgres) { try await $0.remove(id: id) }
                Terminal.line("Removed webhook \(id)")
            }
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deliveries", abstract: "The newest deliveries, each with its attempts and state (pending, delivered, failed).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Flag(help: "Only deliveries given up after 24 hours of retries.") var failed = false
        @Option(parsing: .unconditional, help: "How many to show (at most 1000).") var limit = 50
        @Flag var json = false

        func validate() throws {
            if !(1...1000).contains(limit) { throw ValidationError("--limit must be between 1 and 1000, not \(limit)") }
        }

        func run() async throws {
            try await runReportingErrors {
                let list = try await WebhookCommands.with(global, postgres) { try await $0.deliveries(failedOnly: failed, limit: limit) }
                if json { return try list.forEach { try Terminal.json($0) } }
                Terminal.table(
                    ["ID", "WEBHOOK", "EVENT", "STATE", "ATTEMPTS", "LAST", "NEXT TRY", "QUEUED"],
                    list.map {
                        [
                            String($0.id), String($0.webhookId), $0.event.rawValue, $0.state.rawValue, String($0.attempts),
                            $0.lastStatus.map(String.init) ?? $0.lastError.map { String($0.prefix(60)) } ?? "",
                            $0.state == .pending ? $0.nextAttemptAt.map(ISOTime.string) ?? "" : "", ISOTime.string($0.createdAt)
                        ]
                    })
            }
        }
    }
}

/// What the webhook commands share.
enum WebhookCommands {
    static func with<T>(_ global: GlobalOptions, _ postgres: PostgresOption, _ body: (any WebhookService) async throws -> T) async throws -> T {
        let config = try StationConfig.load(path: global.config)
        return try await ServerDatabase(postgres, global: global, config: config).withBackend(config: config, maxConnections: 2) {
            try await body($0.webhooks)
        }
    }

    /// One pass of the outbox, for at most a few seconds, after a standalone command stored an
    /// event; what is not sent stays for the next process that serves the database.
    static func tryOnce(_ webhooks: any WebhookService, seconds: Int64 = 3) async {
        var logger = Logger(label: "audit-station.webhooks")
        logger.logLevel = .error
        let deliverer = WebhookDeliverer(webhooks: webhooks, logger: logger, timeout: .seconds(seconds))
        _ = try? await deliverer.pass()
    }
}
