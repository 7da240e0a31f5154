/*
 * kernel/progress.c - rate-limited progress records.
 */
#include "kernel/progress.h"
#include "arch/tsc.h"
#include "lib/print.h"
#include "lib/record.h"

static const char *phase;
static unsigned total;
static uint64_t start, last;
static bool finished; /* the 100% record was printed */

void progress_begin(const char *name, unsigned steps)
{
    phase = name;
    total = steps ? steps : 1;
    start = last = rdtsc();
    finished = false;
}

void progress_step(unsigned done)
{
    uint64_t now = rdtsc(), hz = tsc_info()->hz;
    if (!phase || finished || (done < total && now - last < hz))
        return;
    finished = done >= total;
    last = now;
    uint64_t elapsed_ns = tsc_to_ns(now - start);
    uint64_t eta_s =
        done ? elapsed_ns / done * (total - (done < total ? done : total)) / 1000000000u : 0;
    char buf[256];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "progress");
    rec_str(&r, "phase", phase);
    rec_u64(&r, "pct", (uint64_t)(done < total ? done : total) * 100 / total);
    rec_u64(&r, "eta_s", eta_s);
    record_emit(&r);
}
