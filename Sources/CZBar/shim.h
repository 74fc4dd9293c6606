#ifndef CZBAR_SHIM_H
#define CZBAR_SHIM_H

#include <zbar.h>

/* zbar_fourcc is a function-like macro, which Swift cannot import. */
static inline unsigned long czbar_fourcc_y800(void) {
    return zbar_fourcc('Y', '8', '0', '0');
}

#endif
