import Foundation

extension AssetInput {
    /// A new asset from this input, or every field error at once.
    /// asset_tag, name and country are required.
    public func makeAsset(now: Date = Date()) throws(ValidationError) -> Asset {
        var errors = ValidationError()
        if assetTag == nil { errors.add("asset_tag", "is required") }
        // An empty name is reported once, by `FreeText.required` below.
        if name == nil { errors.add("name", "is required") }
        if country == nil { errors.add("country", "is required (an ISO 3166-1 alpha-2 code such as SG or MY)") }
        var asset = Asset(assetTag: "", name: "", country: "", createdAt: now, updatedAt: now)
        errors.merge(applyValidated(to: &asset))
        guard errors.isEmpty else { throw errors }
        return asset
    }

    /// Applies the present fields to `asset`; returns the field errors (empty when all is well).
    public func apply(to asset: inout Asset, now: Date = Date()) throws(ValidationError) {
        var copy = asset
        let errors = applyValidated(to: &copy)
        guard errors.isEmpty else { throw errors }
        copy.updatedAt = now
        asset = copy
    }

    private func applyValidated(to asset: inout Asset) -> ValidationError {
        var errors = ValidationError()
        if let assetTag {
            if let tag = errors.collect({ () throws(ValidationError) in try Identifier.normalize(assetTag, field: "asset_tag") }) {
                asset.assetTag = tag
            }
        }
        if let serialNum {
            // Most serials are printable ASCII with no space at either end, so not blank: no
            // Foundation trimming for them (it was a quarter of an import's checking time).
            if !serialNum.isTrimmedPrintableASCII && serialNum.trimmingCharacters(in: .whitespaces).isEmpty {
                asset.serialNum = nil
            } else if let serial = errors.collect({ () throws(ValidationError) in try Identifier.normalize(serialNum, field: "serial_num") }) {
                asset.serialNum = serial
            }
        }
        if let name, let text = errors.collect({ () throws(ValidationError) in try FreeText.required(name, field: "name") }) {
            if text.count > 255 { errors.add("name", "is longer than 255 characters") } else { asset.name = text }
        }
        if let status {
            if let value = AssetStatus(rawValue: status.uppercased()) {
                asset.status = value
            } else {
                errors.add("status", "'\(status.prefix(40))' is not one of \(AssetStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        if let condition {
            if condition.isEmpty {
                asset.condition = nil
            } else if let value = AssetCondition(rawValue: condition.uppercased()) {
                asset.condition = value
            } else {
                errors.add("condition", "'\(condition.prefix(40))' is not one of \(AssetCondition.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        if let country {
            if let code = errors.collect({ () throws(ValidationError) in try Country.normalize(country) }) { asset.country = code }
        }
        let texts: [(String, String?, WritableKeyPath<Asset, String?>)] = [
            ("model", model, \.model), ("manufacturer", manufacturer, \.manufacturer),
            ("asset_type", assetType, \.assetType), ("cpu_type", cpuType, \.cpuType),
            ("cpu_cores", cpuCores, \.cpuCores), ("memory", memory, \.memory),
            ("harddrive", harddrive, \.harddrive), ("location", location, \.location),
            ("company", company, \.company), ("notes", notes, \.notes), ("tech_notes", techNotes, \.techNotes)
        ]
        for (field, value, path) in texts {
            guard let value else { continue }
            if let text = errors.collect({ () throws(ValidationError) in try FreeText.normalize(value, field: field) }) {
                asset[keyPath: path] = text
            }
        }
        NumberLimits.check(customerId, in: NumberLimits.id, field: "customer_id", into: &errors)
        if let customerId { asset.customerId = customerId }
        if let isErased { asset.isErased = isErased }
        if let hasKeyboard { asset.hasKeyboard = hasKeyboard }
        if let hasCharger { asset.hasCharger = hasCharger }
        return errors
    }
}

/// Optional free-text fields: trimmed, an empty value clears the field, no control characters
/// other than line breaks and tabs, at most `maxLength` characters.
public enum FreeText {
    public static let maxLength = 2000

    public static func normalize(_ raw: String, field: String) throws(ValidationError) -> String? {
        if raw.isTrimmedPrintableASCII {
            guard raw.utf8.count <= maxLength else { throw ValidationError(field: field, message: "is longer than \(maxLength) characters") }
            return raw
        }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return nil }
        if text.count > maxLength { throw ValidationError(field: field, message: "is longer than \(maxLength) characters") }
        if text.unicodeScalars.contains(where: { isRefused($0) && !["\n", "\r", "\t"].contains($0) }) {
            throw ValidationError(field: field, message: "contains control characters")
        }
        return text
    }

    /// What free text (names, notes, searches) may not hold: the C0 and C1 controls, and the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
    /// can make a name display as another. The other format characters are parts of real
    /// writing and are kept: the zero-width joiner of emoji sequences (👩‍💻) and of Indic
    /// scripts, the zero-width non-joiner of Persian, the direction marks of Arabic and Hebrew.
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// An optional field that may be absent: nil stays nil.
    public static func optional(_ raw: String?, field: String) throws(ValidationError) -> String? {
        guard let raw else { return nil }
        return try normalize(raw, field: field)
    }

    /// A required text field: as `normalize`, but empty is an error.
    public static func required(_ raw: String?, field: String) throws(ValidationError) -> String {
        guard let raw, let text = try normalize(raw, field: field) else {
            throw ValidationError(field: field, message: "is required")
        }
        return text
    }
}
