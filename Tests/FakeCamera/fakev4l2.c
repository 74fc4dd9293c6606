// An emulated V4L2 capture device for tests and benchmarks, loaded with LD_PRELOAD.
//
// It answers open/ioctl/mmap/close on one device path (FAKEV4L2_DEVICE, default
// /dev/video0), both through the libc symbols and through syscall(), which is how
// libv4l2 reaches the kernel. Everything else passes through to the real calls.
//
// The device fd is an eventfd in semaphore mode whose count is the number of filled
// buffers waiting to be dequeued, so poll() and select() on it behave like a camera.
// A producer thread fills one queued buffer per frame period from a playlist of images;
// when no buffer is queued the frame is dropped, as a driver does (a gap in `sequence`).
//
// Build: cc -O2 -shared -fPIC -o libfakev4l2.so fakev4l2.c -ldl -lpthread -lturbojpeg
//
// Environment:
//   FAKEV4L2_DEVICE        device path to serve (default /dev/video0)
//   FAKEV4L2_FRAMES        playlist file: one image path a line (binary PGM "P5", or a
//                          .jpg served as is in MJPG mode); "PATH *N" repeats it N times
//   FAKEV4L2_FORMAT        GREY, YUYV or MJPG (default GREY)
//   FAKEV4L2_WIDTH/HEIGHT  frame size (default: the first image's); smaller images are
//                          centred on a light background, larger ones cropped
//   FAKEV4L2_FPS           frame rate (default 30)
//   FAKEV4L2_AT_END        loop (default), hold (repeat the last frame) or stall (no more frames)
//   FAKEV4L2_VANISH_AFTER  unplug after this many frames have been produced in all
//   FAKEV4L2_ABSENT_OPENS  while unplugged, refuse this many opens (ENOENT), then come back
//   FAKEV4L2_GONE_FILE     the device is unplugged for as long as this file exists
//   FAKEV4L2_BUSY_OPENS    the first N streaming attempts get EBUSY from VIDIOC_REQBUFS
//   FAKEV4L2_LOG           append one line per notable event (open, format, control, unplug,
//                          and each change of image with its CLOCK_MONOTONIC time)
#define _GNU_SOURCE
#include "fakev4l2.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <sys/syscall.h>

struct fake_state fake = {.mutex = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .fd = -1};

static long (*real_syscall)(long, ...);
static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);

static void resolve(void) {
    if (real_syscall) return;
    real_open = dlsym(RTLD_NEXT, "open");
    real_openat = dlsym(RTLD_NEXT, "openat");
    real_close = dlsym(RTLD_NEXT, "close");
    real_ioctl = dlsym(RTLD_NEXT, "ioctl");
    real_mmap = dlsym(RTLD_NEXT, "mmap");
    real_munmap = dlsym(RTLD_NEXT, "munmap");
    real_read = dlsym(RTLD_NEXT, "read");
    real_syscall = dlsym(RTLD_NEXT, "syscall");
}

int fake_real_close(int fd) {
    resolve();
    return real_close(fd);
}

static int is_device_path(const char *path) {
    const char *dev = getenv("FAKEV4L2_DEVICE");
    if (!dev || !*dev) dev = "/dev/video0";
    return path && strcmp(path, dev) == 0;
}

int fake_real_munmap(void *addr, size_t length) {
    resolve();
    return real_munmap(addr, length);
}

ssize_t fake_real_read(int fd, void *buf, size_t count) {
    resolve();
    return real_read(fd, buf, count);
}

// Lock-free: called from close() and read(), which may run while the state mutex is held.
static int is_fake_fd(int fd) { return fd >= 0 && fd == __atomic_load_n(&fake.fd, __ATOMIC_ACQUIRE); }

// ---- libc entry points ----

int open(const char *path, int flags, ...) {
    resolve();
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (is_device_path(path)) return fake_open(flags);
    return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    resolve();
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (is_device_path(path)) return fake_open(flags);
    return real_open(path, flags, mode);
}

int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open(path, flags); }

int openat(int dirfd, const char *path, int flags, ...) {
    resolve();
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (is_device_path(path)) return fake_open(flags);
    return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    resolve();
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (is_device_path(path)) return fake_open(flags);
    return real_openat(dirfd, path, flags, mode);
}

int close(int fd) {
    resolve();
    if (is_fake_fd(fd)) return fake_close(fd);
    return real_close(fd);
}

int ioctl(int fd, unsigned long request, ...) {
    resolve();
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (is_fake_fd(fd)) return fake_ioctl(request, arg);
    return real_ioctl(fd, request, arg);
}

void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    resolve();
    if (is_fake_fd(fd)) return fake_mmap(length, offset);
    return real_mmap(addr, length, prot, flags, fd, offset);
}

void *mmap64(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
    return mmap(addr, length, prot, flags, fd, offset);
}

int munmap(void *addr, size_t length) {
    resolve();
    if (fake_owns_mapping(addr)) return 0;
    return real_munmap(addr, length);
}

ssize_t read(int fd, void *buf, size_t count) {
    resolve();
    if (is_fake_fd(fd)) {
        errno = EINVAL;  // no read() I/O: V4L2_CAP_READWRITE is not offered
        return -1;
    }
    return real_read(fd, buf, count);
}

long syscall(long number, ...) {
    resolve();
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    switch (number) {
    case SYS_open:
        if (is_device_path((const char *)a[0])) return fake_open((int)a[1]);
        break;
    case SYS_openat:
        if (is_device_path((const char *)a[1])) return fake_open((int)a[2]);
        break;
    case SYS_close:
        if (is_fake_fd((int)a[0])) return fake_close((int)a[0]);
        break;
    case SYS_ioctl:
        if (is_fake_fd((int)a[0])) return fake_ioctl((unsigned long)a[1], (void *)a[2]);
        break;
    case SYS_mmap:
        if (is_fake_fd((int)a[4])) return (long)fake_mmap((size_t)a[1], (off_t)a[5]);
        break;
    case SYS_munmap:
        if (fake_owns_mapping((void *)a[0])) return 0;
        break;
    case SYS_read:
        if (is_fake_fd((int)a[0])) {
            errno = EINVAL;
            return -1;
        }
        break;
    default:
        break;
    }
    return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
