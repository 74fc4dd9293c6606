/// Picks the camera format to stream. A format that offers the configured size at the
/// configured rate beats one that offers the size only at a lower rate (USB 2 webcams often
/// give YUYV 1280x720 at 10 fps but MJPG at 30), which beats one without that size; among
/// equals, the configured preference order decides, then the camera's own order.
enum V4L2FormatChoice {
    struct Candidate: Equatable {
        var fourcc: String
        /// nil when the camera lists no sizes for it.
        var offersSize: Bool?
        /// nil when the camera cannot say.
        var maxFrameRate: Double?
    }

    static func choose(_ candidates: [Candidate], preference: [String], fps: Int) -> Candidate? {
        func score(_ candidate: Candidate) -> Int {
            guard candidate.offersSize != false else { return 0 }
            guard let rate = candidate.maxFrameRate else { return 2 }
            return rate + 0.5 >= Double(fps) ? 2 : 1
        }
        func rank(_ candidate: Candidate) -> Int {
            preference.firstIndex(of: candidate.fourcc) ?? preference.count
        }
        return candidates.enumerated().min { a, b in
            (-score(a.element), rank(a.element), a.offset) < (-score(b.element), rank(b.element), b.offset)
        }?.element
    }
}
