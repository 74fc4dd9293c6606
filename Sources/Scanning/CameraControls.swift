/// Camera controls the configuration may set (`"camera": {"controls": {…}}`). A control
/// left out keeps the camera's own setting; one the camera lacks is skipped with a note.
public struct CameraControls: Codable, Sendable, Equatable {
    /// Continuous autofocus on or off. Fixed-focus kiosks usually want it off.
    public var focusAuto: Bool?
    /// Manual focus position (camera units; takes effect with `focusAuto` off).
    public var focusAbsolute: Int?
    /// Exposure mode as V4L2 numbers it: 1 manual, 3 aperture priority (auto).
    public var exposureAuto: Int?
    /// Manual exposure time in units of 100 µs (takes effect with `exposureAuto` 1).
    public var exposureAbsolute: Int?
    public var brightness: Int?
    public var contrast: Int?
    public var gain: Int?
    public var sharpness: Int?

    public init(
        focusAuto: Bool? = nil, focusAbsolute: Int? = nil, exposureAuto: Int? = nil,
        exposureAbsolute: Int? = nil, brightness: Int? = nil, contrast: Int? = nil,
        gain: Int? = nil, sharpness: Int? = nil
    ) {
        self.focusAuto = focusAuto
        self.focusAbsolute = focusAbsolute
        self.exposureAuto = exposureAuto
        self.exposureAbsolute = exposureAbsolute
        self.brightness = brightness
        self.contrast = contrast
        self.gain = gain
        self.sharpness = sharpness
    }

    /// The controls to set, in the order a camera needs them (modes before values).
    var settings: [(name: String, control: CameraControl, value: Int32)] {
        var list: [(String, CameraControl, Int32)] = []
        if let focusAuto { list.append(("focusAuto", .focusAuto, focusAuto ? 1 : 0)) }
        if let focusAbsolute { list.append(("focusAbsolute", .focusAbsolute, Int32(clamping: focusAbsolute))) }
        if let exposureAuto { list.append(("exposureAuto", .exposureAuto, Int32(clamping: exposureAuto))) }
        if let exposureAbsolute {
            list.append(("exposureAbsolute", .exposureAbsolute, Int32(clamping: exposureAbsolute)))
        }
        if let brightness { list.append(("brightness", .brightness, Int32(clamping: brightness))) }
        if let contrast { list.append(("contrast", .contrast, Int32(clamping: contrast))) }
        if let gain { list.append(("gain", .gain, Int32(clamping: gain))) }
        if let sharpness { list.append(("sharpness", .sharpness, Int32(clamping: sharpness))) }
        return list
    }
}

/// The V4L2 controls `CameraControls` maps to.
enum CameraControl {
    case focusAuto, focusAbsolute, exposureAuto, exposureAbsolute, brightness, contrast, gain, sharpness
}
