#define _GNU_SOURCE
#include "CV4L2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const uint32_t CV4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;
const uint32_t CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
const uint32_t CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
const uint32_t CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;

const uint32_t CV4L2_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO;
const uint32_t CV4L2_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE;
const uint32_t CV4L2_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO;
const uint32_t CV4L2_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE;
const uint32_t CV4L2_CID_BRIGHTNESS = V4L2_CID_BRIGHTNESS;
const uint32_t CV4L2_CID_CONTRAST = V4L2_CID_CONTRAST;
const uint32_t CV4L2_CID_GAIN = V4L2_CID_GAIN;
const uint32_t CV4L2_CID_SHARPNESS = V4L2_CID_SHARPNESS;

static int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do {
        r = v4l2_ioctl(fd, request, arg);
    } while (r == -1 && errno == EINTR);
    return r;
}

static void copy_string(char *dst, size_t size, const unsigned char *src, size_t src_size) {
    size_t n = strnlen((const char *)src, src_size);
    if (n >= size) n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

int cv4l2_open(const char *path, int nonblocking) {
    int fd;
    do {
        fd = v4l2_open(path, O_RDWR | O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0), 0);
    } while (fd == -1 && errno == EINTR);
    return fd;
}

int cv4l2_close(int fd) { return v4l2_close(fd); }

int cv4l2_query_caps(int fd, cv4l2_caps *out) {
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (xioctl(fd, VIDIOC_QUERYCAP, &cap) == -1) return -1;
    memset(out, 0, sizeof *out);
    copy_string(out->driver, sizeof out->driver, cap.driver, sizeof cap.driver);
    copy_string(out->card, sizeof out->card, cap.card, sizeof cap.card);
    copy_string(out->bus_info, sizeof out->bus_info, cap.bus_info, sizeof cap.bus_info);
    uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    out->capabilities = caps;
    out->is_capture = (caps & V4L2_CAP_VIDEO_CAPTURE) != 0;
    out->can_stream = (caps & V4L2_CAP_STREAMING) != 0;
    return 0;
}

int cv4l2_enum_format(int fd, uint32_t index, cv4l2_format_desc *out) {
    struct v4l2_fmtdesc desc;
    memset(&desc, 0, sizeof desc);
    desc.index = index;
    desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_ENUM_FMT, &desc) == -1) return -1;
    memset(out, 0, sizeof *out);
    out->fourcc = desc.pixelformat;
    copy_string(out->description, sizeof out->description, desc.description, sizeof desc.description);
    out->emulated = (desc.flags & V4L2_FMT_FLAG_EMULATED) != 0;
    out->compressed = (desc.flags & V4L2_FMT_FLAG_COMPRESSED) != 0;
    return 0;
}

int cv4l2_enum_frame_size(int fd, uint32_t fourcc, uint32_t index, cv4l2_frame_size *out) {
    struct v4l2_frmsizeenum size;
    memset(&size, 0, sizeof size);
    size.index = index;
    size.pixel_format = fourcc;
    if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == -1) return -1;
    memset(out, 0, sizeof *out);
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        out->discrete = 1;
        out->min_width = out->max_width = size.discrete.width;
        out->min_height = out->max_height = size.discrete.height;
        out->step_width = out->step_height = 1;
    } else {
        out->min_width = size.stepwise.min_width;
        out->max_width = size.stepwise.max_width;
        out->step_width = size.stepwise.step_width;
        out->min_height = size.stepwise.min_height;
        out->max_height = size.stepwise.max_height;
        out->step_height = size.stepwise.step_height;
    }
    return 0;
}

int cv4l2_set_format(int fd, uint32_t fourcc, uint32_t width, uint32_t height, cv4l2_format *out) {
    struct v4l2_format fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    fmt.fmt.pix.pixelformat = fourcc;
    fmt.fmt.pix.width = width;
    fmt.fmt.pix.height = height;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    if (xioctl(fd, VIDIOC_S_FMT, &fmt) == -1) return -1;
    out->fourcc = fmt.fmt.pix.pixelformat;
    out->width = fmt.fmt.pix.width;
    out->height = fmt.fmt.pix.height;
    out->bytes_per_line = fmt.fmt.pix.bytesperline;
    out->size_image = fmt.fmt.pix.sizeimage;
    return 0;
}

int cv4l2_set_frame_rate(int fd, uint32_t fps, double *actual) {
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = fps;
    *actual = 0;
    if (xioctl(fd, VIDIOC_S_PARM, &parm) == -1) return -1;
    struct v4l2_fract tpf = parm.parm.capture.timeperframe;
    if (tpf.numerator != 0) *actual = (double)tpf.denominator / (double)tpf.numerator;
    return 0;
}

int cv4l2_request_buffers(int fd, uint32_t count) {
    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = count;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl(fd, VIDIOC_REQBUFS, &req) == -1) return -1;
    return (int)req.count;
}

int cv4l2_query_buffer(int fd, uint32_t index, uint32_t *offset, uint32_t *length) {
    struct v4l2_buffer buf;
    memset(&buf, 0, sizeof buf);
    buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf.memory = V4L2_MEMORY_MMAP;
    buf.index = index;
    if (xioctl(fd, VIDIOC_QUERYBUF, &buf) == -1) return -1;
    *offset = buf.m.offset;
    *length = buf.length;
    return 0;
}

void *cv4l2_map(int fd, uint32_t offset, uint32_t length) {
    void *p = v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (int64_t)offset);
    return p == MAP_FAILED ? NULL : p;
}

int cv4l2_unmap(void *start, uint32_t length) { return v4l2_munmap(start, length); }

int cv4l2_queue_buffer(int fd, uint32_t index) {
    struct v4l2_buffer buf;
    memset(&buf, 0, sizeof buf);
    buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf.memory = V4L2_MEMORY_MMAP;
    buf.index = index;
    return xioctl(fd, VIDIOC_QBUF, &buf);
}

int cv4l2_dequeue_buffer(int fd, cv4l2_buffer *out) {
    struct v4l2_buffer buf;
    memset(&buf, 0, sizeof buf);
    buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buf.memory = V4L2_MEMORY_MMAP;
    if (xioctl(fd, VIDIOC_DQBUF, &buf) == -1) return -1;
    out->index = buf.index;
    out->bytes_used = buf.bytesused;
    out->sequence = buf.sequence;
    out->flags = buf.flags;
    out->timestamp_ns = (int64_t)buf.timestamp.tv_sec * 1000000000LL + (int64_t)buf.timestamp.tv_usec * 1000LL;
    out->monotonic = (buf.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) == V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
    out->error = (buf.flags & V4L2_BUF_FLAG_ERROR) != 0;
    return 0;
}

int cv4l2_stream_on(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return xioctl(fd, VIDIOC_STREAMON, &type);
}

int cv4l2_stream_off(int fd) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return xioctl(fd, VIDIOC_STREAMOFF, &type);
}

int cv4l2_query_control(int fd, uint32_t id, cv4l2_control *out) {
    struct v4l2_queryctrl q;
    memset(&q, 0, sizeof q);
    q.id = id;
    if (xioctl(fd, VIDIOC_QUERYCTRL, &q) == -1) return -1;
    memset(out, 0, sizeof *out);
    out->id = q.id;
    copy_string(out->name, sizeof out->name, q.name, sizeof q.name);
    out->minimum = q.minimum;
    out->maximum = q.maximum;
    out->step = q.step;
    out->default_value = q.default_value;
    out->disabled = (q.flags & V4L2_CTRL_FLAG_DISABLED) != 0;
    return 0;
}

int cv4l2_set_control(int fd, uint32_t id, int32_t value) {
    struct v4l2_control c = {.id = id, .value = value};
    return xioctl(fd, VIDIOC_S_CTRL, &c);
}

int cv4l2_wait(int fd, int wake_fd, int timeout_ms) {
    struct pollfd fds[2] = {{.fd = fd, .events = POLLIN}, {.fd = wake_fd, .events = POLLIN}};
    nfds_t count = wake_fd >= 0 ? 2 : 1;
    for (;;) {
        int r = poll(fds, count, timeout_ms);
        if (r == -1 && errno == EINTR) continue;
        if (r <= 0) return r;
        if (count == 2 && (fds[1].revents & POLLIN)) return 2;
        if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
            errno = ENODEV;
            return -1;
        }
        return 1;
    }
}

int cv4l2_copy_luma(const void *src, uint32_t bytes_used, const cv4l2_format *format, uint8_t *dst) {
    const uint8_t *s = src;
    uint32_t w = format->width, h = format->height;
    if (w == 0 || h == 0) { errno = EINVAL; return -1; }
    if (format->fourcc == V4L2_PIX_FMT_GREY || format->fourcc == V4L2_PIX_FMT_YUV420) {
        uint32_t stride = format->bytes_per_line ? format->bytes_per_line : w;
        if (stride < w || (uint64_t)stride * (h - 1) + w > bytes_used) { errno = EINVAL; return -1; }
        for (uint32_t y = 0; y < h; y++) memcpy(dst + (size_t)y * w, s + (size_t)y * stride, w);
        return 0;
    }
    if (format->fourcc == V4L2_PIX_FMT_YUYV) {
        uint32_t stride = format->bytes_per_line ? format->bytes_per_line : 2 * w;
        if (stride < 2 * w || (uint64_t)stride * (h - 1) + 2 * w > bytes_used) { errno = EINVAL; return -1; }
        for (uint32_t y = 0; y < h; y++) {
            const uint8_t *row = s + (size_t)y * stride;
            uint8_t *out = dst + (size_t)y * w;
            for (uint32_t x = 0; x < w; x++) out[x] = row[2 * x];
        }
        return 0;
    }
    errno = EINVAL;
    return -1;
}

int cv4l2_make_wake_pipe(int *read_fd, int *write_fd) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == -1) return -1;
    *read_fd = fds[0];
    *write_fd = fds[1];
    return 0;
}

int cv4l2_max_frame_rate(int fd, uint32_t fourcc, uint32_t width, uint32_t height, double *fps) {
    double best = 0;
    for (uint32_t index = 0; index < 64; index++) {
        struct v4l2_frmivalenum ival;
        memset(&ival, 0, sizeof ival);
        ival.index = index;
        ival.pixel_format = fourcc;
        ival.width = width;
        ival.height = height;
        if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &ival) == -1) {
            if (index == 0) return -1;
            break;
        }
        struct v4l2_fract shortest = ival.type == V4L2_FRMIVAL_TYPE_DISCRETE ? ival.discrete : ival.stepwise.min;
        if (shortest.numerator != 0) {
            double rate = (double)shortest.denominator / (double)shortest.numerator;
            if (rate > best) best = rate;
        }
        if (ival.type != V4L2_FRMIVAL_TYPE_DISCRETE) break;
    }
    *fps = best;
    return 0;
}
