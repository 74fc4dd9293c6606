import InventoryCore
import Testing

@Suite("Audit progress numbers")
struct AuditProgressTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let total, scanned, unexpected: Int
        let completion: Double
        var testDescription: String { "\(scanned)/\(total)" }
    }

    @Test(
        "missing = total - scanned; completion rounded down to two decimals; 100% when nothing is expected",
        arguments: [
            Row(total: 0, scanned: 0, unexpected: 0, completion: 100),
            Row(total: 0, scanned: 0, unexpected: 5, completion: 100),
            Row(total: 1, scanned: 0, unexpected: 0, completion: 0),
            Row(total: 1, scanned: 1, unexpected: 0, completion: 100),
            Row(total: 3, scanned: 1, unexpected: 0, completion: 33.33),
            Row(total: 3, scanned: 2, unexpected: 1, completion: 66.66),
            Row(total: 7, scanned: 2, unexpected: 2, completion: 28.57),
            Row(total: 8, scanned: 1, unexpected: 0, completion: 12.5),
            Row(total: 200, scanned: 199, unexpected: 0, completion: 99.5),
            Row(total: 20_000, scanned: 19_999, unexpected: 0, completion: 99.99),
            Row(total: 1_000_000, scanned: 999_999, unexpected: 3, completion: 99.99),
            Row(total: 1_000_000, scanned: 1, unexpected: 0, completion: 0),
            Row(total: 1_000_000, scanned: 1_000_000, unexpected: 0, completion: 100)
        ])
    func numbers(_ row: Row) {
        let progress = AuditProgress(totalAssets: row.total, scannedCount: row.scanned, unexpectedCount: row.unexpected)
        #expect(progress.missingCount == row.total - row.scanned)
        #expect(progress.unexpectedCount == row.unexpected)
        #expect(progress.completionPercentage == row.completion)
    }

    @Test func completionReaches100OnlyWhenEverythingIsScanned() {
        for total in [3, 7, 9, 99, 101, 997, 10_007] {
            for scanned in [total - 1, total / 2, 1] {
                let progress = AuditProgress(totalAssets: total, scannedCount: scanned, unexpectedCount: 0)
                #expect(progress.completionPercentage < 100, "\(scanned)/\(total)")
                let exact = Double(scanned) * 100 / Double(total)
                #expect(exact - progress.completionPercentage < 0.01 + 1e-9 && progress.completionPercentage <= exact)
            }
            #expect(AuditProgress(totalAssets: total, scannedCount: total, unexpectedCount: 0).completionPercentage == 100)
        }
    }

    @Test func aSessionCarriesItsProgress() {
        let progress = AuditProgress(totalAssets: 10, scannedCount: 4, unexpectedCount: 2)
        let session = AuditSession(id: "a", country: "SG", progress: progress, startedAt: .now, startedBy: "alice")
        #expect(session.progress == progress && session.isActive && session.missingCount == 6)
        let ended = AuditSession(
            id: "a", country: "SG", progress: progress, startedAt: .now, startedBy: "alice",
            endedAt: .now, endedBy: "bob")
        #expect(!ended.isActive)
    }
}

@Suite("Completion as people read it")
struct CompletionTextTests {
    @Test(
        "One decimal; 100.0% only when nothing is missing, 0.0% only when nothing is scanned",
        arguments: [
            (0.0, "0.0%"), (-1, "0.0%"), (Double.nan, "0.0%"), (0.004, "0.1%"), (12.5, "12.5%"), (12.56, "12.5%"), (13.333, "13.3%"),
            (99.96, "99.9%"), (99.9, "99.9%"), (100, "100.0%"), (50, "50.0%")
        ])
    func completionText(percentage: Double, text: String) {
        #expect(Completion.text(percentage) == text)
    }
}
