/// Turns an import CSV (a header row of API field names, then one asset a row) into rows for
/// `AssetService.importAssets`. Every problem is collected with its line number.
public enum AssetImport {
    public static let columns: [String] = [
        "asset_tag", "serial_num", "name", "model", "status", "condition", "manufacturer", "asset_type",
        "cpu_type", "cpu_cores", "memory", "harddrive", "country", "location", "company", "customer_id",
        "notes", "tech_notes", "is_erased", "has_keyboard", "has_charger",
    ]
    public static let required = ["asset_tag", "name", "country"]

    public static func rows(fromCSV bytes: [UInt8]) throws(ValidationError) -> [ImportRow] {
        var reader = CSVReader(bytes: bytes)
        guard let header = reader.next() else {
            if let problem = reader.problem { throw ValidationError(field: "file", message: problem.message) }
            throw ValidationError(field: "file", message: "is empty; it needs a header row such as asset_tag,name,country")
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var errors = ValidationError()
        for name in names where !columns.contains(name) {
            errors.add("line 1", "unknown column '\(name.prefix(40))'; the columns are \(columns.joined(separator: ", "))")
        }
        for name in required where !names.contains(name) {
            errors.add("line 1", "the required column '\(name)' is missing")
        }
        if Set(names).count != names.count { errors.add("line 1", "a column name repeats") }
        guard errors.isEmpty else { throw errors }
        var rows: [ImportRow] = []
        while let record = reader.next() {
            if record.fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            guard record.fields.count == names.count else {
                errors.add("line \(record.line)", "has \(record.fields.count) fields; the header has \(names.count)")
                continue
            }
            var input = AssetInput()
            for (name, value) in zip(names, record.fields) {
                set(name, value, on: &input, line: record.line, errors: &errors)
            }
            rows.append(ImportRow(line: record.line, input: input))
        }
        if let problem = reader.problem { errors.add("file", problem.message) }
        guard errors.isEmpty else { throw errors }
        return rows
    }

    private static func set(_ name: String, _ raw: String, on input: inout AssetInput, line: Int, errors: inout ValidationError) {
        let value = raw.trimmingCharacters(in: .whitespaces)
        if value.isEmpty && !required.contains(name) { return }
        func flag() -> Bool? {
            switch value.lowercased() {
            case "1", "true", "yes", "y": return true
            case "0", "false", "no", "n": return false
            default: errors.add("line \(line)", "\(name) '\(value.prefix(20))' is not true or false"); return nil
            }
        }
        switch name {
        case "asset_tag": input.assetTag = value
        case "serial_num": input.serialNum = value
        case "name": input.name = value
        case "model": input.model = value
        case "status": input.status = value
        case "condition": input.condition = value
        case "manufacturer": input.manufacturer = value
        case "asset_type": input.assetType = value
        case "cpu_type": input.cpuType = value
        case "cpu_cores": input.cpuCores = value
        case "memory": input.memory = value
        case "harddrive": input.harddrive = value
        case "country": input.country = value
        case "location": input.location = value
        case "company": input.company = value
        case "customer_id":
            if let id = Int64(value) { input.customerId = id }
            else { errors.add("line \(line)", "customer_id '\(value.prefix(20))' is not a number") }
        case "notes": input.notes = value
        case "tech_notes": input.techNotes = value
        case "is_erased": input.isErased = flag()
        case "has_keyboard": input.hasKeyboard = flag()
        case "has_charger": input.hasCharger = flag()
        default: break
        }
    }
}
