import Foundation
import InventoryCore
import Station

/// Shows each scan of a `ScanSession` as soon as it is stored: in colour with a bell on a
/// problem at a terminal, or as one JSON object a line with `--json`.
struct ScanPrinter: Sendable {
    let json: Bool

    func show(_ event: ScanEvent) {
        switch event {
        case .recorded(let result, _): show(result)
        case .decided(let result, _): show(result, decided: true)
        case .refused(let refusal): show(refusal)
        case .note(let text): if !json { Terminal.error(Terminal.paint(text, .dim)) }
        }
    }

    /// A decided result is the server's outcome of a scan shown pending before (same scan_id);
    /// its `--json` line says `"decided": true`.
    private func show(_ result: ScanResult, decided: Bool = false) {
        if json {
            if decided { try? Terminal.json(DecidedLine(result: result)) } else { try? Terminal.json(result) }
            return
        }
        let (label, color): (String, Terminal.Color) =
            switch result.status {
            case .foundExpected: ("✔ FOUND", .green)
            case .alreadyScanned: ("↺ ALREADY SCANNED", .yellow)
            case .unexpected: ("⚠ UNEXPECTED", .magenta)
            case .unknown: ("✖ UNKNOWN", .red)
            case .pending: ("◷ PENDING", .bold)
            case .accessoryCounted: ("# COUNTED", .cyan)
            }
        let bell = result.status.isProblem && result.status != .pending && Terminal.stdoutIsTTY ? "\u{07}" : ""
        let prefix = decided ? Terminal.paint("decided: ", .dim) : ""
        Terminal.line(
            prefix + "\(Terminal.paint(label, color))  \(result.message)  " + Terminal.paint("[\(AuditText.progress(result.progress))]", .dim) + bell)
    }

    private func show(_ refusal: ScanRefusal) {
        // A refused scan names where it came from; refusals of input already carry it.
        let place = refusal.identifier != nil ? refusal.origin.place.map { "\($0): " } ?? "" : ""
        if json {
            try? Terminal.json(
                ScanErrorLine(
                    identifier: refusal.identifier, scanId: refusal.scanID, status: "error", error: refusal.code,
                    message: place + refusal.message))
        } else {
            Terminal.line(Terminal.paint("✖ NOT RECORDED", .red) + "  \(place)\(refusal.message)" + (Terminal.stdoutIsTTY ? "\u{07}" : ""))
        }
    }
}

/// `--json` line for a scan that was not recorded.
struct ScanErrorLine: Encodable {
    var identifier: String?
    /// The scan's id when it has one: a scan stored here and then refused by the server says
    /// which earlier outcome line it replaces.
    var scanId: String?
    var status: String
    var error: ErrorCode
    var message: String
}

/// `--json` line for the server's outcome of a scan shown pending: the result, and `decided`.
struct DecidedLine: Encodable {
    var result: ScanResult

    func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(true, forKey: .decided)
    }

    enum Key: String, CodingKey { case decided }
}
