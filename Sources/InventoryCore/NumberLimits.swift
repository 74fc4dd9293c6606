/// The ranges of the integers the station takes from requests, CSV files and configuration.
/// Each is checked where it enters, before any arithmetic, so a number out of range is a
/// validation error naming its field, never an overflow.
public enum NumberLimits {
    /// Accessory quantities: far beyond any stock room, and far from overflowing when summed.
    public static let quantity = 0...1_000_000_000
    /// Record ids (customers, companies): positive, and exact in a JSON double (2^53).
    public static let id: ClosedRange<Int64> = 1...9_007_199_254_740_992

    /// Adds an error for `field` when `value` is given and outside `range`.
    public static func check<T: BinaryInteger>(_ value: T?, in range: ClosedRange<T>, field: String, into errors: inout ValidationError) {
        guard let value, !range.contains(value) else { return }
        errors.add(field, "must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
    }
}
