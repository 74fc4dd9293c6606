import Foundation

/// A cycle count: a country, or one location of it, to be audited every `everyDays` days.
///
/// `nextDueAt` is the plan's deadline: the end of the last audit of exactly its scope plus the
/// interval, or, for a plan never audited, its creation plus the interval. A plan never audited
/// is `due` from its creation (SPEC "Cycle counts"), and `overdue` once that first interval has
/// run out, as any plan is past its deadline.
public struct AuditPlan: Codable, Sendable, Equatable {
    public var id: Int64
    public var country: String
    /// Nil for the whole country.
    public var location: String?
    public var everyDays: Int
    public var assignee: String?
    public var createdAt: Date
    /// The last audit of exactly the plan's scope that ended, and when it ended.
    public var lastAuditId: AuditID?
    public var lastEndedAt: Date?
    public var nextDueAt: Date

    public init(
        id: Int64, country: String, location: String?, everyDays: Int, assignee: String?, createdAt: Date, lastAuditId: AuditID?,
        lastEndedAt: Date?
    ) {
        self.id = id
        self.country = country
        self.location = location
        self.everyDays = everyDays
        self.assignee = assignee
        self.createdAt = createdAt
        self.lastAuditId = lastAuditId
        self.lastEndedAt = lastEndedAt
        nextDueAt = Self.deadline(from: lastEndedAt ?? createdAt, everyDays: everyDays)
    }

    /// `from` plus `everyDays` whole days.
    public static func deadline(from date: Date, everyDays: Int) -> Date {
        date.addingTimeInterval(Double(everyDays) * 86_400)
    }

    /// Where the plan stands at `now`, with `windowDays` as the span before the deadline
    /// that counts as due.
    public func state(at now: Date, windowDays: Int = DuePlan.defaultWindowDays) -> DueState {
        if now >= nextDueAt { return .overdue }
        if lastEndedAt == nil || now >= nextDueAt.addingTimeInterval(-Double(windowDays) * 86_400) { return .due }
        return .ok
    }

    /// Whether an audit of `country`, narrowed to `locations` (nil: the whole country), has
    /// exactly this plan's scope.
    public func covers(country: String, locations: [String]?) -> Bool {
        guard country == self.country else { return false }
        guard let location else { return locations == nil }
        return locations == [location]
    }
}

/// How a plan stands against its deadline.
public enum DueState: String, Codable, Sendable, CaseIterable {
    case overdue, due, ok

    /// Overdue first, then due, then ok.
    public var rank: Int {
        switch self {
        case .overdue: 0
        case .due: 1
        case .ok: 2
        }
    }
}

/// One line of `audit due`: a plan, its deadline and its state.
public struct DuePlan: Codable, Sendable, Equatable {
    public static let defaultWindowDays = 14

    // Every field is written, the absent ones as null, so each line has the same shape.
    public var planId: Int64
    public var country: String
    @Nullable public var location: String?
    public var everyDays: Int
    @Nullable public var assignee: String?
    @Nullable public var lastAuditId: AuditID?
    @Nullable public var lastEndedAt: Date?
    public var nextDueAt: Date
    public var state: DueState

    public init(_ plan: AuditPlan, at now: Date, windowDays: Int) {
        planId = plan.id
        country = plan.country
        location = plan.location
        everyDays = plan.everyDays
        assignee = plan.assignee
        lastAuditId = plan.lastAuditId
        lastEndedAt = plan.lastEndedAt
        nextDueAt = plan.nextDueAt
        state = plan.state(at: now, windowDays: windowDays)
    }

    /// Plans as `audit due` lists them: overdue first, then due, then ok, each by deadline.
    public static func list(_ plans: [AuditPlan], at now: Date, windowDays: Int) -> [DuePlan] {
        plans.map { DuePlan($0, at: now, windowDays: windowDays) }.sorted {
            ($0.state.rank, $0.nextDueAt, $0.planId) < ($1.state.rank, $1.nextDueAt, $1.planId)
        }
    }
}

/// What `audit plan add` and `POST /api/v1/audit/plans` take.
public struct AuditPlanInput: Codable, Sendable, Equatable {
    public var country: String
    public var location: String?
    public var everyDays: Int
    public var assignee: String?

    public init(country: String, location: String? = nil, everyDays: Int, assignee: String? = nil) {
        self.country = country
        self.location = location
        self.everyDays = everyDays
        self.assignee = assignee
    }

    /// The longest interval: ten years.
    public static let maxDays = 3_650

    /// The input with its country in upper case and its text trimmed, or the field errors.
    /// The location must still be checked against the country's assets by the store.
    public func checked() throws(ValidationError) -> AuditPlanInput {
        var errors = ValidationError()
        let code = errors.collect { () throws(ValidationError) in try Country.normalize(country) }
        var place: String?
        if let location { place = errors.collect { () throws(ValidationError) in try FreeText.normalize(location, field: "location") } ?? nil }
        if !(1...Self.maxDays).contains(everyDays) {
            errors.add("every_days", "must be a whole number of days from 1 to \(Self.maxDays), not \(everyDays)")
        }
        var person = assignee?.trimmingCharacters(in: .whitespacesAndNewlines)
        if person?.isEmpty == true { person = nil }
        if let person, person.utf8.count > 254 || !person.contains("@") || person.contains(where: \.isWhitespace) {
            errors.add("assignee", "'\(person.prefix(40))' is not an email address")
        }
        guard errors.isEmpty, let code else { throw errors }
        return AuditPlanInput(country: code, location: place, everyDays: everyDays, assignee: person)
    }
}

extension AuditPlanInput {
    /// The refusal of a second plan of this scope, naming the plan that has it.
    public func duplicate(of existing: Int64) -> InventoryError {
        .invalid(
            ValidationError(
                field: location == nil ? "country" : "location",
                message: "\(location.map { "'\($0)' of " } ?? "")\(country) already has plan \(existing); remove it first to change it"))
    }
}

/// A span of whole days as the CLI takes it: `30d`, or `30`.
public enum DayCount {
    public static func parse(_ text: String, field: String, range: ClosedRange<Int> = 1...AuditPlanInput.maxDays) throws(ValidationError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.hasSuffix("d") ? String(trimmed.dropLast()) : trimmed
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let days = Int(digits), range.contains(days) else {
            throw ValidationError(
                field: field, message: "'\(text.prefix(20))' is not a number of days from \(range.lowerBound) to \(range.upperBound), such as 30d")
        }
        return days
    }
}

/// The plans: cycle counts and what is due. Each back end implements it over its database;
/// ending an audit of a plan's exact scope moves the plan's deadline, in the end's transaction.
public protocol AuditPlanService: Sendable {
    /// Adds a plan. The country must be a known code; a location must be one of the country's
    /// assets' locations (as an audit's).
    func add(_ input: AuditPlanInput) async throws -> AuditPlan
    /// Every plan, by id.
    func list() async throws -> [AuditPlan]
    /// One plan, or `notFound`.
    func plan(id: Int64) async throws -> AuditPlan
    /// Removes a plan, or `notFound`.
    func remove(id: Int64) async throws
}

extension AuditPlanService {
    /// Every plan with its state at `now`: overdue first, then due (within `windowDays`), then ok.
    public func due(at now: Date = Date(), windowDays: Int = DuePlan.defaultWindowDays) async throws -> [DuePlan] {
        DuePlan.list(try await list(), at: now, windowDays: windowDays)
    }
}
