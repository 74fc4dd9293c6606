import Foundation
import HTTPGuard
import NIOCore
import Testing
import TestKit

/// A server whose address cannot be had: one line that names the address and what to do, in
/// place of the socket call's own words, and no warnings from the work stopped with it.
@Suite("Servers that cannot listen")
struct ListenErrorTests {
    @Test("serve, office and kiosk on a port another program holds: one line naming the address, no warnings, exit 1")
    func aTakenPort() async throws {
        let holder = try BlackHole()
        defer { holder.close() }
        let (_, database) = try StationProcess.scratch()
        let said =
            "error: cannot listen on 127.0.0.1:\(holder.port): another program uses that port "
            + "(choose another --port, or stop the other program)\n"
        for command in [["serve"], ["office"], ["kiosk", "--no-camera"]] {
            let output = try await StationProcess.run(command + ["--port", "\(holder.port)", "--database", database], timeout: .seconds(60))
            let name = command.joined(separator: " ")
            #expect(output.status == 1, "\(name): status \(output.status)\n\(output.stderr)")
            #expect(output.stderr.hasSuffix(said), "\(name): \(output.stderr)")
            #expect(!output.stderr.contains("warning"), "\(name): \(output.stderr)")
        }
    }

    @Test("Each refusal of the socket call has its own words; any other failure is left as it is")
    func reasons() {
        let cases: [(Int32, String)] = [
            (EADDRINUSE, "another program uses that port"), (EADDRNOTAVAIL, "this machine has no such address"),
            (EACCES, "ports below 1024 need root")
        ]
        for (code, words) in cases {
            let error = ListenError(IOError(errnoCode: code, reason: "bind(descriptor:ptr:bytes:)"), host: "127.0.0.1", port: 80)
            #expect(
                error?.errorDescription?.hasPrefix("cannot listen on 127.0.0.1:80: \(words)") == true,
                "errno \(code): \(String(describing: error))")
        }
        #expect(ListenError(IOError(errnoCode: ECONNRESET, reason: "read(descriptor:pointer:size:)"), host: "127.0.0.1", port: 80) == nil)
        #expect(ListenError(CancellationError(), host: "127.0.0.1", port: 80) == nil)
    }

    @Test("A failure once the server listens is not said as a failure to listen")
    func onlyBeforeListening() async {
        let taken = IOError(errnoCode: EADDRINUSE, reason: "bind(descriptor:ptr:bytes:)")
        let start = ListenStart()
        await #expect(throws: ListenError.self) {
            try await ListenError.whileListening(host: "127.0.0.1", port: 80, start: start) { throw taken }
        }
        start.began()
        await #expect(throws: IOError.self) {
            try await ListenError.whileListening(host: "127.0.0.1", port: 80, start: start) { throw taken }
        }
    }
}
