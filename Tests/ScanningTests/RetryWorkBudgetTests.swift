@testable import Scanning
import Testing

@Suite("Retry passes share one budget of work and memory per image")
struct RetryWorkBudgetTests {
    @Test func aHugeImageGetsOnlyThePassesThatFitTheBudget() {
        let image = GrayImage(width: 5_600, height: 5_600, fill: 255)
        let scanned = image.width * image.height
        let plan = RetryPass.plan(RetryPass.allCases, for: image, alreadyScanned: scanned)
        let planned = plan.compactMap { $0.outputSize(of: image) }.reduce(scanned) { $0 + $1.0 * $1.1 }
        #expect(planned <= RetryPass.maxPixelsPerImage)
        #expect(plan == [.contrastStretched], "31.4 million pixels rescanned, one pass of as many, and no room for more")
    }

    @Test func aSmallerPassStillRunsAfterALargerOneIsSkipped() {
        let image = GrayImage(width: 4_000, height: 4_000, fill: 128)
        let plan = RetryPass.plan([.inverted, .smoothed, .rotatedLeft, .halved], for: image, alreadyScanned: 16_000_000)
        #expect(plan == [.inverted, .smoothed, .halved], "the 32-megapixel turn does not fit; the 4-megapixel half does")
    }

    @Test func anOrdinaryPhotoStillGetsEveryPass() {
        let photo = GrayImage(width: 1_280, height: 720, fill: 128)
        #expect(
            RetryPass.plan(RetryPass.allCases, for: photo, alreadyScanned: photo.width * photo.height)
                == RetryPass.allCases.filter { $0 != .doubled }, "doubling is only for images up to 1024 pixels")
    }

    @Test func aTwelveMegapixelPhotoGetsItsRetriesOnAReducedCopyWithinItsBudget() {
        let photo = GrayImage(width: 4_000, height: 3_000, fill: 128)
        #expect(RetryPass.reduction(for: photo) == 3)
        let base = photo.averagedDown(by: 3)
        #expect(base.width * base.height <= RetryPass.maxRetryPixels)
        let plan = RetryPass.plan(RetryPass.allCases, for: base, alreadyScanned: 0, budget: RetryPass.reducedRetryBudget)
        let scanned = plan.compactMap { $0.outputSize(of: base) }.reduce(0) { $0 + $1.0 * $1.1 }
        #expect(!plan.isEmpty && scanned <= RetryPass.reducedRetryBudget)
        #expect(plan == [.contrastStretched, .inverted, .halved, .smoothed], "four passes fit the budget of 150 ms with the strips")
        // The Data Matrix strips have room of their own, and go first.
        let reduced = RetryPass.reducedPlan(RetryPass.allCases, for: base)
        #expect(reduced == [.dataMatrixStrips] + plan, "\(reduced)")
        #expect(!plan.contains(.dataMatrixStrips), "the other passes use the budget up without the strips")
        #expect(RetryPass.reducedPlan([.inverted, .dataMatrixStrips], for: base) == [.dataMatrixStrips, .inverted])
        #expect(RetryPass.reducedPlan([.inverted], for: base) == [.inverted], "no strips unless configured")
        // A camera-sized or smaller image keeps its retries at full size.
        #expect(RetryPass.reduction(for: GrayImage(width: 1_280, height: 960, fill: 0)) == 1)
    }

    @Test("box means equal the plain mean of each clipped neighbourhood", arguments: [(1, 1, 1), (7, 5, 1), (13, 9, 2), (6, 17, 4), (5, 4, 30)])
    func boxMeansMatchThePlainMean(width: Int, height: Int, radius: Int) {
        let pixels = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ $0 / 3 &* 31) }
        let image = GrayImage(width: width, height: height, pixels: pixels)
        let means = image.boxMeans(radius: radius)
        for y in 0..<height {
            for x in 0..<width {
                let rows = max(y - radius, 0)..<min(y + radius + 1, height)
                let columns = max(x - radius, 0)..<min(x + radius + 1, width)
                let sum = rows.flatMap { row in columns.map { Int(pixels[row * width + $0]) } }.reduce(0, +)
                #expect(Int(means[y * width + x]) == sum / (rows.count * columns.count), "at \(x),\(y)")
            }
        }
    }
}
