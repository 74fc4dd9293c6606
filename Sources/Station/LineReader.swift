import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Lines typed at the terminal (standard input by default) or by a keyboard-wedge scanner, or piped in, read as raw bytes
/// on a thread of their own so that text that is not UTF-8 is caught rather than silently
/// replaced. A line longer than `maxLineBytes` is reported, not kept. The reader stays at
/// most `window` lines ahead of the consumer, so a huge pipe never fills memory.
public struct LineReader: AsyncSequence, Sendable {
    public enum Line: Sendable {
        case text(number: Int, String)
        case notUTF8(number: Int)
        case tooLong(number: Int, bytes: Int)
    }

    public static let maxLineBytes = 64 * 1024
    let window = 256
    let descriptor: Int32

    public init(descriptor: Int32 = STDIN_FILENO) { self.descriptor = descriptor }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Line>.Iterator
        let credit: DispatchSemaphore

        public mutating func next() async -> Line? {
            let item = await base.next()
            if item != nil { credit.signal() }
            return item
        }
    }

    public func makeAsyncIterator() -> Iterator {
        let descriptor = self.descriptor
        let (stream, continuation) = AsyncStream<Line>.makeStream()
        let credit = DispatchSemaphore(value: window)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var line: [UInt8] = []
            var lineBytes = 0
            var number = 0
            func emit() {
                number += 1
                if line.last == 13 { line.removeLast() }
                let item: Line
                if lineBytes > Self.maxLineBytes {
                    item = .tooLong(number: number, bytes: lineBytes)
                } else if let text = String(validating: line, as: UTF8.self) {
                    item = .text(number: number, text)
                } else {
                    item = .notUTF8(number: number)
                }
                line.removeAll(keepingCapacity: true)
                lineBytes = 0
                credit.wait()
                continuation.yield(item)
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for byte in buffer[0..<count] {
                    if byte == 10 {
                        emit()
                        continue
                    }
                    lineBytes += 1
                    if lineBytes <= Self.maxLineBytes { line.append(byte) }
                }
            }
            if lineBytes > 0 || !line.isEmpty { emit() }
            continuation.finish()
        }
        return Iterator(base: stream.makeAsyncIterator(), credit: credit)
    }
}
