import CPixels
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
        while low < 255, seen + histogram[low] <= cut {
            seen += histogram[low]
            low += 1
        }
        var high = 255
        seen = 0
        while high > low, seen + histogram[high] <= cut {
            seen += histogram[high]
            high -= 1
        }
        let span = high - low
        guard span > 0, span < 160 else { return nil }
        let table = (0..<256).map { value -> UInt8 in
            UInt8(clamping: (value - low) * 255 / span)
        }
        return GrayImage(width: width, height: height, pixels: pixels.map { table[Int($0)] })
    }

    /// Each `factor`×`factor` block replaced by its mean, rounded down (a fast, clean downscale).
    /// Pixels past the last whole block on the right and at the bottom are left out.
    func averagedDown(by factor: Int) -> GrayImage {
        guard factor > 1, width / factor > 0, height / factor > 0 else { return self }
        return pixels.withUnsafeBufferPointer { source in
            Self.averaged(source.baseAddress!, stride: width, width: width, height: height, by: factor)
        }
    }

    /// `averagedDown(by:)` of `width`×`height` pixels whose rows are `stride` bytes apart (a
    /// decoder's plane, read where it lies); `factor` > 1, and at least one whole block.
    static func averaged(_ src: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, by factor: Int) -> GrayImage {
        let newWidth = width / factor, newHeight = height / factor
        let out = [UInt8](unsafeUninitializedCapacity: newWidth * newHeight) { target, count in
            guard let dst = target.baseAddress else { return }
            if factor == 2 {
                // The camera's 720p frame to 640 px, on every frame: in C, which clang vectorizes.
                cpx_halve(src, stride, newWidth, newHeight, dst)
            } else {
                average(src, width: stride, by: factor, into: dst, newWidth: newWidth, newHeight: newHeight)
            }
            count = newWidth * newHeight
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// `averagedDown(by:)` for any factor: column sums of `factor` rows, then `factor` of them
    /// per output pixel.
    private static func average(
        _ src: UnsafePointer<UInt8>, width: Int, by factor: Int, into dst: UnsafeMutablePointer<UInt8>, newWidth: Int,
        newHeight: Int
    ) {
        let used = newWidth * factor, area = UInt32(factor * factor)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: used)
        defer { sums.deallocate() }
        for y in 0..<newHeight {
            sums.initialize(repeating: 0, count: used)
            for row in (y * factor)..<(y * factor + factor) {
                let line = src + row * width
                for x in 0..<used { sums[x] &+= UInt32(line[x]) }
            }
            let out = dst + y * newWidth
            for x in 0..<newWidth {
                var sum: UInt32 = 0
                for dx in 0..<factor { sum &+= sums[x * factor + dx] }
                out[x] = UInt8(truncatingIfNeeded: sum / area)
            }
        }
    }

    /// Bilinear resize to the given size.
    public func resized(width newWidth: Int, height newHeight: Int) -> GrayImage {
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

    /// The mean of each pixel's (2r+1)² neighbourhood, clipped at the edges. Running sums down
    /// the columns and then along each row need memory for one row of sums, where an integral
    /// image of `Int`s would take 16 bytes a pixel (half a gigabyte for a 32-megapixel pass).
    func boxMeans(radius: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        var means = [UInt8](repeating: 0, count: width * height)
        var columns = [Int](repeating: 0, count: width)
        pixels.withUnsafeBufferPointer { src in
            means.withUnsafeMutableBufferPointer { dst in
                columns.withUnsafeMutableBufferPointer { columns in
                    var top = 0, bottom = 0 // the rows summed in `columns`: top..<bottom
                    for y in 0..<height {
                        while bottom < min(y + radius + 1, height) {
                            for x in 0..<width { columns[x] += Int(src[bottom * width + x]) }
                            bottom += 1
                        }
                        while top < max(y - radius, 0) {
                            for x in 0..<width { columns[x] -= Int(src[top * width + x]) }
                            top += 1
                        }
                        var sum = 0, left = 0, right = 0 // the columns summed in `sum`: left..<right
                        for x in 0..<width {
                            while right < min(x + radius + 1, width) {
                                sum += columns[right]
                                right += 1
                            }
                            while left < max(x - radius, 0) {
                                sum -= columns[left]
                                left += 1
                            }
                            dst[y * width + x] = UInt8(sum / ((bottom - top) * (right - left)))
                        }
                    }
                }
            }
        }
        return means
    }

    /// Each pixel replaced by the mean of its neighbourhood.
    func smoothed(radius: Int = 1) -> GrayImage {
        GrayImage(width: width, height: height, pixels: boxMeans(radius: radius))
    }

    /// The mean of each pixel's 2r+1 neighbours along its column (or row).
    func lineMeans(radius: Int, vertical: Bool) -> GrayImage {
        let (lines, length) = vertical ? (width, height) : (height, width)
        let step = vertical ? width : 1, lineStep = vertical ? 1 : width
        var out = pixels
        for line in 0..<lines {
            let base = line * lineStep
            var sum = 0, count = 0
            for index in 0..<min(radius, length) {
                sum += Int(pixels[base + index * step])
                count += 1
            }
            for position in 0..<length {
                let entering = position + radius, leaving = position - radius - 1
                if entering < length {
                    sum += Int(pixels[base + entering * step])
                    count += 1
                }
                if leaving >= 0 {
                    sum -= Int(pixels[base + leaving * step])
                    count -= 1
                }
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
            out[index] = UInt8(clamping: value + amount * (value - Int(means[index])))
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Black and white against the local mean (helps uneven light and low contrast).
    func locallyThresholded(radius: Int, offset: Int = 4) -> GrayImage {
        let means = boxMeans(radius: radius)
        var out = pixels
        for index in out.indices {
            out[index] = Int(pixels[index]) + offset < Int(means[index]) ? 0 : 255
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}

/// Motion blur: its length estimated from the image, and undone.
extension GrayImage {
    /// The shortest and longest motion blur the `deblur-*` passes look for, in pixels: a shorter
    /// one is what `sharpen` is for, and a longer one leaves too little of a code to restore.
    static let motionBlurLengths = 4...20
    /// Rounds of `deblurred(length:vertical:)`'s accelerated Richardson–Lucy: on QR and Data Matrix
    /// codes of 3–6 px modules blurred over 5–13 px, with noise and JPEG, 15 rounds read clearly
    /// fewer (and 10 fewer still); each round costs about 1 ns a pixel.
    static let deblurRounds = 20

    /// The length of a motion blur along the rows (or down the columns), or nil when the image
    /// shows none: the lag in `motionBlurLengths` at which the differences between neighbouring
    /// pixels correlate least (each difference of a blurred image is the difference of two pixels
    /// that far apart in the sharp one), when that correlation is negative. In a direction with
    /// no blur it finds the pitch of the modules or bars instead: that pass then only costs time.
    func motionBlurLength(vertical: Bool) -> Int? {
        let lengths = Self.motionBlurLengths
        guard (vertical ? height : width) > 2 * lengths.upperBound, width > 1, height > 1 else { return nil }
        var sums = [Int64](repeating: 0, count: lengths.upperBound + 1)
        var scratch = [Int16](repeating: 0, count: (lengths.upperBound + 1) * width)
        pixels.withUnsafeBufferPointer { source in
            sums.withUnsafeMutableBufferPointer { sums in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    guard let src = source.baseAddress, let out = sums.baseAddress, let work = scratch.baseAddress else { return }
                    cpx_difference_correlation(src, width, height, vertical ? 1 : 0, lengths.upperBound, out, work)
                }
            }
        }
        guard sums[0] > 0, let lag = lengths.min(by: { sums[$0] < sums[$1] }), sums[lag] < 0 else { return nil }
        return lag
    }

    /// The image with a motion blur `length` pixels long along its rows (or down its columns)
    /// undone by `deblurRounds` rounds of Richardson–Lucy deconvolution (in C: `cpx_deblur_columns`,
    /// the rows by way of the transposed image).
    func deblurred(length: Int, vertical: Bool) -> GrayImage {
        guard width > 0, height > 0, length > 1 else { return self }
        let (lines, along) = vertical ? (width, height) : (height, width)
        let source = vertical ? pixels : transposed()
        var scratch = [Float](repeating: 0, count: lines * (along + length + 4))
        var out = source.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { scratch in
                [UInt8](unsafeUninitializedCapacity: lines * along) { target, count in
                    guard let src = source.baseAddress, let dst = target.baseAddress, let work = scratch.baseAddress else { return }
                    cpx_deblur_columns(src, lines, along, length, Int32(Self.deblurRounds), dst, work)
                    count = lines * along
                }
            }
        }
        if !vertical { out = GrayImage(width: height, height: width, pixels: out).transposed() }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// The pixels turned about the diagonal: a `height` × `width` image's, row by row.
    func transposed() -> [UInt8] {
        pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: width * height) { target, count in
                guard let src = source.baseAddress, let dst = target.baseAddress else { return }
                cpx_transpose(src, width, height, dst)
                count = width * height
            }
        }
    }
}
