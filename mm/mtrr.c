/*
 * mm/mtrr.c - MTRR and PAT decoding (see mm/mtrr.h; SDM Vol. 3A §11.11,
 * §11.12, Table 11-7). A range query walks the range from boundary to
 * boundary: fixed sub-range ends below 1 MiB and the starts and ends of the
 * variable ranges, so it takes at most 88 + 2 * MTRR_VAR_MAX + 1 steps
 * however large the range is.
 */
#include "mm/mtrr.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

#ifndef HZ_HOSTED
#include "arch/cpu.h"
#include "arch/x86.h"
#endif

#define MIB 0x100000ULL
#define PAGE 0x1000ULL

const uint32_t mtrr_fixed_msr[MTRR_FIXED_MSRS] = {
    MSR_IA32_MTRR_FIX64K_00000,    MSR_IA32_MTRR_FIX16K_80000,    MSR_IA32_MTRR_FIX16K_A0000,
    MSR_IA32_MTRR_FIX4K_C0000,     MSR_IA32_MTRR_FIX4K_C0000 + 1, MSR_IA32_MTRR_FIX4K_C0000 + 2,
    MSR_IA32_MTRR_FIX4K_C0000 + 3, MSR_IA32_MTRR_FIX4K_C0000 + 4, MSR_IA32_MTRR_FIX4K_C0000 + 5,
    MSR_IA32_MTRR_FIX4K_C0000 + 6, MSR_IA32_MTRR_FIX4K_C0000 + 7,
};

/* MTRR type encodings (Table 11-8): 0, 1, 4, 5, 6. */
static bool mtrr_type_ok(uint64_t t) { return t == 0 || t == 1 || (t >= 4 && t <= 6); }

/* Fixed sub-range j (0..87): [*base, *end) (SDM Vol. 3A Table 11-9). */
static void fixed_range(unsigned j, uint64_t *base, uint64_t *end)
{
    if (j < 8) {
        *base = (uint64_t)j << 16;
        *end = *base + 0x10000;
    } else if (j < 24) {
        *base = 0x80000 + ((uint64_t)(j - 8) << 14);
        *end = *base + 0x4000;
    } else {
        *base = 0xc0000 + ((uint64_t)(j - 24) << 12);
        *end = *base + PAGE;
    }
}

static unsigned fixed_index(uint64_t a)
{
    if (a < 0x80000)
        return (unsigned)(a >> 16);
    if (a < 0xc0000)
        return 8 + (unsigned)((a - 0x80000) >> 14);
    return 24 + (unsigned)((a - 0xc0000) >> 12);
}

static int fail(struct mtrr_state *s, int code, char *err, size_t cap, const char *fmt,
                unsigned long long a, unsigned long long b)
{
    if (err && cap)
        hz_snprintf(err, cap, fmt, a, b);
    s->valid = false;
    s->error = code;
    return code;
}

int mtrr_decode(struct mtrr_state *s, const struct mtrr_msrs *raw, char *err, size_t cap)
{
    if (!s || !raw)
        return MTRR_EINVAL;
    memset(s, 0, sizeof *s);
    if (err && cap)
        err[0] = '\0';
    s->has_mtrr = raw->has_mtrr;
    s->has_pat = raw->has_pat;
    s->pat = raw->has_pat ? raw->pat : 0;
    s->maxphyaddr = raw->maxphyaddr;
    if (raw->maxphyaddr < 32 || raw->maxphyaddr > 52)
        return fail(s, MTRR_EPHYS, err, cap, "MAXPHYADDR %llu outside 32..52", raw->maxphyaddr, 0);
    s->valid = true;
    if (!raw->has_mtrr)
        return MTRR_OK;
    s->enabled = raw->def_type & MTRR_DEF_TYPE_E;
    s->def_type = raw->def_type & MTRR_DEF_TYPE_TYPE;
    s->vcnt = raw->cap & MTRRCAP_VCNT;
    if (!s->enabled)
        return MTRR_OK; /* UC everywhere; nothing else matters */
    if (!mtrr_type_ok(s->def_type))
        return fail(s, MTRR_ETYPE, err, cap, "DEF_TYPE type %llu is reserved", s->def_type, 0);
    if (s->vcnt > MTRR_VAR_MAX)
        return fail(s, MTRR_EVCNT, err, cap, "VCNT %llu above the %llu decoded", s->vcnt,
                    MTRR_VAR_MAX);
    s->fixed_enabled = (raw->cap & MTRRCAP_FIX) && (raw->def_type & MTRR_DEF_TYPE_FE);
    for (unsigned j = 0; s->fixed_enabled && j < MTRR_FIXED_RANGES; j++) {
        s->fixed[j] = (uint8_t)(raw->fixed[j / 8] >> (8 * (j % 8)));
        if (!mtrr_type_ok(s->fixed[j]))
            return fail(s, MTRR_ETYPE, err, cap, "fixed MSR 0x%llx holds reserved type %llu",
                        mtrr_fixed_msr[j / 8], s->fixed[j]);
    }
    const uint64_t field = ((1ULL << s->maxphyaddr) - 1) & ~(PAGE - 1); /* MAXPHYADDR-1:12 */
    s->nvar = s->vcnt;
    for (unsigned n = 0; n < s->nvar; n++) {
        if (!(raw->physmask[n] & MTRR_PHYSMASK_V))
            continue;
        const uint64_t mask = raw->physmask[n] & field, size = (field & ~mask) + PAGE;
        if (size & (size - 1))
            return fail(s, MTRR_EMASK, err, cap, "PHYSMASK%llu 0x%llx is not contiguous", n,
                        raw->physmask[n]);
        s->var[n].type = (uint8_t)raw->physbase[n];
        if (!mtrr_type_ok(raw->physbase[n] & 0xff))
            return fail(s, MTRR_ETYPE, err, cap, "PHYSBASE%llu holds reserved type %llu", n,
                        raw->physbase[n] & 0xff);
        s->var[n].on = true;
        s->var[n].base = raw->physbase[n] & mask;
        s->var[n].end = s->var[n].base + size;
    }
    return MTRR_OK;
}

/* Type at physical address a (SDM Vol. 3A §11.11.4.1); *next gets the next
 * address where it may change. When the type is MC_UNDEFINED and ov[0] is
 * still -1, ov[] gets the first two variable ranges that conflict. */
static int type_at(const struct mtrr_state *s, uint64_t a, uint64_t *next, int ov[2])
{
    uint64_t b;
    *next = 1ULL << s->maxphyaddr;
    if (!s->has_mtrr)
        return MC_NONE;
    if (!s->enabled)
        return MC_UC;
    if (s->fixed_enabled && a < MIB) {
        unsigned j = fixed_index(a);
        fixed_range(j, &b, next);
        return s->fixed[j];
    }
    int first = -1, t = -1, pair[2] = {-1, -1};
    bool uc = false, wtwb = true, same = true;
    for (unsigned n = 0; n < s->nvar; n++) {
        if (!s->var[n].on)
            continue;
        if (a < s->var[n].base) {
            *next = s->var[n].base < *next ? s->var[n].base : *next;
            continue;
        }
        if (a >= s->var[n].end)
            continue;
        *next = s->var[n].end < *next ? s->var[n].end : *next;
        const int u = s->var[n].type;
        if (first < 0) {
            first = (int)n;
            t = u;
        }
        uc |= u == MC_UC;
        same &= u == t;
        wtwb &= u == MC_WT || u == MC_WB;
        if (!same && !wtwb && pair[0] < 0) {
            pair[0] = first;
            pair[1] = (int)n;
        }
    }
    if (first < 0)
        return s->def_type;
    if (uc)
        return MC_UC;
    if (same)
        return t;
    if (wtwb)
        return MC_WT;
    if (ov[0] < 0) {
        ov[0] = pair[0];
        ov[1] = pair[1];
    }
    return MC_UNDEFINED;
}

int mtrr_range_type(const struct mtrr_state *s, uint64_t base, uint64_t end, struct mtrr_range *r)
{
    if (!s || !r)
        return MTRR_EINVAL;
    if (!s->valid)
        return MTRR_ESTATE;
    if (end <= base || end > (1ULL << s->maxphyaddr))
        return MTRR_EINVAL;
    uint64_t next;
    *r = (struct mtrr_range){.split_type = -1, .overlap = {-1, -1}};
    r->first_type = r->type = type_at(s, base, &next, r->overlap);
    while (next < end) {
        const uint64_t a = next;
        const int t = type_at(s, a, &next, r->overlap);
        if (t != r->first_type) {
            r->type = MC_MIXED;
            r->split = a;
            r->split_type = t;
            break;
        }
    }
    return MTRR_OK;
}

int pat_entry_type(uint64_t pat, unsigned idx)
{
    if (idx > 7)
        return MC_RESERVED;
    const uint64_t v = (pat >> (8 * idx)) & 0xff;
    return mtrr_type_ok(v) || v == MC_UC_MINUS ? (int)v : MC_RESERVED;
}

int mem_cache_effective(int mtrr_type, int pat_type)
{
    /* SDM Vol. 3A Table 11-7; columns PAT UC, UC-, WC, WT, WB, WP. */
    static const uint8_t table[5][6] = {
        [0] = {MC_UC, MC_UC, MC_WC, MC_UC, MC_UC, MC_UC}, /* MTRR UC */
        [1] = {MC_UC, MC_WC, MC_WC, MC_UC, MC_WC, MC_UC}, /* MTRR WC */
        [2] = {MC_UC, MC_UC, MC_WC, MC_WT, MC_WT, MC_WP}, /* MTRR WT */
        [3] = {MC_UC, MC_UC, MC_WC, MC_WT, MC_WB, MC_WP}, /* MTRR WB */
        [4] = {MC_UC, MC_WC, MC_WC, MC_WT, MC_WP, MC_WP}, /* MTRR WP */
    };
    static const signed char row[8] = {0, 1, -1, -1, 2, 4, 3, -1}; /* by MTRR encoding */
    static const signed char col[8] = {0, 2, -1, -1, 3, 5, 4, 1};  /* by PAT encoding */
    if (mtrr_type == MC_MIXED || mtrr_type == MC_UNDEFINED)
        return mtrr_type;
    if (pat_type < 0 || pat_type > 7 || col[pat_type] < 0)
        return MC_RESERVED;
    if (mtrr_type == MC_NONE)
        return pat_type == MC_UC_MINUS ? MC_UC : pat_type;
    if (mtrr_type < 0 || mtrr_type > 7 || row[mtrr_type] < 0)
        return MC_RESERVED;
    return table[row[mtrr_type]][col[pat_type]];
}

int mtrr_pat0_type(const struct mtrr_state *s, uint64_t base, uint64_t end)
{
    struct mtrr_range r;
    int err = mtrr_range_type(s, base, end, &r);
    if (err != MTRR_OK)
        return err;
    return mem_cache_effective(r.type, s->has_pat ? pat_entry_type(s->pat, 0) : MC_WB);
}

const char *mem_cache_name(int type)
{
    static const char *const names[] = {
        [MC_UC] = "UC",       [MC_WC] = "WC",
        [MC_WT] = "WT",       [MC_WP] = "WP",
        [MC_WB] = "WB",       [MC_UC_MINUS] = "UC-",
        [MC_MIXED] = "mixed", [MC_UNDEFINED] = "undefined",
        [MC_NONE] = "none",   [MC_RESERVED] = "reserved",
    };
    if (type < 0 || type >= (int)(sizeof names / sizeof names[0]) || !names[type])
        return "reserved";
    return names[type];
}

/* Number of runs of fixed sub-ranges of one type; with want < runs, the
 * first and last sub-range of run `want`. */
static unsigned fixed_runs(const struct mtrr_state *s, unsigned want, unsigned *first,
                           unsigned *last)
{
    unsigned runs = 0;
    for (unsigned j = 0; j < MTRR_FIXED_RANGES; j++) {
        if (j > 0 && s->fixed[j] == s->fixed[j - 1])
            continue;
        if (runs++ == want) {
            *first = *last = j;
            while (*last + 1 < MTRR_FIXED_RANGES && s->fixed[*last + 1] == s->fixed[j])
                (*last)++;
        }
    }
    return runs;
}

bool mtrr_layout_line(const struct mtrr_state *s, size_t *iter, char *buf, size_t cap)
{
    if (!s || !iter || !buf || cap == 0)
        return false;
    size_t k = (*iter)++;
    unsigned first = 0, last = 0;
    if (k-- == 0) {
        if (!s->valid)
            hz_snprintf(buf, cap, "MTRR: decode failed (error %d)", s->error);
        else if (!s->has_mtrr)
            hz_snprintf(buf, cap, "MTRR: none (CPUID.01H:EDX.MTRR = 0)");
        else if (!s->enabled)
            hz_snprintf(buf, cap, "MTRR: disabled (DEF_TYPE.E = 0): UC everywhere");
        else
            hz_snprintf(buf, cap,
                        "MTRR: enabled, default %s, fixed ranges %s, VCNT %u, "
                        "MAXPHYADDR %u",
                        mem_cache_name(s->def_type), s->fixed_enabled ? "on" : "off", s->vcnt,
                        s->maxphyaddr);
        return true;
    }
    const unsigned runs = s->fixed_enabled ? fixed_runs(s, (unsigned)k, &first, &last) : 0;
    if (k < runs) {
        uint64_t b, e, x;
        fixed_range(first, &b, &x);
        fixed_range(last, &x, &e);
        hz_snprintf(buf, cap, "  fixed 0x%llx-0x%llx %s", (unsigned long long)b,
                    (unsigned long long)e, mem_cache_name(s->fixed[first]));
        return true;
    }
    k -= runs;
    for (unsigned n = 0; n < s->nvar; n++) {
        if (s->var[n].on && k-- == 0) {
            hz_snprintf(buf, cap, "  var%u 0x%llx-0x%llx %s", n, (unsigned long long)s->var[n].base,
                        (unsigned long long)s->var[n].end, mem_cache_name(s->var[n].type));
            return true;
        }
    }
    if (k == 0) {
        if (!s->has_pat) {
            hz_snprintf(buf, cap, "PAT: none (CPUID.01H:EDX.PAT = 0): PAT index 0 is WB");
            return true;
        }
        int n = hz_snprintf(buf, cap, "PAT:");
        for (unsigned i = 0; i < 8 && n >= 0 && (size_t)n < cap; i++)
            n += hz_snprintf(buf + n, cap - (size_t)n, " %s",
                             mem_cache_name(pat_entry_type(s->pat, i)));
        return true;
    }
    return false;
}

#ifndef HZ_HOSTED
void mtrr_read(struct mtrr_msrs *raw)
{
    memset(raw, 0, sizeof *raw);
    const uint32_t eax = cpu_leaf_reg(0x80000008u, 0, CPUID_EAX);
    raw->maxphyaddr = (eax & 0xff) ? (uint8_t)(eax & 0xff) : 36; /* SDM §11.11.2.3 */
    raw->has_mtrr = cpu_has(X86_FEATURE_MTRR);
    raw->has_pat = cpu_has(X86_FEATURE_PAT);
    if (raw->has_pat)
        raw->pat = rdmsr(MSR_IA32_PAT);
    if (!raw->has_mtrr)
        return;
    raw->cap = rdmsr(MSR_IA32_MTRRCAP);
    raw->def_type = rdmsr(MSR_IA32_MTRR_DEF_TYPE);
    for (unsigned i = 0; (raw->cap & MTRRCAP_FIX) && i < MTRR_FIXED_MSRS; i++)
        raw->fixed[i] = rdmsr(mtrr_fixed_msr[i]);
    for (unsigned n = 0; n < (raw->cap & MTRRCAP_VCNT) && n < MTRR_VAR_MAX; n++) {
        raw->physbase[n] = rdmsr(MSR_IA32_MTRR_PHYSBASE(n));
        raw->physmask[n] = rdmsr(MSR_IA32_MTRR_PHYSMASK(n));
    }
}
#endif
