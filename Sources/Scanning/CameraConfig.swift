/// How the station reads a webcam. Embedded in the station configuration under the key
/// `"camera"`; every key is optional and falls back to the default shown.
///
/// ```json
/// {"device": "/dev/video0", "width": 1280, "height": 720, "fps": 30,
///  "pixelFormats": ["GREY", "YUYV", "MJPG"], "controls": {"focusAuto": false, "focusAbsolute": 40},
///  "goneAfterSeconds": 2, "confirmFrames": 3, "selectTimeoutSeconds": 2,
///  "reconnectInitialSeconds": 0.5, "reconnectMaxSeconds": 5}
/// ```
public struct CameraConfig: Codable, Sendable, Equatable {
    /// The V4L2 device node.
    public var device: String = "/dev/video0"
    /// The frame size to ask for; the camera's nearest size is used when it has not this one.
    public var width: Int = 1280
    public var height: Int = 720
    /// The frame rate to ask for.
    public var fps: Int = 30
    /// The camera formats to prefer, best first (fourcc names). GREY and YUYV give the luma
    /// plane directly; any other format (MJPG, …) is converted by libv4l2.
    public var pixelFormats: [String] = ["GREY", "YUYV", "MJPG"]
    /// Controls to set when the camera has them; others are left as the camera has them.
    public var controls: CameraControls = .init()
    /// A code counts again (as a re-appearance) only after it was out of view this long.
    public var goneAfterSeconds: Double = 2
    /// Codes of these symbologies have weak checks and must be read in this many
    /// consecutive decoded frames before they are accepted.
    public var confirmFrames: Int = 3
    public var confirmSymbologies: [Symbology] = CameraConfig.weakSymbologies
    /// With no frame for this long, the camera counts as stalled and is reopened.
    public var selectTimeoutSeconds: Double = 2
    /// The first wait before reopening a lost camera; it doubles up to the maximum.
    public var reconnectInitialSeconds: Double = 0.5
    public var reconnectMaxSeconds: Double = 5
    /// The number of mmap buffers to stream through.
    public var buffers: Int = 4
    /// Run the decoder's slower retry passes on frames where the first pass finds nothing.
    public var decodeRetry: Bool = false

    public init(
        device: String = "/dev/video0", width: Int = 1280, height: Int = 720, fps: Int = 30, pixelFormats: [String] = ["GREY", "YUYV", "MJPG"],
        controls: CameraControls = .init(), goneAfterSeconds: Double = 2, confirmFrames: Int = 3,
        confirmSymbologies: [Symbology] = CameraConfig.weakSymbologies, selectTimeoutSeconds: Double = 2, reconnectInitialSeconds: Double = 0.5,
        reconnectMaxSeconds: Double = 5, buffers: Int = 4, decodeRetry: Bool = false
    ) {
        self.device = device
        self.width = width
        self.height = height
        self.fps = fps
        self.pixelFormats = pixelFormats
        self.controls = controls
        self.goneAfterSeconds = goneAfterSeconds
        self.confirmFrames = confirmFrames
        self.confirmSymbologies = confirmSymbologies
        self.selectTimeoutSeconds = selectTimeoutSeconds
        self.reconnectInitialSeconds = reconnectInitialSeconds
        self.reconnectMaxSeconds = reconnectMaxSeconds
        self.buffers = buffers
        self.decodeRetry = decodeRetry
    }

    public static let weakSymbologies: [Symbology] = [.ean13, .ean8, .upca, .upce, .i25, .codabar, .databar, .databarExpanded]

    private enum CodingKeys: String, CodingKey {
        case device, width, height, fps, pixelFormats, controls, goneAfterSeconds, confirmFrames
        case confirmSymbologies, selectTimeoutSeconds, reconnectInitialSeconds, reconnectMaxSeconds
        case buffers, decodeRetry
    }

    public init(from decoder: any Decoder) throws {
        let d = CameraConfig()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        device = try c.decodeIfPresent(String.self, forKey: .device) ?? d.device
        width = try c.decodeIfPresent(Int.self, forKey: .width) ?? d.width
        height = try c.decodeIfPresent(Int.self, forKey: .height) ?? d.height
        fps = try c.decodeIfPresent(Int.self, forKey: .fps) ?? d.fps
        pixelFormats = try c.decodeIfPresent([String].self, forKey: .pixelFormats) ?? d.pixelFormats
        controls = try c.decodeIfPresent(CameraControls.self, forKey: .controls) ?? d.controls
        goneAfterSeconds = try c.decodeIfPresent(Double.self, forKey: .goneAfterSeconds) ?? d.goneAfterSeconds
        confirmFrames = try c.decodeIfPresent(Int.self, forKey: .confirmFrames) ?? d.confirmFrames
        confirmSymbologies =
            try c.decodeIfPresent([Symbology].self, forKey: .confirmSymbologies)
            ?? d.confirmSymbologies
        selectTimeoutSeconds =
            try c.decodeIfPresent(Double.self, forKey: .selectTimeoutSeconds)
            ?? d.selectTimeoutSeconds
        reconnectInitialSeconds =
            try c.decodeIfPresent(Double.self, forKey: .reconnectInitialSeconds)
            ?? d.reconnectInitialSeconds
        reconnectMaxSeconds =
            try c.decodeIfPresent(Double.self, forKey: .reconnectMaxSeconds)
            ?? d.reconnectMaxSeconds
        buffers = try c.decodeIfPresent(Int.self, forKey: .buffers) ?? d.buffers
        decodeRetry = try c.decodeIfPresent(Bool.self, forKey: .decodeRetry) ?? d.decodeRetry
    }

    /// Checks every value; `ScanLoop.init` calls it.
    public func validate() throws(CameraError) {
        func check(_ ok: Bool, _ message: String) throws(CameraError) {
            if !ok { throw .invalidConfig(message) }
        }
        try check(!device.isEmpty, "camera.device must name a device such as /dev/video0")
        try check(
            (16...8192).contains(width) && (16...8192).contains(height),
            "camera.width and camera.height must be between 16 and 8192, not \(width)x\(height)")
        try check((1...240).contains(fps), "camera.fps must be between 1 and 240, not \(fps)")
        try check(
            pixelFormats.allSatisfy { $0.utf8.count == 4 },
            "camera.pixelFormats must be four-letter codes such as GREY, YUYV or MJPG")
        try check(
            goneAfterSeconds >= 0 && goneAfterSeconds <= 3600,
            "camera.goneAfterSeconds must be between 0 and 3600, not \(goneAfterSeconds)")
        try check((1...30).contains(confirmFrames), "camera.confirmFrames must be between 1 and 30, not \(confirmFrames)")
        try check(
            selectTimeoutSeconds >= 0.05 && selectTimeoutSeconds <= 60,
            "camera.selectTimeoutSeconds must be between 0.05 and 60, not \(selectTimeoutSeconds)")
        try check(
            reconnectInitialSeconds >= 0.01 && reconnectMaxSeconds >= reconnectInitialSeconds
                && reconnectMaxSeconds <= 600,
            "camera.reconnectInitialSeconds must be at least 0.01 and at most reconnectMaxSeconds (≤ 600)")
        try check((2...16).contains(buffers), "camera.buffers must be between 2 and 16, not \(buffers)")
    }
}
