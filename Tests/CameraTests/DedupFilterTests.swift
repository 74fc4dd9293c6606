import Testing
@testable import Scanning

/// The de-duplication rules, frame by frame, with capture times in seconds.
struct DedupFilterTests {
    func code(_ text: String, _ symbology: Symbology = .qrcode) -> DecodedCode {
        DecodedCode(text: text, symbology: symbology, points: [], quality: 1)
    }

    func run(_ filter: inout DedupFilter, _ frames: [(Double, [DecodedCode])]) -> [String] {
        frames.flatMap { time, codes in
            filter.process(codes, at: time).map { "\($0.code.text)@\(time)\($0.isReappearance ? " again" : "")" }
        }
    }

    @Test func codeHeldInViewCountsOnce() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 3, confirmSymbologies: [.ean13])
        let frames = (0..<30).map { (Double($0) / 30, [code("TAG-1")]) }
        #expect(run(&filter, frames) == ["TAG-1@0.0"])
    }

    @Test func briefMissDoesNotCountAgain() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 3, confirmSymbologies: [])
        let accepted = run(&filter, [(0, [code("A")]), (0.2, []), (0.5, []), (0.9, [code("A")]), (1.5, [code("A")])])
        #expect(accepted == ["A@0.0"])
    }

    @Test func codeBackAfterGoneTimeCountsAsReappearance() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 3, confirmSymbologies: [])
        let accepted = run(&filter, [(0, [code("A")]), (0.5, [code("A")]), (1.0, []), (1.6, []), (1.7, [code("A")])])
        #expect(accepted == ["A@0.0", "A@1.7 again"])
    }

    @Test func weakSymbologyNeedsConsecutiveFrames() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 3, confirmSymbologies: [.ean13])
        let ean = code("4006381333931", .ean13)
        let accepted = run(&filter, [(0.0, [ean]), (0.1, [ean]), (0.2, []), (0.3, [ean]), (0.4, [ean]), (0.5, [ean])])
        #expect(accepted == ["4006381333931@0.5"])
    }

    @Test func oneFrameMisreadOfWeakSymbologyIsNeverAccepted() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 2, confirmSymbologies: [.ean13])
        let frames = (0..<20).map { i in (Double(i) / 10, i % 2 == 0 ? [code("1234567890128", .ean13)] : []) }
        #expect(run(&filter, frames).isEmpty)
    }

    @Test func sameTextInAnotherSymbologyIsAnotherCode() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 1, confirmSymbologies: [])
        let accepted = run(&filter, [(0, [code("42", .qrcode), code("42", .code128)]), (0.1, [code("42", .qrcode)])])
        #expect(accepted == ["42@0.0", "42@0.0"])
    }

    @Test func duplicatesWithinOneFrameCountOnce() {
        var filter = DedupFilter(goneAfter: 1, confirmFrames: 1, confirmSymbologies: [])
        #expect(run(&filter, [(0, [code("A"), code("A"), code("B")])]) == ["A@0.0", "B@0.0"])
    }

    @Test func forgottenCodesBeyondCapacityCountAsNew() {
        var filter = DedupFilter(goneAfter: 0.5, confirmFrames: 1, confirmSymbologies: [], capacity: 2)
        let frames: [(Double, [DecodedCode])] = [(0, [code("A")]), (2, [code("B")]), (4, [code("C")]), (6, [code("A")])]
        #expect(run(&filter, frames) == ["A@0.0", "B@2.0", "C@4.0", "A@6.0"])
    }
}
