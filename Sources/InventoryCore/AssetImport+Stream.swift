extension AssetImport {
    /// Reads CSV that arrives in blocks (a file, a request body) as chunks of rows.
    ///
    /// The header is read and checked here, so a bad header throws `InventoryError.invalid`
    /// before any row reaches the service. The rows are then read only as the consumer asks for
    /// chunks, so no more than a chunk and a block sit in memory. Problems on a line (a wrong
    /// field count, a bad flag, a quote that never closes) travel with its row for the service
    /// to report beside its own; a problem that stops the reader ends the stream with a row that
    /// carries it.
    public static func chunks(
        of blocks: AsyncThrowingStream<[UInt8], any Error>,
        chunkSize: Int = importChunkSize
    ) async throws -> AsyncThrowingStream<[ImportRow], any Error> {
        let source = BlockSource(blocks)
        let record = try await source.nextRecord()
        let columns: [Column]
        do throws(ValidationError) {
            columns = try header(record, problem: source.reader.problem)
        } catch {
            throw InventoryError.invalid(error)
        }
        return AsyncThrowingStream {
            var chunk: [ImportRow] = []
            chunk.reserveCapacity(chunkSize)
            while chunk.count < chunkSize, let record = try await source.nextRecord() {
                if let row = row(record, columns: columns) { chunk.append(row) }
            }
            if chunk.count < chunkSize, let problem = source.takeProblem() {
                chunk.append(ImportRow(line: problem.line, input: AssetInput(), problems: [problem.detail]))
            }
            return chunk.isEmpty ? nil : chunk
        }
    }

    /// The reader and the blocks it is fed from. The stream asks for one chunk at a time, so
    /// the state is never used from two places at once.
    private final class BlockSource: @unchecked Sendable {
        var reader = CSVReader()
        private var blocks: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        private var problemTaken = false

        init(_ blocks: AsyncThrowingStream<[UInt8], any Error>) { self.blocks = blocks.makeAsyncIterator() }

        /// The next record, reading blocks as needed; nil at the end or at a problem.
        func nextRecord() async throws -> CSVReader.Record? {
            while true {
                if let record = reader.next() { return record }
                if reader.problem != nil { return nil }
                guard let block = try await blocks.next() else {
                    reader.finish()
                    return reader.next()
                }
                reader.append(block)
            }
        }

        /// The problem that stopped the reader, once.
        func takeProblem() -> CSVReader.Problem? {
            guard !problemTaken, let problem = reader.problem else { return nil }
            problemTaken = true
            return problem
        }
    }
}
