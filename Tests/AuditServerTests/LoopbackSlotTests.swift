@testable import AuditServer
import AuditTestSupport
import Foundation
import HTTPGuard
import Testing
import TestKit

extension TimingSensitive {
    /// The machine's own screen (127.0.0.1) keeps slots of the connection cap that no other
    /// address can take, however many idle sockets other addresses hold. Among the checks that
    /// depend on time: its server must answer within 10 s, and once did not when its tasks waited
    /// on the cooperative pool behind every suite of a whole run starting at once.
    @Suite("Slots kept for the machine itself")
    struct LoopbackSlotTests {
        @Test func otherAddressesCannotTakeTheKeptSlots() {
            let limits = ConnectionLimits(maxConnections: 40, maxPerAddress: 4)
            #expect(limits.reservedForLoopback == 10)
            #expect(ConnectionLimits(maxConnections: 512).reservedForLoopback == 16)
            #expect(ConnectionLimits(maxConnections: 3).reservedForLoopback == 0, "a tiny cap keeps nothing back")
            let count = ConnectionCount()
            var admitted = 0
            for address in 2...37 {
                for _ in 0..<4 where count.open(address: "10.200.0.\(address)", limits: limits) { admitted += 1 }
            }
            #expect(admitted == 30 && count.counts == (total: 30, others: 30))
            // The refused ones were never counted; the machine's own addresses get the rest.
            for _ in 0..<4 { #expect(count.open(address: "127.0.0.1", limits: limits)) }
            for _ in 0..<4 { #expect(count.open(address: "::1", limits: limits)) }
            #expect(!count.open(address: "127.0.0.1", limits: limits), "its own per-address cap still holds")
            #expect(count.open(address: "::ffff:127.0.0.1", limits: limits) && count.open(address: "::ffff:127.0.0.1", limits: limits))
            #expect(!count.open(address: "::ffff:127.0.0.1", limits: limits), "the total cap holds for everyone")
            count.close(address: "10.200.0.2")
            #expect(count.counts == (total: 39, others: 29))
            #expect(count.open(address: "10.200.0.20", limits: limits), "a freed slot of the others' share goes to another address")
            #expect(!count.open(address: "10.200.0.21", limits: limits))
        }

        @Test("36 other addresses holding idle sockets up to the caps: 127.0.0.1 is still served")
        func theMachinesOwnScreenIsServed() async throws {
            let limits = ConnectionLimits(maxConnections: 40, maxPerAddress: 4, headerTimeout: .seconds(30))
            let settings = ServerSettings(host: "127.0.0.1", port: 0, limits: limits)
            try await TestServer.with(settings: settings) { server in
                // 127.0.0.2 to 127.0.0.37 are loopback too, but not the machine's screen's address:
                // the server counts them as other addresses. 144 idle sockets, 4 an address.
                var held: [RawConnection] = []
                for address in 2...37 {
                    for _ in 0..<4 { held.append(try RawConnection(port: server.port, from: "127.0.0.\(address)")) }
                }
                // Another address is refused once the server has counted the held ones.
                var refused = ""
                for _ in 0..<50 {
                    let probe = try RawConnection(port: server.port, from: "127.0.0.38")
                    probe.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    refused = try await probe.answer(within: .seconds(5))
                    if refused.hasPrefix("HTTP/1.1 503") { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused.prefix(120))")
                // The machine's own screen: served, on several connections at once.
                let own = try (0..<4).map { _ in try RawConnection(port: server.port, from: "127.0.0.1") }
                for connection in own { connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") }
                for connection in own {
                    let answer = try await connection.answer(within: .seconds(10))
                    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(120))")
                }
                withExtendedLifetime(held) {}
            }
        }
    }
}
