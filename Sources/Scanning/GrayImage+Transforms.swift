import Foundation

/// Copies of an image that give zbar a second chance on a hard image.
extension GrayImage {
    /// The image with dark and light swapped (light codes on a dark background).
    func inverted() -> GrayImage {
        GrayImage(width: width, height: height, pixels: pixels.map { 255 &- $0 })
    }

    /// The image with its 1st–99th percentile range stretched to 0–255, or nil when the
    /// image already uses most of the range.
    func contrastStretched() -> GrayImage? {
        guard !pixels.isEmpty else { return nil }
        var histogram = [Int](repeating: 0, count: 256)
        for value in pixels { histogram[Int(value)] += 1 }
        let cut = pixels.count / 100
        var low = 0, seen = 0
        while low < 255, seen + histogram[low] <= cut { seen += histogram[low]; low += 1 }
        var high = 255
        seen = 0
        while high > low, seen + histogram[high] <= cut { seen += histogram[high]; high -= 1 }
        let span = high - low
        guard span > 0, span < 160 else { return nil }
        let table = (0..<256).map { value -> UInt8 in
            UInt8(clamping: (value - low) * 255 / span)
        }
        return GrayImage(width: width, height: height, pixels: pixels.map { table[Int($0)] })
    }

    /// Each `factor`×`factor` block replaced by its mean (a fast, clean downscale).
    func averagedDown(by factor: Int) -> GrayImage {
        let newWidth = width / factor, newHeight = height / factor
        guard factor > 1, newWidth > 0, newHeight > 0 else { return self }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let area = factor * factor
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var sums = [Int](repeating: 0, count: newWidth)
                for y in 0..<newHeight {
                    for x in 0..<newWidth { sums[x] = 0 }
                    for row in (y * factor)..<(y * factor + factor) {
                        let base = row * width
                        for x in 0..<newWidth {
                            var sum = 0
                            for dx in 0..<factor { sum += Int(src[base + x * factor + dx]) }
                            sums[x] += sum
                        }
                    }
                    for x in 0..<newWidth { dst[y * newWidth + x] = UInt8(sums[x] / area) }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// Bilinear resize to the given size.
    func resized(width newWidth: Int, height newHeight: Int) -> GrayImage {
        guard newWidth > 0, newHeight > 0, width > 0, height > 0 else {
            return GrayImage(width: max(newWidth, 0), height: max(newHeight, 0))
        }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        let scaleX = Double(width) / Double(newWidth)
        let scaleY = Double(height) / Double(newHeight)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<newHeight {
                    let sy = min(max((Double(y) + 0.5) * scaleY - 0.5, 0), Double(height - 1))
                    let y0 = Int(sy), y1 = min(y0 + 1, height - 1)
                    let fy = sy - Double(y0)
                    for x in 0..<newWidth {
                        let sx = min(max((Double(x) + 0.5) * scaleX - 0.5, 0), Double(width - 1))
                        let x0 = Int(sx), x1 = min(x0 + 1, width - 1)
                        let fx = sx - Double(x0)
                        let top = Double(src[y0 * width + x0]) * (1 - fx) + Double(src[y0 * width + x1]) * fx
                        let bottom = Double(src[y1 * width + x0]) * (1 - fx) + Double(src[y1 * width + x1]) * fx
                        dst[y * newWidth + x] = UInt8(clamping: Int((top * (1 - fy) + bottom * fy).rounded()))
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// The mean of each pixel's (2r+1)² neighbourhood, through an integral image.
    func boxMeans(radius: Int) -> [Int] {
        let stride = width + 1
        var integral = [Int](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var rowSum = 0
            for x in 0..<width {
                rowSum += Int(pixels[y * width + x])
                integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1] + rowSum
            }
        }
        var means = [Int](repeating: 0, count: width * height)
        for y in 0..<height {
            let top = max(y - radius, 0), bottom = min(y + radius + 1, height)
            for x in 0..<width {
                let left = max(x - radius, 0), right = min(x + radius + 1, width)
                let sum = integral[bottom * stride + right] - integral[top * stride + right]
                    - integral[bottom * stride + left] + integral[top * stride + left]
                means[y * width + x] = sum / ((bottom - top) * (right - left))
            }
        }
        return means
    }

    /// Each pixel replaced by the mean of its neighbourhood.
    func smoothed(radius: Int = 1) -> GrayImage {
        GrayImage(width: width, height: height, pixels: boxMeans(radius: radius).map { UInt8(clamping: $0) })
    }

    /// The mean of each pixel's 2r+1 neighbours along its column (or row).
    func lineMeans(radius: Int, vertical: Bool) -> GrayImage {
        let (lines, length) = vertical ? (width, height) : (height, width)
        let step = vertical ? width : 1, lineStep = vertical ? 1 : width
        var out = pixels
        for line in 0..<lines {
            let base = line * lineStep
            var sum = 0, count = 0
            for index in 0..<min(radius, length) { sum += Int(pixels[base + index * step]); count += 1 }
            for position in 0..<length {
                let entering = position + radius, leaving = position - radius - 1
                if entering < length { sum += Int(pixels[base + entering * step]); count += 1 }
                if leaving >= 0 { sum -= Int(pixels[base + leaving * step]); count -= 1 }
                out[base + position * step] = UInt8(clamping: sum / count)
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Unsharp mask: each pixel pushed away from its local mean (helps slightly blurred codes).
    func sharpened(radius: Int = 2, amount: Int = 2) -> GrayImage {
        let means = boxMeans(radius: radius)
        var out = pixels
        for index in out.indices {
            let value = Int(pixels[index])
            out[index] = UInt8(clamping: value + amount * (value - means[index]))
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Black and white against the local mean (helps uneven light and low contrast).
    func locallyThresholded(radius: Int, offset: Int = 4) -> GrayImage {
        let means = boxMeans(radius: radius)
        var out = pixels
        for index in out.indices {
            out[index] = Int(pixels[index]) + offset < means[index] ? 0 : 255
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
