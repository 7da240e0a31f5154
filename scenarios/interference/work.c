/*
 * scenarios/interference/work.c - victims and the paced background zeroer of
 * the `interference` scenario (scenarios/interference/interference.h). Runs at the
 * measurement CPL: memory, the TSC and PAUSE only.
 */
#include "arch/tsc.h"
#include "arch/x86.h"
#include "lib/interleave.h"
#include "measure/memop.h"
#include "scenarios/interference/interference.h"

/* Address of target-space offset `off` (inside the extents). */
static uint64_t *at(const struct split_extent *ext, size_t next, uint64_t off)
{
    for (size_t i = 0; i < next; off -= ext[i].bytes, i++)
        if (off < ext[i].bytes)
            return (uint64_t *)(uintptr_t)(ext[i].base + off);
    return 0;
}

static uint64_t total_bytes(const struct split_extent *ext, size_t next)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < next; i++)
        sum += ext[i].bytes;
    return sum;
}

uint64_t interf_chase_build(const struct split_extent *ext, size_t next, uint64_t bytes,
                            uint64_t seed)
{
    uint64_t n = bytes / INTERF_LINE, rng = seed;
    if (!ext || !next || bytes % INTERF_LINE || n < 2 || bytes > total_bytes(ext, next))
        return 0;
    /* Line i's first word holds a[i], the index of the line after i; start
     * from the identity and apply Sattolo's swaps (j < i strictly, which
     * leaves exactly one cycle through all n lines). */
    for (uint64_t i = 0; i < n; i++)
        *at(ext, next, i * INTERF_LINE) = i;
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = (uint64_t)(((unsigned __int128)ilv_splitmix64(&rng) * i) >> 64);
        uint64_t *pi = at(ext, next, i * INTERF_LINE), *pj = at(ext, next, j * INTERF_LINE);
        uint64_t t = *pi;
        *pi = *pj;
        *pj = t;
    }
    for (uint64_t i = 0; i < n; i++) { /* indices to addresses */
        uint64_t *p = at(ext, next, i * INTERF_LINE);
        *p = (uint64_t)(uintptr_t)at(ext, next, *p * INTERF_LINE);
    }
    return (uint64_t)(uintptr_t)at(ext, next, 0);
}

uint64_t interf_chase(uint64_t start, uint64_t loads)
{
    const volatile uint64_t *p = (const volatile uint64_t *)(uintptr_t)start;
    for (uint64_t k = 0; k < loads; k++)
        p = (const volatile uint64_t *)(uintptr_t)*p;
    return (uint64_t)(uintptr_t)p;
}

uint64_t interf_read(const struct split_extent *ext, size_t next, uint64_t bytes, unsigned passes)
{
    uint64_t sum = 0, base, len;
    for (unsigned k = 0; k < passes; k++) {
        struct split_iter it;
        split_iter_init(&it, ext, next, 0, bytes);
        while (split_iter_next(&it, &base, &len)) {
            const volatile uint64_t *w = (const volatile uint64_t *)(uintptr_t)base;
            for (uint64_t i = 0; i < len / 8; i++)
                sum += w[i];
        }
    }
    return sum;
}

void interf_zeroer_dirty(struct interf_zeroer *z)
{
    struct split_iter it;
    uint64_t base, len;
    uint64_t n = z->dirty_bytes && z->dirty_bytes < z->bytes ? z->dirty_bytes : z->bytes;
    split_iter_init(&it, z->ext, z->next, z->off, n);
    while (split_iter_next(&it, &base, &len))
        clear_dirty((void *)(uintptr_t)base, len, z->seed);
}

/* Clear `want` bytes from share offset *pos on, wrapping at the end, in
 * calls of at most z->chunk bytes. */
static void clear_some(struct interf_zeroer *z, uint64_t *pos, uint64_t want)
{
    while (want) {
        struct split_iter it;
        uint64_t base, len;
        split_iter_init(&it, z->ext, z->next, z->off + *pos, z->bytes - *pos);
        if (!split_iter_next(&it, &base, &len))
            return;
        len = len < want ? len : want;
        memop_clear(z->s, (void *)(uintptr_t)base, len, z->chunk);
        want -= len;
        z->cleared += len;
        *pos = *pos + len == z->bytes ? 0 : *pos + len;
    }
}

/* One call's worth: clear_some() timed into z->busy. */
static void clear_timed(struct interf_zeroer *z, uint64_t *pos, uint64_t want)
{
    uint64_t t = rdtsc();
    clear_some(z, pos, want);
    z->busy += rdtsc() - t;
}

void interf_zeroer_run(struct interf_zeroer *z)
{
    struct if_bucket b;
    uint64_t pos = 0, t0 = tsc_start();
    bool paced =
        z->s && z->rate_bps && if_bucket_init(&b, z->rate_bps, z->hz, z->piece, z->burst, t0);
    z->cleared = z->busy = 0;
    while (!*z->stop) {
        if (!z->s) {
            cpu_relax();
            continue;
        }
        if (!paced) {
            clear_timed(z, &pos, z->chunk < z->bytes ? z->chunk : z->bytes);
            continue;
        }
        uint64_t ready = if_bucket_ready_at(&b), now;
        while ((now = rdtsc()) < ready && !*z->stop)
            cpu_relax();
        if (*z->stop)
            break;
        if_bucket_take(&b, now);
        clear_timed(z, &pos, z->piece);
    }
    z->cyc = tsc_stop() - t0;
    uint64_t span = z->cleared < z->bytes ? z->cleared : z->bytes, base, len, off = 0, first;
    struct split_iter it;
    z->zero = true;
    split_iter_init(&it, z->ext, z->next, z->off, span);
    while (split_iter_next(&it, &base, &len)) {
        if (!memop_verify_zero((const void *)(uintptr_t)base, len, MEMOP_EXACT, &first)) {
            z->zero = false;
            z->bad = z->off + off + first;
            return;
        }
        off += len;
    }
}
