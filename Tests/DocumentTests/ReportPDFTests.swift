import AsyncHTTPClient
import AuditTestSupport
import DocumentKit
import Foundation
import InventoryCore
import NIOCore
import TestKit
import Testing

/// The signed PDF report, read back with pdftotext and pdfinfo: from the CLI over a standalone
/// station, and from the API, which must answer the same document.
@Suite("The PDF audit report")
struct ReportPDFTests {
    static let hostileNames = [
        String(repeating: "Very long name ", count: 15) + "END-OF-LONG-NAME",
        "مستودع الحاسوب المحمول", "Laptop 😀🚀 with emoji", "<script>alert(1)</script>", "Line\nbreak\tand tab"
    ]

    /// A standalone station with 150 assets in SG over three locations (and none), an audit that
    /// found some (one of them away from its location), and scanned an unknown tag and an asset of MY.
    static func station(in folder: URL) async throws -> (database: String, auditID: String) {
        let database = folder.appendingPathComponent("station.sqlite").path
        let locations = ["Dock A", "Dock B", "Shelf 9", ""]
        let file = folder.appendingPathComponent("assets.csv")
        try CSVFixture("asset_tag", "serial_num", "name", "model", "status", "country", "location")
            .rows(1...150) { index in
                let name = index <= hostileNames.count ? hostileNames[index - 1] : "Laptop \(index)"
                return ["SG-\(String(format: "%03d", index))", "SN-\(index)", name, "Latitude 7440", "IN_STOCK", "SG", locations[index % 4]]
            }
            .row("MY-001", "SN-MY-1", "Other laptop", "X1", "IN_STOCK", "MY", "KL")
            .write(to: file)
        let imported = try await Poppler.station(["--database", database, "assets", "import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let started = try await Poppler.station(["--database", database, "audit", "start", "--country", "SG", "--user", "alice", "--json"])
        let audit = try #require(try JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [String: Any])
        let auditID = try #require(audit["id"] as? String)
        // Found at their own location (SG-n is at locations[n % 4]), but SG-013 (Dock B) found at Dock A.
        let scans = (10...29).map { "SG-\(String(format: "%03d", $0))" } + ["NOT-A-TAG-77", "MY-001"]
        for tag in scans {
            let index = Int(tag.dropFirst(3)) ?? 0
            let location = tag.hasPrefix("SG") ? (index == 13 ? "Dock A" : locations[index % 4]) : "Dock A"
            let arguments = ["--database", database, "audit", "scan", "--user", "bob"] + (location.isEmpty ? [] : ["--location", location])
            let scanned = try await Poppler.station(arguments, input: tag + "\n")
            #expect(scanned.status == 0, "\(scanned.stderr)")
        }
        let ended = try await Poppler.station(["--database", database, "audit", "end"])
        #expect(ended.status == 0, "\(ended.stderr)")
        return (database, auditID)
    }

    @Test func theCLIReportHasEverySectionOnNumberedPagesWithTheAuditID() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (database, auditID) = try await Self.station(in: folder)
        let pdf = folder.appendingPathComponent("report.pdf")
        let report = try await Poppler.station(["--database", database, "audit", "report", "--format", "pdf", "--output", pdf.path])
        #expect(report.status == 0, "\(report.stderr)")
        let info = try await Poppler.info(pdf)
        #expect(info["Producer"]?.contains("cairo") == true)
        #expect(info["Title"] == "Audit report SG \(auditID)")
        let pages = try #require(Int(info["Pages"] ?? ""))
        #expect(pages >= 3, "130 missing rows, the tables and the sign-off take several pages")
        for page in 1...pages {
            let text = try await Poppler.text(pdf, page: page)
            #expect(text.contains("Page \(page) of \(pages)"), "page \(page)")
            #expect(text.contains(auditID), "page \(page)")
        }
        let text = try await Poppler.text(pdf)
        for section in [
            "Audit report", "Summary", "By location", "By station", "By user", "Missing assets (130), by location",
            "Unexpected (2)", "Misplaced: found away from their location (1)", "Sign-off", "Auditor", "Supervisor",
            "Signature", "Date"
        ] {
            #expect(text.contains(section), "\(section)")
        }
        #expect(text.contains("Expected assets") && text.contains("150") && text.contains("13.3%"))
        #expect(text.contains("NOT-A-TAG-77") && text.contains("MY-001") && text.contains("other_country"))
        // The unexpected table says where each unexpected asset belongs: MY-001 is registered at KL.
        #expect(text.contains("Belongs at"))
        let strayRow = text.split(separator: "\n").first { $0.contains("MY-001") && $0.contains("other_country") }
        #expect(strayRow?.contains("KL") == true, "MY-001's row names no registered location: \(strayRow ?? "none")")
        // The missing assets come grouped by location, in name order, those with none last.
        let groups = ["Location: Dock A", "Location: Dock B", "Location: Shelf 9", "Location: (no location)"]
        let positions = groups.map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(groups)")
        let sorted = positions.compactMap { $0 }
        #expect(sorted == sorted.sorted())
        // SG-001 (Dock B... index 1 % 4 = 1) is missing: listed under Dock B, after its heading and before Shelf 9's.
        if let dockB = positions[1], let shelf = positions[2], let tag = text.range(of: "SG-001 ")?.lowerBound {
            #expect(dockB < tag && tag < shelf)
        }
        // Found assets are not listed as missing; the misplaced one is listed with where it was found.
        #expect(!text.contains("SG-015 "))
        #expect(text.contains("SG-013"))
        // Hostile names stay text on one line of their cell: the long one is cut, markup is not run.
        #expect(text.contains("<script>alert(1)</script>"))
        #expect(!text.contains("END-OF-LONG-NAME"))
        #expect(text.contains("Very long name Very long name") && text.contains("…"))
        #expect(text.contains("😀") || text.contains("Laptop"))
        #expect(text.contains("Line\u{FFFD}break\u{FFFD}and tab"))
        // The same audit gives the same bytes.
        let again = folder.appendingPathComponent("again.pdf")
        _ = try await Poppler.station(["--database", database, "audit", "report", "--format", "pdf", "--output", again.path])
        #expect(try Data(contentsOf: pdf) == Data(contentsOf: again))
    }

    @Test func anAuditWithNothingListedStillHasItsSectionsAndSignOff() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("station.sqlite").path
        let file = folder.appendingPathComponent("assets.csv")
        try CSVFixture("asset_tag", "name", "country").row("SG-1", "Laptop", "SG").write(to: file)
        _ = try await Poppler.station(["--database", database, "assets", "import", file.path])
        _ = try await Poppler.station(["--database", database, "audit", "start", "--country", "SG", "--user", "alice"])
        _ = try await Poppler.station(["--database", database, "audit", "scan", "--user", "alice"], input: "SG-1\n")
        // A running audit: the report says it is not final.
        let report = try await Poppler.station(["--database", database, "audit", "report", "--format", "pdf", "--output", folder.path])
        #expect(report.status == 0, "\(report.stderr)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".pdf") })
        #expect(name.hasPrefix("audit-SG-"))
        let pdf = folder.appendingPathComponent(name)
        #expect(try await Poppler.pages(pdf) == 1)
        let text = try await Poppler.text(pdf)
        #expect(text.contains("RUNNING: not final") && text.contains("None: every expected asset was found.") && text.contains("Sign-off"))
        #expect(text.contains("Page 1 of 1"))
    }

    /// On PostgreSQL the report's JSON comes from an asynchronous cursor, which hands each piece to
    /// the PDF's reader thread without holding a thread of the concurrency pool.
    @Test(arguments: Backend.allCases)
    func theAPIAnswersTheSamePDFAsTheStationDrawsAndKeepsItsPermissions(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-3", "SG"), ("MY-1", "MY")])
            let token = try await server.user("pdf@example.com")
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let auditID = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            for tag in ["SG-1", "NOPE-1"] {
                _ = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"\#(tag)"}"#, token: token)
            }
            _ = try await server.call("POST", "/api/v1/audit/end", json: "{}", token: token)
            let (status, type, body) = try await Self.download(server, "/api/v1/audit/\(auditID)/report?format=pdf", token: token)
            #expect(status == 200 && type == "application/pdf")
            #expect(body.starts(with: Array("%PDF-".utf8)))
            // What the station's code draws from the same service, byte for byte.
            let drawn = LockedData()
            try await AuditReportPDF.write(auditID: auditID, service: server.parts.audits) { drawn.append($0) }
            #expect(Data(body) == drawn.value)
            let folder = try Poppler.scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            let pdf = folder.appendingPathComponent("api.pdf")
            try Data(body).write(to: pdf)
            let text = try await Poppler.text(pdf)
            #expect(text.contains("Missing assets (2), by location") && text.contains("SG-2") && text.contains("NOPE-1"))
            let pages = try await Poppler.pages(pdf)
            for page in 1...max(1, pages) {
                let pageText = try await Poppler.text(pdf, page: page)
                #expect(pageText.contains("Page \(page) of \(pages)") && pageText.contains(auditID))
            }
            // No token, and a user of another country, get no PDF.
            #expect(try await Self.download(server, "/api/v1/audit/\(auditID)/report?format=pdf", token: nil).status == 401)
            let other = try await server.user("my@example.com", type: "STAFF", countries: ["MY"])
            let refused = try await Self.download(server, "/api/v1/audit/\(auditID)/report?format=pdf", token: other)
            #expect(refused.status == 403 || refused.status == 404)
            #expect(refused.type != "application/pdf")
        }
    }

    static func download(_ server: TestServer, _ path: String, token: String?) async throws -> (status: Int, type: String?, body: [UInt8]) {
        var request = HTTPClientRequest(url: server.baseURL + path)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await TestServer.http.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), response.headers.first(name: "Content-Type"), Array(buffer.readableBytesView))
    }
}

@Suite("Text in the PDF")
struct PDFTextTests {
    @Test func controlAndBidiOverrideCharactersNeverReachThePage() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("text.pdf")
        let data = LockedData()
        let canvas = try PDFCanvas(width: 300, height: 200) { data.append($0) }
        canvas.text("Bell\u{7}and\u{1B}[31mescape \u{202E}reversed\u{202C} done", x: 10, baseline: 40, width: 280, size: 9)
        canvas.text(String(repeating: "W", count: 400) + "TAIL", x: 10, baseline: 60, width: 100, size: 9)
        canvas.text("right", x: 10, baseline: 80, width: 280, size: 9, align: .right)
        #expect(canvas.textWidth("WWWW", size: 9) > canvas.textWidth("iiii", size: 9))
        try canvas.finish()
        try data.value.write(to: url)
        let text = try await Poppler.text(url)
        #expect(text.contains("Bell\u{FFFD}and\u{FFFD}[31mescape reversed done"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{7}") && !text.contains("\u{202E}"))
        #expect(text.contains("WWW…") && !text.contains("TAIL"))
        #expect(try await Poppler.pages(url) == 1)
    }
}

/// Bytes gathered from a `@Sendable` writer.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    var value: Data { lock.withLock { data } }
    func append(_ more: Data) { lock.withLock { data.append(more) } }
}
