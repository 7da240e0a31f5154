/*
 * measure/workload.c - demand-fault workload generators (see
 * measure/workload.h): a small phase machine per generator, the
 * xoshiro256** and splitmix64 generators (Blackman & Vigna, ACM TOMS 47(4),
 * 2021) and exponential draws through a fixed-point natural log.
 */
#include "measure/workload.h"

#include <stddef.h>

const char *const wl_kind_names[WL_NKINDS + 1] = {"vm_boot", "churn", "restart", "burst", NULL};

enum phase { PH_END, PH_THINK, PH_IDLE, PH_ZREQ, PH_FAULTS, PH_HOLD, PH_FREES };

/* ---- random numbers ---------------------------------------------------- */

uint64_t wl_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = wl_splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t wl_rng_next(struct wl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* ln 2 x 2^64, rounded: ln 2 = 0x0.B17217F7D1CF79ABC9E3... */
#define LN2_Q64 0xb17217f7d1cf79acull

uint64_t wl_neg_ln_q32(uint64_t m)
{
    if (m == 0)
        m = 1;
    unsigned e = 63u - (unsigned)__builtin_clzll(m); /* floor(log2 m) */
    /* Mantissa m / 2^e in Q1.31: [2^31, 2^32). */
    uint64_t x = e >= 31 ? m >> (e - 31) : m << (31 - e);
    uint64_t frac = 0; /* fraction bits of log2(x), Q0.32 */
    for (int b = 31; b >= 0; b--) {
        x = (x * x) >> 31; /* x^2 in Q1.31, in [1, 4) */
        if (x >= (1ull << 32)) {
            x >>= 1;
            frac |= 1ull << b;
        }
    }
    /* -log2(m / 2^64) = 64 - e - frac, in Q32.32 (at most 64 << 32). */
    uint64_t nlog2 = ((uint64_t)(64 - e) << 32) - frac;
    return (uint64_t)(((unsigned __int128)nlog2 * LN2_Q64) >> 64);
}

uint64_t wl_exp_ns(struct wl_rng *r, uint64_t mean_ns)
{
    uint64_t q = wl_neg_ln_q32(wl_rng_next(r));
    if (mean_ns > WL_MAX_NS)
        mean_ns = WL_MAX_NS;
    return (uint64_t)(((unsigned __int128)mean_ns * q + (1u << 31)) >> 32);
}

/* ---- generators -------------------------------------------------------- */

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

void workload_defaults(struct wl_params *p, enum wl_kind kind, uint32_t pages)
{
    *p = (struct wl_params){
        .kind = kind,
        .pages = pages,
        .cpus = 1,
        .cycles = 4,
        .think_ns = 100000000,
        .hold_ns = 50000000,
        .idle_ns = kind == WL_BURST ? 1000000000 : 0,
        .zero_request = 0,
        .seed = 1,
    };
}

static const char *check_params(const struct wl_params *p)
{
    if ((unsigned)p->kind >= WL_NKINDS)
        return "kind";
    if (p->pages == 0 || p->pages == UINT32_MAX)
        return "pages";
    if (p->cpus == 0)
        return "cpus";
    if (p->kind != WL_VM_BOOT && p->cycles == 0)
        return "cycles";
    if (p->think_ns > WL_MAX_NS)
        return "think_ns";
    if (p->hold_ns > WL_MAX_NS)
        return "hold_ns";
    if (p->idle_ns > WL_MAX_NS)
        return "idle_ns";
    return NULL;
}

int workload_init(struct wl_gen *g, const struct wl_params *p, const char **why)
{
    *g = (struct wl_gen){.phase = PH_END};
    const char *bad = p ? check_params(p) : "params";
    if (why)
        *why = bad ? bad : "";
    if (bad)
        return WL_EINVAL;
    g->p = *p;
    wl_rng_seed(&g->rng, p->seed);
    g->phase = p->kind == WL_CHURN ? PH_THINK : p->kind == WL_BURST ? PH_IDLE : PH_ZREQ;
    return WL_OK;
}

uint64_t workload_faults(const struct wl_params *p)
{
    if (!p || check_params(p))
        return 0;
    uint64_t pops = p->kind == WL_VM_BOOT   ? 1
                    : p->kind == WL_RESTART ? (uint64_t)p->cycles + 1
                                            : p->cycles;
    return pops * p->pages;
}

static void emit(struct wl_gen *g, struct wl_event *e, enum wl_op op, uint64_t arg, uint32_t page,
                 uint32_t cpu)
{
    *e = (struct wl_event){.at_ns = g->now,
                           .arg = arg,
                           .page = page,
                           .cpu = cpu,
                           .cycle = g->cycle,
                           .op = (uint8_t)op};
}

/* Next page of a population or free pass, CPUs interleaved step by step. */
static bool touch(struct wl_gen *g, struct wl_event *e, enum wl_op op)
{
    uint32_t per = g->p.pages / g->p.cpus, extra = g->p.pages % g->p.cpus;
    uint32_t active = g->step < per ? g->p.cpus : g->step == per ? extra : 0;
    if (g->cpu >= active)
        return false;
    uint32_t c = g->cpu;
    uint64_t page = (uint64_t)c * per + (c < extra ? c : extra) + g->step;
    emit(g, e, op, 0, (uint32_t)page, c);
    if (++g->cpu == active) {
        g->cpu = 0;
        g->step++;
    }
    return true;
}

static enum phase after_faults(const struct wl_gen *g)
{
    switch (g->p.kind) {
    case WL_CHURN:
        return PH_HOLD;
    case WL_RESTART:
        return g->cycle < g->p.cycles ? PH_HOLD : PH_END;
    case WL_BURST:
        return g->cycle + 1 < g->p.cycles ? PH_HOLD : PH_END;
    default:
        return PH_END;
    }
}

static enum phase after_frees(struct wl_gen *g)
{
    g->cycle++;
    if (g->p.kind == WL_CHURN)
        return g->cycle < g->p.cycles ? PH_THINK : PH_END;
    return PH_IDLE; /* restart, burst */
}

static bool idle(struct wl_gen *g, struct wl_event *e, uint64_t ns)
{
    g->phase = PH_ZREQ;
    if (ns == 0)
        return false;
    emit(g, e, WL_IDLE, ns, 0, 0);
    g->now = sat_add(g->now, ns);
    return true;
}

bool workload_next(struct wl_gen *g, struct wl_event *e)
{
    for (;;) {
        switch ((enum phase)g->phase) {
        case PH_THINK:
            if (idle(g, e, wl_exp_ns(&g->rng, g->p.think_ns)))
                return true;
            break;
        case PH_IDLE:
            if (idle(g, e, g->p.idle_ns))
                return true;
            break;
        case PH_ZREQ:
            g->phase = PH_FAULTS;
            g->step = g->cpu = 0;
            if (g->p.zero_request) {
                emit(g, e, WL_ZERO_REQUEST, g->p.zero_request, 0, 0);
                return true;
            }
            break;
        case PH_FAULTS:
            if (touch(g, e, WL_FAULT))
                return true;
            g->phase = after_faults(g);
            break;
        case PH_HOLD:
            g->now = sat_add(g->now, g->p.hold_ns);
            g->phase = PH_FREES;
            g->step = g->cpu = 0;
            break;
        case PH_FREES:
            if (touch(g, e, WL_FREE))
                return true;
            g->phase = after_frees(g);
            break;
        case PH_END:
        default:
            return false;
        }
    }
}

const char *wl_op_name(unsigned op)
{
    static const char *const names[WL_NOPS] = {"fault", "free", "idle", "zero_request"};
    return op < WL_NOPS ? names[op] : "?";
}

void wl_tenant_dirty(volatile uint64_t *va, uint64_t bytes)
{
    for (uint64_t off = 0; off + 64 <= bytes; off += 64)
        va[off / 8] = WL_TENANT_WORD ^ off;
}
