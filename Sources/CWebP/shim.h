#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H

#include <webp/decode.h>
#include <webp/encode.h> /* the tests write WebP files with it */

#endif
