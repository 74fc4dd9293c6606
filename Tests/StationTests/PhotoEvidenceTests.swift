import AuditAPI
import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import InventoryStore
import Scanning
import Station
import TestKit
import Testing

/// Evidence photos from the scan path: a camera scan a supervisor may question keeps its frame
/// as a JPEG of at most 200 KB, standalone and connected (queued, then sent after its scan).
@Suite("Evidence photos from the camera")
struct PhotoEvidenceTests {
    /// The stored outcome of a scan event.
    static func scanID(_ event: ScanEvent) throws -> String {
        guard case .recorded(let result, _) = event else { throw InventoryError.storage("not recorded: \(event)") }
        return result.scanId
    }

    /// A 1280×720 frame of noise: the hardest to compress, so the 200 KB limit is exercised.
    static func noisyFrame(seed: UInt64 = 42) -> GrayImage {
        var state = seed
        let pixels = (0..<(1280 * 720)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return GrayImage(width: 1280, height: 720, pixels: pixels)
    }

    @Test func anEncodedFrameFitsTheLimitAndIsAJPEGOfTheFrame() throws {
        let frame = Self.noisyFrame()
        let jpeg = try #require(EvidencePhoto.jpeg(frame))
        #expect(jpeg.count <= ScanPhoto.maxBytes && ScanPhoto.problem(Data(jpeg)) == nil)
        let back = try ImageLoader.decode(jpeg, path: "photo.jpg")
        // Noise at full size does not fit: the frame is halved until it does.
        #expect(back.width <= 1280 && back.width * 720 == back.height * 1280)
        let plain = try #require(EvidencePhoto.jpeg(GrayImage(width: 1280, height: 720, fill: 128)))
        #expect(try ImageLoader.decode(plain, path: "plain.jpg").width == 1280)
    }

    @Test func aStandaloneStationKeepsTheFrameOfQuestionableScansOnly() async throws {
        let path = TestServer.temporaryPath()
        let database = try AppDatabase(path: path)
        let audits = SQLiteAuditService(database: database)
        let assets = SQLiteAssetService(database: database)
        _ = try await assets.create(AssetInput(assetTag: "A1", name: "Laptop", status: "IN_STOCK", country: "SG", location: "Dock A"))
        _ = try await assets.create(AssetInput(assetTag: "A2", name: "Scanner", status: "IN_STOCK", country: "SG", location: "Dock B"))
        let audit = try await audits.start(country: "SG", by: Actor(user: "lead", station: "kiosk-1"))
        let session = ScanSession(
            service: audits, connection: nil, audit: audit, actor: Actor(user: "lead", station: "kiosk-1"),
            place: StationPlace(location: "Dock A")
        ) { _ in }
        let frame = Self.noisyFrame()
        let found = await session.record("A1", source: .camera, frame: frame)
        let stray = await session.record("STRAY-1", source: .camera, frame: frame)
        let misplaced = await session.record("A2", source: .camera, frame: frame)
        let typed = await session.record("STRAY-2", source: .manual)
        await session.photosSettled()
        #expect(try await audits.photo(scanID: try Self.scanID(found), auditID: audit.id) == nil)
        let photo = try #require(try await audits.photo(scanID: try Self.scanID(stray), auditID: audit.id))
        #expect(photo.jpeg.count <= ScanPhoto.maxBytes && photo.jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try await audits.photo(scanID: try Self.scanID(misplaced), auditID: audit.id) != nil)
        #expect(try await audits.photo(scanID: try Self.scanID(typed), auditID: audit.id) == nil)
        let trail = try await audits.scans(auditID: audit.id, query: ListQuery()).items
        #expect(trail.map(\.hasPhoto) == [false, true, true, false])

        // Photos off: nothing kept.
        let off = ScanSession(
            service: audits, connection: nil, audit: audit, actor: Actor(user: "lead", station: "kiosk-1"),
            photos: PhotoConfig(keep: false)
        ) { _ in }
        let quiet = await off.record("STRAY-3", source: .camera, frame: frame)
        await off.photosSettled()
        #expect(try await audits.photo(scanID: try Self.scanID(quiet), auditID: audit.id) == nil)
        #expect(try await audits.photoStorage(auditID: audit.id).photos == 2)
    }

    @Test func aConnectedStationSendsItsPhotosAfterTheirScansInBoundedBatches() async throws {
        try await TestServer.with(.sqlite) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG")])
            let stopped = try Loopback.refusedURL()
            let online = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let audit = try await online.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            let offline = try await TestStation.make(
                server, email: "kiosk@example.com", name: "kiosk-1", via: stopped, timeout: .seconds(5), path: online.path)
            let session = ScanSession(
                service: offline.audit, connection: nil, audit: audit, actor: Actor(user: "kiosk", station: "kiosk-1")
            ) { _ in }
            var scanIDs: [String] = []
            for index in 1...20 {
                let event = await session.record("GHOST-\(index)", source: .camera, frame: Self.noisyFrame(seed: UInt64(index)))
                scanIDs.append(try Self.scanID(event))
            }
            await session.photosSettled()
            // Kept on the station while the server is away, and shown from there.
            #expect(try await offline.audit.photoStorage(auditID: audit.id).photos == 20)
            #expect(try await offline.audit.photo(scanID: scanIDs[0], auditID: nil) != nil)
            let report = await online.audit.syncNow()
            #expect(report.pushed == 20 && report.photosPushed == 20 && report.photosRemaining == 0, "\(report)")
            for scanID in scanIDs {
                let photo = try await server.parts.audits.photo(scanID: scanID, auditID: audit.id)
                #expect(photo?.jpeg == (try await offline.audit.photo(scanID: scanID, auditID: nil))?.jpeg)
            }
            #expect(try await server.parts.audits.photoStorage(auditID: audit.id).photos == 20)
            let again = await online.audit.syncNow()
            #expect(again.photosPushed == 0)
        }
    }

    @Test func aConnectedStationMarksTheOtherStationsPhotosFromTheServer() async throws {
        try await TestServer.with(.sqlite) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG")])
            let first = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let second = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-2")
            let audit = try await first.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            let session = ScanSession(
                service: first.audit, connection: nil, audit: audit, actor: Actor(user: "kiosk", station: "kiosk-1")
            ) { _ in }
            let stray = try Self.scanID(await session.record("STRAY-1", source: .camera, frame: Self.noisyFrame()))
            _ = await session.record("A1", source: .camera, frame: Self.noisyFrame())
            await session.photosSettled()
            #expect(await first.audit.syncNow().photosPushed == 1)
            // The second station keeps no photo of it, and finds the first station's on the server
            // (given time: a whole test run may be beside it).
            await second.audit.setPhotoFindTimeout(.seconds(30))
            #expect(try await second.audit.photoScans(auditID: audit.id, identifiers: ["STRAY-1", "A1", "GHOST-9"]) == ["STRAY-1": stray])
            // The server's answer, and its refusals of an empty list and of one too long.
            let token = try await server.user("lead@example.com")
            let path = "/api/v1/audit/\(audit.id)/photos/find"
            let answer = try await server.call("POST", path, json: #"{"identifiers": ["STRAY-1", "A1"]}"#, token: token)
            #expect(answer.status == 200 && answer.text.contains(#""photo_scans":{"STRAY-1":"\#(stray)"}"#), "\(answer.text)")
            #expect(try await server.call("POST", path, json: #"{"identifiers": []}"#, token: token).status == 422)
            let many = (0...100).map { "\"T-\($0)\"" }.joined(separator: ",")
            #expect(try await server.call("POST", path, json: #"{"identifiers": [\#(many)]}"#, token: token).status == 422)
        }
    }
}
