// Shared state of the emulated V4L2 device (see fakev4l2.c).
#ifndef FAKEV4L2_H
#define FAKEV4L2_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define FAKE_MAX_BUFFERS 8
#define FAKE_MAX_CONTROLS 8

enum buffer_state { BUF_DEQUEUED, BUF_QUEUED, BUF_DONE };

struct fake_buffer {
    uint8_t *mem;
    size_t length;
    enum buffer_state state;
    uint32_t bytes_used;
    uint32_t sequence;
    struct timeval timestamp;
    int mapped;
};

struct fake_frame {          // one playlist entry, already in the device's pixel format
    const uint8_t *data;
    size_t size;
};

struct fake_control {
    uint32_t id;
    const char *name;
    uint32_t type;
    int32_t minimum, maximum, step, default_value, value;
};

struct fake_state {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    int loaded;              // configuration and frames read
    int fd;                  // the eventfd handed out as the device, or -1
    int nonblocking;
    int dead;                // this open instance was unplugged: every call fails with ENODEV
    // configuration
    uint32_t fourcc, width, height, fps;
    int at_end;              // 0 loop, 1 hold, 2 stall
    long vanish_after, absent_opens, busy_opens;
    const char *gone_file, *log_path;
    // playlist
    struct fake_frame *frames;
    size_t frame_count;
    size_t position;         // next playlist entry, kept across unplugs
    long produced;           // frames produced in all
    int vanished;            // unplugged by FAKEV4L2_VANISH_AFTER
    const uint8_t *last_scene;   // the image of the previous frame, to log scene changes
    // streaming
    struct fake_buffer buffers[FAKE_MAX_BUFFERS];
    uint32_t buffer_count;
    int queued[FAKE_MAX_BUFFERS], queued_count;
    int done[FAKE_MAX_BUFFERS], done_count;
    int streaming, stop_producer;
    pthread_t producer;
    uint32_t sequence;
    long dropped;            // frames lost because no buffer was queued
    struct fake_control controls[FAKE_MAX_CONTROLS];
    int control_count;
};

extern struct fake_state fake;

int fake_real_close(int fd);
int fake_real_munmap(void *addr, size_t length);
ssize_t fake_real_read(int fd, void *buf, size_t count);
int fake_open(int flags);
int fake_close(int fd);
int fake_ioctl(unsigned long request, void *arg);
void *fake_mmap(size_t length, off_t offset);
int fake_owns_mapping(void *addr);
int fake_ioctl_locked(unsigned long request, void *arg);   // fakev4l2_ioctl.c
int fake_start_streaming(void);
void fake_stop_streaming(void);
int fake_request_buffers(struct v4l2_requestbuffers *req);

// fakev4l2_frames.c
int fake_load(void);                       // reads the environment and the playlist once
uint32_t fake_size_image(void);
int fake_gone(void);                       // the device is unplugged now (mutex held)
void fake_log(const char *format, ...);

#endif
