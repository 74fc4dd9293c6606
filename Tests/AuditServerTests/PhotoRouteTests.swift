import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// `PUT` and `GET /api/v1/audit/{audit_id}/scans/{scan_id}/photo`: evidence photos on both
/// back ends, who may send and see them, and the refusals (over the limit, not a JPEG, a scan
/// of another audit), each leaving nothing stored.
@Suite("Scan photos through the API")
struct PhotoRouteTests {
    /// A JPEG's structure of `size` bytes, what the server walks of a photo: start of image,
    /// application segments of filler, a frame header (8×8, one component), a scan header, a few
    /// bytes of image data and the end of image.
    static func jpeg(size: Int) -> [UInt8] {
        let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34]
        var bytes: [UInt8] = [0xFF, 0xD8]
        var filler = max(0, size - 2 - frame.count - scan.count - 2)
        while filler >= 4 {
            let payload = min(filler - 4, 65_533)
            bytes += [0xFF, 0xE1, UInt8((payload + 2) >> 8), UInt8((payload + 2) & 0xFF)]
            bytes += (0..<payload).map { UInt8(truncatingIfNeeded: $0 * 7) & 0x7F }
            filler -= payload + 4
        }
        // The last 1 to 3 bytes: fill bytes (FF) before the next marker, which a JPEG allows.
        bytes += [UInt8](repeating: 0xFF, count: filler)
        return bytes + frame + scan + [0xFF, 0xD9]
    }

    @Test(arguments: Backend.allCases) func photosAreStoredOnceAndShownOnlyToThoseWhoMaySeeTheAudit(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let lead = try await server.user("lead@example.com")
            let myStaff = try await server.user("my@example.com", type: "STAFF", countries: ["MY"])
            try await server.seed([("A1", "SG"), ("B1", "MY")])
            let sg = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: lead)
            let sgID = try #require((sg.data?["audit"] as? [String: Any])?["id"] as? String)
            let my = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: lead)
            let myID = try #require((my.data?["audit"] as? [String: Any])?["id"] as? String)
            _ = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "STRAY-9", "audit_id": "\#(sgID)", "scan_id": "s-1"}"#, token: lead)
            _ = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "A1", "audit_id": "\#(sgID)", "scan_id": "s-2"}"#, token: lead)
            let path = "/api/v1/audit/\(sgID)/scans/s-1/photo"
            let photo = Self.jpeg(size: 5_000)

            // Refusals first: each stores nothing.
            let tooBig = try await server.callBytes(
                "PUT", path, body: Self.jpeg(size: ScanPhoto.maxBytes + 1), contentType: "image/jpeg", token: lead)
            #expect(tooBig.status == 422 && String(decoding: tooBig.bytes, as: UTF8.self).contains("200 KB"))
            let notJPEG = try await server.callBytes("PUT", path, body: Array("GIF89a not a photo".utf8), contentType: "image/jpeg", token: lead)
            #expect(notJPEG.status == 422 && String(decoding: notJPEG.bytes, as: UTF8.self).contains("not a JPEG"))
            let cutOff = try await server.callBytes("PUT", path, body: Array(photo.dropLast(2)), contentType: "image/jpeg", token: lead)
            #expect(cutOff.status == 422 && String(decoding: cutOff.bytes, as: UTF8.self).contains("cut-off"))
            let asJSON = try await server.callBytes("PUT", path, body: photo, contentType: "application/json", token: lead)
            #expect(asJSON.status == 422)
            let forbidden = try await server.callBytes("PUT", path, body: photo, contentType: "image/jpeg", token: myStaff)
            #expect(forbidden.status == 403)
            let otherAudit = try await server.callBytes(
                "PUT", "/api/v1/audit/\(myID)/scans/s-1/photo", body: photo, contentType: "image/jpeg", token: lead)
            #expect(otherAudit.status == 404)
            let noScan = try await server.callBytes(
                "PUT", "/api/v1/audit/\(sgID)/scans/nope/photo", body: photo, contentType: "image/jpeg", token: lead)
            #expect(noScan.status == 404)
            let none = try await server.callBytes("GET", path, token: lead)
            #expect(none.status == 404)
            #expect(try await server.parts.audits.photoStorage(auditID: nil).photos == 0)

            let stored = try await server.callBytes(
                "PUT", path + "?taken_at=2026-11-20T10:00:00Z", body: photo, contentType: "image/jpeg", token: lead)
            #expect(stored.status == 200)
            // A resend changes nothing: the first photo stands.
            let resent = try await server.callBytes("PUT", path, body: Self.jpeg(size: 900), contentType: "image/jpeg", token: lead)
            #expect(resent.status == 200)
            let fetched = try await server.callBytes("GET", path, token: lead)
            #expect(fetched.status == 200 && fetched.bytes == photo && fetched.contentType == "image/jpeg")
            let hidden = try await server.callBytes("GET", path, token: myStaff)
            #expect(hidden.status == 403)
            let trail = try await server.call("GET", "/api/v1/audit/\(sgID)/scans", token: lead)
            let scans = try #require(trail.data?["scans"] as? [[String: Any]])
            #expect(scans.map { $0["has_photo"] as? Bool } == [true, false])
            let storage = try await server.parts.audits.photoStorage(auditID: sgID)
            #expect(storage == PhotoStorage(photos: 1, bytes: Int64(photo.count)))

            // The retention deletes what was taken before its cut-off, and only that.
            _ = try await server.callBytes("PUT", "/api/v1/audit/\(sgID)/scans/s-2/photo", body: photo, contentType: "image/jpeg", token: lead)
            let pruned = try await server.parts.audits.prunePhotos(takenBefore: ISOTime.parse("2026-11-21T00:00:00Z")!)
            #expect(pruned == 1)
            #expect(try await server.callBytes("GET", path, token: lead).status == 404)
            #expect(try await server.callBytes("GET", "/api/v1/audit/\(sgID)/scans/s-2/photo", token: lead).status == 200)
        }
    }

    @Test(
        "A photo's time is never later than the server's clock, it goes only to the sender's own scan of a running audit, and it must be a JPEG throughout",
        arguments: Backend.allCases)
    func photosAreCheckedBeforeTheyAreKept(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let lead = try await server.user("lead@example.com")
            let other = try await server.user("other@example.com", type: "STAFF", countries: ["SG"])
            try await server.seed([("A1", "SG")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: lead)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            for n in 1...3 {
                let scan = try await server.call(
                    "POST", "/api/v1/audit/scan", json: #"{"identifier": "STRAY-\#(n)", "audit_id": "\#(id)", "scan_id": "s-\#(n)"}"#, token: lead)
                #expect(scan.status == 200)
            }
            let photo = Self.jpeg(size: 2_000)

            // Only its first and last bytes are a JPEG's: refused, and nothing is kept.
            let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<500).map { UInt8(truncatingIfNeeded: $0 * 7) & 0x7F } + [0xFF, 0xD9]
            let refused = try await server.callBytes(
                "PUT", "/api/v1/audit/\(id)/scans/s-1/photo", body: garbage, contentType: "image/jpeg", token: lead)
            #expect(refused.status == 422 && String(decoding: refused.bytes, as: UTF8.self).contains("damaged JPEG"))

            // Another user's scan: 403, nothing kept.
            let notTheirs = try await server.callBytes(
                "PUT", "/api/v1/audit/\(id)/scans/s-1/photo", body: photo, contentType: "image/jpeg", token: other)
            #expect(notTheirs.status == 403 && String(decoding: notTheirs.bytes, as: UTF8.self).contains("another user"))
            #expect(try await server.parts.audits.photoStorage(auditID: nil).photos == 0)

            // Year 9999 becomes the server's now, so the retention still deletes it.
            let future = try await server.callBytes(
                "PUT", "/api/v1/audit/\(id)/scans/s-1/photo?taken_at=9999-12-31T00:00:00Z", body: photo, contentType: "image/jpeg", token: lead)
            #expect(future.status == 200)
            let kept = try #require(try await server.parts.audits.photo(scanID: "s-1", auditID: id))
            #expect(kept.takenAt <= Date() && kept.takenAt > Date().addingTimeInterval(-300), "\(kept.takenAt)")
            // An earlier time stands as given.
            let earlier = try await server.callBytes(
                "PUT", "/api/v1/audit/\(id)/scans/s-2/photo?taken_at=2026-01-02T03:04:05Z", body: photo, contentType: "image/jpeg", token: lead)
            #expect(earlier.status == 200)
            #expect(try await server.parts.audits.photo(scanID: "s-2", auditID: id)?.takenAt == ISOTime.parse("2026-01-02T03:04:05Z"))
            #expect(try await server.parts.audits.prunePhotos(takenBefore: Date().addingTimeInterval(60)) == 2)

            // Once the audit has ended: 409 AUDIT_ENDED.
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id": "\#(id)", "force": true}"#, token: lead)
            let ended = try await server.callBytes("PUT", "/api/v1/audit/\(id)/scans/s-3/photo", body: photo, contentType: "image/jpeg", token: lead)
            let text = String(decoding: ended.bytes, as: UTF8.self)
            #expect(ended.status == 409 && text.contains("AUDIT_ENDED"), "\(text)")
            #expect(try await server.parts.audits.photoStorage(auditID: nil).photos == 0)
        }
    }
}
