import Foundation
import InventoryCore
import Scanning

/// The station configuration file (JSON; every key optional). See config/station.json.
public struct StationConfig: Decodable, Sendable {
    /// The name recorded with every scan; the host name when absent.
    public var stationName: String?
    /// Match tags and serial numbers case-sensitively (the default) or not.
    public var caseSensitiveTags = true
    /// Which symbologies zbar reads, and how.
    public var decoder = DecoderConfig()
    /// The webcam: device, size, controls, de-duplication.
    public var camera = CameraConfig()
    /// The kiosk page: where it listens, its PIN, who scans by default.
    public var kiosk = KioskConfig()
    /// Where the station stands, and how location labels read.
    public var station = StationPlace()
    /// Evidence photos: whether a camera station keeps them, and for how long (here and on `serve`).
    public var photos = PhotoConfig()
    /// The PostgreSQL database of `serve` (and of `users`, `assets import` for that server);
    /// `--postgres` overrides it. Without either, the server runs on its SQLite file.
    public var postgres: PostgresConfig?

    enum CodingKeys: String, CodingKey {
        case stationName, caseSensitiveTags, decoder, camera, kiosk, postgres, station, photos
    }

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stationName = try container.decodeIfPresent(String.self, forKey: .stationName)
        caseSensitiveTags = try container.decodeIfPresent(Bool.self, forKey: .caseSensitiveTags) ?? true
        self.decoder = try container.decodeIfPresent(DecoderConfig.self, forKey: .decoder) ?? DecoderConfig()
        camera = try container.decodeIfPresent(CameraConfig.self, forKey: .camera) ?? CameraConfig()
        kiosk = try container.decodeIfPresent(KioskConfig.self, forKey: .kiosk) ?? KioskConfig()
        postgres = try container.decodeIfPresent(PostgresConfig.self, forKey: .postgres)
        station = try container.decodeIfPresent(StationPlace.self, forKey: .station) ?? StationPlace()
        photos = try container.decodeIfPresent(PhotoConfig.self, forKey: .photos) ?? PhotoConfig()
    }

    /// Reads the file at `path`, or the defaults when no path is given.
    public static func load(path: String?) throws -> StationConfig {
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
    public var resolvedStationName: String {
        if let stationName, !stationName.isEmpty { return stationName }
        return ProcessInfo.processInfo.hostName
    }
}

/// Failures of the command line itself.
public enum StationError: Error, LocalizedError {
    case config(String)
    case usage(String)
    case io(String)

    public var errorDescription: String? {
        switch self {
        case .config(let text), .usage(let text), .io(let text): text
        }
    }
}

extension DecodingError {
    /// "camera.width: Expected Int …" rather than Foundation's debug dump.
    public var plainDescription: String {
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

/// The `station` section of the configuration: `{"location": "Dock A", "locationLabelPrefix": "LOC:"}`.
public struct StationPlace: Decodable, Sendable, Equatable {
    /// Where the station stands when it starts (`--location` overrides it); scanning a location
    /// label moves it. An expected asset registered elsewhere is found there, and misplaced.
    public var location: String?
    /// Scanned text that starts with this names a location (`LOC:Dock B`); it is never stored
    /// as a scan. Empty turns location labels off.
    public var locationLabelPrefix = "LOC:"

    enum CodingKeys: String, CodingKey { case location, locationLabelPrefix }

    public init(location: String? = nil, locationLabelPrefix: String = "LOC:") {
        self.location = location
        self.locationLabelPrefix = locationLabelPrefix
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        location = try container.decodeIfPresent(String.self, forKey: .location)
        locationLabelPrefix = try container.decodeIfPresent(String.self, forKey: .locationLabelPrefix) ?? "LOC:"
        if let location, (try? FreeText.normalize(location, field: "location")) == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .location, in: container, debugDescription: "'\(location.prefix(40))' is not a location (empty, or control characters)")
        }
    }
}

/// The `photos` section: `{"keep": true, "retentionDays": 365}`. A camera station keeps the
/// frame of every scan a supervisor may question (unexpected, unknown, misplaced, and those its
/// copy cannot decide) as a JPEG of at most 200 KB; photos older than `retentionDays` are
/// deleted (0 keeps them for ever), on the station and on `serve`.
public struct PhotoConfig: Decodable, Sendable, Equatable {
    public var keep: Bool
    public var retentionDays: Int

    enum CodingKeys: String, CodingKey { case keep, retentionDays }

    public init(keep: Bool = true, retentionDays: Int = 365) {
        self.keep = keep
        self.retentionDays = retentionDays
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        keep = try container.decodeIfPresent(Bool.self, forKey: .keep) ?? true
        retentionDays = try container.decodeIfPresent(Int.self, forKey: .retentionDays) ?? 365
        guard (0...36_500).contains(retentionDays) else {
            throw DecodingError.dataCorruptedError(
                forKey: .retentionDays, in: container, debugDescription: "must be from 0 (keep for ever) to 36500 days, not \(retentionDays)")
        }
    }

    public var retention: PhotoRetention { PhotoRetention(days: retentionDays) }
}

/// The `postgres` section of the configuration: `{"url": "postgres://user:password@host:5432/db"}`.
public struct PostgresConfig: Decodable, Sendable, Equatable {
    public var url: String
}

/// The `kiosk` section of the station configuration. Command-line options override it.
public struct KioskConfig: Decodable, Sendable, Equatable {
    /// The address the page listens on; anything but loopback needs `pin`.
    public var host = "127.0.0.1"
    public var port = 8090
    /// Asked of every browser that is not on this machine. 4 to 64 characters.
    public var pin: String?
    /// Who scans when the page has not been told (default: the page asks, and scans made
    /// before are recorded under the login name of the process, or the logged-in user of a
    /// connected station).
    public var user: String?

    enum CodingKeys: String, CodingKey { case host, port, pin, user }

    public init() {}

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decodeIfPresent(String.self, forKey: .host) ?? "127.0.0.1"
        port = try container.decodeIfPresent(Int.self, forKey: .port) ?? 8090
        pin = try container.decodeIfPresent(String.self, forKey: .pin)
        user = try container.decodeIfPresent(String.self, forKey: .user)
        guard (1...65535).contains(port) else {
            throw DecodingError.dataCorruptedError(forKey: .port, in: container, debugDescription: "\(port) is not a port (1 to 65535)")
        }
    }
}
