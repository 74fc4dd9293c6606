import Foundation
import InventoryCore

/// A successful answer: `{"success": true, "data": …, "message": "…"}`.
public struct SuccessEnvelope<Payload: Encodable & Sendable>: Encodable, Sendable {
    public var success = true
    public var data: Payload
    public var message: String

    public init(data: Payload, message: String = "OK") {
        self.data = data
        self.message = message
    }
}

/// A failed answer: `{"success": false, "error": "CODE", "message": "…", "errors": {"field": ["…"]}}`.
/// `errors` is present on validation failures only. `data` carries what a client needs to
/// act on the error, such as the running audit with AUDIT_ALREADY_ACTIVE.
public struct FailureEnvelope: Codable, Sendable, Equatable {
    public var success = false
    public var error: String
    public var message: String
    public var errors: [String: [String]]?
    public var data: FailureDetail?

    public init(error: String, message: String, errors: [String: [String]]? = nil, data: FailureDetail? = nil) {
        self.error = error
        self.message = message
        self.errors = errors
        self.data = data
    }
}

/// Facts a client needs to rebuild the error: the running audit for AUDIT_ALREADY_ACTIVE, the
/// field and value for DUPLICATE, the countries for AMBIGUOUS_AUDIT.
public struct FailureDetail: Codable, Sendable, Equatable {
    public var auditId: AuditID?
    public var country: String?
    public var countries: [String]?
    public var field: String?
    public var value: String?
    /// `STATIONS_OUT`: each station that may still hold scans, as a sentence.
    public var stations: [String]?
    /// `NOT_FOUND`, `FORBIDDEN`, `STORAGE_ERROR`: what the error is about, without the words the
    /// message puts around it ("asset 12" of "Not found: asset 12").
    public var subject: String?

    public init(
        auditId: AuditID? = nil, country: String? = nil, countries: [String]? = nil, field: String? = nil, value: String? = nil,
        stations: [String]? = nil, subject: String? = nil
    ) {
        self.auditId = auditId
        self.stations = stations
        self.subject = subject
        self.country = country
        self.countries = countries
        self.field = field
        self.value = value
    }
}

/// An empty `data` object.
public struct Empty: Codable, Sendable, Equatable {
    public init() {}
}
