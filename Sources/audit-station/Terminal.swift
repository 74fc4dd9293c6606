import Foundation
import InventoryCore
#if canImport(Glibc)
    import Glibc
#endif

/// Writing to the terminal: unbuffered lines, colour only at a terminal (and never with
/// NO_COLOR), JSON lines for scripts, and a progress line on standard error.
enum Terminal {
    static let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1
    static let stdinIsTTY = isatty(STDIN_FILENO) == 1
    static let useColor = stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    enum Color: String { case green = "32", yellow = "33", red = "31", magenta = "35", cyan = "36", bold = "1", dim = "2" }

    static func paint(_ text: String, _ color: Color) -> String {
        useColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Writes a line to standard output at once (no buffering: a printed outcome is never lost
    /// in a buffer when the process dies).
    static func line(_ text: String) {
        write(STDOUT_FILENO, text + "\n")
    }

    static func error(_ text: String) {
        write(STDERR_FILENO, text + "\n")
    }

    static func write(_ fd: Int32, _ text: String) {
        write(fd, bytes: Array(text.utf8))
    }

    /// Writes all of `bytes`, retrying on EINTR and short writes.
    static func write(_ fd: Int32, bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.write(fd, base + offset, buffer.count - offset)
            }
            if written < 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }

    /// One JSON object on one line.
    static func json(_ value: some Encodable) throws {
        line(String(decoding: try JSONEncoder.auditStation().encode(value), as: UTF8.self))
    }

    /// A pretty JSON document.
    static func prettyJSON(_ value: some Encodable) throws {
        line(String(decoding: try JSONEncoder.auditStation(pretty: true).encode(value), as: UTF8.self))
    }

    /// A plain table with a header row.
    static func table(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = min(40, max(widths[i], cell.count)) } }
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let text = cell.count > widths[i] ? String(cell.prefix(widths[i] - 1)) + "…" : cell
                return text.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        line(paint(format(header), .bold))
        for row in rows { line(format(row)) }
    }
}

/// A progress display on standard error: redrawn in place at a terminal, one line per tenth
/// otherwise (so logs stay short).
final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let unit: @Sendable (Int) -> String
    private let lock = NSLock()
    private var lastTenth = -1
    private var lastDraw = Date.distantPast

    /// `unit` writes a count as the line shows it (a plain number unless given).
    init(_ label: String, unit: @escaping @Sendable (Int) -> String = { String($0) }) {
        self.label = label
        self.unit = unit
    }

    /// A size in bytes as a person reads it: 60 B, 12.5 KiB, 48.3 MiB, 1.2 GiB.
    static func bytes(_ count: Int) -> String {
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        for unit in ["KiB", "MiB"] {
            if value < 1024 { return String(format: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return String(format: "%.1f GiB", value)
    }

    func update(_ done: Int, _ total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let percent = total == 0 ? 100 : Double(done) * 100 / Double(total)
        if Terminal.stderrIsTTY {
            guard done == total || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
            lastDraw = Date()
            let width = 30
            let filled = Int(Double(width) * percent / 100)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            Terminal.write(STDERR_FILENO, "\r\(label) \(bar) \(unit(done)) of \(unit(total)) (\(String(format: "%.0f", percent))%)\u{1B}[K")
            if done == total { Terminal.write(STDERR_FILENO, "\n") }
        } else {
            let tenth = Int(percent / 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            Terminal.error("\(label) \(unit(done)) of \(unit(total)) (\(tenth * 10)%)")
        }
    }
}
