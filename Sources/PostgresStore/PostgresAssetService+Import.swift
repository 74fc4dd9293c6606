import Foundation
import InventoryCore
import NIOCore
import PostgresNIO

extension PostgresAssetService {
    /// Most problems listed in one import error, as on SQLite; the count says how many in all.
    static let importProblemLimit = 50

    /// Checks and stores each chunk as it arrives, in one transaction for the whole stream (see
    /// the protocol for the contract). Each chunk is copied (COPY FROM STDIN) into a temporary
    /// table, then inserted in one statement that skips rows whose tag or serial is taken; the
    /// skipped rows are then explained from the inventory and from the lines stored so far
    /// (`import_lines`, which maps each stored asset back to its line). Memory follows the chunk.
    /// Any problem rolls everything back once the stream has been read to its end.
    public func importAssets(
        streaming chunks: AsyncThrowingStream<[ImportRow], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int {
        let now = Date()
        let caseSensitive = caseSensitive
        let count = try await database.transaction { c in
            try await c.run(
                """
                CREATE TEMP TABLE import_rows (line INTEGER PRIMARY KEY, asset_tag TEXT, serial_num TEXT, name TEXT, model TEXT,
                    status TEXT, condition TEXT, manufacturer TEXT, asset_type TEXT, cpu_type TEXT, cpu_cores TEXT, memory TEXT,
                    harddrive TEXT, country TEXT, location TEXT, company TEXT, customer_id BIGINT, notes TEXT, tech_notes TEXT,
                    is_erased BOOLEAN, has_keyboard BOOLEAN, has_charger BOOLEAN, created_at TIMESTAMPTZ, updated_at TIMESTAMPTZ)
                    ON COMMIT DROP
                """)
            // Indexed only once a chunk has rows to explain (`ImportLines`): most imports never do.
            try await c.run("CREATE TEMP TABLE import_lines (line INTEGER NOT NULL, asset_id BIGINT NOT NULL) ON COMMIT DROP")
            var problems = ImportProblems()
            var taken = 0, stored = 0
            var lines = ImportLines()
            for try await chunk in chunks {
                if taken > 0 { progress(taken) }
                var chunkProblems: [(line: Int, messages: [String])] = []
                let assets = Self.prepare(chunk, now: now, caseSensitive: caseSensitive, problems: &chunkProblems)
                if !assets.isEmpty {
                    stored += try await Self.store(c, assets, caseSensitive: caseSensitive, lines: &lines, problems: &chunkProblems)
                }
                for problem in chunkProblems.sorted(by: { $0.line < $1.line }) { problems.report(problem.line, problem.messages) }
                taken += chunk.count
            }
            guard problems.count == 0 else { throw problems.error }
            return stored
        }
        progress(count)
        return count
    }

    /// The chunk's rows as assets, leaving out (and reporting) rows with problems of their own
    /// and, when identifiers ignore case, rows whose tag or serial repeats an earlier row of the
    /// same chunk only in case (the unique indexes compare exactly; later chunks are checked
    /// against the stored rows in SQL).
    static func prepare(
        _ chunk: [ImportRow], now: Date, caseSensitive: Bool,
        problems: inout [(line: Int, messages: [String])]
    ) -> [(line: Int, asset: Asset)] {
        var tags: [String: Int] = [:], serials: [String: Int] = [:]
        var assets: [(line: Int, asset: Asset)] = []
        for row in chunk {
            guard row.problems.isEmpty else {
                problems.append((row.line, row.problems))
                continue
            }
            do {
                let asset = try row.input.makeAsset(now: now)
                if !caseSensitive {
                    if let first = tags.updateValue(row.line, forKey: fold(asset.assetTag)) {
                        problems.append((row.line, ["asset_tag '\(asset.assetTag)' repeats line \(first)"]))
                        continue
                    }
                    if let serial = asset.serialNum, let first = serials.updateValue(row.line, forKey: fold(serial)) {
                        problems.append((row.line, ["serial_num '\(serial)' repeats line \(first)"]))
                        continue
                    }
                }
                assets.append((row.line, asset))
            } catch {
                problems.append((row.line, [error.errorDescription ?? "invalid row"]))
            }
        }
        return assets
    }

    /// Stores one chunk's assets; returns how many were stored and adds the others' problems.
    static func store(
        _ c: PostgresConnection, _ assets: [(line: Int, asset: Asset)], caseSensitive: Bool, lines: inout ImportLines,
        problems: inout [(line: Int, messages: [String])]
    ) async throws -> Int {
        try await c.run("TRUNCATE import_rows")
        let stamp = CopyText.stamp(assets[0].asset.createdAt)
        try await c.copyFrom(table: "import_rows", columns: ["line"] + columns, logger: PostgresDatabase.logger) { writer in
            var buffer = ByteBuffer()
            for (line, asset) in assets {
                CopyText.append(asset, line: line, stamp: stamp, to: &buffer)
                if buffer.readableBytes > 1 << 16 {
                    try await writer.write(buffer)
                    buffer.clear()
                }
            }
            try await writer.write(buffer)
        }
        // Temporary tables get no statistics of their own; without them the planner may join
        // the chunk's rows one by one. The first chunk's are kept for the others, which are
        // alike (TRUNCATE keeps them).
        if !lines.analyzed {
            try await c.run("ANALYZE import_rows")
            lines.analyzed = true
        }
        var candidates = assets.count
        for row in try await c.rows(
            """
            DELETE FROM import_rows r WHERE r.customer_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM customers WHERE id = r.customer_id)
            RETURNING r.line, r.customer_id
            """)
        {
            problems.append((try row.get("line"), ["customer_id \(try row.get("customer_id", as: Int64.self)) is not a customer"]))
            candidates -= 1
        }
        let match = { (column: String) in caseSensitive ? "a.\(column) = r.\(column)" : PGFold.match("a.\(column)", "r.\(column)") }
        let folded =
            caseSensitive
            ? ""
            : """
             WHERE NOT EXISTS (SELECT 1 FROM assets a WHERE \(match("asset_tag")))
               AND (r.serial_num IS NULL OR NOT EXISTS (SELECT 1 FROM assets a WHERE \(match("serial_num"))))
            """
        let list = columns.joined(separator: ", ")
        let stored = try await c.rows(
            PostgresQuery(
                unsafeSQL: """
                    WITH ins AS (INSERT INTO assets (\(list)) SELECT \(list) FROM import_rows r\(folded) ORDER BY r.line
                                 ON CONFLICT DO NOTHING RETURNING id, asset_tag)
                    INSERT INTO import_lines (line, asset_id) SELECT r.line, ins.id FROM ins JOIN import_rows r ON r.asset_tag = ins.asset_tag
                        AND NOT EXISTS (SELECT 1 FROM import_rows o WHERE o.asset_tag = r.asset_tag AND o.line < r.line)
                    RETURNING line
                    """)
        ).count
        guard stored < candidates else { return stored }
        if !lines.indexed {
            try await c.run("CREATE UNIQUE INDEX ON import_lines (line)")
            try await c.run("CREATE UNIQUE INDEX ON import_lines (asset_id)")
            try await c.run("ANALYZE import_lines")
            lines.indexed = true
        }
        for row in try await c.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT r.line, r.asset_tag, r.serial_num, t.id AS tag_id, tl.line AS tag_line, s.id AS serial_id, sl.line AS serial_line
                    FROM import_rows r
                    LEFT JOIN LATERAL (SELECT a.id FROM assets a WHERE \(match("asset_tag")) ORDER BY a.id LIMIT 1) t ON true
                    LEFT JOIN import_lines tl ON tl.asset_id = t.id
                    LEFT JOIN LATERAL (SELECT a.id FROM assets a WHERE \(match("serial_num")) ORDER BY a.id LIMIT 1) s ON true
                    LEFT JOIN import_lines sl ON sl.asset_id = s.id
                    WHERE NOT EXISTS (SELECT 1 FROM import_lines l WHERE l.line = r.line)
                    """))
        {
            let line: Int = try row.get("line")
            let message: String
            if try row.get("tag_id", as: Int64?.self) != nil {
                let place = try row.get("tag_line", as: Int?.self).map { "repeats line \($0)" } ?? "is already in the inventory"
                message = "asset_tag '\(try row.get("asset_tag", as: String.self))' \(place)"
            } else if try row.get("serial_id", as: Int64?.self) != nil {
                let place = try row.get("serial_line", as: Int?.self).map { "repeats line \($0)" } ?? "is already in the inventory"
                message = "serial_num '\(try row.get("serial_num", as: String.self))' \(place)"
            } else {
                message = "the database refused the row"
            }
            problems.append((line, [message]))
        }
        return stored
    }

    /// Folds ASCII letters only, as `audit_fold` and SQLite's NOCASE do.
    static func fold(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// What one import has set up in its temporary tables so far.
struct ImportLines {
    /// `import_rows` has statistics.
    var analyzed = false
    /// `import_lines` has its indexes, built when the first skipped row is to be explained.
    var indexed = false
}

/// The problems of one import: the first 50 lines' messages, and how many rows had problems.
struct ImportProblems {
    private(set) var problems = ValidationError()
    private(set) var count = 0

    mutating func report(_ line: Int, _ messages: [String]) {
        count += 1
        guard count <= PostgresAssetService.importProblemLimit else { return }
        for message in messages { problems.add("line \(line)", message) }
    }

    var error: InventoryError {
        var problems = problems
        if count > PostgresAssetService.importProblemLimit {
            problems.add("more", "\(count - PostgresAssetService.importProblemLimit) further rows have problems")
        }
        return .invalid(problems)
    }
}

/// COPY's text format: tab-separated, `\N` for NULL, with backslash escapes.
enum CopyText {
    /// `2026-05-12T10:30:00.123Z`, which PostgreSQL reads as a timestamptz.
    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// One row; every row of an import is created and updated at the import's `stamp`.
    static func append(_ a: Asset, line: Int, stamp: String, to buffer: inout ByteBuffer) {
        buffer.writeString(String(line))
        for text in [
            a.assetTag, a.serialNum, a.name, a.model, a.status.rawValue, a.condition?.rawValue, a.manufacturer, a.assetType,
            a.cpuType, a.cpuCores, a.memory, a.harddrive, a.country, a.location, a.company
        ] { field(text, &buffer) }
        field(a.customerId.map(String.init), &buffer)
        field(a.notes, &buffer)
        field(a.techNotes, &buffer)
        for flag in [a.isErased, a.hasKeyboard, a.hasCharger] { field(flag ? "t" : "f", &buffer) }
        field(stamp, &buffer)
        field(stamp, &buffer)
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    private static func field(_ text: String?, _ buffer: inout ByteBuffer) {
        buffer.writeInteger(UInt8(ascii: "\t"))
        guard let text else {
            buffer.writeString("\\N")
            return
        }
        let special = text.utf8.contains {
            $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard special else {
            buffer.writeString(text)
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeString("\\t")
            case UInt8(ascii: "\n"): buffer.writeString("\\n")
            case UInt8(ascii: "\r"): buffer.writeString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }
}
