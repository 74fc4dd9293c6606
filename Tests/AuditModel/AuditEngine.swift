import Foundation
import InventoryCore

/// The audit state held in memory: the expected set by tag and by serial number, the scanned
/// set and the unexpected set, with an O(1) outcome per scan.
///
/// No product code uses it: it is the tests' reference model of SPEC's audit rules. The rules
/// table (`AuditRulesTableTests`) runs every case through it and through the SQLite and
/// PostgreSQL stores, which must all give the same outcome, message and numbers; it answers
/// the rules through the same `AuditRules` from plain dictionaries, so a disagreement points at
/// a store's queries rather than at the rules.
public struct AuditEngine: Sendable, AuditLookup {
    public let auditID: AuditID
    public let country: String
    public let caseSensitive: Bool
    private var assets: [AssetBrief] = []
    /// Tag keys, then serial keys that no tag already claimed, to an index in `assets`.
    private var byTag: [String: Int] = [:]
    private var bySerial: [String: Int] = [:]
    private var byID: [Int64: Int] = [:]
    /// Exact keys, consulted first when matching is case-insensitive.
    private var exactTag: [String: Int] = [:]
    private var exactSerial: [String: Int] = [:]
    private var firstScans: [Int: FirstScan] = [:]
    private var unexpected: [String: FirstScan] = [:]
    /// Assets outside the expected set that this engine knows about (for the reason).
    private var others: [String: AssetBrief] = [:]

    public init(auditID: AuditID, country: String, expected: [AssetBrief], caseSensitive: Bool = true) {
        self.auditID = auditID
        self.country = country
        self.caseSensitive = caseSensitive
        assets.reserveCapacity(expected.count)
        byTag.reserveCapacity(expected.count)
        for asset in expected { add(asset) }
    }

    public var progress: AuditProgress {
        AuditProgress(totalAssets: assets.count, scannedCount: firstScans.count, unexpectedCount: unexpected.count)
    }

    private func key(_ text: String) -> String { Identifier.matchKey(text, caseSensitive: caseSensitive) }

    private mutating func add(_ asset: AssetBrief) {
        let index = assets.count
        assets.append(asset)
        byID[asset.id] = index
        // The first asset keeps a folded key; an exact match is preferred over it.
        if byTag[key(asset.assetTag)] == nil { byTag[key(asset.assetTag)] = index }
        if let serial = asset.serialNum, bySerial[key(serial)] == nil { bySerial[key(serial)] = index }
        if !caseSensitive {
            exactTag[asset.assetTag] = index
            if let serial = asset.serialNum { exactSerial[serial] = index }
        }
    }

    /// Makes an asset outside the expected set known, so its scan reports why it is unexpected.
    public mutating func addKnown(_ asset: AssetBrief) {
        others[key(asset.assetTag)] = asset
        if let serial = asset.serialNum, others[key(serial)] == nil { others[key(serial)] = asset }
    }

    // MARK: AuditLookup

    public func expected(matching identifier: String) -> (asset: AssetBrief, firstScan: FirstScan?)? {
        let k = key(identifier)
        guard let index = exactTag[identifier] ?? byTag[k] ?? exactSerial[identifier] ?? bySerial[k] else { return nil }
        return (assets[index], firstScans[index])
    }

    public func knownAsset(matching identifier: String) -> AssetBrief? { others[key(identifier)] }

    public func unexpectedFirstScan(key: String) -> FirstScan? { unexpected[key] }

    // MARK: Scanning

    /// Decides the outcome of a scan without changing anything.
    public func decide(_ identifier: String) -> ScanDecision {
        // The in-memory lookup cannot fail.
        (try? AuditRules.decide(identifier, country: country, lookup: self))
            ?? ScanDecision(status: .unknown, asset: nil, reason: .unknown, firstScan: nil, unexpectedKey: nil)
    }

    /// Records a decided scan: the first scan of an asset or an unexpected entry is kept.
    public mutating func apply(_ decision: ScanDecision, scan: FirstScan) {
        if decision.addsScanned, let asset = decision.asset, let index = byID[asset.id] {
            firstScans[index] = scan
        }
        if decision.addsUnexpected, let unexpectedKey = decision.unexpectedKey {
            unexpected[unexpectedKey] = scan
        }
    }

    /// Decides and records a scan in one step.
    @discardableResult
    public mutating func scan(_ identifier: String, _ scan: FirstScan) -> ScanDecision {
        let decision = decide(identifier)
        apply(decision, scan: scan)
        return decision
    }

    /// Loads a first scan from stored rows.
    public mutating func markScanned(assetID: Int64, _ scan: FirstScan) {
        if let index = byID[assetID] { firstScans[index] = scan }
    }

    /// Loads an unexpected entry from stored rows.
    public mutating func markUnexpected(key: String, _ scan: FirstScan) { unexpected[key] = scan }
}
