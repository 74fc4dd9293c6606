// Non-variadic adapters over libv4l2 for Swift.
//
// Swift cannot call variadic C functions (v4l2_open, v4l2_ioctl) or use the VIDIOC_*
// and v4l2_fourcc macros, so this header exposes small fixed-signature helpers. Each
// helper returns 0 (or a non-negative value) on success and -1 with errno set on failure,
// exactly like the call it wraps.
#ifndef CV4L2_H
#define CV4L2_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Pixel formats (fourcc codes) the scan loop knows.
extern const uint32_t CV4L2_PIX_FMT_GREY;
extern const uint32_t CV4L2_PIX_FMT_YUYV;
extern const uint32_t CV4L2_PIX_FMT_MJPEG;
extern const uint32_t CV4L2_PIX_FMT_JPEG;
extern const uint32_t CV4L2_PIX_FMT_YUV420;

// Controls the configuration may set.
extern const uint32_t CV4L2_CID_FOCUS_AUTO;
extern const uint32_t CV4L2_CID_FOCUS_ABSOLUTE;
extern const uint32_t CV4L2_CID_EXPOSURE_AUTO;
extern const uint32_t CV4L2_CID_EXPOSURE_ABSOLUTE;
extern const uint32_t CV4L2_CID_BRIGHTNESS;
extern const uint32_t CV4L2_CID_CONTRAST;
extern const uint32_t CV4L2_CID_GAIN;
extern const uint32_t CV4L2_CID_SHARPNESS;

/// What VIDIOC_QUERYCAP reports.
typedef struct {
    char driver[16];
    char card[32];
    char bus_info[32];
    uint32_t capabilities;   // device_caps when the driver reports them
    int is_capture;          // single-planar video capture
    int can_stream;          // mmap streaming
} cv4l2_caps;

/// One entry of VIDIOC_ENUM_FMT.
typedef struct {
    uint32_t fourcc;
    char description[32];
    int emulated;            // offered by libv4lconvert, not by the driver
    int compressed;
} cv4l2_format_desc;

/// One frame size: discrete sizes have min == max.
typedef struct {
    uint32_t min_width, max_width, step_width;
    uint32_t min_height, max_height, step_height;
    int discrete;
} cv4l2_frame_size;

/// The format the driver settled on after VIDIOC_S_FMT.
typedef struct {
    uint32_t fourcc;
    uint32_t width;
    uint32_t height;
    uint32_t bytes_per_line;
    uint32_t size_image;
} cv4l2_format;

/// A dequeued buffer.
typedef struct {
    uint32_t index;
    uint32_t bytes_used;
    uint32_t sequence;
    uint32_t flags;
    int64_t timestamp_ns;    // as the driver stamped it
    int monotonic;           // the timestamp is CLOCK_MONOTONIC
    int error;               // the driver flagged the frame as corrupt
} cv4l2_buffer;

/// What VIDIOC_QUERYCTRL reports for one control.
typedef struct {
    uint32_t id;
    char name[32];
    int32_t minimum, maximum, step, default_value;
    int disabled;
} cv4l2_control;

int cv4l2_open(const char *path, int nonblocking);
int cv4l2_close(int fd);
int cv4l2_query_caps(int fd, cv4l2_caps *out);
int cv4l2_enum_format(int fd, uint32_t index, cv4l2_format_desc *out);
int cv4l2_enum_frame_size(int fd, uint32_t fourcc, uint32_t index, cv4l2_frame_size *out);
/// The highest frame rate a format offers at one size; -1 (errno set) when the driver
/// cannot say (no VIDIOC_ENUM_FRAMEINTERVALS, or the size is not offered).
int cv4l2_max_frame_rate(int fd, uint32_t fourcc, uint32_t width, uint32_t height, double *fps);
int cv4l2_set_format(int fd, uint32_t fourcc, uint32_t width, uint32_t height, cv4l2_format *out);
/// Asks for a frame rate; writes the rate the driver chose (0 when it cannot say).
int cv4l2_set_frame_rate(int fd, uint32_t fps, double *actual);
/// Requests `count` mmap buffers; returns how many the driver gave (0 frees them).
int cv4l2_request_buffers(int fd, uint32_t count);
int cv4l2_query_buffer(int fd, uint32_t index, uint32_t *offset, uint32_t *length);
/// Maps a buffer read-only; returns NULL with errno set on failure.
void *cv4l2_map(int fd, uint32_t offset, uint32_t length);
int cv4l2_unmap(void *start, uint32_t length);
int cv4l2_queue_buffer(int fd, uint32_t index);
int cv4l2_dequeue_buffer(int fd, cv4l2_buffer *out);
int cv4l2_stream_on(int fd);
int cv4l2_stream_off(int fd);
int cv4l2_query_control(int fd, uint32_t id, cv4l2_control *out);
int cv4l2_set_control(int fd, uint32_t id, int32_t value);

/// Waits until `fd` has a frame or `wake_fd` is readable (wake_fd may be -1).
/// Returns 1 when a frame is ready, 2 when woken, 0 on timeout, -1 with errno on error
/// (POLLERR/POLLHUP on the device set errno to ENODEV). Retries on EINTR.
int cv4l2_wait(int fd, int wake_fd, int timeout_ms);

/// Makes a non-blocking, close-on-exec pipe whose read end `cv4l2_wait` can watch.
int cv4l2_make_wake_pipe(int *read_fd, int *write_fd);

/// Copies the luma plane of a frame into `dst` (width*height bytes). GREY and YUV420
/// are copied row by row honouring bytes_per_line; YUYV takes every other byte.
/// Returns -1 (errno EINVAL) for other formats or a short buffer.
int cv4l2_copy_luma(const void *src, uint32_t bytes_used, const cv4l2_format *format, uint8_t *dst);

#ifdef __cplusplus
}
#endif
#endif
