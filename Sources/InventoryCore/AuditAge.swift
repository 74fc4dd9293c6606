import Foundation

/// The moment a `--not-audited-since` filter names: an age in days (`180d`) counted back from
/// now, or an ISO 8601 time or date (`2026-01-31T00:00:00Z`, `2026-01-31`, midnight UTC).
public enum AuditAge {
    /// The most days an age may name (100 years).
    public static let maxDays = 36_500

    public static func cutoff(_ text: String, now: Date = Date(), field: String = "not_audited_since") throws(ValidationError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("d") || trimmed.hasSuffix("D"), let days = Int(trimmed.dropLast()) {
            guard (0...maxDays).contains(days) else {
                throw ValidationError(field: field, message: "must be between 0d and \(maxDays)d")
            }
            return now.addingTimeInterval(-Double(days) * 86_400)
        }
        if let date = ISOTime.parse(trimmed) ?? ISOTime.parse(trimmed + "T00:00:00Z") { return date }
        throw ValidationError(
            field: field, message: "'\(text.prefix(40))' is neither an age in days such as 180d nor an ISO 8601 time such as 2026-05-12T10:30:00Z")
    }
}
