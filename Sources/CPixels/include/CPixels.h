// Pixel loops the camera's first pass runs on every frame. In C so that clang vectorizes them:
// the same loops in Swift, with its SIMD types, were not inlined and ran scalar.
#ifndef CPIXELS_H
#define CPIXELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Each 2×2 block of `src` (`width` bytes a row) replaced by its mean, rounded down:
/// `out_width` × `out_height` bytes into `dst`, which must not overlap `src`.
void cpx_halve(const uint8_t *src, size_t width, size_t out_width, size_t out_height, uint8_t *dst);

/// For each 16×16 block of the image's first `columns * 16` pixels of its first `rows * 16` lines:
/// how many pairs of neighbouring pixels differ by at least `threshold` grey levels, counting the
/// horizontal pairs along every 4th line (from the first) and the vertical pairs along every 4th
/// column (from the first). A pair is counted in the block of its left or upper pixel; pairs
/// whose other pixel lies outside the blocks are not counted. `counts` holds `columns * rows`
/// values, row by row. `scratch` holds `2 * columns * 16` bytes of working space.
void cpx_transitions(const uint8_t *pixels, size_t width, size_t columns, size_t rows, uint8_t threshold,
                     int32_t *counts, uint8_t *scratch);

#ifdef __cplusplus
}
#endif

#endif
