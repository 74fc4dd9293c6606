import Foundation
import InventoryCore
import Scanning

/// The station configuration file (JSON; every key optional). See config/station.json.
struct StationConfig: Decodable {
    /// The name recorded with every scan; the host name when absent.
    var stationName: String?
    /// Match tags and serial numbers case-sensitively (the default) or not.
    var caseSensitiveTags = true
    /// Which symbologies zbar reads, and how.
    var decoder = DecoderConfig()
    /// The webcam: device, size, controls, de-duplication.
    var camera = CameraConfig()

    enum CodingKeys: String, CodingKey {
        case stationName, caseSensitiveTags, decoder, camera
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stationName = try container.decodeIfPresent(String.self, forKey: .stationName)
        caseSensitiveTags = try container.decodeIfPresent(Bool.self, forKey: .caseSensitiveTags) ?? true
        self.decoder = try container.decodeIfPresent(DecoderConfig.self, forKey: .decoder) ?? DecoderConfig()
        camera = try container.decodeIfPresent(CameraConfig.self, forKey: .camera) ?? CameraConfig()
    }

    /// Reads the file at `path`, or the defaults when no path is given.
    static func load(path: String?) throws -> StationConfig {
        guard let path else { return StationConfig() }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw StationError.config("cannot read the configuration \(path): \(error.localizedDescription)")
        }
        do { return try JSONDecoder().decode(StationConfig.self, from: data) } catch let error as DecodingError {
            throw StationError.config("the configuration \(path) is not valid: \(error.plainDescription)")
        }
    }

    /// The station name: configured, else the host name.
    var resolvedStationName: String {
        if let stationName, !stationName.isEmpty { return stationName }
        return ProcessInfo.processInfo.hostName
    }
}

/// Failures of the command line itself.
enum StationError: Error, LocalizedError {
    case config(String)
    case usage(String)
    case io(String)

    var errorDescription: String? {
        switch self {
        case .config(let text), .usage(let text), .io(let text): text
        }
    }
}

extension DecodingError {
    /// "camera.width: Expected Int …" rather than Foundation's debug dump.
    var plainDescription: String {
        let context: Context
        switch self {
        case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c): context = c
        @unknown default: return localizedDescription
        }
        if case .dataCorrupted = self, context.codingPath.isEmpty { return "not valid JSON" }
        let key = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            .joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
        if case .keyNotFound(let missing, _) = self { return "\(key.isEmpty ? "" : key + ": ")\(missing.stringValue) is required" }
        return key.isEmpty ? context.debugDescription : "\(key): \(context.debugDescription)"
    }
}
