import Foundation
import Testing
import TestKit

/// `tls self-signed` and `--tls-cert`/`--tls-key`: a real TLS connection on 127.0.0.1 to `serve`
/// and to the kiosk, checked by curl against the authority the command made, as a phone that
/// trusts it would; and a clear error, before anything listens, for files that cannot be used.
@Suite struct TLSCommandTests {
    /// Makes a pair for localhost and 127.0.0.1 in a new folder.
    static func selfSigned() async throws -> (folder: URL, output: StationProcess.Output) {
        let (folder, _) = try StationProcess.scratch()
        let tls = folder.appendingPathComponent("tls")
        let output = try await StationProcess.run(["tls", "self-signed", "--host", "localhost", "--ip", "127.0.0.1", "--out", tls.path])
        return (tls, output)
    }

    /// curl over HTTPS with only `authority` trusted: the status, or nil when the connection failed.
    static func curl(_ url: String, authority: URL?) async throws -> (status: Int?, body: String, exit: Int32) {
        var arguments = ["-sS", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}", url]
        if let authority { arguments = ["--cacert", authority.path] + arguments }
        let output = try await Child.run("/usr/bin/curl", arguments)
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = lines.last.flatMap { Int($0) }
        return (status == 0 ? nil : status, lines.dropLast().joined(separator: "\n"), output.status)
    }

    @Test func selfSignedWritesAKeyOnlyItsOwnerReadsAndTellsHowToTrustIt() async throws {
        let (folder, output) = try await Self.selfSigned()
        #expect(output.status == 0, "\(output.stderr)")
        for name in ["server.crt", "server.key", "audit-station-ca.crt"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name) is missing")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("server.key").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let chain = try String(contentsOf: folder.appendingPathComponent("server.crt"), encoding: .utf8)
        #expect(chain.components(separatedBy: "BEGIN CERTIFICATE").count == 3, "the server's certificate, then the authority's")
        #expect(output.stdout.contains("Android") && output.stdout.contains("iOS") && output.stdout.contains("--tls-cert"))
        let noNames = try await StationProcess.run(["tls", "self-signed", "--out", folder.path])
        #expect(noNames.status != 0 && noNames.stderr.contains("--host"))
        let badAddress = try await StationProcess.run(["tls", "self-signed", "--ip", "300.1.2.3", "--out", folder.path])
        #expect(badAddress.status != 0 && badAddress.stderr.contains("not an IPv4 or IPv6 address"), "\(badAddress.stderr)")
    }

    @Test func serveAndTheKioskAnswerHTTPSThatTheAuthorityVouchesFor() async throws {
        let (folder, made) = try await Self.selfSigned()
        try #require(made.status == 0, "\(made.stderr)")
        let authority = folder.appendingPathComponent("audit-station-ca.crt")
        let flags = ["--tls-cert", folder.appendingPathComponent("server.crt").path, "--tls-key", folder.appendingPathComponent("server.key").path]
        let (scratch, database) = try StationProcess.scratch()
        let servers: [(name: String, arguments: [String], announce: Regex<(Substring, Substring)>, path: String)] = [
            ("serve", ["--database", database, "serve", "--port", "0"] + flags, /on https:\/\/127\.0\.0\.1:(\d+)/, "/health"),
            ("kiosk", ["--database", database, "kiosk", "--no-camera", "--port", "0"] + flags, /Kiosk on https:\/\/127\.0\.0\.1:(\d+)/, "/")
        ]
        for server in servers {
            let child = try await Child.start(
                StationProcess.executable.path, server.arguments, log: scratch.appendingPathComponent("\(server.name).log"))
            try await withCleanup(
                {
                    let port = try await child.waitForLog(server.name) { text in text.firstMatch(of: server.announce).flatMap { Int($0.1) } }
                    for host in ["127.0.0.1", "localhost"] {
                        let answer = try await Self.curl("https://\(host):\(port)\(server.path)", authority: authority)
                        #expect(answer.status == 200, "\(server.name) over https://\(host): \(answer)")
                    }
                    if server.name == "serve" {
                        let health = try await Self.curl("https://127.0.0.1:\(port)/health", authority: authority)
                        #expect(health.body.contains("reachable"), "\(health)")
                    }
                    // A client that does not trust the authority refuses the connection (curl's 60).
                    let untrusted = try await Self.curl("https://127.0.0.1:\(port)\(server.path)", authority: nil)
                    #expect(untrusted.status == nil && untrusted.exit == 60, "\(untrusted)")
                    // Plain HTTP on the same port gets no page.
                    let plain = try await Self.curl("http://127.0.0.1:\(port)\(server.path)", authority: nil)
                    #expect(plain.status != 200, "\(plain)")
                }, cleanup: { await child.kill9() })
        }
    }

    @Test func filesThatCannotBeUsedAreRefusedClearlyBeforeListening() async throws {
        let (first, madeFirst) = try await Self.selfSigned()
        let (second, madeSecond) = try await Self.selfSigned()
        try #require(madeFirst.status == 0 && madeSecond.status == 0)
        let (_, database) = try StationProcess.scratch()
        let cert = first.appendingPathComponent("server.crt").path, key = first.appendingPathComponent("server.key").path
        let otherKey = second.appendingPathComponent("server.key").path
        let cases: [(arguments: [String], says: String)] = [
            (["serve", "--tls-cert", first.appendingPathComponent("nope.crt").path, "--tls-key", key], "does not exist"),
            (["serve", "--tls-cert", cert, "--tls-key", otherKey], "does not belong to the certificate"),
            (["serve", "--tls-cert", key, "--tls-key", key], "holds no PEM certificate"),
            (["serve", "--tls-cert", cert, "--tls-key", cert], "holds no unencrypted PEM private key"),
            (["serve", "--tls-cert", cert], "give --tls-key too"),
            (["office", "--tls-key", key], "give --tls-cert too"),
            (["office", "--tls-cert", cert, "--tls-key", otherKey], "does not belong to the certificate"),
            (["kiosk", "--no-camera", "--tls-cert", cert, "--tls-key", otherKey], "does not belong to the certificate")
        ]
        for (arguments, says) in cases {
            let output = try await StationProcess.run(["--database", database] + arguments + ["--port", "0"], timeout: .seconds(60))
            #expect(output.status != 0 && !output.hung, "\(arguments) ran")
            #expect(output.stderr.contains(says), "\(arguments): \(output.stderr)")
        }
    }
}
