import Foundation

/// A file read in blocks, as a stream that reads the next block only when it is asked for, so a
/// file of any size passes through a fixed amount of memory.
public enum FileBlocks {
    public static let blockSize = 1 << 20

    /// Streams the bytes of an open file and closes it at the end. `read(total)` is told how
    /// many bytes have been read so far.
    public static func stream(
        _ handle: FileHandle, blockSize: Int = blockSize,
        read: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        let source = Source(handle: handle)
        return AsyncThrowingStream { try source.next(blockSize, read: read) }
    }

    /// The stream asks for one block at a time, so the state is never used from two places.
    private final class Source: @unchecked Sendable {
        private let handle: FileHandle
        private var total = 0
        init(handle: FileHandle) { self.handle = handle }

        func next(_ size: Int, read: (Int) -> Void) throws -> [UInt8]? {
            guard let data = try handle.read(upToCount: size), !data.isEmpty else {
                try? handle.close()
                return nil
            }
            total += data.count
            read(total)
            return [UInt8](data)
        }
    }
}
