import Foundation
import InventoryCore

/// Records scans one at a time, in the order they arrive from every source, and shows each
/// outcome as soon as it is stored: in colour with a bell on a problem at a terminal, or as
/// one JSON object a line with `--json`.
actor ScanRecorder {
    private let service: any AuditService
    private let audit: AuditSession
    private let actor: Actor
    private let json: Bool
    private(set) var recorded = 0
    private(set) var failures = 0
    private(set) var lastProgress: AuditProgress
    /// Set when the audit can take no more scans (it ended); sources stop.
    private(set) var stopped: InventoryError?

    init(service: any AuditService, audit: AuditSession, actor: Actor, json: Bool) {
        self.service = service
        self.audit = audit
        self.actor = actor
        self.json = json
        self.lastProgress = audit.progress
    }

    /// Records one identifier and prints its outcome, or prints why it was not recorded.
    func record(_ raw: String, source: ScanSource, origin: String? = nil) async {
        guard stopped == nil else { return }
        let request = ScanRequest(identifier: raw, auditId: audit.id, scanId: UUID().uuidString.lowercased(),
                                  source: source, scannedAt: Date(), deviceName: actor.station, user: actor.user)
        do {
            let result = try await service.record(request)
            recorded += 1
            lastProgress = result.progress
            show(result)
        } catch {
            let inventoryError = InventoryError(error)
            if case .auditEnded = inventoryError { stopped = inventoryError }
            if case .noActiveAudit = inventoryError { stopped = inventoryError }
            reject(describe(error), identifier: raw, origin: origin, code: inventoryError?.code ?? "ERROR")
        }
    }

    /// Reports input that could not be a scan (bad bytes, an unreadable image, …).
    func reject(_ message: String, identifier: String? = nil, origin: String? = nil, code: String = "INVALID_INPUT") {
        failures += 1
        let place = origin.map { "\($0): " } ?? ""
        if json {
            try? Terminal.json(ScanErrorLine(identifier: identifier, status: "error", error: code, message: place + message))
        } else {
            Terminal.line(Terminal.paint("✖ NOT RECORDED", .red) + "  \(place)\(message)" + (Terminal.stdoutIsTTY ? "\u{07}" : ""))
        }
    }

    /// A line that is not a scan outcome (camera state, files without codes); stderr at a
    /// terminal, nothing in JSON mode.
    func note(_ text: String) {
        if !json { Terminal.error(Terminal.paint(text, .dim)) }
    }

    private func show(_ result: ScanResult) {
        if json {
            try? Terminal.json(result)
            return
        }
        let (label, color): (String, Terminal.Color) = switch result.status {
        case .foundExpected: ("✔ FOUND", .green)
        case .alreadyScanned: ("↺ ALREADY SCANNED", .yellow)
        case .unexpected: ("⚠ UNEXPECTED", .magenta)
        case .unknown: ("✖ UNKNOWN", .red)
        }
        let bell = result.status.isProblem && Terminal.stdoutIsTTY ? "\u{07}" : ""
        Terminal.line("\(Terminal.paint(label, color))  \(result.message)  " + Terminal.paint("[\(AuditText.progress(result.progress))]", .dim) + bell)
    }
}

/// `--json` line for a scan that was not recorded.
struct ScanErrorLine: Encodable {
    var identifier: String?
    var status: String
    var error: String
    var message: String
}
