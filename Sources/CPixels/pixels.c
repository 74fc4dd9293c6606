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
