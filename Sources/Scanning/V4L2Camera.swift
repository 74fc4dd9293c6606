import Foundation

/// A `FrameSource` over a V4L2 camera through libv4l2: negotiates the format, size, rate
/// and controls from the configuration, streams through mmap buffers, and hands out the
/// luma plane of the newest frame.
final class V4L2Camera: FrameSource {
    private let config: CameraConfig
    private var device: V4L2Device?
    private var format: V4L2Format?

    init(config: CameraConfig) {
        self.config = config
    }

    func open() throws(CameraError) -> CameraStream {
        close()
        let device = try V4L2Device(path: config.device)
        let native = device.formats().filter { !$0.emulated }
        let candidates = native.map { format in
            V4L2FormatChoice.Candidate(
                fourcc: format.name,
                offersSize: device.offers(fourcc: format.fourcc, width: config.width, height: config.height),
                maxFrameRate: device.maxFrameRate(fourcc: format.fourcc, width: config.width, height: config.height))
        }
        guard let pick = V4L2FormatChoice.choose(candidates, preference: config.pixelFormats, fps: config.fps),
            let chosen = native.first(where: { $0.name == pick.fourcc })
        else {
            throw .noUsableFormat(device: config.device, offered: native.map(\.name))
        }
        // GREY and YUYV carry the luma plane as is; anything else goes through libv4l2's
        // converter to planar YUV 4:2:0, whose first plane is the luma.
        let request =
            chosen.fourcc == V4L2Fourcc.grey || chosen.fourcc == V4L2Fourcc.yuyv
            ? chosen.fourcc : V4L2Fourcc.yuv420
        let format = try device.setFormat(fourcc: request, width: config.width, height: config.height)
        guard [V4L2Fourcc.grey, V4L2Fourcc.yuyv, V4L2Fourcc.yuv420].contains(format.fourcc) else {
            throw .noUsableFormat(device: config.device, offered: native.map(\.name))
        }
        var notes: [String] = []
        if format.width != config.width || format.height != config.height {
            notes.append("\(config.width)x\(config.height) not offered; using \(format.width)x\(format.height)")
        }
        let fps = device.setFrameRate(config.fps)
        for setting in config.controls.settings {
            if let note = device.setControl(setting.name, id: setting.control.id, value: setting.value) {
                notes.append(note)
            }
        }
        try device.startStreaming(bufferCount: config.buffers)
        self.device = device
        self.format = format
        return CameraStream(
            device: config.device, card: device.card, cameraFormat: chosen.name,
            width: format.width, height: format.height, fps: fps, notes: notes)
    }

    func nextFrame(waker: CameraWaker) throws(CameraError) -> CapturedFrame? {
        guard let device, let format else { throw .disconnected(device: config.device) }
        let timeout = Int32(config.selectTimeoutSeconds * 1000)
        while true {
            guard try device.waitForFrame(timeoutMilliseconds: timeout, wakeFD: waker.fileDescriptor) else {
                return nil
            }
            guard var buffer = try device.dequeue() else { continue }
            // Older filled buffers are stale: give them back and keep only the newest. (Poll
            // first: libv4l2 prints an error for every DQBUF that finds nothing.)
            while try device.waitForFrame(timeoutMilliseconds: 0, wakeFD: -1, stallIsError: false),
                let newer = try device.dequeue()
            {
                try device.requeue(buffer)
                buffer = newer
            }
            if buffer.isCorrupt {
                try device.requeue(buffer)
                continue
            }
            let captureTime = buffer.monotonicSeconds ?? MonotonicClock.now
            let image: GrayImage
            do {
                image = try device.luma(of: buffer, format: format)
            } catch {
                try? device.requeue(buffer)
                throw error
            }
            try device.requeue(buffer)
            return CapturedFrame(image: image, sequence: buffer.sequence, captureTime: captureTime)
        }
    }

    func close() {
        device = nil
        format = nil
    }
}
