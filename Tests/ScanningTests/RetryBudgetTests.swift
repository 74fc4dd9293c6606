import Foundation
@testable import Scanning
import Testing

@Suite("Retry passes stay within a pixel budget")
struct RetryBudgetTests {
    @Test(
        "no pass makes more than 4 times the pixels it starts from, or 32 million",
        arguments: [
            (1, 65_000), (65_000, 1), (3, 40_000), (40_000, 3), (9, 30_000), (640, 480), (1280, 720), (4000, 3000), (1, 1)
        ])
    func everyPassIsBounded(width: Int, height: Int) {
        let image = GrayImage(width: width, height: height, fill: 128)
        for pass in RetryPass.allCases {
            guard let made = pass.apply(to: image) else { continue }
            let pixels = made.image.width * made.image.height
            #expect(pixels <= RetryPass.maxPixels, "\(pass) on \(width)x\(height) made \(made.image.width)x\(made.image.height)")
            #expect(pixels <= max(width * height, 1) * RetryPass.maxGrowth, "\(pass) on \(width)x\(height)")
        }
    }

    @Test func ordinaryPhotosStillGetEveryPass() {
        let photo = GrayImage(width: 640, height: 480, fill: 128)
        #expect(RetryPass.rotatedLeft.apply(to: photo) != nil)
        #expect(RetryPass.doubled.apply(to: photo) != nil)
        #expect(RetryPass.halved.apply(to: photo) != nil)
        #expect(RetryPass.rotatedRight.apply(to: GrayImage(width: 1, height: 65_000, fill: 128)) == nil)
    }
}
