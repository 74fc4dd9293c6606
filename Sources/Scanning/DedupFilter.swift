/// Turns the codes seen frame by frame into accepted scans.
///
/// - A code counts once while it stays in view. Brief misses (a blurred frame, a hand in
///   the way) shorter than `goneAfter` do not end its presence.
/// - After it has been out of view for longer than `goneAfter` it counts again, marked
///   as a re-appearance.
/// - Codes of weakly checked symbologies must be read in `confirmFrames` consecutive
///   decoded frames before they count, so a one-frame misread never becomes a scan.
///
/// Time is the frames' capture time, so the result does not depend on how late the
/// decoder got to a frame.
struct DedupFilter {
    struct Key: Hashable {
        var text: String
        var symbology: Symbology
    }

    struct Accepted: Equatable {
        var code: DecodedCode
        var isReappearance: Bool
    }

    private struct Presence {
        var lastSeen: Double
        var streak: Int
        var counted: Bool
        var everCounted: Bool
    }

    let goneAfter: Double
    let confirmFrames: Int
    let confirmSymbologies: Set<Symbology>
    /// How many codes to remember; the longest unseen are forgotten first.
    let capacity: Int
    private var presences: [Key: Presence] = [:]
    private var previousFrame = Set<Key>()
    private var lastPrune = -Double.infinity

    init(goneAfter: Double, confirmFrames: Int, confirmSymbologies: Set<Symbology>, capacity: Int = 10_000) {
        self.goneAfter = goneAfter
        self.confirmFrames = max(1, confirmFrames)
        self.confirmSymbologies = confirmSymbologies
        self.capacity = max(1, capacity)
    }

    init(config: CameraConfig) {
        self.init(
            goneAfter: config.goneAfterSeconds, confirmFrames: config.confirmFrames,
            confirmSymbologies: Set(config.confirmSymbologies))
    }

    /// Feeds the codes of one decoded frame; returns those that count now, in frame order.
    mutating func process(_ codes: [DecodedCode], at time: Double) -> [Accepted] {
        var accepted: [Accepted] = []
        var seen = Set<Key>()
        for code in codes {
            let key = Key(text: code.text, symbology: code.symbology)
            guard seen.insert(key).inserted else { continue }
            var presence = presences[key] ?? Presence(lastSeen: time, streak: 0, counted: false, everCounted: false)
            if time - presence.lastSeen > goneAfter {
                presence.counted = false
                presence.streak = 0
            }
            presence.lastSeen = time
            presence.streak = previousFrame.contains(key) ? presence.streak + 1 : 1
            let needed = confirmSymbologies.contains(code.symbology) ? confirmFrames : 1
            if !presence.counted && presence.streak >= needed {
                presence.counted = true
                accepted.append(Accepted(code: code, isReappearance: presence.everCounted))
                presence.everCounted = true
            }
            presences[key] = presence
        }
        previousFrame = seen
        if time - lastPrune > max(goneAfter, 1) {
            lastPrune = time
            forget(before: time)
        }
        return accepted
    }

    /// Drops codes that left the view without ever counting, and the oldest beyond capacity.
    private mutating func forget(before time: Double) {
        presences = presences.filter { $0.value.everCounted || time - $0.value.lastSeen <= goneAfter }
        if presences.count > capacity {
            let oldest = presences.sorted { $0.value.lastSeen < $1.value.lastSeen }.prefix(presences.count - capacity)
            for (key, _) in oldest { presences[key] = nil }
        }
    }
}
