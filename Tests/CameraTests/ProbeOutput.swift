import CameraTestSupport
import Foundation

/// The JSON lines `camera-probe` printed, parsed.
struct ProbeOutput {
    struct Code: Equatable, CustomStringConvertible {
        var text: String
        var symbology: String
        var reappearance: Bool
        var description: String { "\(text)[\(symbology)]\(reappearance ? " again" : "")" }
    }

    var codes: [Code] = []
    /// (kind, message) of each camera event, e.g. ("lost", "camera … was disconnected").
    var events: [(kind: String, message: String)] = []
    var stats: [String: Any] = [:]

    init(lines: String) throws {
        for line in lines.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw FakeCameraError.badOutput(String(line))
            }
            if let text = object["code"] as? String {
                codes.append(
                    Code(
                        text: text, symbology: object["symbology"] as? String ?? "",
                        reappearance: object["reappearance"] as? Bool ?? false))
            } else if let kind = object["event"] as? String {
                events.append((kind, object["message"] as? String ?? ""))
            } else if let stats = object["stats"] as? [String: Any] {
                self.stats = stats
            } else {
                throw FakeCameraError.badOutput(String(line))
            }
        }
    }

    func stat(_ name: String) -> Int { (stats[name] as? NSNumber)?.intValue ?? -1 }
    var eventKinds: [String] { events.map(\.kind) }
}
