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

/// For k = 0 … `max_lag`: the sum over the image of d(i)·d(i + k), where d are the differences
/// between neighbouring pixels along each row (`vertical` 0) or down each column (`vertical` 1)
/// and i + k is k pixels further along the same row or column. A motion blur `L` pixels long in
/// that direction makes each difference the difference of two pixels `L` apart of the sharp
/// image, so the sums dip far below zero at k = L. `sums` holds `max_lag + 1` values; `scratch`
/// holds `(max_lag + 1) * width` values.
void cpx_difference_correlation(const uint8_t *pixels, size_t width, size_t height, int vertical, size_t max_lag,
                                int64_t *sums, int16_t *scratch);

/// Richardson–Lucy deconvolution of a motion blur `length` pixels long down the columns of `src`
/// (`width` × `height` bytes), accelerated: `iterations` rounds of
/// estimate ← estimate × B(observed / B(estimate))², where B is the mean over `length` pixels of a
/// column (an even length has half weights at its two ends, so B is symmetric) with the edge
/// pixels repeated beyond the image. The squared correction gets about as far in a round as plain
/// Richardson–Lucy in two. Each round is one sweep down the rows with running sums, the ratio
/// kept for the last `length + 2` rows only. The estimate, rounded and clamped to 0–255, goes to
/// `dst`. `scratch` holds `width * (height + length + 4)` floats.
void cpx_deblur_columns(const uint8_t *src, size_t width, size_t height, size_t length, int iterations, uint8_t *dst,
                        float *scratch);

/// `src` (`width` × `height`) turned about its diagonal into `dst` (`height` × `width`): rows become columns.
void cpx_transpose(const uint8_t *src, size_t width, size_t height, uint8_t *dst);

#ifdef __cplusplus
}
#endif

#endif
