import ArgumentParser
import Foundation
import HTTPGuard
import InventoryStore
import AuditServer
import Kiosk
import Logging
import Station

extension AuditStation {
    struct KioskCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kiosk",
            abstract: "Run the full-screen kiosk page and the camera: open http://127.0.0.1:8090 in Chromium.",
            discussion: """
                Serves the kiosk page on this machine and runs the camera loop in the same process, in \
                standalone and connected mode alike. When exactly one audit is running, the page opens \
                straight on its scanning screen. On an address other than loopback, browsers on other \
                machines must enter the PIN (--pin or kiosk.pin in the configuration). Options override \
                the configuration's kiosk section.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var tls: TLSOptions
        @Option(help: "The address to listen on (default 127.0.0.1; another address needs a PIN).") var host: String?
        @Option(parsing: .unconditional, help: "The port to listen on (default 8090).") var port: Int?

        func validate() throws {
            if let port, !(0...65535).contains(port) { throw ValidationError("--port must be between 0 (any free port) and 65535, not \(port)") }
            if !(1...900).contains(maxConnections) { throw ValidationError("--max-connections must be between 1 and 900, not \(maxConnections)") }
            if !(1...900).contains(maxPerAddress) {
                throw ValidationError("--max-connections-per-address must be between 1 and 900, not \(maxPerAddress)")
            }
            if !(1...600).contains(headerTimeout) {
                throw ValidationError("--header-timeout must be between 1 and 600 seconds, not \(headerTimeout)")
            }
        }
        @Option(help: "The V4L2 camera (default: camera.device of the configuration, /dev/video0).") var device: String?
        @Flag(name: .customLong("no-camera"), help: "Run without a camera: typing and a barcode gun only.") var noCamera = false
        @Option(help: "The PIN that browsers on other machines must enter.") var pin: String?
        @Option(help: "Who is scanning, until the page says otherwise (default: kiosk.user, else the page asks).") var user: String?
        @Option(help: "Where the kiosk stands (default: station.location of the configuration); a scanned LOC: label moves it.")
        var location: String?
        @Option(
            name: .customLong("max-connections"), parsing: .unconditional, help: "Connections open at once; more are answered 503 with Retry-After.")
        var maxConnections = KioskOptions.defaultLimits.maxConnections
        @Option(
            name: .customLong("max-connections-per-address"), parsing: .unconditional,
            help: "Connections open at once from one address; more are answered 503.")
        var maxPerAddress = KioskOptions.defaultLimits.maxPerAddress
        @Option(
            name: .customLong("header-timeout"), parsing: .unconditional,
            help: "Seconds a connection may take to send a request's headers, or stay idle between requests; then 408.")
        var headerTimeout = 10

        func run() async throws {
            try await runReportingErrors {
                var context = try StationContext.make(global, user: user)
                if let location { context.config.station.location = try checkedLocation(location) }
                let kiosk = context.config.kiosk
                let pin = pin ?? ProcessInfo.processInfo.environment["AUDIT_STATION_KIOSK_PIN"] ?? kiosk.pin
                let options = KioskOptions(
                    host: host ?? kiosk.host, port: port ?? kiosk.port,
                    device: noCamera ? nil : (device ?? context.config.camera.device),
                    pin: pin?.isEmpty == false ? pin : nil, user: user,
                    limits: ConnectionLimits(
                        maxConnections: maxConnections, maxPerAddress: maxPerAddress, headerTimeout: .seconds(Int64(headerTimeout))),
                    tls: tls.files)
                var logger = Logger(label: "audit-station.kiosk")
                logger.logLevel = .notice
                let server = try KioskServer(context: context, options: options, logger: logger)
                let mode = context.connection.map { "connected to \($0.server)" } ?? "standalone, database \(context.databasePath)"
                // A standalone kiosk serves its own database, so it delivers its webhooks.
                let beside = context.webhooks.map { [WebhookDeliverer(webhooks: $0, logger: logger)] } ?? []
                // And finishes the last-audited times of an audit whose end was stopped before, and
                // indexes for search the rows an `assets import` on this file left to a serving process.
                (context.audit as? SQLiteAuditService)?.startLastAuditedCatchUp()
                (context.assets as? SQLiteAssetService)?.startSearchCatchUp()
                try await server.run(beside: beside) { port in
                    Terminal.error(
                        "Kiosk on \(tls.scheme)://\(options.host):\(port) (\(mode)); camera: \(options.device ?? "none"). Ctrl-C stops it.")
                    Terminal.error(
                        "Show it full screen with: chromium --kiosk \(tls.scheme)://\(options.host == "0.0.0.0" ? "127.0.0.1" : options.host):\(port)"
                    )
                }
            }
        }
    }
}
