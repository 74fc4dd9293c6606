#define ZX_USE_UTF8 1
#include "czxing.h"

#include <ZXing/ReadBarcode.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <tuple>
#include <vector>

namespace ZXing {
// Exported by libZXing 1.4 but declared in a header Debian does not ship.
std::string HRIFromGS1(const std::string &gs1);
}

// Two sets of hints: libZXing 1.4's ReadBarcodes removes repeats by comparing each new result
// with those it has, and for a linear code read on several lines that comparison is an
// assert(lineCount() == 1) that aborts the process (an image holding the same linear code
// twice, found by fuzzing). So matrix codes (QR, Data Matrix: compared by position, safely) are
// read up to 16 at a time, and linear codes one at a time, which never compares; the caller's
// other engine and passes find further linear codes.
//
// QR and Data Matrix read a black-and-white image: zxing-cpp's HybridBinarizer makes it with
// scalar loops that cost as much as the rest of a first pass over a 720p frame with no code.
// Unless CZX_OWN_BINARIZER is set, the shim makes the same image (czx_binarize) into `binary`
// and hands it to zxing-cpp with Binarizer::BoolCast (black where a pixel is 0), so the readers
// see the same bits as before. Linear codes keep zxing-cpp's per-row thresholds.
struct czx_reader {
    ZXing::DecodeHints matrix;
    ZXing::DecodeHints linear;
    bool hasMatrix = false;
    bool hasLinear = false;
    bool ownBinarizer = false;
    mutable std::vector<uint8_t> binary;
};

namespace {
struct Entry {
    uint32_t format = 0;
    std::vector<uint8_t> bytes;
    std::string text;
    std::string gs1;
    bool hasECI = false;
    int lineCount = 1;
    int32_t corners[8] = {0, 0, 0, 0, 0, 0, 0, 0};
};

constexpr uint32_t knownFormats = CZX_CODABAR | CZX_CODE39 | CZX_CODE93 | CZX_CODE128 | CZX_DATABAR
    | CZX_DATABAR_EXPANDED | CZX_DATAMATRIX | CZX_EAN8 | CZX_EAN13 | CZX_ITF | CZX_QRCODE | CZX_UPCA | CZX_UPCE;

void say(char *message, size_t capacity, const char *text) {
    if (message == nullptr || capacity == 0) return;
    std::strncpy(message, text, capacity - 1);
    message[capacity - 1] = '\0';
}

// HybridBinarizer's parameters in zxing-cpp 1.4: 8×8 blocks; a block whose grey levels span at
// most 24 is flat; a pixel's threshold is the mean of the black points of the 5×5 blocks around
// its block (moved inwards at the image's edges); images under 40 pixels a side are not done.
constexpr int block = 8;
constexpr int flatRange = 24;
constexpr int minBinarizedSide = 5 * block;

// One black point per block, row by row: the block's mean; for a flat block half its darkest
// level, or, when that is darker than its neighbours' black points above and to the left
// (weighted 1, 2, 1), their mean. The last block of a row or column ends at the image's edge,
// overlapping the one before it.
void blackPoints(const uint8_t *pixels, int width, int height, int columns, int rows, std::vector<int> &points) {
    std::vector<uint16_t> sums(static_cast<size_t>(width));
    std::vector<uint8_t> lows(static_cast<size_t>(width)), highs(static_cast<size_t>(width));
    for (int row = 0; row < rows; row++) {
        const uint8_t *first = pixels + static_cast<size_t>(std::min(row * block, height - block)) * width;
        // Each pixel column's sum, darkest and lightest over the block's eight lines.
        for (int x = 0; x < width; x++) {
            sums[x] = first[x];
            lows[x] = first[x];
            highs[x] = first[x];
        }
        for (int line = 1; line < block; line++) {
            const uint8_t *pixel = first + static_cast<size_t>(line) * width;
            for (int x = 0; x < width; x++) {
                sums[x] = static_cast<uint16_t>(sums[x] + pixel[x]);
                lows[x] = std::min(lows[x], pixel[x]);
                highs[x] = std::max(highs[x], pixel[x]);
            }
        }
        for (int column = 0; column < columns; column++) {
            const int left = std::min(column * block, width - block);
            int sum = 0, low = 255, high = 0;
            for (int x = left; x < left + block; x++) {
                sum += sums[x];
                low = std::min(low, static_cast<int>(lows[x]));
                high = std::max(high, static_cast<int>(highs[x]));
            }
            int point = sum / (block * block);
            if (high - low <= flatRange) {
                point = low / 2;
                if (row > 0 && column > 0) {
                    const int *above = &points[static_cast<size_t>(row - 1) * columns];
                    const int *here = &points[static_cast<size_t>(row) * columns];
                    const int neighbours = (above[column] + 2 * here[column - 1] + above[column - 1]) / 4;
                    if (low < neighbours) point = neighbours;
                }
            }
            points[static_cast<size_t>(row) * columns + column] = point;
        }
    }
}

Entry entry(const ZXing::Result &result) {
    Entry out;
    out.format = static_cast<uint32_t>(result.format());
    out.bytes.assign(result.bytes().begin(), result.bytes().end());
    out.text = result.text();
    out.hasECI = result.hasECI();
    out.lineCount = result.lineCount() > 0 ? result.lineCount() : 1;
    if (result.contentType() == ZXing::ContentType::GS1) out.gs1 = ZXing::HRIFromGS1(out.text);
    const auto &position = result.position();
    for (int corner = 0; corner < 4; corner++) {
        out.corners[2 * corner] = position[corner].x;
        out.corners[2 * corner + 1] = position[corner].y;
    }
    return out;
}
}  // namespace

struct czx_results {
    std::vector<Entry> entries;
};

extern "C" {

czx_reader *czx_reader_create(uint32_t formats, int flags) {
    if ((formats & knownFormats) == 0 || (formats & ~knownFormats) != 0) return nullptr;
    if ((flags & ~(CZX_TRY_HARDER | CZX_TRY_ROTATE | CZX_OWN_BINARIZER)) != 0) return nullptr;
    try {
        auto reader = new czx_reader();
        reader->ownBinarizer = (flags & CZX_OWN_BINARIZER) != 0;
        const uint32_t matrixFormats = formats & (CZX_DATAMATRIX | CZX_QRCODE);
        const uint32_t linearFormats = formats & ~matrixFormats;
        reader->hasMatrix = matrixFormats != 0;
        reader->hasLinear = linearFormats != 0;
        for (auto [hints, chosen, most] : {std::tuple{&reader->matrix, matrixFormats, 16}, std::tuple{&reader->linear, linearFormats, 1}}) {
            hints->setFormats(static_cast<ZXing::BarcodeFormat>(chosen));
            hints->setTryHarder((flags & CZX_TRY_HARDER) != 0);
            // Its downscale pyramid can trip an assertion in Debian's build: the caller scales.
            hints->setTryDownscale(false);
            hints->setTryRotate((flags & CZX_TRY_ROTATE) != 0);
            hints->setReturnCodabarStartEnd(true);
            hints->setReturnErrors(false);
            hints->setMaxNumberOfSymbols(most);
        }
        if (!reader->ownBinarizer) reader->matrix.setBinarizer(ZXing::Binarizer::BoolCast);
        return reader;
    } catch (...) {
        return nullptr;
    }
}

void czx_reader_destroy(czx_reader *reader) { delete reader; }

int czx_read(const czx_reader *reader, const uint8_t *pixels, size_t byte_count, int width, int height,
             czx_results **results, char *message, size_t message_capacity) {
    if (results == nullptr) return CZX_BAD_ARGUMENT;
    *results = nullptr;
    if (reader == nullptr || pixels == nullptr) {
        say(message, message_capacity, "no reader or no pixels");
        return CZX_BAD_ARGUMENT;
    }
    // zxing-cpp needs a few pixels on each side before its detectors are safe to run.
    if (width < 8 || height < 8 || width > CZX_MAX_SIDE || height > CZX_MAX_SIDE
        || byte_count != static_cast<size_t>(width) * static_cast<size_t>(height)) {
        say(message, message_capacity, "image size out of range or not matching its bytes");
        return CZX_BAD_ARGUMENT;
    }
    try {
        ZXing::ImageView view(pixels, width, height, ZXing::ImageFormat::Lum);
        ZXing::Results found;
        if (reader->hasMatrix) {
            if (reader->ownBinarizer || width < minBinarizedSide || height < minBinarizedSide) {
                auto hints = reader->matrix;
                hints.setBinarizer(ZXing::Binarizer::LocalAverage);
                found = ZXing::ReadBarcodes(view, hints);
            } else {
                reader->binary.resize(byte_count);
                czx_binarize(pixels, width, height, reader->binary.data());
                found = ZXing::ReadBarcodes(ZXing::ImageView(reader->binary.data(), width, height, ZXing::ImageFormat::Lum),
                                            reader->matrix);
            }
        }
        if (reader->hasLinear) {
            auto linear = ZXing::ReadBarcodes(view, reader->linear);
            found.insert(found.end(), linear.begin(), linear.end());
        }
        auto list = new czx_results();
        list->entries.reserve(found.size());
        for (const auto &result : found) {
            if (result.isValid()) list->entries.push_back(entry(result));
        }
        *results = list;
        return CZX_OK;
    } catch (const std::bad_alloc &) {
        say(message, message_capacity, "out of memory");
        return CZX_OUT_OF_MEMORY;
    } catch (const std::exception &error) {
        say(message, message_capacity, error.what());
        return CZX_FAILED;
    } catch (...) {
        say(message, message_capacity, "unknown C++ exception");
        return CZX_FAILED;
    }
}

int czx_results_count(const czx_results *results) {
    return results == nullptr ? 0 : static_cast<int>(results->entries.size());
}

void czx_results_destroy(czx_results *results) { delete results; }

static const Entry *at(const czx_results *results, int index) {
    if (results == nullptr || index < 0 || static_cast<size_t>(index) >= results->entries.size()) return nullptr;
    return &results->entries[static_cast<size_t>(index)];
}

uint32_t czx_result_format(const czx_results *results, int index) {
    const Entry *e = at(results, index);
    return e == nullptr ? 0 : e->format;
}

const uint8_t *czx_result_bytes(const czx_results *results, int index, size_t *length) {
    const Entry *e = at(results, index);
    if (length != nullptr) *length = e == nullptr ? 0 : e->bytes.size();
    return e == nullptr ? nullptr : e->bytes.data();
}

const char *czx_result_text(const czx_results *results, int index, size_t *length) {
    const Entry *e = at(results, index);
    if (length != nullptr) *length = e == nullptr ? 0 : e->text.size();
    return e == nullptr ? "" : e->text.c_str();
}

const char *czx_result_gs1(const czx_results *results, int index, size_t *length) {
    const Entry *e = at(results, index);
    if (length != nullptr) *length = e == nullptr ? 0 : e->gs1.size();
    return e == nullptr ? "" : e->gs1.c_str();
}

int czx_result_line_count(const czx_results *results, int index) {
    const Entry *e = at(results, index);
    return e == nullptr ? 0 : e->lineCount;
}

int czx_result_has_eci(const czx_results *results, int index) {
    const Entry *e = at(results, index);
    return e != nullptr && e->hasECI ? 1 : 0;
}

void czx_result_corners(const czx_results *results, int index, int32_t corners[8]) {
    if (corners == nullptr) return;
    const Entry *e = at(results, index);
    for (int i = 0; i < 8; i++) corners[i] = e == nullptr ? 0 : e->corners[i];
}

int czx_binarize(const uint8_t *pixels, int width, int height, uint8_t *out) {
    if (pixels == nullptr || out == nullptr || width < minBinarizedSide || height < minBinarizedSide) return -1;
    const int columns = (width + block - 1) / block, rows = (height + block - 1) / block;
    std::vector<int> points(static_cast<size_t>(columns) * rows);
    blackPoints(pixels, width, height, columns, rows, points);
    // Each row of blocks: the 5×5 means (a column of five black points summed once per block
    // column, then five of those), each pixel column's threshold, then its eight lines. Later
    // blocks overwrite the overlap at the right and bottom edges, as zxing-cpp's loop does.
    std::vector<int> fives(static_cast<size_t>(columns));
    std::vector<uint8_t> thresholds(static_cast<size_t>(width));
    for (int row = 0; row < rows; row++) {
        const int middle = std::clamp(row, 2, rows - 3);
        for (int column = 0; column < columns; column++) {
            int sum = 0;
            for (int dy = -2; dy <= 2; dy++) sum += points[static_cast<size_t>(middle + dy) * columns + column];
            fives[column] = sum;
        }
        for (int column = 0; column < columns; column++) {
            const int centre = std::clamp(column, 2, columns - 3);
            const int sum = fives[centre - 2] + fives[centre - 1] + fives[centre] + fives[centre + 1] + fives[centre + 2];
            const uint8_t threshold = static_cast<uint8_t>(sum / 25);
            const int left = std::min(column * block, width - block);
            for (int x = left; x < left + block; x++) thresholds[x] = threshold;
        }
        const int top = std::min(row * block, height - block);
        for (int line = top; line < top + block; line++) {
            const uint8_t *pixel = pixels + static_cast<size_t>(line) * width;
            uint8_t *bit = out + static_cast<size_t>(line) * width;
            for (int x = 0; x < width; x++) bit[x] = pixel[x] <= thresholds[x] ? 0 : 255;
        }
    }
    return 0;
}

int czx_gs1_hri(const char *data, size_t length, char *out, size_t capacity) {
    if (data == nullptr || out == nullptr || capacity == 0 || length > 4096) return -1;
    try {
        std::string hri = ZXing::HRIFromGS1(std::string(data, length));
        if (hri.empty() || hri.size() + 1 > capacity) return -1;
        std::memcpy(out, hri.c_str(), hri.size() + 1);
        return static_cast<int>(hri.size());
    } catch (...) {
        return -1;
    }
}

}  // extern "C"
