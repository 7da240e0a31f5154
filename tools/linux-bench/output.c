/*
 * tools/linux-bench/output.c - what measure.c, region.c and main share:
 * the clock, printing records, pass/fail/skip counting and size names
 * (tools/linux-bench/bench.h). Kept apart from main() (linux_bench.c) so
 * the parts of the program depend on it, not on each other.
 */
#define _GNU_SOURCE
#include "tools/linux-bench/bench.h"

#include <stdio.h>
#include <time.h>

#include "arch/x86.h"
#include "lib/record.h"

uint64_t lb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t lb_tsc_end(void)
{
    if (cpu_has(X86_FEATURE_RDTSCP)) {
        uint64_t t = rdtscp(NULL);
        lfence();
        return t;
    }
    lfence();
    uint64_t t = rdtsc();
    lfence();
    return t;
}

void lb_emit(const char *line) { printf("%s\n", line); }

void lb_check(struct tally *t, const char *type, const char *name, const char *reason)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), type);
    rec_str(&r, "name", name);
    if (reason)
        rec_str(&r, "reason", reason);
    lb_emit(rec_end(&r));
    if (type[0] == 'p')
        t->pass++;
    else if (type[0] == 'f')
        t->fail++;
    else
        t->skip++;
}
