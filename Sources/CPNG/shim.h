#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

#include <png.h>

/* The simplified read API's version constant, as a value Swift can use. */
static inline png_uint_32 cpng_image_version(void) {
    return PNG_IMAGE_VERSION;
}

#endif
