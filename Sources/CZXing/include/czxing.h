#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A plain C face over zxing-cpp 1.4 (C++). Every function catches every exception, checks its
/// arguments before calling in, and reports failure through its return value.

/// zxing-cpp's BarcodeFormat bits.
enum {
    CZX_CODABAR = 1 << 1, CZX_CODE39 = 1 << 2, CZX_CODE93 = 1 << 3, CZX_CODE128 = 1 << 4,
    CZX_DATABAR = 1 << 5, CZX_DATABAR_EXPANDED = 1 << 6, CZX_DATAMATRIX = 1 << 7,
    CZX_EAN8 = 1 << 8, CZX_EAN13 = 1 << 9, CZX_ITF = 1 << 10, CZX_QRCODE = 1 << 13,
    CZX_UPCA = 1 << 14, CZX_UPCE = 1 << 15
};

/// Return codes of czx_read.
enum { CZX_OK = 0, CZX_BAD_ARGUMENT = 1, CZX_OUT_OF_MEMORY = 2, CZX_FAILED = 3 };

/// The largest side czx_read accepts; larger images are refused as CZX_BAD_ARGUMENT.
#define CZX_MAX_SIDE 16384

typedef struct czx_reader czx_reader;
typedef struct czx_results czx_results;

/// Flags of czx_reader_create: zxing-cpp's try-harder, and try-rotate (a Data Matrix is then also
/// looked for from the other three sides of the middle lines, so a label turned 90° or 180° is read).
/// CZX_OWN_BINARIZER: QR and Data Matrix are read from the black-and-white image zxing-cpp's
/// HybridBinarizer makes itself, instead of from the same image made by the shim's faster loops
/// (for checking that the two agree).
enum { CZX_TRY_HARDER = 1, CZX_TRY_ROTATE = 2, CZX_OWN_BINARIZER = 4 };

/// A reader for the given formats (a mask of CZX_* bits) with the given CZX_TRY_* flags;
/// try-downscale is always off. NULL when out of memory, when `formats` holds no known format
/// or `flags` an unknown flag.
czx_reader *czx_reader_create(uint32_t formats, int flags);
void czx_reader_destroy(czx_reader *reader);

/// Reads a greyscale image of `width * height` bytes (no padding). On CZX_OK, `*results` is a
/// list to free with czx_results_destroy (possibly empty). On failure it is NULL and
/// `message` (when not NULL) holds a NUL-terminated reason, cut to `message_capacity`.
int czx_read(const czx_reader *reader, const uint8_t *pixels, size_t byte_count, int width, int height,
             czx_results **results, char *message, size_t message_capacity);

int czx_results_count(const czx_results *results);
void czx_results_destroy(czx_results *results);

/// The format bit of one result (0 for a bad index).
uint32_t czx_result_format(const czx_results *results, int index);
/// The content bytes as encoded in the symbol, before any character set is applied.
const uint8_t *czx_result_bytes(const czx_results *results, int index, size_t *length);
/// The text as zxing-cpp renders it in UTF-8 (ECI honoured; GS1 separators as 0x1D).
const char *czx_result_text(const czx_results *results, int index, size_t *length);
/// The GS1 human-readable form, "(01)…(10)…", or an empty string when the content is not GS1.
const char *czx_result_gs1(const czx_results *results, int index, size_t *length);
/// For a linear code, how many scan lines agreed on it; 1 for a matrix code.
int czx_result_line_count(const czx_results *results, int index);
/// 1 when the symbol declared an ECI character set.
int czx_result_has_eci(const czx_results *results, int index);
/// The four corners, x0 y0 x1 y1 x2 y2 x3 y3; all zero for a bad index.
void czx_result_corners(const czx_results *results, int index, int32_t corners[8]);

/// The black-and-white image zxing-cpp 1.4's HybridBinarizer makes of a greyscale image for its
/// QR and Data Matrix readers (0 black, 255 white; `width * height` bytes into `out`), made with
/// loops the compiler vectorizes. Returns 0, or -1 when the image is smaller than 40 pixels on a
/// side (zxing-cpp then thresholds the whole image at once instead).
int czx_binarize(const uint8_t *pixels, int width, int height, uint8_t *out);

/// Writes the GS1 human-readable form of `data` (GS1 element strings, FNC1 as 0x1D) to `out`,
/// NUL-terminated. Returns its length, or -1 when it does not fit or the data is not GS1.
int czx_gs1_hri(const char *data, size_t length, char *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
