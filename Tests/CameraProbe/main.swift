// camera-probe: runs a ScanLoop on one camera and prints JSON lines, for the camera tests
// and Benchmarks/camera. Not installed; the station itself uses `audit scan --device`.
//
//   camera-probe [--config JSON] [--seconds S] [--exit-on-stall] [--max-codes N]
//   camera-probe --list DEVICE     (prints CameraCatalog's description of it, with emulated formats)
//
// Lines: {"event": "opened|lost|retrying|resumed", "message": …, "stall": bool}
//        {"code": TEXT, "symbology": …, "reappearance": bool, "latency_ms": …, "sequence": N}
// and last {"stats": {…ScanLoopStatistics…, "cpuSeconds": …, "wallSeconds": …}}.
import Foundation
import Scanning

struct ProbeOptions {
    var camera = CameraConfig()
    var decoder = DecoderConfig()
    var seconds: Double?
    var exitOnStall = false
    var maxCodes: Int?
    var list: String?

    init(arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--config":
                camera = try JSONDecoder().decode(CameraConfig.self, from: Data((rest.popFirst() ?? "{}").utf8))
            case "--decoder":
                decoder = try JSONDecoder().decode(DecoderConfig.self, from: Data((rest.popFirst() ?? "{}").utf8))
            case "--seconds": seconds = rest.popFirst().flatMap(Double.init)
            case "--max-codes": maxCodes = rest.popFirst().flatMap(Int.init)
            case "--exit-on-stall": exitOnStall = true
            case "--list": list = rest.popFirst()
            default: throw CameraError.invalidConfig("unknown option \(flag)")
            }
        }
    }
}

final class Printer: Sendable {
    private let lock = NSLock()
    func line(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        lock.withLock {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

let options: ProbeOptions
do {
    options = try ProbeOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("camera-probe: \(error.localizedDescription)\n".utf8))
    exit(2)
}
if let device = options.list {
    do {
        let camera = try CameraCatalog.describe(device: device, includeEmulated: true)
        print(String(decoding: try JSONEncoder().encode(camera), as: UTF8.self))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("camera-probe: \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
let printer = Printer()
let (stopSignal, stop) = AsyncStream<Void>.makeStream()
let loop = try ScanLoop(config: options.camera, decoderConfig: options.decoder)
let started = (wall: Date(), cpu: cpuSeconds())
let codeCount = ManagedCounter()

let run = Task {
    try await loop.run(
        onCode: { code in
            printer.line([
                "code": code.text, "symbology": code.symbology.rawValue, "reappearance": code.isReappearance,
                "latency_ms": Double(code.latency.components.attoseconds) / 1e15
                    + Double(code.latency.components.seconds) * 1000,
                "sequence": Int(code.frameSequence)
            ])
            if let max = options.maxCodes, codeCount.increment() >= max { stop.yield() }
        },
        onEvent: { event in
            var line: [String: Any] = ["message": event.description]
            switch event {
            case .opened: line["event"] = "opened"
            case .resumed: line["event"] = "resumed"
            case .retrying: line["event"] = "retrying"
            case .lost(let error):
                line["event"] = "lost"
                line["stall"] = error.isStall
                if error.isStall && options.exitOnStall { stop.yield() }
            }
            printer.line(line)
        })
}
if let seconds = options.seconds {
    Task {
        try await Task.sleep(for: .seconds(seconds))
        stop.yield()
    }
}
for await _ in stopSignal { break }
run.cancel()
do {
    try await run.value
} catch {
    FileHandle.standardError.write(Data("camera-probe: \(error.localizedDescription)\n".utf8))
    exit(1)
}
let stats = loop.statistics
let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(stats))
var summary = encoded as? [String: Any] ?? [:]
summary["cpuSeconds"] = cpuSeconds() - started.cpu
summary["wallSeconds"] = Date().timeIntervalSince(started.wall)
printer.line(["stats": summary])
