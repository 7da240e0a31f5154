/*
 * tests/unit/print_capture.h - a lib/print.h sink for host tests that keeps
 * every byte it is given in `out` (NUL-terminated, at most 4095 bytes;
 * more are dropped), `nout` of them.
 */
#ifndef HZ_TESTS_PRINT_CAPTURE_H
#define HZ_TESTS_PRINT_CAPTURE_H

#include <stddef.h>

#include "lib/print.h"

static char out[4096];
static size_t nout;

static inline void keep(char c)
{
    if (nout < sizeof(out) - 1)
        out[nout++] = c;
    out[nout] = 0;
}

static const struct print_sink sink = {.put = keep};

#endif /* HZ_TESTS_PRINT_CAPTURE_H */
