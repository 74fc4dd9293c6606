#ifndef CHEIF_H
#define CHEIF_H

/* The primary image of a HEIF file (HEIC, AVIF) through libheif, behind one C call that catches
 * every C++ exception libheif and its codecs may throw: its 8-bit luma plane alone, or 8-bit
 * RGBA when it has transparency (to be shown on white). */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CHEIF_OK = 0,
    CHEIF_DAMAGED = 1,      /* libheif could not read it: `message` says why */
    CHEIF_UNSUPPORTED = 2,  /* a feature or codec this libheif does not decode */
    CHEIF_TOO_LARGE = 3,    /* more pixels than its limit: `width`, `height` and `has_alpha` say which */
    CHEIF_NO_MEMORY = 4
};

typedef struct {
    int status;
    int width;
    int height;
    int stride;             /* bytes from one row of `rgba` or `gray` to the next */
    int has_alpha;
    const uint8_t *rgba;    /* CHEIF_OK with has_alpha: the pixels, valid until cheif_release */
    const uint8_t *gray;    /* CHEIF_OK without: the luma plane, valid until cheif_release */
    void *image;
    char message[256];
} cheif_result;

/* Decodes the primary image of `data`, turned and cropped as the file says; nothing is decoded
 * when it has more than `max_pixels_rgba` (with transparency) or `max_pixels_gray` (without).
 * Answers `result->status`. */
int cheif_decode(const uint8_t *data, size_t length, int64_t max_pixels_rgba, int64_t max_pixels_gray, cheif_result *result);

/* Frees what cheif_decode kept (safe to call whatever it answered). */
void cheif_release(cheif_result *result);

#ifdef __cplusplus
}
#endif

#endif
