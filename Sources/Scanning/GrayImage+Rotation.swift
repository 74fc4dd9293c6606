import Foundation

extension GrayImage {
    /// The image turned by `degrees` (counter-clockwise) about its centre onto a canvas large
    /// enough to hold it, the new corners filled with white. `PassImage` maps points back.
    func rotated(degrees: Double) -> GrayImage {
        let radians = degrees * .pi / 180
        let cosA = cos(radians), sinA = sin(radians)
        let newWidth = Int((abs(Double(width) * cosA) + abs(Double(height) * sinA)).rounded(.up))
        let newHeight = Int((abs(Double(width) * sinA) + abs(Double(height) * cosA)).rounded(.up))
        guard newWidth > 0, newHeight > 0 else { return self }
        var out = [UInt8](repeating: 255, count: newWidth * newHeight)
        let srcCX = Double(width) / 2, srcCY = Double(height) / 2
        let dstCX = Double(newWidth) / 2, dstCY = Double(newHeight) / 2
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<newHeight {
                    let dy = Double(y) + 0.5 - dstCY
                    for x in 0..<newWidth {
                        let dx = Double(x) + 0.5 - dstCX
                        // Inverse rotation: where this output pixel comes from.
                        let sx = cosA * dx - sinA * dy + srcCX - 0.5
                        let sy = sinA * dx + cosA * dy + srcCY - 0.5
                        guard sx >= 0, sy >= 0, sx < Double(width - 1), sy < Double(height - 1) else { continue }
                        let x0 = Int(sx), y0 = Int(sy)
                        let fx = sx - Double(x0), fy = sy - Double(y0)
                        let i = y0 * width + x0
                        let top = Double(src[i]) * (1 - fx) + Double(src[i + 1]) * fx
                        let bottom = Double(src[i + width]) * (1 - fx) + Double(src[i + width + 1]) * fx
                        dst[y * newWidth + x] = UInt8(clamping: Int((top * (1 - fy) + bottom * fy).rounded()))
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }
}
