import CV4L2
import Foundation

/// One open V4L2 device node. Owns the file descriptor and, while streaming, the mmap
/// buffers; `deinit` stops the stream, unmaps and closes. Not thread-safe: one thread uses it.
final class V4L2Device {
    let path: String
    let card: String
    let driver: String
    let busInfo: String
    private let fd: Int32
    private var mappings: [(start: UnsafeMutableRawPointer, length: UInt32)] = []
    private var streaming = false

    init(path: String) throws(CameraError) {
        let fd = cv4l2_open(path, 1)
        guard fd >= 0 else { throw CameraError.from(errno: errno, device: path, operation: "open") }
        var caps = cv4l2_caps()
        guard cv4l2_query_caps(fd, &caps) == 0 else {
            let code = errno
            cv4l2_close(fd)
            throw CameraError.from(errno: code, device: path, operation: "VIDIOC_QUERYCAP")
        }
        let card = Self.string(&caps.card)
        guard caps.is_capture != 0 else {
            cv4l2_close(fd)
            throw .notACaptureDevice(device: path, card: card)
        }
        guard caps.can_stream != 0 else {
            cv4l2_close(fd)
            throw .noStreaming(device: path)
        }
        self.fd = fd
        self.path = path
        self.card = card
        self.driver = Self.string(&caps.driver)
        self.busInfo = Self.string(&caps.bus_info)
    }

    deinit {
        if streaming { _ = cv4l2_stream_off(fd) }
        for mapping in mappings { _ = cv4l2_unmap(mapping.start, mapping.length) }
        if !mappings.isEmpty { _ = cv4l2_request_buffers(fd, 0) }
        cv4l2_close(fd)
    }

    private func failure(_ operation: String) -> CameraError {
        CameraError.from(errno: errno, device: path, operation: operation)
    }

    /// The formats the device lists, with libv4l2's emulated ones marked.
    func formats() -> [V4L2FormatInfo] {
        var list: [V4L2FormatInfo] = []
        var desc = cv4l2_format_desc()
        var index: UInt32 = 0
        while index < 64, cv4l2_enum_format(fd, index, &desc) == 0 {
            list.append(
                V4L2FormatInfo(
                    fourcc: desc.fourcc, description: Self.string(&desc.description),
                    emulated: desc.emulated != 0, compressed: desc.compressed != 0))
            index += 1
        }
        return list
    }

    /// The frame sizes the device lists for one format, as "WxH" or "WxH-WxH" ranges.
    func frameSizes(fourcc: UInt32) -> [String] {
        var sizes: [String] = []
        var size = cv4l2_frame_size()
        var index: UInt32 = 0
        while index < 128, cv4l2_enum_frame_size(fd, fourcc, index, &size) == 0 {
            sizes.append(
                size.discrete != 0
                    ? "\(size.min_width)x\(size.min_height)"
                    : "\(size.min_width)x\(size.min_height)-\(size.max_width)x\(size.max_height)")
            index += 1
        }
        return sizes
    }

    /// Whether the format offers exactly this size (nil when the driver lists no sizes).
    func offers(fourcc: UInt32, width: Int, height: Int) -> Bool? {
        var size = cv4l2_frame_size()
        var index: UInt32 = 0
        while index < 128, cv4l2_enum_frame_size(fd, fourcc, index, &size) == 0 {
            if (Int(size.min_width)...Int(max(size.min_width, size.max_width))).contains(width)
                && (Int(size.min_height)...Int(max(size.min_height, size.max_height))).contains(height)
            {
                return true
            }
            index += 1
        }
        return index == 0 ? nil : false
    }

    /// The highest frame rate the format offers at this size, when the driver says.
    func maxFrameRate(fourcc: UInt32, width: Int, height: Int) -> Double? {
        var fps = 0.0
        guard cv4l2_max_frame_rate(fd, fourcc, UInt32(clamping: width), UInt32(clamping: height), &fps) == 0,
            fps > 0
        else { return nil }
        return fps
    }

    /// Sets the format; the driver may answer with another size (the nearest it has).
    func setFormat(fourcc: UInt32, width: Int, height: Int) throws(CameraError) -> V4L2Format {
        var format = cv4l2_format()
        guard cv4l2_set_format(fd, fourcc, UInt32(clamping: width), UInt32(clamping: height), &format) == 0 else {
            throw failure("VIDIOC_S_FMT")
        }
        return V4L2Format(raw: format)
    }

    /// Asks for a frame rate; returns the rate the driver reports, or nil if it cannot say.
    func setFrameRate(_ fps: Int) -> Double? {
        var actual = 0.0
        guard cv4l2_set_frame_rate(fd, UInt32(clamping: fps), &actual) == 0, actual > 0 else { return nil }
        return actual
    }

    /// Sets a control if the device has it; returns a note when it was skipped or refused.
    func setControl(_ name: String, id: UInt32, value: Int32) -> String? {
        var control = cv4l2_control()
        guard cv4l2_query_control(fd, id, &control) == 0, control.disabled == 0 else {
            return "the camera has no \(name) control"
        }
        let clamped = min(max(value, control.minimum), control.maximum)
        guard cv4l2_set_control(fd, id, clamped) == 0 else {
            return "setting \(name) to \(clamped) failed: \(String(cString: strerror(errno)))"
        }
        return clamped == value ? nil : "\(name) \(value) is out of range; set to \(clamped)"
    }

    /// Requests and maps `count` buffers, queues them all and starts streaming.
    func startStreaming(bufferCount: Int) throws(CameraError) {
        let granted = cv4l2_request_buffers(fd, UInt32(clamping: bufferCount))
        guard granted > 0 else { throw granted == 0 ? .noStreaming(device: path) : failure("VIDIOC_REQBUFS") }
        for index in 0..<UInt32(granted) {
            var offset: UInt32 = 0
            var length: UInt32 = 0
            guard cv4l2_query_buffer(fd, index, &offset, &length) == 0 else { throw failure("VIDIOC_QUERYBUF") }
            guard let start = cv4l2_map(fd, offset, length) else { throw failure("mmap") }
            mappings.append((start, length))
            guard cv4l2_queue_buffer(fd, index) == 0 else { throw failure("VIDIOC_QBUF") }
        }
        guard cv4l2_stream_on(fd) == 0 else { throw failure("VIDIOC_STREAMON") }
        streaming = true
    }

    /// Waits for a filled buffer; false when `wakeFD` became readable first, or on a timeout
    /// that is not an error.
    func waitForFrame(timeoutMilliseconds: Int32, wakeFD: Int32, stallIsError: Bool = true) throws(CameraError) -> Bool {
        let result = cv4l2_wait(fd, wakeFD, timeoutMilliseconds)
        switch result {
        case 1: return true
        case 2: return false
        case 0:
            if !stallIsError { return false }
            throw .stalled(device: path, seconds: Double(timeoutMilliseconds) / 1000)
        default: throw failure("select")
        }
    }

    /// Dequeues one filled buffer, or returns nil when none is ready (EAGAIN).
    func dequeue() throws(CameraError) -> V4L2Buffer? {
        var buffer = cv4l2_buffer()
        guard cv4l2_dequeue_buffer(fd, &buffer) == 0 else {
            if errno == EAGAIN { return nil }
            throw failure("VIDIOC_DQBUF")
        }
        guard Int(buffer.index) < mappings.count else {
            throw .systemCall(device: path, operation: "VIDIOC_DQBUF returned an unknown buffer", errno: EINVAL)
        }
        return V4L2Buffer(raw: buffer)
    }

    func requeue(_ buffer: V4L2Buffer) throws(CameraError) {
        guard cv4l2_queue_buffer(fd, buffer.index) == 0 else { throw failure("VIDIOC_QBUF") }
    }

    /// Copies the luma plane of a dequeued buffer into a new grey image.
    func luma(of buffer: V4L2Buffer, format: V4L2Format) throws(CameraError) -> GrayImage {
        let mapping = mappings[Int(buffer.index)]
        var raw = format.raw
        let count = format.width * format.height
        var failed = false
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { destination, initialized in
            guard let base = destination.baseAddress else { return }
            failed = cv4l2_copy_luma(mapping.start, min(buffer.bytesUsed, mapping.length), &raw, base) != 0
            initialized = failed ? 0 : count
        }
        if failed {
            throw .systemCall(device: path, operation: "reading a \(format.fourccName) frame", errno: EINVAL)
        }
        return GrayImage(width: format.width, height: format.height, pixels: pixels)
    }

    private static func string<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
