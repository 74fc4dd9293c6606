/// Turns an import CSV (a header row of API field names, then one asset a row) into rows for
/// `AssetService.importAssets`. Every problem is collected with its line number.
public enum AssetImport {
    public static let columns: [String] = Column.allCases.map(\.rawValue)
    public static let required = ["asset_tag", "name", "country"]

    /// The columns a header names, in its order; or its problems under "line 1" ("file" for an
    /// empty or unreadable file).
    public static func header(_ record: CSVReader.Record?, problem: CSVReader.Problem?) throws(ValidationError) -> [Column] {
        guard let record else {
            if let problem { throw ValidationError(field: "file", message: problem.message) }
            throw ValidationError(field: "file", message: "is empty; it needs a header row such as asset_tag,name,country")
        }
        let names = record.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var errors = ValidationError()
        for name in names where Column(rawValue: name) == nil {
            errors.add("line 1", "unknown column '\(name.prefix(40))'; the columns are \(columns.joined(separator: ", "))")
        }
        for name in required where !names.contains(name) {
            errors.add("line 1", "the required column '\(name)' is missing")
        }
        if Set(names).count != names.count { errors.add("line 1", "a column name repeats") }
        guard errors.isEmpty else { throw errors }
        return names.compactMap(Column.init(rawValue:))
    }

    /// The row of a record, with the problems found while reading it; nil for a blank line.
    public static func row(_ record: CSVReader.Record, columns: [Column]) -> ImportRow? {
        if record.fields.allSatisfy({ trimmed($0).isEmpty }) { return nil }
        guard record.fields.count == columns.count else {
            return ImportRow(
                line: record.line, input: AssetInput(),
                problems: ["has \(record.fields.count) fields; the header has \(columns.count)"])
        }
        var row = ImportRow(line: record.line, input: AssetInput())
        for (column, value) in zip(columns, record.fields) {
            column.set(value, on: &row)
        }
        return row
    }

    /// The field without the spaces around it. Most fields start and end with a visible ASCII
    /// character and are kept as they are, without Foundation's slower trimming.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        if first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// Reads a whole CSV held in memory; throws every problem at once.
    public static func rows(fromCSV bytes: [UInt8]) throws(ValidationError) -> [ImportRow] {
        var reader = CSVReader(bytes: bytes)
        let columns = try header(reader.next(), problem: reader.problem)
        var errors = ValidationError()
        var rows: [ImportRow] = []
        while let record = reader.next() {
            guard let row = row(record, columns: columns) else { continue }
            for problem in row.problems { errors.add("line \(row.line)", problem) }
            if row.problems.isEmpty { rows.append(row) }
        }
        if let problem = reader.problem { errors.add("file", problem.message) }
        guard errors.isEmpty else { throw errors }
        return rows
    }
}

extension AssetImport {
    /// One import column: the API field it fills.
    public enum Column: String, CaseIterable, Sendable {
        case assetTag = "asset_tag", serialNum = "serial_num", name, model, status, condition, manufacturer
        case assetType = "asset_type", cpuType = "cpu_type", cpuCores = "cpu_cores", memory, harddrive, country
        case location, company, customerId = "customer_id", notes, techNotes = "tech_notes", isErased = "is_erased"
        case hasKeyboard = "has_keyboard", hasCharger = "has_charger"

        /// Sets the field from its CSV text; an empty optional field stays unset.
        func set(_ raw: String, on row: inout ImportRow) {
            let value = AssetImport.trimmed(raw)
            if value.isEmpty && self != .assetTag && self != .name && self != .country { return }
            func flag() -> Bool? {
                switch value.lowercased() {
                case "1", "true", "yes", "y": return true
                case "0", "false", "no", "n": return false
                default:
                    row.problems.append("\(rawValue) '\(value.prefix(20))' is not true or false")
                    return nil
                }
            }
            switch self {
            case .assetTag: row.input.assetTag = value
            case .serialNum: row.input.serialNum = value
            case .name: row.input.name = value
            case .model: row.input.model = value
            case .status: row.input.status = value
            case .condition: row.input.condition = value
            case .manufacturer: row.input.manufacturer = value
            case .assetType: row.input.assetType = value
            case .cpuType: row.input.cpuType = value
            case .cpuCores: row.input.cpuCores = value
            case .memory: row.input.memory = value
            case .harddrive: row.input.harddrive = value
            case .country: row.input.country = value
            case .location: row.input.location = value
            case .company: row.input.company = value
            case .customerId:
                if let id = Int64(value) {
                    row.input.customerId = id
                } else {
                    row.problems.append("customer_id '\(value.prefix(20))' is not a number")
                }
            case .notes: row.input.notes = value
            case .techNotes: row.input.techNotes = value
            case .isErased: row.input.isErased = flag()
            case .hasKeyboard: row.input.hasKeyboard = flag()
            case .hasCharger: row.input.hasCharger = flag()
            }
        }
    }
}
