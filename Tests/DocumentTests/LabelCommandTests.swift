import AsyncHTTPClient
import AuditTestSupport
import DocumentKit
import Foundation
import NIOCore
import Scanning
import TestKit
import Testing

/// `assets labels` on a standalone station, and `POST /api/v2/assets/labels`.
@Suite("Labels from the CLI and the API")
struct LabelCommandTests {
    @Test func theCommandLabelsTagsACountryAndAnAuditsUnknownIdentifiers() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("station.sqlite").path
        let file = folder.appendingPathComponent("assets.csv")
        try CSVFixture("asset_tag", "name", "country", "location")
            .rows(1...7) { ["SG-\($0)", "Laptop \($0)", "SG", $0 <= 3 ? "Dock A" : "Dock B"] }.row("MY-1", "Other", "MY", "KL")
            .write(to: file)
        #expect(try await Poppler.station(["--database", database, "assets", "import", file.path]).status == 0)
        func labels(_ arguments: [String]) async throws -> (status: Int32, stderr: String, text: String, url: URL) {
            let url = folder.appendingPathComponent("labels-\(UUID().uuidString).pdf")
            let run = try await Poppler.station(["--database", database, "assets", "labels"] + arguments + ["--output", url.path])
            let text = run.status == 0 ? try await Poppler.text(url) : ""
            return (run.status, run.stderr, text, url)
        }
        // By tag: decoded back from the page at 300 dpi.
        let byTag = try await labels(["SG-2", "SG-5", "--symbology", "datamatrix", "--layout", "a4-3x8"])
        #expect(byTag.status == 0, "\(byTag.stderr)")
        #expect(byTag.stderr.contains("Wrote 2 datamatrix labels (a4-3x8, 1 page)"))
        let image = try await Poppler.render(byTag.url, page: 1)
        #expect(try await LabelTests.decodeOffPool(image, layout: .a4_3x8, count: 2) == ["SG-2", "SG-5"])
        #expect(byTag.text.contains("Laptop 2") && byTag.text.contains("Laptop 5"))
        // By country and location.
        let dockA = try await labels(["--country", "sg", "--location", "Dock A", "--symbology", "qr", "--layout", "roll-62x29"])
        #expect(dockA.status == 0, "\(dockA.stderr)")
        #expect(try await Poppler.pages(dockA.url) == 3)
        #expect(dockA.text.contains("SG-1") && dockA.text.contains("SG-3") && !dockA.text.contains("SG-4"))
        // An audit's unknown identifiers, to label before they are registered.
        let started = try await Poppler.station(["--database", database, "audit", "start", "--country", "SG", "--json"])
        let auditID = try #require((try JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [String: Any])?["id"] as? String)
        _ = try await Poppler.station(["--database", database, "audit", "scan"], input: "SG-1\nNEW-77\nMY-1\nNEW-78\n")
        let unknown = try await labels(["--audit", auditID, "--unknown", "--symbology", "code128", "--layout", "a4-4x10"])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(unknown.text.contains("NEW-77") && unknown.text.contains("NEW-78") && !unknown.text.contains("MY-1"))
        let unknownImage = try await Poppler.render(unknown.url, page: 1)
        #expect(try await LabelTests.decodeOffPool(unknownImage, layout: .a4_4x10, count: 2) == ["NEW-77", "NEW-78"])
        // ZPL on standard output.
        let zpl = try await Poppler.station(
            ["--database", database, "assets", "labels", "SG-1", "--symbology", "code128", "--layout", "roll-62x29", "--format", "zpl"])
        #expect(zpl.status == 0 && zpl.stdout.hasPrefix("^XA") && zpl.stdout.contains("^BCN") && zpl.stdout.contains("^FDSG-1^FS"))
        // Bad input: one clear line on standard error, a non-zero exit, no file.
        let bad: [([String], String)] = [
            (["SG-1", "--symbology", "pdf417", "--layout", "a4-3x8"], "pdf417"),
            (["SG-1", "--symbology", "qr", "--layout", "a4-2x2"], "a4-2x2"),
            (["NO-SUCH-TAG", "--symbology", "qr", "--layout", "a4-3x8"], "no asset has the tag 'NO-SUCH-TAG'"),
            (["--country", "SG", "--location", "Nowhere", "--symbology", "qr", "--layout", "a4-3x8"], "no asset matched"),
            (["--symbology", "qr", "--layout", "a4-3x8"], "name the assets"),
            (["--audit", auditID, "--symbology", "qr", "--layout", "a4-3x8"], "--unknown")
        ]
        for (arguments, message) in bad {
            let run = try await labels(arguments)
            #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: run.url.path))
        }
        // A tag too long for Code 128 on small labels.
        let longTag = "SG-" + String(repeating: "L", count: 37)
        try CSVFixture("asset_tag", "name", "country").row(longTag, "Long", "SG").write(to: file)
        #expect(try await Poppler.station(["--database", database, "assets", "import", file.path]).status == 0)
        let tooLong = try await labels([longTag, "--symbology", "code128", "--layout", "a4-4x10"])
        #expect(tooLong.status != 0 && tooLong.stderr.contains("is too long for a code128 symbol on a4-4x10"), "\(tooLong.stderr)")
        #expect(try await labels([longTag, "--symbology", "qr", "--layout", "a4-4x10"]).status == 0)
    }

    @Test func theAPIAnswersLabelsForTheUsersCountriesOnly() async throws {
        try await TestServer.with { server in
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("MY-1", "MY")])
            let admin = try await server.user("labels@example.com")
            let pdf = try await Self.post(server, #"{"tags":["SG-1","SG-2"],"symbology":"qr","layout":"a4-4x10"}"#, token: admin)
            #expect(pdf.status == 200 && pdf.type == "application/pdf")
            let folder = try Poppler.scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("api.pdf")
            try Data(pdf.body).write(to: url)
            let image = try await Poppler.render(url, page: 1)
            #expect(try await LabelTests.decodeOffPool(image, layout: .a4_4x10, count: 2) == ["SG-1", "SG-2"])
            let zpl = try await Self.post(
                server, #"{"country":"SG","symbology":"datamatrix","layout":"roll-62x29","format":"zpl"}"#, token: admin)
            #expect(zpl.status == 200 && zpl.type?.hasPrefix("text/plain") == true)
            let text = String(decoding: zpl.body, as: UTF8.self)
            #expect(text.components(separatedBy: "^XA").count - 1 == 2 && text.contains("^BXN"))
            // Bad input is a 422 naming the field.
            for (body, field) in [
                (#"{"tags":["SG-1"],"symbology":"pdf417","layout":"a4-4x10"}"#, "symbology"),
                (#"{"tags":["SG-1"],"symbology":"qr","layout":"a5"}"#, "layout"),
                (#"{"tags":["SG-1"],"symbology":"qr","layout":"a4-4x10","format":"png"}"#, "format"),
                (#"{"tags":["NOPE"],"symbology":"qr","layout":"a4-4x10"}"#, "labels"),
                (#"{"symbology":"qr","layout":"a4-4x10"}"#, "labels")
            ] {
                let answer = try await server.call("POST", "/api/v2/assets/labels", json: body, token: admin)
                #expect(answer.status == 422, "\(body): \(answer.text)")
                #expect(((answer.body["errors"] as? [String: Any])?[field]) != nil, "\(body): \(answer.text)")
            }
            // A user of SG only: MY's tag is not found, MY's country is refused, no token is 401.
            let sg = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"])
            #expect(try await Self.post(server, #"{"tags":["MY-1"],"symbology":"qr","layout":"a4-3x8"}"#, token: sg).status == 422)
            #expect(try await Self.post(server, #"{"country":"MY","symbology":"qr","layout":"a4-3x8"}"#, token: sg).status == 403)
            #expect(try await Self.post(server, #"{"tags":["SG-1"],"symbology":"qr","layout":"a4-3x8"}"#, token: sg).status == 200)
            #expect(try await Self.post(server, #"{"tags":["SG-1"],"symbology":"qr","layout":"a4-3x8"}"#, token: nil).status == 401)
        }
    }

    static func post(_ server: TestServer, _ json: String, token: String?) async throws -> (status: Int, type: String?, body: [UInt8]) {
        var request = HTTPClientRequest(url: server.baseURL + "/api/v2/assets/labels")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(string: json))
        let response = try await TestServer.http.execute(request, timeout: .seconds(60))
        let buffer = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), response.headers.first(name: "Content-Type"), Array(buffer.readableBytesView))
    }
}
