import FuzzEntries
import Foundation
import Testing

/// Each input a fuzzer found goes through the same step as the fuzzer, and must give a clear
/// error or a result: a crash here takes the test process down, which fails the run.
@Suite struct FuzzRegressionTests {
    @Test func everyFolderHoldsInputs() {
        for folder in ["images", "csv", "json"] { #expect(!Regression.all(in: folder).isEmpty, "FuzzRegressions/\(folder) is empty") }
    }

    @Test(arguments: Regression.all(in: "images"))
    func imageIsRefusedClearlyOrDecoded(_ input: Regression) throws {
        let outcome = try ImageFuzzEntry().run(input.bytes)
        switch outcome {
        case .refused(let message):
            #expect(input.expectsRefusal, "refused: \(message)")
            #expect(message.hasPrefix("input: "), "the message names the file: \(message)")
        case .decoded(let width, let height, _):
            #expect(!input.expectsRefusal, "decoded \(width)×\(height)")
            #expect(width > 0 && height > 0)
        }
    }

    @Test(arguments: Regression.all(in: "csv"))
    func csvIsRefusedClearlyOrAccepted(_ input: Regression) {
        switch CSVFuzzEntry.run(input.bytes) {
        case .refused(let problems):
            #expect(input.expectsRefusal, "refused: \(problems)")
            #expect(!problems.isEmpty && problems.allSatisfy { !$0.isEmpty })
        case .accepted(let rows):
            #expect(!input.expectsRefusal, "accepted \(rows) rows")
        }
    }

    @Test(arguments: Regression.all(in: "json"))
    func jsonBodyIsNeverAServerError(_ input: Regression) {
        let outcomes = JSONFuzzEntry.run(input.bytes)
        #expect(outcomes.count == JSONFuzzEntry.bodies.count)
        for outcome in outcomes {
            if case .unexpected(let body, let error) = outcome { Issue.record("\(body) would be a 500: \(error)") }
            if case .refused(_, let status) = outcome { #expect((400..<500).contains(status)) }
        }
    }
}
