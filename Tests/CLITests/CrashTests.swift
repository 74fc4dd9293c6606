import Foundation
import GRDB
import Testing
import TestKit
#if canImport(Glibc)
    import Glibc
#endif

/// Kills the station with SIGKILL in the middle of a stream of scans: everything it printed
/// must be in the database, and nothing may be counted twice. The kill comes after a number of
/// printed lines, not after a time, so this runs beside everything else.
@Suite struct CrashTests {
    @Test(arguments: 0..<3)
    func killedMidStreamLosesNothingItPrinted(run: Int) async throws {
        let (_, database) = try await ManualScanTests.prepared(assets: 2000)
        var generator = SystemRandomNumberGenerator()
        let killAfter = Int.random(in: 20...1500, using: &generator)
        var lines: [String] = []
        for n in 0..<6000 {
            switch n % 10 {
            case 7: lines.append("UNKNOWN-\(n % 40)")
            case 8: lines.append("MY-1")
            default: lines.append("SG-\(Int.random(in: 1...2000, using: &generator))")
            }
        }

        let input = Data(lines.joined(separator: "\n").utf8)
        let (printed, killed) = try await Child.stream(
            StationProcess.executable.path, ["--database", database, "audit", "scan", "--json", "--user", "crash"]
        ) { pid, stdin, output in
            // Small writes, so the kill lands while input is still arriving.
            let writer = Task {
                var offset = 0
                while offset < input.count {
                    let end = min(offset + 512, input.count)
                    do { try await stdin.write(input[offset..<end]) } catch { return }
                    offset = end
                }
                try? await stdin.finish()
            }
            defer { writer.cancel() }
            // Whole lines only (see Child.stream): a torn last line was never acknowledged.
            var printed: [String] = []
            var killed = false
            for try await line in output {
                printed.append(line)
                if !killed && printed.count >= killAfter {
                    kill(pid, SIGKILL)
                    killed = true
                }
            }
            return (printed, killed)
        }.result
        #expect(killed, "the station finished all \(lines.count) scans before \(killAfter) lines were printed")

        #expect(printed.count >= killAfter - 1, "run \(run): \(printed.count) outcomes, kill after \(killAfter)")

        let queue = try DatabaseQueue(path: database)
        try await queue.read { db in
            let outcomes = try printed.map(jsonObject)
            for outcome in outcomes {
                let scanID = try #require(outcome["scan_id"] as? String)
                let status = try String.fetchOne(db, sql: "SELECT status FROM scans WHERE scan_id = ?", arguments: [scanID])
                #expect(status == outcome["status"] as? String, "printed scan \(scanID) must be stored with its outcome")
            }
            let audit = try #require(try Row.fetchOne(db, sql: "SELECT * FROM audits"))
            let scanned: Int = audit["scanned_count"]
            let unexpected: Int = audit["unexpected_count"]
            let foundScans = try Int.fetchOne(db, sql: "SELECT count(*) FROM scans WHERE status = 'found_expected'")
            let distinctFound = try Int.fetchOne(db, sql: "SELECT count(DISTINCT asset_id) FROM scans WHERE status = 'found_expected'")
            let markedExpected = try Int.fetchOne(db, sql: "SELECT count(*) FROM audit_expected WHERE first_scan_id IS NOT NULL")
            let unexpectedRows = try Int.fetchOne(db, sql: "SELECT count(*) FROM audit_unexpected")
            #expect(foundScans == distinctFound, "an asset was counted as found twice")
            #expect(scanned == foundScans)
            #expect(scanned == markedExpected)
            #expect(unexpected == unexpectedRows)
            let lastPrinted = try #require(outcomes.last?["progress"] as? [String: Any])
            #expect((lastPrinted["scanned_count"] as? Int ?? .max) <= scanned)
        }
    }
}
