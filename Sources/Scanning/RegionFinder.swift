import CPixels

/// A rectangle of an image, in pixels.
struct PixelRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int
    var area: Int { width * height }
}

/// Where a frame may hold a code, so that zbar can read those parts at full size instead of
/// the whole frame averaged down (zbar's cost grows with the pixels it scans: a whole 720p
/// frame costs it about 20 ms, see docs/FIGURES.md).
///
/// The frame is cut into blocks of 16×16 pixels. Along every fourth row and column, each pair
/// of neighbouring pixels that differ by at least 20 grey levels is a transition; a block with
/// at least 12 is marked. Bars and modules of every symbology give many (text does too, which
/// costs only time); paper, walls and camera noise give few. Marked blocks grow by one block
/// on each side, for quiet zones and the ends of codes whose middle alone was marked, and each
/// group of touching blocks becomes one rectangle. The transitions are counted at full size,
/// so a code with 1-pixel bars is found as well as a large one.
enum RegionFinder {
    static let block = 16
    static let step = 4
    static let threshold = 20
    static let minTransitions = 12
    static let grow = 1

    /// The rectangles to scan, or nil when they would cover more than `maxShare` of the image
    /// (a busy scene: scanning it whole, reduced, costs less).
    static func regions(in image: GrayImage, maxShare: Double = 0.4) -> [PixelRect]? {
        let columns = image.width / block, rows = image.height / block
        guard columns > 0, rows > 0 else { return nil }
        let counts = transitions(in: image, columns: columns, rows: rows)
        var grown = [Bool](repeating: false, count: columns * rows)
        for row in 0..<rows {
            for column in 0..<columns where counts[row * columns + column] >= minTransitions {
                for r in max(0, row - grow)...min(rows - 1, row + grow) {
                    for c in max(0, column - grow)...min(columns - 1, column + grow) { grown[r * columns + c] = true }
                }
            }
        }
        var rectangles: [PixelRect] = []
        var seen = [Bool](repeating: false, count: columns * rows)
        for start in 0..<(columns * rows) where grown[start] && !seen[start] {
            var stack = [start]
            seen[start] = true
            var minRow = rows, maxRow = -1, minColumn = columns, maxColumn = -1
            while let cell = stack.popLast() {
                let row = cell / columns, column = cell % columns
                minRow = min(minRow, row)
                maxRow = max(maxRow, row)
                minColumn = min(minColumn, column)
                maxColumn = max(maxColumn, column)
                for (r, c) in [(row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)] {
                    guard r >= 0, r < rows, c >= 0, c < columns else { continue }
                    let next = r * columns + c
                    if grown[next] && !seen[next] {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
            // The last block row and column reach the image's edge (its leftover pixels).
            let right = maxColumn == columns - 1 ? image.width : (maxColumn + 1) * block
            let bottom = maxRow == rows - 1 ? image.height : (maxRow + 1) * block
            rectangles.append(
                PixelRect(
                    x: minColumn * block, y: minRow * block, width: right - minColumn * block,
                    height: bottom - minRow * block))
        }
        // Rectangles of different groups may overlap: each group's own rectangle holds the whole
        // of any code in it, so they are scanned apart (and the overlap twice) rather than as
        // one larger rectangle.
        let covered = rectangles.reduce(0) { $0 + $1.area }
        return Double(covered) > maxShare * Double(image.width * image.height) ? nil : rectangles
    }

    /// Each block's transitions (`cpx_transitions`, whose loops clang vectorizes: a line at a
    /// time rather than every `step`-th column), row by row.
    static func transitions(in image: GrayImage, columns: Int, rows: Int) -> [Int] {
        precondition(block == 16 && step == 4, "cpx_transitions counts 16×16 blocks along every 4th line and column")
        precondition(columns > 0 && rows > 0 && columns * block <= image.width && rows * block <= image.height)
        var counts = [Int32](repeating: 0, count: columns * rows)
        var scratch = [UInt8](repeating: 0, count: 2 * columns * block)
        image.pixels.withUnsafeBufferPointer { pixels in
            cpx_transitions(
                pixels.baseAddress, image.width, columns, rows, UInt8(threshold), &counts, &scratch)
        }
        return counts.map { Int($0) }
    }
}
