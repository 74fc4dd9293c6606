#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H

#include <webp/decode.h>

#endif
