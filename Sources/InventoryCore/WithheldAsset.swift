import Foundation

/// What staff learn of an asset of a country they may not read, found by their audit: its tag and
/// that it belongs to another country (`other_country`), nothing of the record itself.
extension AuditAsset {
    /// The entry with the asset's record left out: its id, serial number, name, model, status,
    /// location, company and country. What this audit saw of it (the identifier scanned, the
    /// first scan, the count) stays.
    public func withheld() -> AuditAsset {
        var entry = self
        entry.id = nil
        entry.serialNum = nil
        entry.name = nil
        entry.model = nil
        entry.status = nil
        entry.location = nil
        entry.company = nil
        entry.country = nil
        entry.misplaced = nil
        return entry
    }

    /// Whether the entry is an asset of a country `mayRead` refuses.
    public func isUnreadable(by mayRead: (String) -> Bool) -> Bool {
        reason == .otherCountry && country.map { !mayRead($0) } ?? false
    }
}

extension ScanResult {
    /// The answer with the asset's record left out (`AuditAsset.withheld`) and a message that
    /// names only the tag.
    public func withheld() -> ScanResult {
        var result = self
        result.asset = asset?.withheld()
        result.missingSinceAudit = nil
        let tag = asset?.assetTag ?? identifier
        var text = "Unexpected: \(tag) is registered in another country"
        if let first = firstScan {
            text += "; already recorded by \(first.user) at \(first.station), \(ISOTime.string(first.scannedAt))"
        }
        result.message = text
        return result
    }

    /// Whether the answer names an asset of a country `mayRead` refuses.
    public func isUnreadable(by mayRead: (String) -> Bool) -> Bool {
        reason == .otherCountry && asset?.country.map { !mayRead($0) } == true
    }
}
