// The emulated device itself: open/close, the V4L2 ioctls, mmap, and the producer thread.
#include "fakev4l2.h"

#include <sys/eventfd.h>
#include <sys/mman.h>

#define OFFSET_SHIFT 24

static void setup_controls(void) {
    if (fake.control_count) return;
    struct fake_control list[] = {
        {V4L2_CID_BRIGHTNESS, "Brightness", V4L2_CTRL_TYPE_INTEGER, 0, 255, 1, 128, 128},
        {V4L2_CID_EXPOSURE_AUTO, "Auto Exposure", V4L2_CTRL_TYPE_MENU, 0, 3, 1, 3, 3},
        {V4L2_CID_EXPOSURE_ABSOLUTE, "Exposure Time, Absolute", V4L2_CTRL_TYPE_INTEGER, 3, 2047, 1, 250, 250},
        {V4L2_CID_FOCUS_ABSOLUTE, "Focus, Absolute", V4L2_CTRL_TYPE_INTEGER, 0, 250, 5, 0, 0},
        {V4L2_CID_FOCUS_AUTO, "Focus, Automatic Continuous", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 1, 1},
    };
    fake.control_count = sizeof list / sizeof list[0];
    memcpy(fake.controls, list, sizeof list);
}

static void signal_ready(uint64_t count) {
    (void)!write(fake.fd, &count, sizeof count);
}

static void drain_ready(void) {
    uint64_t v;
    while (fake_real_read(fake.fd, &v, sizeof v) == (ssize_t)sizeof v) {}
}

// Marks this open instance unplugged and wakes every waiter (mutex held).
static void unplug(const char *why) {
    if (fake.dead) return;
    fake.dead = 1;
    fake_log("unplugged (%s) after %ld frames", why, fake.produced);
    signal_ready(1ULL << 40);
    pthread_cond_broadcast(&fake.cond);
}

static void produce_one(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (fake.at_end == 2 && fake.position >= fake.frame_count) return;  // stalled: no frames
    size_t index = fake.position < fake.frame_count ? fake.position : fake.frame_count - 1;
    if (fake.position < fake.frame_count) fake.position++;
    if (fake.position >= fake.frame_count && fake.at_end == 0) fake.position = 0;
    fake.produced++;
    uint32_t sequence = fake.sequence++;
    if (fake.frames[index].data != fake.last_scene) {  // benchmarks time codes from here
        fake.last_scene = fake.frames[index].data;
        fake_log("scene entry=%zu sequence=%u t=%.6f", index, sequence, now.tv_sec + now.tv_nsec / 1e9);
    }
    if (fake.queued_count == 0) {
        fake.dropped++;
        return;
    }
    int b = fake.queued[0];
    memmove(fake.queued, fake.queued + 1, sizeof(int) * (size_t)--fake.queued_count);
    struct fake_buffer *buf = &fake.buffers[b];
    const struct fake_frame *frame = &fake.frames[index];
    size_t n = frame->size < buf->length ? frame->size : buf->length;
    memcpy(buf->mem, frame->data, n);
    buf->bytes_used = (uint32_t)n;
    buf->sequence = sequence;
    buf->timestamp.tv_sec = now.tv_sec;
    buf->timestamp.tv_usec = now.tv_nsec / 1000;
    buf->state = BUF_DONE;
    fake.done[fake.done_count++] = b;
    signal_ready(1);
    pthread_cond_broadcast(&fake.cond);
}

static void *producer(void *unused) {
    (void)unused;
    long period = 1000000000L / fake.fps;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        next.tv_nsec += period;
        while (next.tv_nsec >= 1000000000L) { next.tv_nsec -= 1000000000L; next.tv_sec++; }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - next.tv_sec) * 1000000000L + (now.tv_nsec - next.tv_nsec) > period) next = now;
        pthread_mutex_lock(&fake.mutex);
        if (fake.stop_producer) {
            pthread_mutex_unlock(&fake.mutex);
            return NULL;
        }
        if (fake.vanish_after >= 0 && fake.produced >= fake.vanish_after) {
            fake.vanish_after = -1;
            fake.vanished = 1;
        }
        if (fake_gone()) unplug(fake.vanished ? "FAKEV4L2_VANISH_AFTER" : "FAKEV4L2_GONE_FILE");
        if (!fake.dead) produce_one();
        pthread_mutex_unlock(&fake.mutex);
    }
}

static void stop_streaming(void) {  // mutex held
    if (!fake.streaming) return;
    fake.stop_producer = 1;
    fake.streaming = 0;
    pthread_cond_broadcast(&fake.cond);
    pthread_mutex_unlock(&fake.mutex);
    pthread_join(fake.producer, NULL);
    pthread_mutex_lock(&fake.mutex);
    fake.stop_producer = 0;
    for (uint32_t i = 0; i < fake.buffer_count; i++) fake.buffers[i].state = BUF_DEQUEUED;
    fake.queued_count = fake.done_count = 0;
    if (!fake.dead) drain_ready();
}

static void free_buffers(void) {  // mutex held
    for (uint32_t i = 0; i < fake.buffer_count; i++) fake_real_munmap(fake.buffers[i].mem, fake.buffers[i].length);
    memset(fake.buffers, 0, sizeof fake.buffers);
    fake.buffer_count = 0;
}

int fake_open(int flags) {
    pthread_mutex_lock(&fake.mutex);
    int result = -1;
    if (fake_load()) {
        errno = EIO;
    } else if (fake.vanished) {
        if (fake.absent_opens > 0) fake.absent_opens--;
        if (fake.absent_opens == 0) fake.vanished = 0;
        errno = ENOENT;
        fake_log("open refused: unplugged");
    } else if (fake_gone()) {
        errno = ENOENT;
        fake_log("open refused: unplugged");
    } else if (fake.fd >= 0) {
        errno = EBUSY;
    } else {
        int fd = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
        if (fd >= 0) {
            setup_controls();
            fake.nonblocking = (flags & O_NONBLOCK) != 0;
            fake.dead = 0;
            __atomic_store_n(&fake.fd, fd, __ATOMIC_RELEASE);
            fake_log("open fd=%d", fd);
        }
        result = fd;
    }
    pthread_mutex_unlock(&fake.mutex);
    return result;
}

int fake_close(int fd) {
    pthread_mutex_lock(&fake.mutex);
    stop_streaming();
    free_buffers();
    __atomic_store_n(&fake.fd, -1, __ATOMIC_RELEASE);
    fake_log("close");
    pthread_mutex_unlock(&fake.mutex);
    return fake_real_close(fd);
}

int fake_owns_mapping(void *addr) {
    int mine = 0;
    pthread_mutex_lock(&fake.mutex);
    for (uint32_t i = 0; i < fake.buffer_count; i++) {
        if (fake.buffers[i].mem == addr) {
            fake.buffers[i].mapped = 0;
            mine = 1;
        }
    }
    pthread_mutex_unlock(&fake.mutex);
    return mine;
}

void *fake_mmap(size_t length, off_t offset) {
    pthread_mutex_lock(&fake.mutex);
    void *result = MAP_FAILED;
    uint32_t i = (uint32_t)(offset >> OFFSET_SHIFT);
    if (fake.dead) {
        errno = ENODEV;
    } else if (i >= fake.buffer_count || length > fake.buffers[i].length) {
        errno = EINVAL;
    } else {
        fake.buffers[i].mapped = 1;
        result = fake.buffers[i].mem;
    }
    pthread_mutex_unlock(&fake.mutex);
    return result;
}

int fake_ioctl_locked(unsigned long request, void *arg);

int fake_ioctl(unsigned long request, void *arg) {
    pthread_mutex_lock(&fake.mutex);
    int r;
    if (fake.dead || fake_gone()) {
        if (!fake.dead) unplug("FAKEV4L2_GONE_FILE");
        errno = ENODEV;
        r = -1;
    } else {
        r = fake_ioctl_locked(request, arg);
    }
    pthread_mutex_unlock(&fake.mutex);
    return r;
}

int fake_start_streaming(void) {  // mutex held
    if (fake.streaming) return 0;
    if (fake.buffer_count == 0) {
        errno = EINVAL;
        return -1;
    }
    fake.sequence = 0;
    fake.streaming = 1;
    fake.stop_producer = 0;
    if (pthread_create(&fake.producer, NULL, producer, NULL)) {
        fake.streaming = 0;
        errno = ENOMEM;
        return -1;
    }
    fake_log("stream on");
    return 0;
}

void fake_stop_streaming(void) { stop_streaming(); }

int fake_request_buffers(struct v4l2_requestbuffers *req) {  // mutex held
    if (req->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || req->memory != V4L2_MEMORY_MMAP) {
        errno = EINVAL;
        return -1;
    }
    if (fake.streaming) {
        errno = EBUSY;
        return -1;
    }
    if (req->count > 0 && fake.busy_opens > 0) {
        fake.busy_opens--;
        fake_log("busy");
        errno = EBUSY;
        return -1;
    }
    free_buffers();
    uint32_t count = req->count > FAKE_MAX_BUFFERS ? FAKE_MAX_BUFFERS : req->count;
    if (count == 1) count = 2;
    size_t length = fake_size_image();
    for (uint32_t i = 0; i < count; i++) {
        void *mem = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED) return -1;
        fake.buffers[i] = (struct fake_buffer){.mem = mem, .length = length, .state = BUF_DEQUEUED};
    }
    fake.buffer_count = count;
    req->count = count;
    req->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
    return 0;
}
