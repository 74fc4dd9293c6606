/// Where to look for a Data Matrix that is not on the middle row of an image.
///
/// libzxing 1.4's Data Matrix detector looks for the solid L of a code only along the middle row
/// of the image it is given (the scan of further rows is turned off in that version; try-harder
/// adds an older detector that also starts from the middle). A Data Matrix above or below the
/// middle of a photo is not found, however sharp it is: this is what the `datamatrix-strips`
/// retry pass is for, whatever else damaged the image (defocus, small modules, JPEG noise).
///
/// Each part of the image where `RegionFinder` sees modules, with a margin for the quiet zone, is
/// cut into strips: strips `3s` high, their middle rows `s` apart from `s` above the part to `s`
/// below it, and `2s` wider than the part on each side (a code with large modules is only partly
/// marked), for s = 16, 32, 64, … up to the part's height, largest first (a part is mostly one
/// label and its code). A code between `s` and `2s` high that the part touches then has a strip
/// whose middle row crosses it and that holds all of it.
///
/// The strips are read by zxing alone, for Data Matrix alone: that costs about an eighth of what
/// both engines cost on the same pixels (zbar's scan is most of a pass, docs/FIGURES.md), so
/// strips over up to `maxGrowth` = 8 times the image's pixels cost about one other pass.
enum DataMatrixStrips {
    /// The smallest step: a Data Matrix under 16 pixels high has modules under 1.6 pixels.
    static let minStep = 16
    /// Pixels of margin around each part: the code's quiet zone.
    static let margin = 16
    /// The strips of one image cover at most this many times its pixels: a busy photo, whose
    /// parts with modules cover most of it, gets the strips of its largest parts only.
    static let maxGrowth = 8

    /// The strips of `image`, largest parts first, within `maxGrowth` times its pixels.
    static func strips(in image: GrayImage) -> [PixelRect] {
        guard let regions = RegionFinder.regions(in: image, maxShare: 1) else { return [] }
        var budget = maxGrowth * image.width * image.height
        var strips: [PixelRect] = []
        for region in regions.sorted(by: { $0.area > $1.area }) {
            let part = region.grown(by: margin, within: image)
            let steps = sequence(first: minStep) { $0 * 2 }.prefix { $0 <= part.height }
            for step in steps.reversed() {
                let left = max(0, part.x - 2 * step), right = min(image.width, part.x + part.width + 2 * step)
                for middle in stride(from: part.y - step / 2, to: part.y + part.height + step, by: step) {
                    // The strip keeps `middle` as its middle row, so it is cut evenly at the image's edges.
                    let half = min(3 * step / 2, middle, image.height - middle)
                    let strip = PixelRect(x: left, y: middle - half, width: right - left, height: 2 * half)
                    guard strip.height >= minStep, strip.width >= minStep else { continue }
                    guard strip.area <= budget else { return strips }
                    budget -= strip.area
                    strips.append(strip)
                }
            }
        }
        return strips
    }
}
