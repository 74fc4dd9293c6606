#include "cheif.h"

#include <libheif/heif.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

namespace {

int say(cheif_result *result, int status, const char *text) {
    std::snprintf(result->message, sizeof result->message, "%s", text ? text : "");
    result->status = status;
    return status;
}

int fail(cheif_result *result, const heif_error &error) {
    if (error.subcode == heif_suberror_Security_limit_exceeded) return say(result, CHEIF_DAMAGED, error.message);
    switch (error.code) {
    case heif_error_Unsupported_feature:
        return say(result, CHEIF_UNSUPPORTED, error.message);
    case heif_error_Memory_allocation_error:
        return say(result, CHEIF_NO_MEMORY, error.message);
    default:
        return say(result, CHEIF_DAMAGED, error.message);
    }
}

bool tooLarge(int width, int height, int64_t maxPixels) {
    return static_cast<int64_t>(width) * static_cast<int64_t>(height) > maxPixels;
}

/* libheif's plugins are loaded once, by the first call. */
void initialize() {
    static const bool done = [] {
        heif_init(nullptr);
        return true;
    }();
    (void)done;
}

int decode(const uint8_t *data, size_t length, int64_t maxRGBA, int64_t maxGray, cheif_result *result, heif_context *context) {
    /* No side of an image past this many pixels, whatever it says (libheif's own bound). */
    heif_context_set_maximum_image_size_limit(context, 1 << 15);
    heif_error error = heif_context_read_from_memory_without_copy(context, data, length, nullptr);
    if (error.code != heif_error_Ok) return fail(result, error);
    heif_image_handle *handle = nullptr;
    error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code != heif_error_Ok) return fail(result, error);
    result->width = heif_image_handle_get_width(handle);
    result->height = heif_image_handle_get_height(handle);
    if (result->width <= 0 || result->height <= 0) {
        heif_image_handle_release(handle);
        return say(result, CHEIF_DAMAGED, "its primary image has no size");
    }
    /* Only an image with transparency needs its colours; any other is read as its luma plane.
     * `has_alpha` then says which was read (RGBA also for one whose luma cannot be taken). */
    result->has_alpha = heif_image_handle_has_alpha_channel(handle) ? 1 : 0;
    const int64_t maxPixels = result->has_alpha ? maxRGBA : maxGray;
    if (tooLarge(result->width, result->height, maxPixels)) {
        heif_image_handle_release(handle);
        return say(result, CHEIF_TOO_LARGE, "");
    }
    heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == nullptr) {
        heif_image_handle_release(handle);
        return say(result, CHEIF_NO_MEMORY, "no memory for the decoding options");
    }
    options->convert_hdr_to_8bit = 1;
    heif_image *image = nullptr;
    if (!result->has_alpha) {
        /* As YCbCr 4:2:0, which a phone's photo is stored as (so nothing is converted): its luma
         * plane is the grey wanted. One whose luma is not 8 bits is converted as RGBA. */
        error = heif_decode_image(handle, &image, heif_colorspace_YCbCr, heif_chroma_420, options);
        if (error.code != heif_error_Ok) {
            heif_decoding_options_free(options);
            heif_image_handle_release(handle);
            return fail(result, error);
        }
        /* libheif 1.15 asserts (aborts) on the bits of a channel an image lacks: asked only of one it has. */
        const bool luma = heif_image_get_colorspace(image) == heif_colorspace_YCbCr && heif_image_has_channel(image, heif_channel_Y)
                          && heif_image_get_bits_per_pixel(image, heif_channel_Y) == 8;
        if (!luma) {
            heif_image_release(image);
            image = nullptr;
            result->has_alpha = 1; /* read as RGBA, within that limit */
            if (tooLarge(result->width, result->height, maxRGBA)) {
                heif_decoding_options_free(options);
                heif_image_handle_release(handle);
                return say(result, CHEIF_TOO_LARGE, "");
            }
        }
    }
    if (result->has_alpha) error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    heif_decoding_options_free(options);
    heif_image_handle_release(handle);
    if (error.code != heif_error_Ok) return fail(result, error);
    result->image = image;
    const heif_channel channel = result->has_alpha ? heif_channel_interleaved : heif_channel_Y;
    result->width = heif_image_get_width(image, channel);
    result->height = heif_image_get_height(image, channel);
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, channel, &stride);
    result->stride = stride;
    const int bytes = result->has_alpha ? 4 : 1;
    if (plane == nullptr || result->width <= 0 || result->height <= 0 || stride < result->width * bytes) {
        return say(result, CHEIF_DAMAGED, "its decoded pixels are missing");
    }
    if (heif_image_get_bits_per_pixel(image, channel) != 8 * bytes) {
        return say(result, CHEIF_UNSUPPORTED, "its pixels were not brought to 8 bits");
    }
    if (result->has_alpha) result->rgba = plane; else result->gray = plane;
    if (tooLarge(result->width, result->height, result->has_alpha ? maxRGBA : maxGray)) return say(result, CHEIF_TOO_LARGE, "");
    return say(result, CHEIF_OK, "");
}

}  // namespace

extern "C" int cheif_decode(const uint8_t *data, size_t length, int64_t max_pixels_rgba, int64_t max_pixels_gray, cheif_result *result) {
    std::memset(result, 0, sizeof *result);
    if (length > static_cast<size_t>(INT64_MAX)) return say(result, CHEIF_DAMAGED, "too long");
    heif_context *context = nullptr;
    int status;
    try {
        initialize();
        context = heif_context_alloc();
        status = context == nullptr ? say(result, CHEIF_NO_MEMORY, "no memory for a context")
                                    : decode(data, length, max_pixels_rgba, max_pixels_gray, result, context);
    } catch (const std::bad_alloc &) {
        status = say(result, CHEIF_NO_MEMORY, "out of memory");
    } catch (const std::exception &exception) {
        status = say(result, CHEIF_DAMAGED, exception.what());
    } catch (...) {
        status = say(result, CHEIF_DAMAGED, "libheif failed");
    }
    if (context != nullptr) heif_context_free(context);
    return status;
}

extern "C" void cheif_release(cheif_result *result) {
    if (result->image != nullptr) heif_image_release(static_cast<heif_image *>(result->image));
    result->image = nullptr;
    result->rgba = nullptr;
    result->gray = nullptr;
}
