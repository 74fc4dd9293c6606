import Foundation
import HTTPGuard
import Hummingbird
import Logging
import Scanning
import ServiceLifecycle
import Station

/// How to run the kiosk; the command line fills it from its options and the configuration.
public struct KioskOptions: Sendable {
    public var host: String
    public var port: Int
    /// The camera; nil runs without one (typing and the barcode gun still work).
    public var device: String?
    public var pin: String?
    /// Who scans, until the page says otherwise.
    public var user: String?
    /// Preview frames a second sent to each page.
    public var previewFPS: Int
    /// Connections at once, in all and per address, and the deadlines every connection meets.
    public var limits: ConnectionLimits
    /// The certificate and key to serve the page over HTTPS with; nil: plain HTTP.
    public var tls: TLSFiles?

    /// The kiosk's own limits: a few hundred connections keep well clear of its 1,024 file
    /// descriptors, and one browser opens a handful.
    public static let defaultLimits = ConnectionLimits(maxConnections: 256, maxPerAddress: 32)

    public init(
        host: String = "127.0.0.1", port: Int = 8090, device: String? = nil, pin: String? = nil, user: String? = nil,
        previewFPS: Int = 15, limits: ConnectionLimits = defaultLimits, tls: TLSFiles? = nil
    ) {
        self.limits = limits
        self.tls = tls
        self.host = host
        self.port = port
        self.device = device
        self.pin = pin
        self.user = user
        self.previewFPS = previewFPS
    }
}

/// `audit-station kiosk`: the page, its calls and the camera loop in one process, over one
/// station context (standalone or connected alike).
public struct KioskServer: Sendable {
    public let context: StationContext
    public let options: KioskOptions
    let logger: Logger

    /// Refuses to listen beyond loopback without a PIN.
    public init(context: StationContext, options: KioskOptions, logger: Logger = Logger(label: "audit-station.kiosk")) throws {
        guard (0...65535).contains(options.port) else {
            throw StationError.usage("--port must be from 1 to 65535 (0 picks a free one)")
        }
        var options = options
        if let pin = options.pin {
            do { options.pin = try PinGate.validate(pin) } catch { throw StationError.usage(error.message) }
        } else if !PinGate.isLoopback(options.host) {
            throw StationError.usage(
                "The kiosk can start and end audits, so on \(options.host) it needs a PIN: pass --pin PIN or set kiosk.pin in the configuration")
        }
        self.context = context
        self.options = options
        self.logger = logger
    }

    /// Serves until the task is cancelled or the process is told to stop. `onRunning` gets the
    /// bound port (useful with port 0). `beside` runs with the server (a standalone kiosk's
    /// webhook deliveries) and stops with it.
    public func run(beside: [any Service] = [], onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let hub = EventHub()
        let station = KioskStation(context: context, user: options.user, device: options.device, hub: hub, logger: logger)
        var loop: ScanLoop?
        if let device = options.device {
            var camera = context.config.camera
            camera.device = device
            do {
                loop = try ScanLoop(config: camera, decoderConfig: context.config.decoder)
            } catch {
                logger.error("The camera cannot be used: \(error.localizedDescription)")
                await station.cameraFailed(error.localizedDescription)
            }
        }
        // Loopback-only kiosks ask no PIN even if one is configured: nobody else can reach them.
        let gate = PinGate(pin: PinGate.isLoopback(options.host) ? nil : options.pin)
        let preview = loop.map { PreviewStream(tap: $0.preview, fps: options.previewFPS) }
        if let loop {
            loop.preview.onOutlines { outlines in hub.publish("outlines", outlines) }
        }
        let router = Router(context: KioskRequestContext.self)
        router.add(middleware: KioskGuard(gate: gate, allowedHosts: ["localhost", options.host.lowercased()], logger: logger))
        KioskRoutes(station: station, hub: hub, gate: gate, preview: preview).add(to: router)
        // The server's guard on every connection: caps, header, body and write deadlines, so idle
        // or stalled clients cannot use up the descriptors or hold the preview's viewer slots.
        let guardCount = ConnectionCount()
        let limits = options.limits
        let start = ListenStart()
        let app = Application(
            router: router,
            server: try .serving(
                .http1(
                    configuration: .init(
                        additionalChannelHandlers: [ConnectionGuard(count: guardCount, limits: limits, answer: KioskError.refusal)],
                        idleTimeout: limits.idleTimeout)),
                over: options.tls),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "AuditStation-Kiosk"),
            onServerRunning: { channel in
                start.began()
                await onRunning(channel.localAddress?.port ?? options.port)
            },
            logger: logger)

        let background = KioskBackground(station: station, loop: loop, hub: hub, preview: preview)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: app),
                    // Shut down first (the group goes in reverse order): the pages' event and
                    // preview streams end, so the server's graceful shutdown does not wait on them.
                    .init(service: background, successTerminationBehavior: .gracefullyShutdownGroup)
                ] + beside.map { .init(service: $0) },
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await ListenError.whileListening(host: options.host, port: options.port, start: start) { try await group.run() }
        if let connection = context.connection {
            let report = await connection.syncNow()
            if report.remaining > 0 {
                logger.notice("\(report.remaining) scans wait in the outbox; the next kiosk, `audit scan` or `sync` pushes them")
            }
        }
    }
}

/// The kiosk's work beside the HTTP server: the camera loop, the 2-second poll of the audit and
/// the server link, and the keep-alive of the event streams. On shutdown it ends the pages'
/// streams.
struct KioskBackground: Service {
    let station: KioskStation
    let loop: ScanLoop?
    let hub: EventHub
    let preview: PreviewStream?

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Beside the server, not before it: with the server of a connected station
                // down, finding the running audit can take the HTTP client's deadline, and the
                // page must load meanwhile (it follows when the audit is found).
                group.addTask { await station.resume() }
                if let loop {
                    group.addTask {
                        try await loop.run(
                            onCode: { code in await station.cameraCode(code) },
                            onEvent: { event in Task { await station.cameraEvent(event) } })
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(2))
                        await station.poll()
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(15))
                        hub.keepAlive()
                    }
                }
                // Runs until shutdown cancels it; a failing camera ends the rest with it.
                try await group.waitForAll()
            }
        }
        preview?.stop()
        hub.finishAll()
    }
}
