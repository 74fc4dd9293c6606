import Testing
@testable import Scanning

struct V4L2FormatChoiceTests {
    typealias Candidate = V4L2FormatChoice.Candidate
    let preference = ["GREY", "YUYV", "MJPG"]

    func choose(_ candidates: [Candidate], fps: Int = 30) -> String? {
        V4L2FormatChoice.choose(candidates, preference: preference, fps: fps)?.fourcc
    }

    @Test func preferredFormatWinsWhenItKeepsTheRate() {
        #expect(
            choose([
                Candidate(fourcc: "MJPG", offersSize: true, maxFrameRate: 30),
                Candidate(fourcc: "YUYV", offersSize: true, maxFrameRate: 30)
            ]) == "YUYV")
    }

    @Test func formatThatKeepsTheRateBeatsAPreferredSlowOne() {
        // A USB 2 webcam: YUYV 1280x720 only at 10 fps, MJPG at 30.
        #expect(
            choose([
                Candidate(fourcc: "YUYV", offersSize: true, maxFrameRate: 10),
                Candidate(fourcc: "MJPG", offersSize: true, maxFrameRate: 30)
            ]) == "MJPG")
        #expect(
            choose(
                [
                    Candidate(fourcc: "YUYV", offersSize: true, maxFrameRate: 10),
                    Candidate(fourcc: "MJPG", offersSize: true, maxFrameRate: 30)
                ], fps: 10) == "YUYV")
    }

    @Test func formatWithTheSizeBeatsOneWithout() {
        #expect(
            choose([
                Candidate(fourcc: "GREY", offersSize: false, maxFrameRate: nil),
                Candidate(fourcc: "YUYV", offersSize: true, maxFrameRate: 5)
            ]) == "YUYV")
    }

    @Test func unknownSizesAndRatesCountAsOffered() {
        #expect(
            choose([
                Candidate(fourcc: "MJPG", offersSize: true, maxFrameRate: 30),
                Candidate(fourcc: "GREY", offersSize: nil, maxFrameRate: nil)
            ]) == "GREY")
    }

    @Test func unlistedFormatsComeAfterListedOnesInCameraOrder() {
        #expect(
            choose([
                Candidate(fourcc: "H264", offersSize: true, maxFrameRate: 30),
                Candidate(fourcc: "NV12", offersSize: true, maxFrameRate: 30)
            ]) == "H264")
        #expect(choose([]) == nil)
    }
}
