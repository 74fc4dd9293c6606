#ifndef CFUZZDRIVER_SHIM_H
#define CFUZZDRIVER_SHIM_H
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver (in the runtime that -sanitize=fuzzer links). A fuzz executable's main
   calls it, because SwiftPM names the executable's entry point itself, in place of the main
   that libFuzzer would bring. Referenced only in builds with -DFUZZING. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
