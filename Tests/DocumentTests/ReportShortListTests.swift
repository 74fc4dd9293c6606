import AsyncHTTPClient
import AuditTestSupport
import DocumentKit
import Foundation
import InventoryCore
import NIOCore
import TestKit
import Testing

/// The PDF to sign at scale and with voids: at most 500 missing assets a location (the rest
/// counted, the CSV named), everything with `full`, and the voided scans with why and by whom.
@Suite("The PDF report's short lists and voids")
struct ReportShortListTests {
    @Test(arguments: Backend.allCases) func thePDFListsTheVoidsAndAtMost500MissingALocation(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("pdf@example.com")
            for index in 1...520 {
                _ = try await server.parts.backend.assets.create(
                    AssetInput(
                        assetTag: String(format: "SG-%04d", index), name: "Laptop \(index)", status: "IN_STOCK", country: "SG",
                        location: "Dock A"))
            }
            _ = try await server.parts.backend.assets.create(
                AssetInput(assetTag: "SG-B1", name: "Printer", status: "IN_STOCK", country: "SG", location: "Dock B"))
            let audit = try await server.parts.audits.start(country: "SG", by: Actor(user: "pdf", station: "api"))
            let kept = try await server.parts.audits.record(
                ScanRequest(identifier: "SG-0001", auditId: audit.id, source: .manual, deviceName: "kiosk-1", user: "pdf"))
            let undone = try await server.parts.audits.record(
                ScanRequest(identifier: "SG-0002", auditId: audit.id, source: .manual, deviceName: "kiosk-2", user: "pdf"))
            _ = kept
            let voided = try await server.call(
                "POST", "/api/v1/audit/scans/\(undone.scanId)/void", json: #"{"reason":"scanned the wrong shelf","audit_id":"\#(audit.id)"}"#,
                token: token)
            #expect(voided.status == 200, "\(voided.text)")
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(audit.id)","force":true}"#, token: token)
            let folder = try Poppler.scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            func pdf(_ query: String) async throws -> String {
                let answer = try await ReportPDFTests.download(server, "/api/v1/audit/\(audit.id)/report?format=pdf\(query)", token: token)
                #expect(
                    answer.status == 200 && answer.type == "application/pdf", "\(query): \(String(decoding: answer.body, as: UTF8.self).prefix(300))")
                let url = folder.appendingPathComponent("report-\(UUID().uuidString).pdf")
                try Data(answer.body).write(to: url)
                return try await Poppler.text(url)
            }
            let csvName = ReportSummary.fileName(try await server.parts.audits.audit(id: audit.id), format: .csv)
            // By default: 500 of the 519 missing at Dock A, the 19 others counted and the CSV named.
            let short = try await pdf("")
            #expect(short.contains("Missing assets (520), by location"))
            #expect(short.contains("SG-0501") && !short.contains("SG-0520"), "the list stops at 500 a location")
            #expect(short.contains("and 19 more missing at Dock A"), "the rest is counted")
            #expect(short.contains(csvName), "the CSV with the full list is named")
            #expect(short.contains("SG-B1"), "another location is listed in full")
            // The void: counted, with its scan, station, reason and user.
            #expect(short.contains("Voided scans (1)"))
            #expect(short.contains("scanned the wrong shelf") && short.contains("kiosk-2"))
            // full=true lists everything; a bad value is a 422.
            let full = try await pdf("&full=true")
            #expect(full.contains("SG-0520") && !full.contains("more missing at"))
            let bad = try await server.call("GET", "/api/v1/audit/\(audit.id)/report?format=pdf&full=maybe", token: token)
            #expect(bad.status == 422 && ((bad.body["errors"] as? [String: Any])?["full"]) != nil, "\(bad.text)")
        }
    }
}

/// One tag too long for its label no longer refuses the batch: the others are made, and it is named.
@Suite("Labels: a batch with a tag that does not fit")
struct LabelBatchTests {
    @Test func theAPIMakesTheOtherLabelsAndNamesTheOneThatDoesNotFit() async throws {
        try await TestServer.with { server in
            let longTag = "SG-" + String(repeating: "L", count: 37)
            try await server.seed([("SG-1", "SG"), (longTag, "SG"), ("SG-2", "SG")])
            let admin = try await server.user("labels@example.com")
            var request = HTTPClientRequest(url: server.baseURL + "/api/v2/assets/labels")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "Authorization", value: "Bearer \(admin)")
            request.body = .bytes(ByteBuffer(string: #"{"tags":["SG-1","\#(longTag)","SG-2"],"symbology":"code128","layout":"a4-4x10"}"#))
            let response = try await TestServer.http.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 16 << 20)
            #expect(response.status.code == 200)
            #expect(response.headers.first(name: "X-Labels-Refused") == "1")
            let detail = response.headers.first(name: "X-Labels-Refused-Detail")?.removingPercentEncoding ?? ""
            #expect(detail.contains(longTag) && detail.contains("too long for a code128 symbol on a4-4x10"), "\(detail)")
            let folder = try Poppler.scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("batch.pdf")
            try Data(body.readableBytesView).write(to: url)
            let image = try await Poppler.render(url, page: 1)
            #expect(try await LabelTests.decodeOffPool(image, layout: .a4_4x10, count: 2) == ["SG-1", "SG-2"])
            // Only tags that do not fit: a 422 that names them, as before.
            let none = try await LabelCommandTests.post(server, #"{"tags":["\#(longTag)"],"symbology":"code128","layout":"a4-4x10"}"#, token: admin)
            #expect(none.status == 422 && String(decoding: none.body, as: UTF8.self).contains("too long"))
        }
    }

    @Test func theCommandMakesTheOtherLabelsAndNamesTheOneThatDoesNotFit() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("station.sqlite").path
        let longTag = "SG-" + String(repeating: "L", count: 37)
        let file = folder.appendingPathComponent("assets.csv")
        try CSVFixture("asset_tag", "name", "country").row("SG-1", "One", "SG").row(longTag, "Long", "SG").row("SG-2", "Two", "SG").write(to: file)
        #expect(try await Poppler.station(["--database", database, "assets", "import", file.path]).status == 0)
        let url = folder.appendingPathComponent("labels.pdf")
        let run = try await Poppler.station(
            [
                "--database", database, "assets", "labels", "SG-1", longTag, "SG-2", "--symbology", "code128", "--layout", "a4-4x10", "--output",
                url.path
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Not made: 1 label") && run.stderr.contains(longTag), "\(run.stderr)")
        #expect(run.stderr.contains("Wrote 2 code128 labels"), "\(run.stderr)")
        let image = try await Poppler.render(url, page: 1)
        #expect(try await LabelTests.decodeOffPool(image, layout: .a4_4x10, count: 2) == ["SG-1", "SG-2"])
    }

    /// An unknown tag's label says "Unregistered (audit SG)" whole, in the PDF and in ZPL.
    @Test func anUnknownTagsLabelIsNotCut() throws {
        let label = Label(tag: "NEW-77", name: "Unregistered (audit SG)")
        for layout in LabelLayout.allCases {
            for symbology in [LabelSymbology.qr, .datamatrix] {
                let zpl = try LabelSheet(symbology: symbology, layout: layout).zpl([label])
                #expect(zpl.contains("^FDUnregistered (audit SG)^FS"), "\(layout.rawValue) \(symbology.rawValue): \(zpl)")
            }
        }
    }
}
