import AuditAPI
import AuditClient
import Foundation
import InventoryCore

/// Loads servers that are already running, for several `serve` processes on one database:
///
///     server-benchmark remote --email E --password-env VAR --country SG --scans 20000 URL [URL…]
///
/// Logs in to the first server, starts an audit of the country there (its expected set must
/// hold the tags `SG-0` … `SG-<scans-1>`), sends the scans from 32 connections spread over the
/// servers, then reads the audit back from every server and checks the counts are exact.
/// The password comes from an environment variable so it never appears in a process list.
enum RemoteLoad {
    static func main() async {
        do { try await run(Array(CommandLine.arguments.dropFirst(2))) } catch {
            print("benchmark failed: \(error)")
            exit(1)
        }
    }

    static func run(_ arguments: [String]) async throws {
        var options: [String: String] = [:]
        var servers: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else { throw InventoryError.unavailable("\(argument) needs a value") }
                options[String(argument.dropFirst(2))] = value
            } else {
                servers.append(argument.hasSuffix("/") ? String(argument.dropLast()) : argument)
            }
        }
        guard !servers.isEmpty, let email = options["email"], let variable = options["password-env"],
              let password = ProcessInfo.processInfo.environment[variable] else {
            throw InventoryError.unavailable("usage: server-benchmark remote --email E --password-env VAR [--country SG] [--scans N] URL [URL…]")
        }
        let country = options["country"] ?? "SG"
        let scans = Int(options["scans"] ?? "") ?? 20_000
        let login = try await APIClient(baseURL: servers[0]).send(
            .POST, Routes.login, body: LoginRequest(email: email, password: password, deviceName: "bench"), as: LoginResponse.self)
        let api = APIClient(baseURL: servers[0], token: login.token)
        let audit = try await api.send(.POST, Routes.auditStart, body: StartRequest(country: country), as: AuditResponse.self).audit
        print("audit \(audit.id) of \(country) with \(audit.totalAssets) assets; \(servers.count) server(s): \(servers.joined(separator: " "))")
        try await ServerBenchmark.loadTest(bases: servers, token: login.token, auditID: audit.id, total: scans,
                                           scanPrefix: "load-\(audit.id)")
        for server in servers {
            let status = try await APIClient(baseURL: server, token: login.token)
                .send(.GET, Routes.auditStatus, query: ["country": country], as: StatusResponse.self)
            let counted = status.audit?.scannedCount ?? -1
            print("\(server): scanned \(counted) of \(status.audit?.totalAssets ?? -1) (expected \(min(scans, audit.totalAssets)))"
                  + (counted == min(scans, audit.totalAssets) ? ", exact" : ", WRONG"))
        }
        _ = try await api.send(.POST, Routes.auditEnd, body: EndRequest(auditId: audit.id), as: EndResponse.self)
    }
}
