import Foundation

// The checks of a transfer's and an accessory movement's free-text fields, shared by every
// store so that SQLite and PostgreSQL refuse the same requests with the same messages.

extension TransferRequest {
    /// The request's reason and notes after their checks; an effective date must be a real
    /// calendar day as YYYY-MM-DD. Field problems are `InventoryError.invalid`, all at once.
    public func checkedText() throws -> (reason: String?, notes: String?) {
        var errors = ValidationError()
        if let date = effectiveDate, !Self.isCalendarDate(date) {
            errors.add("effective_date", "'\(date.prefix(20))' is not a date in the form YYYY-MM-DD")
        }
        let reason = errors.collect { () throws(ValidationError) in try FreeText.optional(self.reason, field: "reason") } ?? nil
        let notes = errors.collect { () throws(ValidationError) in try FreeText.optional(self.notes, field: "notes") } ?? nil
        if !errors.isEmpty { throw InventoryError.invalid(errors) }
        return (reason, notes)
    }

    /// Whether `text` is YYYY-MM-DD and names a day that exists (no 2025-02-30).
    public static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components) else { return false }
        return calendar.dateComponents([.year, .month, .day], from: date) == components
    }
}

extension AccessoryMovement {
    /// The movement's condition and notes after their checks, as `InventoryError.invalid`.
    public func checkedText() throws -> (condition: String?, notes: String?) {
        var errors = ValidationError()
        let condition = errors.collect { () throws(ValidationError) in try FreeText.optional(self.condition, field: "condition") } ?? nil
        let notes = errors.collect { () throws(ValidationError) in try FreeText.optional(self.notes, field: "notes") } ?? nil
        if !errors.isEmpty { throw InventoryError.invalid(errors) }
        return (condition, notes)
    }
}
