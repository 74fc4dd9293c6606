import Foundation

/// Built in this module by its memberwise initializer, and by the stores from their rows
/// through `Decodable` (its fields in snake case are the columns), so its fields are listed
/// once, here.
public struct Customer: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64 = 0
    public var name: String
    public var contactNumber: String
    public var address: String
    public var country: String
    public var email: String?
    public var companyId: Int64?
    public var createdAt: Date = Date()
    public var updatedAt: Date = Date()
}

/// Create or edit fields of a customer; on an edit, absent fields stay as they are.
public struct CustomerInput: Codable, Sendable, Equatable {
    public var name: String?
    public var contactNumber: String?
    public var address: String?
    public var country: String?
    public var email: String?
    public var companyId: Int64?

    public init(
        name: String? = nil, contactNumber: String? = nil, address: String? = nil, country: String? = nil, email: String? = nil,
        companyId: Int64? = nil
    ) {
        self.name = name
        self.contactNumber = contactNumber
        self.address = address
        self.country = country
        self.email = email
        self.companyId = companyId
    }

    public func makeCustomer(now: Date = Date()) throws(ValidationError) -> Customer {
        var errors = ValidationError()
        for (field, value) in [("name", name), ("contact_number", contactNumber), ("address", address)] where value == nil {
            errors.add(field, "is required")
        }
        if country == nil { errors.add("country", "is required (an ISO 3166-1 alpha-2 code such as SG or MY)") }
        var customer = Customer(name: "", contactNumber: "", address: "", country: "", createdAt: now, updatedAt: now)
        errors.merge(applyValidated(to: &customer))
        guard errors.isEmpty else { throw errors }
        return customer
    }

    public func apply(to customer: inout Customer, now: Date = Date()) throws(ValidationError) {
        var copy = customer
        let errors = applyValidated(to: &copy)
        guard errors.isEmpty else { throw errors }
        copy.updatedAt = now
        customer = copy
    }

    private func applyValidated(to customer: inout Customer) -> ValidationError {
        var errors = ValidationError()
        let required: [(String, String?, WritableKeyPath<Customer, String>)] = [
            ("name", name, \.name), ("contact_number", contactNumber, \.contactNumber), ("address", address, \.address)
        ]
        for (field, value, path) in required {
            guard let value else { continue }
            if let text = errors.collect({ () throws(ValidationError) in try FreeText.required(value, field: field) }) {
                customer[keyPath: path] = text
            }
        }
        if let contactNumber, contactNumber.contains(where: { !($0.isNumber || " +-()./".contains($0)) }) {
            errors.add("contact_number", "may hold only digits, spaces and + - ( ) . /")
        }
        if let country, let code = errors.collect({ () throws(ValidationError) in try Country.normalize(country) }) {
            customer.country = code
        }
        if let email {
            let text = email.trimmingCharacters(in: .whitespaces)
            if text.isEmpty {
                customer.email = nil
            } else if text.count > 254 || text.contains(where: \.isWhitespace) || text.split(separator: "@").count != 2
                || text.hasPrefix("@") || text.hasSuffix("@")
            {
                errors.add("email", "'\(text.prefix(60))' is not an email address")
            } else {
                customer.email = text
            }
        }
        NumberLimits.check(companyId, in: NumberLimits.id, field: "company_id", into: &errors)
        if let companyId { customer.companyId = companyId }
        return errors
    }
}
