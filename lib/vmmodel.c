/*
 * lib/vmmodel.c - the VM-start model's arithmetic (lib/vmmodel.h).
 */
#include "lib/vmmodel.h"
#include "lib/fmt.h"
#include "lib/stats.h"

static const char *const bsrc_text[] = {"unknown", "measured plateau", "bw_ceiling= option"};
static const char *const bsrc_key[] = {"unknown", "measured", "option"};

const char *vm_bsrc_text(enum vm_bsrc s) { return (unsigned)s < 3 ? bsrc_text[s] : "?"; }
const char *vm_bsrc_key(enum vm_bsrc s) { return (unsigned)s < 3 ? bsrc_key[s] : "?"; }

enum vm_bsrc vm_ceiling(int plateau_outcome, uint64_t peak_x1000, uint64_t option_x1000,
                        uint64_t *b_x1000)
{
    if ((plateau_outcome == CMP_TIE || plateau_outcome == CMP_SLOWER) && peak_x1000) {
        *b_x1000 = peak_x1000;
        return VM_B_MEASURED;
    }
    *b_x1000 = option_x1000;
    return option_x1000 ? VM_B_OPTION : VM_B_UNKNOWN;
}

static const char *const scale_key[] = {"open", "plateau", "sublinear", "linear"};

const char *vm_scale_key(enum vm_scale s) { return (unsigned)s < 4 ? scale_key[s] : "?"; }

enum vm_scale vm_scaling(const struct cmp *c, unsigned t)
{
    if (!c || t < 2)
        return VM_SCALE_OPEN;
    if (c->outcome == CMP_TIE || c->outcome == CMP_SLOWER)
        return VM_SCALE_PLATEAU;
    if (c->outcome != CMP_FASTER)
        return VM_SCALE_OPEN;
    /* speed-up hi = 10^6 / lo_x1e6 < t / (t - 1)  <=>  (t - 1) x 10^6 < t x lo_x1e6 */
    return (unsigned __int128)(t - 1) * 1000000 < (unsigned __int128)t * c->lo_x1e6
               ? VM_SCALE_SUBLINEAR
               : VM_SCALE_LINEAR;
}

unsigned vm_knee(const struct cmp *steps, unsigned n)
{
    for (unsigned t = 2; t <= n; t++) {
        enum vm_scale s = vm_scaling(&steps[t - 2], t);
        if (s == VM_SCALE_PLATEAU || s == VM_SCALE_SUBLINEAR)
            return t;
    }
    return 0;
}

int64_t vm_amdahl_fit(const uint64_t *gbps_x1000, unsigned n)
{
    int64_t sxy = 0, sxx = 0;
    if (n < 2 || !gbps_x1000[0])
        return -1;
    for (unsigned t = 2; t <= n; t++) {
        if (!gbps_x1000[t - 1])
            continue;
        int64_t x = 1000000 - 1000000 / (int64_t)t; /* 1 - 1/T, x 10^6 */
        /* 1 - 1/S(T) = 1 - rate(1) / rate(T), x 10^6 */
        int64_t y = 1000000 - (int64_t)stats_scale(gbps_x1000[0], 1000000, gbps_x1000[t - 1]);
        y = y < -1000000 ? -1000000 : y; /* a T far slower than T = 1 weighs as S = 1/2 */
        sxy += x * y / 1000;             /* x 10^9 each: 256 points stay far below 2^63 */
        sxx += x * x / 1000;
    }
    if (!sxx)
        return -1;
    int64_t p = sxy * 1000 / (sxx / 1000); /* the slope 1 - s, x 10^6 */
    p = p < 0 ? 0 : p > 1000000 ? 1000000 : p;
    return 1000000 - p;
}

uint64_t vm_amdahl_rate(uint64_t r1_x1000, uint64_t serial_x1e6, unsigned threads)
{
    /* r1 x T / (T s + 1 - s) */
    uint64_t den = (uint64_t)threads * serial_x1e6 + 1000000 - serial_x1e6;
    return stats_scale(r1_x1000, (uint64_t)threads * 1000000, den);
}

void vm_model_eval(struct vm_model *m)
{
    unsigned __int128 r = (unsigned __int128)m->threads * m->r1_x1000;
    bool known = m->src != VM_B_UNKNOWN && m->b_x1000;
    m->capped = known && r > m->b_x1000;
    if (m->capped)
        r = m->b_x1000;
    m->rate_x1000 = r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
    m->lower_bound = !known;
    /* GB/s is bytes per ns: ns = bytes x 1000 / rate, the quotient
     * stats_gbps_x1000() takes with the rate in the time's place. */
    m->ns = m->rate_x1000 ? stats_gbps_x1000(m->bytes, m->rate_x1000) : UINT64_MAX;
}

int vm_size_parse(const char *v, uint64_t *bytes, bool *decimal, char *err, size_t n)
{
    static const struct {
        const char *unit;
        uint64_t mul;
        bool dec;
    } units[] = {{"TB", 1000000000000ull, true},
                 {"GB", 1000000000ull, true},
                 {"TiB", 1ull << 40, false},
                 {"GiB", 1ull << 30, false}};
    uint64_t x = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - 9) / 10)
            return hz_snprintf(err, n, "too large"), -1;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    if (p == v || x == 0)
        return hz_snprintf(err, n, "want a whole number > 0 then TB, GB, TiB or GiB"), -1;
    for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        const char *u = units[i].unit, *q = p;
        while (*u && *q == *u)
            u++, q++;
        if (*u || *q)
            continue;
        if (x > UINT64_MAX / units[i].mul)
            return hz_snprintf(err, n, "too large"), -1;
        *bytes = x * units[i].mul;
        *decimal = units[i].dec;
        return 0;
    }
    return hz_snprintf(err, n, "want a unit: TB, GB (10^12, 10^9) or TiB, GiB"), -1;
}

void vm_size_text(char *buf, size_t cap, uint64_t bytes, bool decimal)
{
    uint64_t t = decimal ? 1000000000000ull : 1ull << 40, g = decimal ? 1000000000ull : 1ull << 30;
    uint64_t unit = bytes >= t ? t : g;
    const char *name = decimal ? (unit == t ? "TB" : "GB") : (unit == t ? "TiB" : "GiB");
    /* x 1000 rounded half up, then trailing zeros dropped */
    uint64_t v = bytes / unit * 1000 + (bytes % unit * 1000 + unit / 2) / unit; /* < 2^50 */
    unsigned digits = 3;
    while (digits && v % 10 == 0 && v >= 10)
        v /= 10, digits--;
    char num[32];
    fmt_fixed(num, sizeof(num), v, digits);
    hz_snprintf(buf, cap, "%s %s", num, name);
}

int vm_gbps_parse(const char *v, uint64_t *x1000, char *err, size_t n)
{
    uint64_t whole = 0, frac = 0;
    unsigned nd = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9' && whole <= 10000000; p++)
        whole = whole * 10 + (uint64_t)(*p - '0');
    bool digits = p != v;
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9' && nd < 3; p++, nd++)
            frac = frac * 10 + (uint64_t)(*p - '0');
        digits |= nd > 0;
    }
    while (nd < 3)
        frac *= 10, nd++;
    uint64_t x = whole * 1000 + frac;
    if (!digits || *p || x == 0 || x > 10000000000ull)
        return hz_snprintf(err, n, "want GB/s, 0.001..10000000 with up to 3 decimals"), -1;
    *x1000 = x;
    return 0;
}
