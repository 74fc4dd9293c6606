#define ZX_USE_UTF8 1
#include "czxing.h"

#include <ZXing/ReadBarcode.h>

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
struct czx_reader {
    ZXing::DecodeHints matrix;
    ZXing::DecodeHints linear;
    bool hasMatrix = false;
    bool hasLinear = false;
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
    if ((flags & ~(CZX_TRY_HARDER | CZX_TRY_ROTATE)) != 0) return nullptr;
    try {
        auto reader = new czx_reader();
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
        if (reader->hasMatrix) found = ZXing::ReadBarcodes(view, reader->matrix);
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
