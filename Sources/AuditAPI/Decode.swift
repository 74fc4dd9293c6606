/// `POST /api/v1/decode`: the codes the server's decoder read in one frame.
public struct DecodeResponse: Codable, Sendable, Equatable {
    public var codes: [FrameCode]
    public init(codes: [FrameCode]) { self.codes = codes }
}

/// One code of a frame: its text, its symbology (`qrcode`, `code128`, … as in the decoder
/// configuration) and its outline, in the frame's pixels.
public struct FrameCode: Codable, Sendable, Equatable {
    public var text: String
    public var symbology: String
    public var points: [Point]

    /// A corner of the outline: `{"x": 12, "y": 40}`.
    public struct Point: Codable, Sendable, Equatable {
        public var x: Int
        public var y: Int
        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    public init(text: String, symbology: String, points: [Point]) {
        self.text = text
        self.symbology = symbology
        self.points = points
    }
}

/// `GET /api/v1/decode/figures` (ADMIN): what `POST /api/v1/decode` did since the server started.
public struct DecodeFigures: Codable, Sendable, Equatable {
    /// Frames decoded (read as images and searched for codes).
    public var frames: Int
    /// Frames in which at least one code was read.
    public var framesWithCodes: Int
    /// Codes read, in all frames.
    public var codes: Int
    /// Frames refused: not an image, too large, damaged, or over a user's rate.
    public var refused: Int
    /// Time spent reading images and decoding, in seconds.
    public var decodeSeconds: Double

    public init(frames: Int = 0, framesWithCodes: Int = 0, codes: Int = 0, refused: Int = 0, decodeSeconds: Double = 0) {
        self.frames = frames
        self.framesWithCodes = framesWithCodes
        self.codes = codes
        self.refused = refused
        self.decodeSeconds = decodeSeconds
    }
}
