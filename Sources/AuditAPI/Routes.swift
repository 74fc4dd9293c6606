import Foundation

/// The paths of the API, shared by the server's router and the client. `{name}` marks a path
/// parameter.
public enum Routes {
    public static let login = "/api/v1/auth/login"
    public static let logout = "/api/v1/auth/logout"
    public static let me = "/api/v1/auth/me"

    public static let auditStatus = "/api/v1/audit/status"
    public static let auditCountries = "/api/v1/audit/countries"
    public static let auditLocations = "/api/v1/audit/locations"
    public static let auditStart = "/api/v1/audit/start"
    public static let auditScan = "/api/v1/audit/scan"
    public static let auditScans = "/api/v1/audit/scans"
    public static let auditVoid = "/api/v1/audit/scans/{scan_id}/void"
    public static let auditEnd = "/api/v1/audit/end"
    public static let auditDetails = "/api/v1/audit/details/{list}"
    public static let auditHistory = "/api/v1/audit/history"
    public static let auditOne = "/api/v1/audit/{audit_id}"
    public static let auditReport = "/api/v1/audit/{audit_id}/report"
    public static let auditSummary = "/api/v1/audit/{audit_id}/summary"
    public static let auditSnapshot = "/api/v1/audit/{audit_id}/snapshot"
    public static let auditTrail = "/api/v1/audit/{audit_id}/scans"
    public static let auditPhoto = "/api/v1/audit/{audit_id}/scans/{scan_id}/photo"
    public static let auditPhotoFind = "/api/v1/audit/{audit_id}/photos/find"
    public static let auditReconcile = "/api/v1/audit/{audit_id}/reconcile"
    public static let auditStations = "/api/v1/audit/{audit_id}/stations"
    public static let auditCount = "/api/v1/audit/count"
    public static let auditAccessories = "/api/v1/audit/{audit_id}/accessories"
    public static let auditPlans = "/api/v1/audit/plans"
    public static let auditPlan = "/api/v1/audit/plans/{id}"
    public static let auditDue = "/api/v1/audit/due"
    public static let webhooks = "/api/v1/webhooks"
    public static let webhook = "/api/v1/webhooks/{id}"
    public static let webhookDeliveries = "/api/v1/webhooks/deliveries"
    public static let decode = "/api/v1/decode"
    public static let decodeFigures = "/api/v1/decode/figures"
    public static let devices = "/api/v1/devices"
    public static let devicePushToken = "/api/v1/devices/register-push-token"
    public static let users = "/api/v1/users"
    public static let userDisable = "/api/v1/users/{id}/disable"
    public static let userEnable = "/api/v1/users/{id}/enable"
    public static let userPassword = "/api/v1/users/{id}/password"

    public static let assets = "/api/v2/assets"
    public static let assetFind = "/api/v2/assets/find"
    public static let assetImport = "/api/v2/assets/import"
    public static let asset = "/api/v2/assets/{id}"
    public static let assetTransfer = "/api/v2/assets/{id}/transfer"
    public static let assetHistory = "/api/v2/assets/{id}/history"

    public static let accessories = "/api/v2/accessories"
    public static let accessory = "/api/v2/accessories/{id}"
    public static let accessoryCheckout = "/api/v2/accessories/{id}/checkout"
    public static let accessoryCheckin = "/api/v2/accessories/{id}/checkin"

    public static let customers = "/api/v2/customers"
    public static let customer = "/api/v2/customers/{id}"

    public static let openAPI = "/openapi.yaml"
    public static let health = "/health"

    /// `template` with its `{name}` parameters filled in (values are percent-encoded).
    public static func path(_ template: String, _ values: [String: String]) -> String {
        var path = template
        for (name, value) in values {
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))) ?? value
            path = path.replacingOccurrences(of: "{\(name)}", with: encoded)
        }
        return path
    }
}

/// Body limits, in bytes. A scan or an edit is a few hundred bytes; an import carries rows.
public enum BodyLimits {
    public static let standard = 64 * 1024
    /// 500 scans of up to about 2 KB each.
    public static let batch = 1024 * 1024
    /// A camera frame sent to `POST /api/v1/decode` (JPEG or PNG).
    public static let frame = 4 * 1024 * 1024
    /// JSON rows are decoded whole, at about 5 times their size: 16 MiB is some 100,000 rows;
    /// a larger inventory goes as CSV, which is spooled and streamed.
    public static let importRows = 16 * 1024 * 1024
    /// A CSV file is written to a temporary file as it arrives, then imported from there.
    public static let spooledCSV = 1024 * 1024 * 1024
}
