import Foundation
import Testing
@testable import Scanning

/// The scan loop's threads, hand-off and fault handling, with a scripted source and a
/// decoder stand-in (no camera, no zbar).
struct ScanLoopTests {
    let config = CameraConfig(
        goneAfterSeconds: 60, confirmFrames: 1, reconnectInitialSeconds: 0.01,
        reconnectMaxSeconds: 0.02)

    /// Runs the loop until `done` holds (checked every 10 ms, at most 30 s), then cancels it.
    /// A condition still false after 30 s fails the test: a run that decoded nothing proves nothing.
    func run(
        _ loop: ScanLoop, recorder: LoopRecorder, until done: @escaping @Sendable () -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let task = Task {
            try await loop.run(onCode: { recorder.add($0) }, onEvent: { recorder.add($0) })
        }
        var met = done()
        for _ in 0..<3000 where !met {
            try await Task.sleep(for: .milliseconds(10))
            met = done()
        }
        task.cancel()
        try await task.value
        #expect(met, "the loop's condition was not met within 30 s", sourceLocation: sourceLocation)
    }

    @Test func slowDecoderGetsOnlyTheNewestFrameAndNothingQueues() async throws {
        let source = ScriptedFrameSource(frames: 300)
        let log = DecodeLog()
        let loop = ScanLoop(
            config: config, makeSource: { source },
            makeDecoder: {
                { image in
                    log.append(Int(image.pixels[0]))
                    Thread.sleep(forTimeInterval: 0.002)
                    return []
                }
            })
        let recorder = LoopRecorder()
        try await run(loop, recorder: recorder) { loop.statistics.framesCaptured == 300 && log.all.last == 299 % 256 }
        let stats = loop.statistics
        #expect(stats.framesCaptured == 300)
        #expect(stats.framesDroppedStale > 0)
        #expect(stats.framesDecoded + stats.framesDroppedStale == 300)
        #expect(stats.maxFramesBehind == 0)
        #expect(log.all.last == 299 % 256, "the last frame captured is the last decoded")
    }

    @Test func acceptedCodesCarryCaptureDetails() async throws {
        let source = ScriptedFrameSource(frames: 20)
        let loop = ScanLoop(
            config: config, makeSource: { source },
            makeDecoder: {
                { image in image.pixels[0] >= 5 ? [DecodedCode(text: "TAG-9", symbology: .code128, points: [], quality: 3)] : [] }
            })
        let recorder = LoopRecorder()
        let before = Date()
        try await run(loop, recorder: recorder) { loop.statistics.framesCaptured == 20 && !recorder.acceptedCodes.isEmpty }
        let code = try #require(recorder.acceptedCodes.first)
        #expect(recorder.acceptedCodes.count == 1)
        #expect(code.text == "TAG-9" && code.symbology == .code128 && !code.isReappearance)
        #expect(code.frameSequence >= 5)
        #expect(code.capturedAt >= before.addingTimeInterval(-1) && code.latency >= .zero)
    }

    @Test func faultsAreReportedAndTheLoopReopensTheCamera() async throws {
        let source = ScriptedFrameSource(
            frames: 50,
            opens: [
                nil, .notFound(device: "/dev/scripted"),
                .busy(device: "/dev/scripted")
            ],
            disconnectAfter: 10)
        let loop = ScanLoop(config: config, makeSource: { source }, makeDecoder: { { _ in [] } })
        let recorder = LoopRecorder()
        try await run(loop, recorder: recorder) { loop.statistics.framesCaptured == 50 }
        let events = recorder.cameraEvents
        guard events.count == 8 else {
            Issue.record("unexpected events: \(events)")
            return
        }
        #expect(events[0] == .opened(try #require(events[0].stream)))
        #expect(events[1] == .lost(.disconnected(device: "/dev/scripted")))
        #expect(events[2] == .retrying(after: .milliseconds(10)))
        #expect(events[3] == .lost(.notFound(device: "/dev/scripted")))
        #expect(events[4] == .retrying(after: .milliseconds(20)))
        #expect(events[5] == .lost(.busy(device: "/dev/scripted")))
        #expect(events[6] == .retrying(after: .milliseconds(20)))
        #expect(events[7] == .resumed(try #require(events[7].stream)))
        #expect(loop.statistics.opens == 2)
    }

    @Test func cancellingStopsBothThreadsAndClosesTheCamera() async throws {
        let source = ScriptedFrameSource(frames: 5)
        let loop = ScanLoop(config: config, makeSource: { source }, makeDecoder: { { _ in [] } })
        let recorder = LoopRecorder()
        try await run(loop, recorder: recorder) { loop.statistics.framesDecoded >= 1 }
        #expect(source.closeCount == 1)
    }

    @Test func aLoopRunsAgainAfterBeingCancelled() async throws {
        let source = ScriptedFrameSource(frames: 100, framesPerOpen: 3)
        let log = DecodeLog()
        let loop = ScanLoop(
            config: config, makeSource: { source },
            makeDecoder: {
                { image in
                    log.append(Int(image.pixels[0]))
                    return []
                }
            })
        let recorder = LoopRecorder()
        try await run(loop, recorder: recorder) { log.all.contains(2) }
        try await run(loop, recorder: recorder) { log.all.contains(5) }
        #expect(log.all.contains(5), "the second run decodes the second stream's newest frame")
        #expect(loop.statistics.opens == 2)
        #expect(source.closeCount == 2)
    }

    @Test func aDecoderThatCannotBeMadeEndsTheRunWithItsError() async throws {
        let source = ScriptedFrameSource(frames: 5)
        let loop = ScanLoop(config: config, makeSource: { source }, makeDecoder: { throw DecoderError.noSymbologies })
        await #expect(throws: DecoderError.noSymbologies) {
            try await loop.run(onCode: { _ in }, onEvent: { _ in })
        }
    }
}

extension CameraEvent {
    var stream: CameraStream? {
        switch self {
        case .opened(let stream), .resumed(let stream): stream
        default: nil
        }
    }
}
