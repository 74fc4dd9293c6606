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
        case .refused(let refusal): show(refusal)
        case .note(let text): if !json { Terminal.error(Terminal.paint(text, .dim)) }
        }
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

    private func show(_ refusal: ScanRefusal) {
        // A refused scan names where it came from; refusals of input already carry it.
        let place = refusal.identifier != nil ? refusal.origin.place.map { "\($0): " } ?? "" : ""
        if json {
            try? Terminal.json(ScanErrorLine(identifier: refusal.identifier, status: "error", error: refusal.code,
                                             message: place + refusal.message))
        } else {
            Terminal.line(Terminal.paint("✖ NOT RECORDED", .red) + "  \(place)\(refusal.message)" + (Terminal.stdoutIsTTY ? "\u{07}" : ""))
        }
    }
}

/// `--json` line for a scan that was not recorded.
struct ScanErrorLine: Encodable {
    var identifier: String?
    var status: String
    var error: String
    var message: String
}
