/*
 * measure/memop.c - chunked clears, dirtying and zero checks at the
 * measurement CPL (measure/memop.h).
 */
#include "measure/memop.h"
#include "arch/tsc.h"

#define SAMPLE_EDGE 4096 /* bytes checked at each end */
#define SAMPLE_LINES 62  /* pseudo-random 64-byte lines in between */

void memop_clear(const struct clear_strategy *s, void *dst, uint64_t bytes, uint64_t chunk)
{
    uint8_t *d = dst;
    if (!chunk)
        chunk = bytes;
    for (uint64_t off = 0; off < bytes; off += chunk)
        s->fn(d + off, bytes - off < chunk ? bytes - off : chunk);
}

const char *memop_check_name(enum memop_check how)
{
    return how == MEMOP_SAMPLED ? "sampled" : "full";
}

/* Offset of the first non-zero byte of the 8-byte word at q[i]. */
static uint64_t word_first(const volatile uint64_t *q, uint64_t i)
{
    const volatile uint8_t *b = (const volatile uint8_t *)&q[i];
    unsigned k = 0;
    while (k < 7 && !b[k])
        k++;
    return i * 8 + k;
}

static bool sampled_zero(const volatile uint64_t *q, uint64_t bytes, uint64_t *first)
{
    uint64_t words = bytes / 8, lowest = UINT64_MAX;
    for (uint64_t i = 0; i < SAMPLE_EDGE / 8; i++) {
        if (q[i] && word_first(q, i) < lowest)
            lowest = word_first(q, i);
        if (q[words - 1 - i] && word_first(q, words - 1 - i) < lowest)
            lowest = word_first(q, words - 1 - i);
    }
    uint64_t x = 0x9e3779b97f4a7c15ull ^ bytes; /* splitmix64 stream of line offsets */
    for (int s = 0; s < SAMPLE_LINES; s++) {
        x += 0x9e3779b97f4a7c15ull;
        uint64_t z = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        uint64_t line = ((z ^ (z >> 31)) % (bytes / 64)) * 8;
        for (int w = 0; w < 8; w++)
            if (q[line + w] && word_first(q, line + w) < lowest)
                lowest = word_first(q, line + w);
    }
    if (lowest != UINT64_MAX && first)
        *first = lowest;
    return lowest == UINT64_MAX;
}

bool memop_verify_zero(const volatile void *p, uint64_t bytes, enum memop_check how,
                       uint64_t *first)
{
    if (how == MEMOP_SAMPLED && bytes >= 4 * SAMPLE_EDGE)
        return sampled_zero(p, bytes & ~7ull, first);
    size_t at;
    bool zero = clear_verify_zero((const void *)p, (size_t)bytes, &at);
    if (!zero && first)
        *first = at;
    return zero;
}

void memop_run(void *arg)
{
    struct memop *m = arg;
    if (m->op == MEMOP_DIRTY) {
        clear_dirty_fast(m->p, m->bytes, m->seed);
    } else if (m->op == MEMOP_DIRTY_CACHED) {
        clear_dirty(m->p, m->bytes, m->seed);
    } else if (m->op == MEMOP_VERIFY) {
        m->zero = memop_verify_zero(m->p, m->bytes, m->check, &m->first);
    } else if (m->op == MEMOP_VERIFY_DIRTY) {
        size_t at = 0;
        m->zero = clear_verify_dirty(m->p, (size_t)m->bytes, m->seed, &at);
        m->first = at;
    } else {
        uint64_t t0 = tsc_start();
        memop_clear(m->s, m->p, m->bytes, m->chunk);
        uint64_t t1 = tsc_stop();
        m->clear_cycles = t1 - t0;
        uint64_t until = t1 + m->clear_cycles * m->delay_pct / 100;
        while (m->delay_pct && rdtsc() < until)
            cpu_relax();
        m->cycles = tsc_stop() - t0;
    }
}
