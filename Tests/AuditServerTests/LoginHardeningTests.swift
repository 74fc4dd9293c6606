import AuditTestSupport
@testable import AuditServer
import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

@Suite("Login guessing: races and lockouts")
struct LoginHardeningTests {
    @Test("Guesses sent at once at one account meet the same limit as guesses sent one by one")
    func concurrentGuessesAreLimited() async throws {
        let settings = ServerSettings(host: "127.0.0.1", port: 0)
        let backend = ServerBackend.sqlite(try AppDatabase(path: TestServer.temporaryPath()))
        // bcrypt at cost 10 takes long enough that every guess is in flight before the first is checked.
        let parts = try await ServerParts(backend: backend, settings: settings, bcryptCost: 10)
        _ = try await parts.users.create(email: "rae@example.com", password: "the-right-one", name: "Rae", type: .staff)
        try await TestServer.with(parts: parts, settings: settings) { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<24 {
                    let password = index == 23 ? "the-right-one" : "wrong-guess-\(index)"
                    group.addTask {
                        try await server.call(
                            "POST", "/api/v1/auth/login", json: #"{"email":"rae@example.com","password":"\#(password)","device_name":"t"}"#
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 != 429 }
            #expect(checked.count <= 5, "at most 5 passwords are checked: \(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count >= 19)
        }
    }

    @Test("Five wrong passwords lock the account for their address only; the backstop locks it for all after 100")
    func lockoutsArePerAccountAndAddress() {
        let throttle = LoginThrottle()
        let start = Date()
        for _ in 0..<5 { #expect(throttle.reserve(email: "amy@example.com", address: "10.0.0.1", now: start) == nil) }
        #expect(throttle.reserve(email: "amy@example.com", address: "10.0.0.1", now: start) == 30)
        #expect(throttle.reserve(email: "AMY@example.com", address: "10.0.0.2", now: start) == nil, "Amy's own address is not locked")
        throttle.succeeded(email: "amy@example.com", address: "10.0.0.2")
        for index in 0..<95 {
            _ = throttle.reserve(email: "amy@example.com", address: "10.1.\(index / 4).\(index)", now: start)
        }
        #expect(throttle.wait(email: "amy@example.com", address: "10.0.0.3", now: start) == 60, "100 failures from many addresses lock the account")
        #expect(throttle.wait(email: "amy@example.com", address: "10.0.0.3", now: start.addingTimeInterval(61)) == nil)
        #expect(throttle.wait(email: "bo@example.com", address: "10.0.0.3", now: start) == nil, "other accounts go on")
    }

    @Test("An address is locked after 50 failures over any accounts, and a right password does not count")
    func addressesAreLimitedAndRightPasswordsAreForgiven() async throws {
        let throttle = LoginThrottle()
        let start = Date()
        // Reserved at once from many tasks: exactly 50 pass before the address is locked.
        let passed = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<80 { group.addTask { throttle.reserve(email: "u\(index)@example.com", address: "10.0.0.9", now: start) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(passed == 50)
        for _ in 0..<60 {
            #expect(throttle.reserve(email: "cy@example.com", address: "10.0.0.10", now: start) == nil)
            throttle.succeeded(email: "cy@example.com", address: "10.0.0.10")
        }
        #expect(throttle.wait(email: "cy@example.com", address: "10.0.0.10", now: start) == nil, "60 right logins lock nothing")
    }
}

extension TimingSensitive {
    @Suite("Login timing")
    struct LoginTimingTests {
        @Test("An unknown email, a disabled user and a wrong password take the same time, within 10% at the median")
        func failedLoginsTakeTheSameTime() async throws {
            let backend = ServerBackend.sqlite(try AppDatabase(path: TestServer.temporaryPath()))
            // Cost 5: each check is still one whole bcrypt (32 rounds of its key schedule), which
            // is what must take the same time, and 200 of them stay quick in a debug build.
            let users = UserDirectory(store: backend.users, cost: 5)
            _ = try await users.create(email: "known@example.com", password: "secret-pass", name: "Known", type: .staff)
            _ = try await users.create(email: "off@example.com", password: "secret-pass", name: "Off", type: .staff)
            _ = try await users.store.setDisabled(email: "off@example.com", true)
            let cases = [("nobody@example.com", "secret-pass"), ("off@example.com", "secret-pass"), ("known@example.com", "wrong-pass")]
            let clock = ContinuousClock()
            // Taken in rounds of one of each, in an order that rotates each round; each time is
            // compared with its own round's median, so a busy moment of the machine (other tests
            // run beside this one) weighs on the kind it hits alone, and on every kind alike
            // over the rounds. The medians over 64 rounds are compared.
            var rounds: [[Double]] = []
            for round in 0..<68 {
                var times = [Double](repeating: 0, count: cases.count)
                for step in 0..<cases.count {
                    let index = (round + step) % cases.count
                    let (email, password) = cases[index]
                    let start = clock.now
                    await #expect(throws: (any Error).self) { try await users.authenticate(email: email, password: password) }
                    let took = clock.now - start
                    times[index] = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
                }
                if round >= 4 { rounds.append(times) }
            }
            func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
            let medians = (0..<cases.count).map { kind in median(rounds.map { $0[kind] }) }
            let relative = (0..<cases.count).map { kind in median(rounds.map { $0[kind] / median($0) }) }
            print("login medians for an unknown email, a disabled user, a wrong password: \(medians) s, relative \(relative)")
            let fastest = try #require(relative.min())
            let slowest = try #require(relative.max())
            #expect(slowest <= fastest * 1.1, "relative medians for unknown, disabled, wrong: \(relative); seconds: \(medians)")
        }
    }
}
