import AuditTestSupport
import Foundation
import Testing
import TestKit

/// scripts/schemathesis.sh, bounded, against the built `audit-station serve`: every operation of
/// /openapi.yaml with a few generated requests, none answered 5xx, every answer as documented. The
/// examples phase runs whole, then the coverage phase (about 2,500 requests in all, 30 s on an idle
/// machine) for what is left of 30 s: a cap on the CPU it takes from every other test beside it.
/// The random fuzzing phase, and the coverage phase whole, are for longer runs (docs/testing.md,
/// "Fuzzing and schema testing").
@Suite struct SchemathesisTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/schemathesis.sh")

    @Test func everyOperationAnswersWithoutServerErrorsAndAsDocumented() async throws {
        let output = try await Child.run(
            "/usr/bin/env", ["bash", Self.script.path, "5", "30"],
            environment: ["AUDIT_STATION": StationProcess.executable.path, "SCHEMATHESIS_PHASES": "examples,coverage"])
        let (status, text) = (output.status, output.stdout + output.stderr)
        #expect(status == 0, "schemathesis found problems:\n\(text.suffix(6000))")
        #expect(text.contains("passed"), "no summary from schemathesis:\n\(text.suffix(2000))")
    }
}
