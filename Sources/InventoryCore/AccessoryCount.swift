import Foundation

/// An accessory an audit expects (SPEC "Cycle counts", quantities): one of its country's (or
/// of its locations') accessories that has a tag, with the quantity that was not checked out
/// when the audit started, and what was counted of it. Counts are kept per location where a
/// station stood (none is a location of its own): each scan of the tag adds one to the count
/// at its station's location, and a typed count (`audit count TAG N`) sets it there. `counted`
/// is the sum over those locations; `difference` is counted minus expected.
///
/// Accessories are apart from the audit's assets: they never change `total_assets`, the
/// scanned, missing or unexpected counts, or the completion percentage.
public struct AccessoryTally: Codable, Sendable, Equatable {
    public var accessoryId: Int64
    public var tag: String
    public var name: String
    /// The accessory's registered location, as the audit recorded it.
    public var location: String?
    public var expected: Int
    public var counted: Int
    public var difference: Int

    public init(accessoryId: Int64, tag: String, name: String, location: String?, expected: Int, counted: Int) {
        self.accessoryId = accessoryId
        self.tag = tag
        self.name = name
        self.location = location
        self.expected = expected
        self.counted = counted
        self.difference = counted - expected
    }
}

/// A typed count of an accessory in an audit: `quantity` is what stands at `location` (the
/// station's location; nil where it has none), replacing what was counted there before.
/// `countId` makes it idempotent, as a scan's `scan_id` does.
public struct CountRequest: Codable, Sendable, Equatable {
    public var tag: String
    public var quantity: Int
    public var auditId: AuditID?
    public var location: String?
    public var countId: String?
    /// The station name.
    public var deviceName: String?
    /// The user; a server fills it from the token.
    public var user: String?

    public init(
        tag: String, quantity: Int, auditId: AuditID? = nil, location: String? = nil, countId: String? = nil, deviceName: String? = nil,
        user: String? = nil
    ) {
        self.tag = tag
        self.quantity = quantity
        self.auditId = auditId
        self.location = location
        self.countId = countId
        self.deviceName = deviceName
        self.user = user
    }

    /// The most a count may set.
    public static let maxQuantity = NumberLimits.quantity.upperBound

    /// The request with its tag and location trimmed and checked.
    public func checked() throws(ValidationError) -> CountRequest {
        var copy = self
        var errors = ValidationError()
        if let tag = errors.collect({ () throws(ValidationError) in try Identifier.normalize(self.tag, field: "tag") }) { copy.tag = tag }
        if !(0...Self.maxQuantity).contains(quantity) {
            errors.add("quantity", "must be between 0 and \(Self.maxQuantity)")
        }
        if let location, location.trimmingCharacters(in: .whitespaces).isEmpty { copy.location = nil }
        guard errors.isEmpty else { throw errors }
        return copy
    }
}

extension AccessoryTally {
    /// The message of a scan that counted one of it, or of a typed count.
    public func message(at location: String?, here: Int) -> String {
        let place = location.map { " at \($0)" } ?? ""
        return "\(name) (\(tag)): \(here) counted\(place), \(counted) of \(expected) in all"
    }
}

/// The answer to a typed count: the accessory with its counts after it, and what now stands
/// at the count's location.
public struct CountResult: Codable, Sendable, Equatable {
    public var auditId: AuditID
    public var countId: String
    public var accessory: AccessoryTally
    public var location: String?
    public var countedHere: Int
    public var message: String
    /// True when a connected station kept the count for its server, which has not counted it
    /// yet (the accessory's numbers are then as the station last heard them); absent otherwise.
    public var pending: Bool?

    public init(auditId: AuditID, countId: String, accessory: AccessoryTally, location: String?, countedHere: Int) {
        self.auditId = auditId
        self.countId = countId
        self.accessory = accessory
        self.location = location
        self.countedHere = countedHere
        self.message = accessory.message(at: location, here: countedHere)
    }
}

/// An accessory as the JSON report lists it: `{tag, name, location, expected, counted, difference}`.
public struct ReportAccessory: Codable, Sendable, Equatable {
    public var tag: String
    public var name: String
    /// Null when the accessory has no location, as the report's other fields are.
    @Nullable public var location: String?
    public var expected: Int
    public var counted: Int
    public var difference: Int

    public init(_ tally: AccessoryTally) {
        tag = tally.tag
        name = tally.name
        location = tally.location
        expected = tally.expected
        counted = tally.counted
        difference = tally.difference
    }
}
