import ArgumentParser
import Foundation
import InventoryCore
import Station

extension AuditStation {
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Run a whole audit on a sample inventory and write its reports.",
            discussion: """
                Creates a sample inventory in Singapore and Malaysia in a demo database of its own \
                (never your station's database unless you pass --database), starts an audit of SG, \
                scans a realistic mix of tags, ends the audit, prints the summary and writes CSV and \
                JSON reports.
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "Where to put the demo database and reports (default: the data folder's demo/).") var output: String?

        func run() async throws {
            try await runReportingErrors {
                let folder = URL(fileURLWithPath: output ?? StationContext.dataDirectory().appendingPathComponent("demo").path)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                var options = global
                if options.database == nil {
                    let path = folder.appendingPathComponent("demo.sqlite").path
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                    options.database = path
                }
                let context = try StationContext.make(options, user: "demo-auditor")
                try await DemoScript(context: context, folder: folder).run()
            }
        }
    }
}

/// The demo's steps, each announced on the terminal.
struct DemoScript {
    let context: StationContext
    let folder: URL

    func step(_ text: String) { Terminal.line("\n" + Terminal.paint("▶ \(text)", .bold)) }

    func run() async throws {
        step("Creating a sample inventory in SG and MY (database: \(context.databasePath))")
        let inventory = try await DemoInventory.create(in: context)
        Terminal.line("\(inventory.assetCount) assets, \(inventory.customerCount) customers, \(inventory.accessoryCount) accessories")

        step("Starting an audit of SG")
        let audit = try await context.audit.start(country: "SG", by: context.actor)
        for line in AuditText.session(audit) { Terminal.line(line) }

        step("Scanning (as a keyboard-wedge scanner would type them)")
        let printer = ScanPrinter(json: false)
        let session = ScanSession(context: context, audit: audit) { printer.show($0) }
        for identifier in inventory.scanScript {
            Terminal.line(Terminal.paint("» \(identifier.debugDescription)", .dim))
            await session.record(identifier, source: .manual)
        }

        let images = ["code128-15-photo.jpg", "qrcode-15-photo.jpg", "code39-13-inverted.png", "none-01-white.png"]
            .map { URL(fileURLWithPath: "SampleImages").appendingPathComponent($0).path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        if !images.isEmpty {
            step("Decoding label photos from SampleImages/ (as `audit scan --images` does)")
            await session.scanImages(images, decoder: context.config.decoder)
        }

        step("Ending the audit")
        let summary = try await context.audit.end(auditID: audit.id, by: context.actor)
        AuditText.summary(summary, listLimit: 8)

        step("Writing the reports")
        for format in ReportFormat.allCases {
            let path = folder.appendingPathComponent("audit-\(audit.country)-\(audit.id.prefix(8)).\(format.rawValue)").path
            try await ReportFile.write(audit: audit.id, format: format, service: context.audit, to: path)
            Terminal.line("\(format.rawValue.uppercased()) report: \(path)")
        }
    }
}

/// A deterministic sample inventory and a scan script that exercises every outcome.
struct DemoInventory {
    var assetCount = 0
    var customerCount = 0
    var accessoryCount = 0
    var scanScript: [String] = []

    static let models = [
        ("Latitude 7440", "Dell", "Laptop"), ("ThinkPad T14", "Lenovo", "Laptop"),
        ("MacBook Air M2", "Apple", "Laptop"), ("P2723D", "Dell", "Monitor"),
        ("OptiPlex 7010", "Dell", "Desktop"), ("iPhone 15", "Apple", "Phone")
    ]

    static func create(in context: StationContext) async throws -> DemoInventory {
        var result = DemoInventory()
        let acme = try await context.customers.create(
            CustomerInput(
                name: "Acme Logistics", contactNumber: "+65 6123 4567", address: "10 Pioneer Road, Singapore", country: "SG",
                email: "it@acme.example"))
        _ = try await context.customers.create(
            CustomerInput(
                name: "Batu Trading", contactNumber: "+60 3 2161 0000", address: "Jalan Ampang 5, Kuala Lumpur", country: "MY"))
        result.customerCount = 2
        let cables = try await context.accessories.create(
            AccessoryInput(name: "USB-C charger 65W", category: "Charger", totalQuantity: 20, country: "SG"))
        _ = try await context.accessories.checkout(id: cables.id, AccessoryMovement(customerId: acme.id, quantity: 3))
        _ = try await context.accessories.create(AccessoryInput(name: "Wireless mouse", category: "Peripheral", totalQuantity: 50, country: "SG"))
        result.accessoryCount = 2

        var rows: [ImportRow] = []
        for (country, count) in [("SG", 24), ("MY", 8)] {
            for n in 1...count {
                let (model, maker, kind) = models[(n - 1) % models.count]
                let status = n == 5 ? "ARCHIVED" : n == 6 ? "DISPOSED" : n % 3 == 0 ? "DEPLOYED" : "IN_STOCK"
                rows.append(
                    ImportRow(
                        line: rows.count + 2,
                        input: AssetInput(
                            assetTag: String(format: "%@-%04d", country, n), serialNum: String(format: "SN%@%06d", country, 1000 + n * 37),
                            name: "\(maker) \(model)", model: model, status: status, condition: "GOOD", manufacturer: maker,
                            assetType: kind, country: country, location: country == "SG" ? "Warehouse A, rack \(n % 4 + 1)" : "KL office",
                            company: "Acme")))
            }
        }
        // The tags printed on the labels in SampleImages/.
        rows.append(
            ImportRow(
                line: rows.count + 2,
                input: AssetInput(
                    assetTag: "AST-000456", serialNum: "C02XK1ZJJG5H", name: "HP EliteDesk 800", country: "SG", location: "Warehouse A, dock")))
        rows.append(
            ImportRow(
                line: rows.count + 2,
                input: AssetInput(assetTag: "AST-000123", name: "Zebra ZT411 printer", country: "SG", location: "Warehouse A, dock")))
        rows.append(
            ImportRow(line: rows.count + 2, input: AssetInput(assetTag: "TAG-7781", name: "Pallet jack", country: "MY", location: "KL office")))
        result.assetCount = try await context.assets.importAssets(rows) { _, _ in }
        _ = try await context.assets.transfer(id: 1, TransferRequest(customerId: acme.id, reason: "New starter"))

        result.scanScript = (1...16).filter { $0 != 5 && $0 != 6 && $0 != 7 }.map { String(format: "SG-%04d", $0) }
        result.scanScript.insert("SG-0003", at: 4) // a repeat: already scanned
        result.scanScript += [
            "MY-0002", // registered in another country
            String(format: "SNSG%06d", 1000 + 7 * 37), // SG-0007 by its serial number
            "SG-0005", // archived
            "  SG-0017\t", // padding a scanner may send
            "ZZ-404", // not a known asset
            "MY-0002" // the unexpected one again
        ]
        return result
    }
}
