import Foundation
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Kills the station with SIGKILL in the middle of a stream of scans: everything it printed
/// must be in the database, and nothing may be counted twice.
@Suite struct CrashTests {
    @Test(arguments: 0..<3)
    func killedMidStreamLosesNothingItPrinted(run: Int) throws {
        signal(SIGPIPE, SIG_IGN)
        let (_, database) = try ManualScanTests.prepared(assets: 2000)
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

        let process = Process()
        process.executableURL = StationProcess.executable
        process.arguments = ["--database", database, "audit", "scan", "--json", "--user", "crash"]
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let input = Data(lines.joined(separator: "\n").utf8)
        Thread.detachNewThread {
            // Small writes, so the kill lands while input is still arriving.
            var offset = 0
            while offset < input.count {
                let end = min(offset + 512, input.count)
                do { try stdin.fileHandleForWriting.write(contentsOf: input[offset..<end]) } catch { return }
                offset = end
            }
            try? stdin.fileHandleForWriting.close()
        }
        var printed = Data()
        var killed = false
        while true {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
            if !killed && printed.filter({ $0 == 10 }).count >= killAfter {
                kill(process.processIdentifier, SIGKILL)
                killed = true
            }
        }
        process.waitUntilExit()
        #expect(killed, "the station finished all \(lines.count) scans before \(killAfter) lines were printed")

        // Only complete lines were printed; a torn last line was never acknowledged.
        let complete = String(decoding: printed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            .dropLast(printed.last == 10 ? 0 : 1)
        let outcomes = try complete.map { try jsonObject(String($0)) }
        #expect(outcomes.count >= killAfter - 1, "run \(run): \(outcomes.count) outcomes, kill after \(killAfter)")

        let queue = try DatabaseQueue(path: database)
        try queue.read { db in
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
