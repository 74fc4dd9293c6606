import AuditTestSupport
import Foundation
import Testing

/// scripts/schemathesis.sh, bounded, against the built `audit-station serve`: every operation of
/// /openapi.yaml with a few generated requests, none answered 5xx, every answer as documented.
@Suite struct SchemathesisTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/schemathesis.sh")

    @Test func everyOperationAnswersWithoutServerErrorsAndAsDocumented() async throws {
        let (status, text) = try await offPool { try Self.run() }
        #expect(status == 0, "schemathesis found problems:\n\(text.suffix(6000))")
        #expect(text.contains("passed"), "no summary from schemathesis:\n\(text.suffix(2000))")
    }

    private static func run() throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", script.path, "5", "120"]
        var environment = ProcessInfo.processInfo.environment
        environment["AUDIT_STATION"] = StationProcess.executable.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
