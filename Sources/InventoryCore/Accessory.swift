import Foundation

/// A stock of interchangeable items (cables, chargers, mice) that are checked out to customers.
/// Built as `Customer` is: by its memberwise initializer here, and from a store's row.
public struct Accessory: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64 = 0
    public var name: String
    public var category: String
    public var manufacturer: String?
    public var modelNo: String?
    public var totalQuantity: Int = 0
    /// total_quantity minus what customers hold now.
    public var availableQuantity: Int = 0
    public var country: String?
    public var notes: String?
    public var imageUrl: String?
    public var companyId: Int64?
    public var createdAt: Date = Date()
    public var updatedAt: Date = Date()
    /// The tag an audit counts it by (unique among assets' tags and serials and accessories'
    /// tags); nil for an accessory no audit counts.
    public var tag: String?
    /// Where it is kept: an audit narrowed to locations expects the accessories of those.
    public var location: String?
}

/// Create or edit fields of an accessory; on an edit, absent fields stay as they are.
public struct AccessoryInput: Codable, Sendable, Equatable {
    public var name: String?
    public var category: String?
    public var manufacturer: String?
    public var modelNo: String?
    public var totalQuantity: Int?
    public var country: String?
    public var notes: String?
    public var imageUrl: String?
    public var companyId: Int64?
    /// An empty string clears it, as for other optional text.
    public var tag: String?
    public var location: String?

    public init(
        name: String? = nil, category: String? = nil, manufacturer: String? = nil, modelNo: String? = nil, totalQuantity: Int? = nil,
        country: String? = nil, notes: String? = nil, imageUrl: String? = nil, companyId: Int64? = nil, tag: String? = nil,
        location: String? = nil
    ) {
        self.name = name
        self.category = category
        self.manufacturer = manufacturer
        self.modelNo = modelNo
        self.totalQuantity = totalQuantity
        self.country = country
        self.notes = notes
        self.imageUrl = imageUrl
        self.companyId = companyId
        self.tag = tag
        self.location = location
    }

    public func makeAccessory(now: Date = Date()) throws(ValidationError) -> Accessory {
        var errors = ValidationError()
        if name == nil { errors.add("name", "is required") }
        if category == nil { errors.add("category", "is required") }
        var accessory = Accessory(name: "", category: "", createdAt: now, updatedAt: now)
        errors.merge(applyValidated(to: &accessory, checkedOut: 0))
        guard errors.isEmpty else { throw errors }
        return accessory
    }

    /// Applies an edit. `checkedOut` is what customers hold now: the total may not drop below it.
    public func apply(to accessory: inout Accessory, checkedOut: Int, now: Date = Date()) throws(ValidationError) {
        var copy = accessory
        let errors = applyValidated(to: &copy, checkedOut: checkedOut)
        guard errors.isEmpty else { throw errors }
        copy.updatedAt = now
        accessory = copy
    }

    private func applyValidated(to accessory: inout Accessory, checkedOut: Int) -> ValidationError {
        var errors = ValidationError()
        if let name, let text = errors.collect({ () throws(ValidationError) in try FreeText.required(name, field: "name") }) {
            accessory.name = text
        }
        if let category, let text = errors.collect({ () throws(ValidationError) in try FreeText.required(category, field: "category") }) {
            accessory.category = text
        }
        let texts: [(String, String?, WritableKeyPath<Accessory, String?>)] = [
            ("manufacturer", manufacturer, \.manufacturer), ("model_no", modelNo, \.modelNo),
            ("notes", notes, \.notes), ("image_url", imageUrl, \.imageUrl), ("location", location, \.location)
        ]
        for (field, value, path) in texts {
            guard let value else { continue }
            if let text = errors.collect({ () throws(ValidationError) in try FreeText.normalize(value, field: field) }) {
                accessory[keyPath: path] = text
            }
        }
        if let tag {
            if tag.isEmpty {
                accessory.tag = nil
            } else if let text = errors.collect({ () throws(ValidationError) in try Identifier.normalize(tag, field: "tag") }) {
                accessory.tag = text
            }
        }
        if let country {
            if country.isEmpty {
                accessory.country = nil
            } else if let code = errors.collect({ () throws(ValidationError) in try Country.normalize(country) }) {
                accessory.country = code
            }
        }
        if let totalQuantity {
            if !NumberLimits.quantity.contains(totalQuantity) {
                NumberLimits.check(totalQuantity, in: NumberLimits.quantity, field: "total_quantity", into: &errors)
            } else if totalQuantity < checkedOut {
                errors.add("total_quantity", "cannot be \(totalQuantity): \(checkedOut) are checked out")
            } else {
                accessory.totalQuantity = totalQuantity
                accessory.availableQuantity = totalQuantity - checkedOut
            }
        }
        NumberLimits.check(companyId, in: NumberLimits.id, field: "company_id", into: &errors)
        if let companyId { accessory.companyId = companyId }
        return errors
    }
}

/// A checkout or a check-in of accessories by one customer.
public struct AccessoryMovement: Codable, Sendable, Equatable {
    public var customerId: Int64
    public var quantity: Int
    public var condition: String?
    public var notes: String?

    public init(customerId: Int64, quantity: Int = 1, condition: String? = nil, notes: String? = nil) {
        self.customerId = customerId
        self.quantity = quantity
        self.condition = condition
        self.notes = notes
    }

    /// Checks the quantity against what may move (available stock for a checkout, what the
    /// customer holds for a check-in).
    public func validate(limit: Int, limitName: String) throws(ValidationError) {
        if quantity < 1 { throw ValidationError(field: "quantity", message: "must be at least 1") }
        if quantity > limit {
            throw ValidationError(field: "quantity", message: "is \(quantity), but only \(limit) \(limitName)")
        }
    }
}
