// The V4L2 ioctls of the emulated device (called with the state mutex held).
#include "fakev4l2.h"

static void describe_format(struct v4l2_pix_format *pix) {
    memset(pix, 0, sizeof *pix);
    pix->width = fake.width;
    pix->height = fake.height;
    pix->pixelformat = fake.fourcc;
    pix->field = V4L2_FIELD_NONE;
    pix->bytesperline = fake.fourcc == V4L2_PIX_FMT_GREY ? fake.width
                      : fake.fourcc == V4L2_PIX_FMT_YUYV ? fake.width * 2 : 0;
    pix->sizeimage = fake_size_image();
    pix->colorspace = fake.fourcc == V4L2_PIX_FMT_MJPEG ? V4L2_COLORSPACE_JPEG : V4L2_COLORSPACE_SRGB;
}

static const char *format_name(void) {
    return fake.fourcc == V4L2_PIX_FMT_GREY ? "GREY" : fake.fourcc == V4L2_PIX_FMT_YUYV ? "YUYV" : "MJPG";
}

static struct fake_control *find_control(uint32_t id) {
    for (int i = 0; i < fake.control_count; i++)
        if (fake.controls[i].id == id) return &fake.controls[i];
    return NULL;
}

static int query_control(struct v4l2_queryctrl *q) {
    struct fake_control *c = NULL;
    if (q->id & V4L2_CTRL_FLAG_NEXT_CTRL) {
        uint32_t after = q->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
        for (int i = 0; i < fake.control_count; i++)
            if (fake.controls[i].id > after && (!c || fake.controls[i].id < c->id)) c = &fake.controls[i];
    } else {
        c = find_control(q->id);
    }
    if (!c) {
        errno = EINVAL;
        return -1;
    }
    memset(q, 0, sizeof *q);
    q->id = c->id;
    q->type = c->type;
    snprintf((char *)q->name, sizeof q->name, "%s", c->name);
    q->minimum = c->minimum;
    q->maximum = c->maximum;
    q->step = c->step;
    q->default_value = c->default_value;
    return 0;
}

static int dequeue(struct v4l2_buffer *b) {
    if (!fake.streaming) {
        errno = EINVAL;
        return -1;
    }
    while (fake.done_count == 0) {
        if (fake.nonblocking) {
            errno = EAGAIN;
            return -1;
        }
        pthread_cond_wait(&fake.cond, &fake.mutex);
        if (fake.dead) {
            errno = ENODEV;
            return -1;
        }
        if (!fake.streaming) {
            errno = EINVAL;
            return -1;
        }
    }
    int i = fake.done[0];
    memmove(fake.done, fake.done + 1, sizeof(int) * (size_t)--fake.done_count);
    uint64_t one;
    (void)!fake_real_read(fake.fd, &one, sizeof one);
    struct fake_buffer *buf = &fake.buffers[i];
    buf->state = BUF_DEQUEUED;
    memset(b, 0, sizeof *b);
    b->index = (uint32_t)i;
    b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b->memory = V4L2_MEMORY_MMAP;
    b->bytesused = buf->bytes_used;
    b->length = (uint32_t)buf->length;
    b->m.offset = (uint32_t)i << 24;
    b->field = V4L2_FIELD_NONE;
    b->sequence = buf->sequence;
    b->timestamp = buf->timestamp;
    b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_SOE;
    return 0;
}

static int buffer_ioctl(unsigned long request, struct v4l2_buffer *b) {
    if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || (request != VIDIOC_DQBUF && b->index >= fake.buffer_count)) {
        errno = EINVAL;
        return -1;
    }
    if (request == VIDIOC_DQBUF) return dequeue(b);
    struct fake_buffer *buf = &fake.buffers[b->index];
    if (request == VIDIOC_QBUF) {
        if (buf->state != BUF_DEQUEUED || b->memory != V4L2_MEMORY_MMAP) {
            errno = EINVAL;
            return -1;
        }
        buf->state = BUF_QUEUED;
        fake.queued[fake.queued_count++] = (int)b->index;
    }
    uint32_t index = b->index;
    memset(b, 0, sizeof *b);
    b->index = index;
    b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b->memory = V4L2_MEMORY_MMAP;
    b->length = (uint32_t)buf->length;
    b->m.offset = index << 24;
    b->flags = (buf->mapped ? V4L2_BUF_FLAG_MAPPED : 0) | (buf->state == BUF_QUEUED ? V4L2_BUF_FLAG_QUEUED : 0) |
               (buf->state == BUF_DONE ? V4L2_BUF_FLAG_DONE : 0) | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
    return 0;
}

int fake_ioctl_locked(unsigned long request, void *arg) {
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        snprintf((char *)cap->driver, sizeof cap->driver, "fakev4l2");
        snprintf((char *)cap->card, sizeof cap->card, "Emulated camera (%s)", format_name());
        snprintf((char *)cap->bus_info, sizeof cap->bus_info, "platform:fakev4l2");
        cap->version = 0x060100;
        cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *d = arg;
        if (d->index != 0 || d->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) break;
        d->pixelformat = fake.fourcc;
        d->flags = fake.fourcc == V4L2_PIX_FMT_MJPEG ? V4L2_FMT_FLAG_COMPRESSED : 0;
        snprintf((char *)d->description, sizeof d->description, "%s",
                 fake.fourcc == V4L2_PIX_FMT_GREY ? "8-bit Greyscale"
                 : fake.fourcc == V4L2_PIX_FMT_YUYV ? "YUYV 4:2:2" : "Motion-JPEG");
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *s = arg;
        if (s->index != 0 || s->pixel_format != fake.fourcc) break;
        s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        s->discrete.width = fake.width;
        s->discrete.height = fake.height;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *f = arg;
        if (f->index != 0 || f->pixel_format != fake.fourcc || f->width != fake.width || f->height != fake.height) break;
        f->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        f->discrete.numerator = 1;
        f->discrete.denominator = fake.fps;
        return 0;
    }
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) break;
        if (request == VIDIOC_S_FMT && fake.buffer_count) {
            errno = EBUSY;
            return -1;
        }
        uint32_t asked = f->fmt.pix.pixelformat, w = f->fmt.pix.width, h = f->fmt.pix.height;
        describe_format(&f->fmt.pix);
        if (request == VIDIOC_S_FMT)
            fake_log("set format asked=%.4s %ux%u got=%s %ux%u", (char *)&asked, w, h, format_name(), fake.width, fake.height);
        return 0;
    }
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        if (p->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) break;
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = 1;
        p->parm.capture.timeperframe.denominator = fake.fps;
        return 0;
    }
    case VIDIOC_REQBUFS:
        return fake_request_buffers(arg);
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF:
        return buffer_ioctl(request, arg);
    case VIDIOC_STREAMON:
        return fake_start_streaming();
    case VIDIOC_STREAMOFF:
        fake_stop_streaming();
        return 0;
    case VIDIOC_QUERYCTRL:
        return query_control(arg);
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL: {
        struct v4l2_control *c = arg;
        struct fake_control *control = find_control(c->id);
        if (!control) break;
        if (request == VIDIOC_G_CTRL) {
            c->value = control->value;
            return 0;
        }
        if (c->value < control->minimum || c->value > control->maximum) {
            errno = ERANGE;
            return -1;
        }
        control->value = c->value;
        fake_log("control %s=%d", control->name, c->value);
        return 0;
    }
    default:
        errno = ENOTTY;
        return -1;
    }
    errno = EINVAL;
    return -1;
}
