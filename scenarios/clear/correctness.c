/*
 * scenarios/clear/correctness.c - the correctness pass over odd sizes and alignments
 * (guard bytes either side; contract violations must be rejected untouched).
 */
#include "lib/fmt.h"
#include "scenarios/clear/clear.h"

#define GUARD 256
#define GUARD_BYTE 0xa5

static const uint32_t offsets[] = {0, 1, 8, 16, 32, 48, 64, 4096};
static const uint32_t sizes[] = {1,    7,         63,   64,    65,    128,    192,
                                 4032, 4096 + 64, 4097, 65472, 65664, 1048640};

bool clear_correctness(const struct clear_strategy *s, uint8_t *buf, char *why, size_t cap)
{
    for (unsigned i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
        for (unsigned j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
            uint8_t *dst = buf + GUARD + offsets[i];
            size_t n = sizes[j], bad;
            bool legal = clear_contract_ok(s, dst, n);
            clear_guard_fill(buf, GUARD + offsets[i], GUARD_BYTE);
            clear_dirty(dst, n, n ^ offsets[i]);
            clear_guard_fill(dst + n, GUARD, GUARD_BYTE);
            int rc = clear_checked(s, dst, n);
            if (legal && rc != 0)
                return hz_snprintf(why, cap, "rejected legal size %zu at offset %u", n, offsets[i]),
                       false;
            if (!legal && rc == 0)
                return hz_snprintf(why, cap, "accepted illegal size %zu at offset %u", n,
                                   offsets[i]),
                       false;
            if (legal && !clear_verify_zero(dst, n, &bad))
                return hz_snprintf(why, cap, "size %zu at offset %u: byte %zu not zero", n,
                                   offsets[i], bad),
                       false;
            if (!legal && dst[0] == 0)
                return hz_snprintf(why, cap, "rejected size %zu at offset %u but wrote it", n,
                                   offsets[i]),
                       false;
            if (!clear_guard_check(buf, GUARD + offsets[i], GUARD_BYTE, &bad))
                return hz_snprintf(why, cap,
                                   "size %zu at offset %u: wrote %zu bytes before the range", n,
                                   offsets[i], GUARD + offsets[i] - bad),
                       false;
            if (!clear_guard_check(dst + n, GUARD, GUARD_BYTE, &bad))
                return hz_snprintf(why, cap,
                                   "size %zu at offset %u: wrote byte %zu after the range", n,
                                   offsets[i], bad),
                       false;
        }
    }
    return true;
}
