/*
 * lib/registry.c - twins in a linker-section registry (lib/registry.h).
 */
#include "lib/registry.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#include <stdint.h>

static const void *field_of(const void *rows, size_t i, size_t stride, const struct reg_key *k)
{
    return (const char *)rows + i * stride + k->offset;
}

static bool same_key(const void *a, const void *b, const struct reg_key *k)
{
    if (!k->str)
        return memcmp(a, b, k->size) == 0;
    const char *sa, *sb;
    memcpy(&sa, a, sizeof(sa));
    memcpy(&sb, b, sizeof(sb));
    return sa && sb ? strcmp(sa, sb) == 0 : sa == sb;
}

bool reg_first_twin(const void *rows, size_t n, size_t stride, const struct reg_key *key,
                    struct reg_twin *out)
{
    for (size_t j = 1; j < n; j++)
        for (size_t i = 0; i < j; i++)
            if (same_key(field_of(rows, i, stride, key), field_of(rows, j, stride, key), key)) {
                out->first = i;
                out->second = j;
                return true;
            }
    return false;
}

const char *reg_key_text(const void *row, const struct reg_key *key, char *buf, size_t cap)
{
    const void *f = field_of(row, 0, 0, key);
    if (key->str) {
        const char *s;
        memcpy(&s, f, sizeof(s));
        hz_snprintf(buf, cap, "%s", s ? s : "(null)");
        return buf;
    }
    uint64_t u = 0;
    memcpy(&u, f, key->size); /* little-endian: the low bytes */
    unsigned shift = 64 - 8 * (unsigned)key->size;
    hz_snprintf(buf, cap, "%lld", (long long)((int64_t)(u << shift) >> shift));
    return buf;
}
