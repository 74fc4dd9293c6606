#include "CPixels.h"

#include <string.h>

void cpx_halve(const uint8_t *src, size_t width, size_t out_width, size_t out_height, uint8_t *dst) {
    for (size_t y = 0; y < out_height; y++) {
        const uint8_t *restrict top = src + 2 * y * width;
        const uint8_t *restrict bottom = top + width;
        uint8_t *restrict out = dst + y * out_width;
        // Two bytes as one 16-bit load, its halves added: a shape clang vectorizes well.
        for (size_t x = 0; x < out_width; x++) {
            uint16_t upper, lower;
            memcpy(&upper, top + 2 * x, 2);
            memcpy(&lower, bottom + 2 * x, 2);
            unsigned sum = (upper & 0xFFu) + (upper >> 8) + (lower & 0xFFu) + (lower >> 8);
            out[x] = (uint8_t)(sum >> 2);
        }
    }
}

// 1 where the two bytes differ by at least `threshold`, else 0.
static inline uint8_t strong(uint8_t a, uint8_t b, uint8_t threshold) {
    uint8_t difference = a > b ? (uint8_t)(a - b) : (uint8_t)(b - a);
    return difference >= threshold;
}

// Per block row: each pixel column's count of strong vertical pairs over the block's lines
// (`down`), and of strong horizontal pairs over its every-4th lines (`across`), a whole line at
// a time (the loops clang vectorizes); then each block's share of the two. At most 16 and 4
// a column, so bytes do.
void cpx_transitions(const uint8_t *pixels, size_t width, size_t columns, size_t rows, uint8_t threshold,
                     int32_t *counts, uint8_t *scratch) {
    const size_t span = columns * 16, last_line = rows * 16 - 1;
    uint8_t *restrict down = scratch;
    uint8_t *restrict across = scratch + span;
    for (size_t row = 0; row < rows; row++) {
        memset(scratch, 0, 2 * span);
        for (size_t line = row * 16; line < row * 16 + 16; line++) {
            const uint8_t *restrict here = pixels + line * width;
            if (line < last_line) {
                const uint8_t *restrict below = here + width;
                for (size_t x = 0; x < span; x++) down[x] += strong(here[x], below[x], threshold);
            }
            if (line % 4 == 0) {
                for (size_t x = 0; x + 1 < span; x++) across[x] += strong(here[x], here[x + 1], threshold);
            }
        }
        for (size_t column = 0; column < columns; column++) {
            const uint8_t *d = down + column * 16, *a = across + column * 16;
            int32_t count = d[0] + d[4] + d[8] + d[12];
            for (size_t x = 0; x < 16; x++) count += a[x];
            counts[row * columns + column] = count;
        }
    }
}

// Products of differences, in chunks whose 32-bit sums cannot overflow (4,096 products of at
// most 255²).
enum { correlation_chunk = 4096 };

static int64_t dot(const int16_t *a, const int16_t *b, size_t count) {
    int64_t total = 0;
    for (size_t start = 0; start < count; start += correlation_chunk) {
        size_t end = start + correlation_chunk < count ? start + correlation_chunk : count;
        int32_t sum = 0;
        for (size_t x = start; x < end; x++) sum += (int32_t)a[x] * b[x];
        total += sum;
    }
    return total;
}

static void differences(const uint8_t *here, const uint8_t *next, size_t count, int16_t *out) {
    for (size_t x = 0; x < count; x++) out[x] = (int16_t)((int16_t)next[x] - (int16_t)here[x]);
}

void cpx_difference_correlation(const uint8_t *pixels, size_t width, size_t height, int vertical, size_t max_lag,
                                int64_t *sums, int16_t *scratch) {
    for (size_t k = 0; k <= max_lag; k++) sums[k] = 0;
    if (vertical) {
        // The differences between rows y and y + 1, for the last max_lag + 1 values of y, in a ring:
        // each new row of them against itself and the max_lag rows before it.
        const size_t ring = max_lag + 1;
        for (size_t y = 0; y + 1 < height; y++) {
            int16_t *newest = scratch + (y % ring) * width;
            differences(pixels + y * width, pixels + (y + 1) * width, width, newest);
            for (size_t k = 0; k <= max_lag && k <= y; k++) sums[k] += dot(newest, scratch + ((y - k) % ring) * width, width);
        }
    } else {
        for (size_t y = 0; y < height && width > 1; y++) {
            const uint8_t *row = pixels + y * width;
            differences(row, row + 1, width - 1, scratch);
            for (size_t k = 0; k <= max_lag && k + 1 < width; k++) sums[k] += dot(scratch, scratch + k, width - 1 - k);
        }
    }
}

static inline size_t clamped_row(ptrdiff_t y, size_t height) {
    return y < 0 ? 0 : (size_t)y >= height ? height - 1 : (size_t)y;
}

void cpx_deblur_columns(const uint8_t *src, size_t width, size_t height, size_t length, int iterations, uint8_t *dst,
                        float *scratch) {
    const size_t count = width * height, half = length / 2, ring = 2 * half + 2;
    const float trim = length % 2 ? 0.0f : 0.5f, scale = 1.0f / (float)length;
    // The estimate (everything plus one, so that black stays divisible; it starts as the observed
    // image), the last `ring` rows of the ratio, and the running sums of both windows.
    float *estimate = scratch, *ratios = scratch + count, *window = ratios + ring * width, *ratio_window = window + width;
    for (size_t i = 0; i < count; i++) estimate[i] = (float)src[i] + 1.0f;
#define ROW(image, y) ((image) + clamped_row((ptrdiff_t)(y), height) * width)
#define RATIO(y) (ratios + (clamped_row((ptrdiff_t)(y), height) % ring) * width)
    for (int round = 0; round < iterations; round++) {
        for (size_t x = 0; x < width; x++) window[x] = 0;
        for (ptrdiff_t t = -(ptrdiff_t)half; t <= (ptrdiff_t)half; t++) {
            const float *row = ROW(estimate, t);
            for (size_t x = 0; x < width; x++) window[x] += row[x];
        }
        // One sweep a round: ratio row y = observed / B(estimate) at y, then the estimate's row
        // u = y − half, whose window of ratios is complete, times B(ratio)² at u. The estimate's
        // rows above u are no longer read by the ratios still to come.
        for (size_t y = 0; y < height + half; y++) {
            if (y < height) {
                const float *restrict top = ROW(estimate, (ptrdiff_t)y - (ptrdiff_t)half);
                const float *restrict bottom = ROW(estimate, y + half);
                const float *restrict entering = ROW(estimate, y + half + 1);
                const uint8_t *restrict seen = src + y * width;
                float *restrict out = RATIO(y), *restrict sums = window;
                for (size_t x = 0; x < width; x++) {
                    float mean = (sums[x] - trim * (top[x] + bottom[x])) * scale;
                    out[x] = ((float)seen[x] + 1.0f) / (mean > 1e-3f ? mean : 1e-3f);
                    sums[x] += entering[x] - top[x];
                }
            }
            if (y < half) continue;
            size_t u = y - half;
            float *restrict sums = ratio_window;
            if (u == 0) {
                for (size_t x = 0; x < width; x++) sums[x] = 0;
                for (ptrdiff_t t = -(ptrdiff_t)half; t <= (ptrdiff_t)half; t++) {
                    const float *restrict row = RATIO(t);
                    for (size_t x = 0; x < width; x++) sums[x] += row[x];
                }
            } else {
                const float *restrict entering = RATIO(u + half), *restrict leaving = RATIO((ptrdiff_t)u - (ptrdiff_t)half - 1);
                for (size_t x = 0; x < width; x++) sums[x] += entering[x] - leaving[x];
            }
            const float *restrict top = RATIO((ptrdiff_t)u - (ptrdiff_t)half), *restrict bottom = RATIO(u + half);
            float *restrict row = estimate + u * width;
            for (size_t x = 0; x < width; x++) {
                float correction = (sums[x] - trim * (top[x] + bottom[x])) * scale;
                row[x] *= correction * correction;
            }
        }
    }
#undef ROW
#undef RATIO
    for (size_t i = 0; i < count; i++) {
        float value = estimate[i] - 0.5f; // − 1, + 0.5 to round
        dst[i] = value <= 0.0f ? 0 : value >= 255.0f ? 255 : (uint8_t)value;
    }
}

void cpx_transpose(const uint8_t *src, size_t width, size_t height, uint8_t *dst) {
    // In 32×32 tiles, so that both sides stay in cache.
    for (size_t y0 = 0; y0 < height; y0 += 32) {
        size_t y1 = y0 + 32 < height ? y0 + 32 : height;
        for (size_t x0 = 0; x0 < width; x0 += 32) {
            size_t x1 = x0 + 32 < width ? x0 + 32 : width;
            for (size_t y = y0; y < y1; y++) {
                for (size_t x = x0; x < x1; x++) dst[x * height + y] = src[y * width + x];
            }
        }
    }
}
