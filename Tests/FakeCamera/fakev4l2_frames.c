// Configuration and frames of the emulated V4L2 device: reads the environment and the
// playlist once, and turns every distinct image into the device's pixel format.
#include "fakev4l2.h"

#include <stdarg.h>
#include <sys/stat.h>
#include <turbojpeg.h>

#define BACKGROUND 230

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *size = len;
    return buf;
}

static int pgm_token(const char *data, size_t size, size_t *pos, long *value) {
    while (*pos < size) {
        char c = data[*pos];
        if (c == '#') {
            while (*pos < size && data[*pos] != '\n') (*pos)++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            (*pos)++;
        } else {
            break;
        }
    }
    if (*pos >= size || data[*pos] < '0' || data[*pos] > '9') return -1;
    *value = 0;
    while (*pos < size && data[*pos] >= '0' && data[*pos] <= '9') *value = *value * 10 + (data[(*pos)++] - '0');
    return 0;
}

// Decodes a P5 PGM or a JPEG into grey pixels; the caller frees *pixels.
static int load_grey(const char *path, const char *data, size_t size, uint8_t **pixels, long *w, long *h) {
    if (size > 2 && data[0] == 'P' && data[1] == '5') {
        size_t pos = 2;
        long maxval;
        if (pgm_token(data, size, &pos, w) || pgm_token(data, size, &pos, h) || pgm_token(data, size, &pos, &maxval) ||
            maxval != 255 || *w <= 0 || *h <= 0 || pos + 1 + (size_t)(*w * *h) > size) {
            fprintf(stderr, "fakev4l2: %s is not an 8-bit binary PGM\n", path);
            return -1;
        }
        *pixels = malloc((size_t)(*w * *h));
        memcpy(*pixels, data + pos + 1, (size_t)(*w * *h));
        return 0;
    }
    tjhandle tj = tjInitDecompress();
    int jw, jh, sub, cs;
    if (!tj || tjDecompressHeader3(tj, (const unsigned char *)data, size, &jw, &jh, &sub, &cs) != 0) {
        fprintf(stderr, "fakev4l2: %s is neither a binary PGM nor a JPEG\n", path);
        if (tj) tjDestroy(tj);
        return -1;
    }
    *w = jw;
    *h = jh;
    *pixels = malloc((size_t)jw * jh);
    int r = tjDecompress2(tj, (const unsigned char *)data, size, *pixels, jw, jw, jh, TJPF_GRAY, 0);
    tjDestroy(tj);
    return r == 0 ? 0 : -1;
}

static int is_jpeg(const char *data, size_t size) {
    return size > 2 && (uint8_t)data[0] == 0xFF && (uint8_t)data[1] == 0xD8;
}

// Builds one frame in the device's format from an image file.
static int make_frame(const char *path, struct fake_frame *out) {
    size_t size;
    char *data = read_file(path, &size);
    if (!data) {
        fprintf(stderr, "fakev4l2: cannot read %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (fake.fourcc == V4L2_PIX_FMT_MJPEG && is_jpeg(data, size)) {
        out->data = (uint8_t *)data;
        out->size = size;
        return 0;
    }
    uint8_t *img;
    long iw, ih;
    if (load_grey(path, data, size, &img, &iw, &ih)) return -1;
    free(data);
    if (fake.width == 0) {
        fake.width = (uint32_t)iw;
        fake.height = (uint32_t)ih;
    }
    uint32_t w = fake.width, h = fake.height;
    uint8_t *canvas = malloc((size_t)w * h);
    memset(canvas, BACKGROUND, (size_t)w * h);
    long ox = ((long)w - iw) / 2, oy = ((long)h - ih) / 2;
    for (long y = 0; y < ih; y++) {
        long cy = y + oy;
        if (cy < 0 || cy >= h) continue;
        for (long x = 0; x < iw; x++) {
            long cx = x + ox;
            if (cx >= 0 && cx < w) canvas[cy * w + cx] = img[y * iw + x];
        }
    }
    free(img);
    if (fake.fourcc == V4L2_PIX_FMT_GREY) {
        out->data = canvas;
        out->size = (size_t)w * h;
    } else if (fake.fourcc == V4L2_PIX_FMT_YUYV) {
        uint8_t *yuyv = malloc((size_t)w * h * 2);
        for (size_t i = 0; i < (size_t)w * h; i++) {
            yuyv[2 * i] = canvas[i];
            yuyv[2 * i + 1] = 128;
        }
        free(canvas);
        out->data = yuyv;
        out->size = (size_t)w * h * 2;
    } else {
        uint8_t *rgb = malloc((size_t)w * h * 3);
        for (size_t i = 0; i < (size_t)w * h; i++) rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = canvas[i];
        free(canvas);
        tjhandle tj = tjInitCompress();
        unsigned char *jpeg = NULL;
        unsigned long jpeg_size = 0;
        int r = tjCompress2(tj, rgb, (int)w, 0, (int)h, TJPF_RGB, &jpeg, &jpeg_size, TJSAMP_422, 90, 0);
        tjDestroy(tj);
        free(rgb);
        if (r) return -1;
        out->data = jpeg;
        out->size = jpeg_size;
    }
    return 0;
}

static long env_long(const char *name, long fallback) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

int fake_load(void) {
    if (fake.loaded) return fake.loaded > 0 ? 0 : -1;
    fake.loaded = -1;
    const char *format = getenv("FAKEV4L2_FORMAT");
    if (!format || !strcmp(format, "GREY")) fake.fourcc = V4L2_PIX_FMT_GREY;
    else if (!strcmp(format, "YUYV")) fake.fourcc = V4L2_PIX_FMT_YUYV;
    else if (!strcmp(format, "MJPG")) fake.fourcc = V4L2_PIX_FMT_MJPEG;
    else {
        fprintf(stderr, "fakev4l2: FAKEV4L2_FORMAT must be GREY, YUYV or MJPG\n");
        return -1;
    }
    fake.width = (uint32_t)env_long("FAKEV4L2_WIDTH", 0);
    fake.height = (uint32_t)env_long("FAKEV4L2_HEIGHT", 0);
    fake.fps = (uint32_t)env_long("FAKEV4L2_FPS", 30);
    if (fake.fps == 0) fake.fps = 30;
    const char *at_end = getenv("FAKEV4L2_AT_END");
    fake.at_end = !at_end ? 0 : !strcmp(at_end, "hold") ? 1 : !strcmp(at_end, "stall") ? 2 : 0;
    fake.vanish_after = env_long("FAKEV4L2_VANISH_AFTER", -1);
    fake.absent_opens = env_long("FAKEV4L2_ABSENT_OPENS", 0);
    fake.busy_opens = env_long("FAKEV4L2_BUSY_OPENS", 0);
    fake.gone_file = getenv("FAKEV4L2_GONE_FILE");
    fake.log_path = getenv("FAKEV4L2_LOG");

    const char *playlist = getenv("FAKEV4L2_FRAMES");
    size_t size;
    char *text = playlist ? read_file(playlist, &size) : NULL;
    if (!text) {
        fprintf(stderr, "fakev4l2: set FAKEV4L2_FRAMES to a readable playlist file\n");
        return -1;
    }
    text = realloc(text, size + 1);
    text[size] = 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", playlist);
    char *slash = strrchr(dir, '/');
    if (slash) slash[1] = 0; else dir[0] = 0;

    char **paths = NULL;
    struct fake_frame *distinct = NULL;
    size_t distinct_count = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!*line || *line == '#') continue;
        long repeat = 1;
        char *star = strstr(line, " *");
        if (star) {
            repeat = strtol(star + 2, NULL, 10);
            *star = 0;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s%s", line[0] == '/' ? "" : dir, line);
        size_t k = 0;
        while (k < distinct_count && strcmp(paths[k], path)) k++;
        if (k == distinct_count) {
            paths = realloc(paths, sizeof *paths * (k + 1));
            distinct = realloc(distinct, sizeof *distinct * (k + 1));
            paths[k] = strdup(path);
            if (make_frame(path, &distinct[k])) return -1;
            distinct_count++;
        }
        for (long r = 0; r < repeat; r++) {
            fake.frames = realloc(fake.frames, sizeof *fake.frames * (fake.frame_count + 1));
            fake.frames[fake.frame_count++] = distinct[k];
        }
    }
    free(text);
    if (fake.frame_count == 0) {
        fprintf(stderr, "fakev4l2: the playlist %s names no frames\n", playlist);
        return -1;
    }
    fake.loaded = 1;
    fake_log("loaded frames=%zu size=%ux%u fps=%u", fake.frame_count, fake.width, fake.height, fake.fps);
    return 0;
}

uint32_t fake_size_image(void) {
    if (fake.fourcc == V4L2_PIX_FMT_GREY) return fake.width * fake.height;
    if (fake.fourcc == V4L2_PIX_FMT_YUYV) return fake.width * fake.height * 2;
    uint32_t largest = 0;
    for (size_t i = 0; i < fake.frame_count; i++)
        if (fake.frames[i].size > largest) largest = (uint32_t)fake.frames[i].size;
    return largest > fake.width * fake.height ? largest : fake.width * fake.height;
}

int fake_gone(void) {
    if (fake.vanished) return 1;
    struct stat st;
    return fake.gone_file && stat(fake.gone_file, &st) == 0;
}

void fake_log(const char *format, ...) {
    if (!fake.log_path) return;
    FILE *f = fopen(fake.log_path, "a");
    if (!f) return;
    va_list ap;
    va_start(ap, format);
    vfprintf(f, format, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}
