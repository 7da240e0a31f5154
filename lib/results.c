/*
 * lib/results.c - check results: pass/fail/skip records and their counts.
 */
#include "lib/results.h"
#include "lib/fmt.h"
#include "lib/print.h"

static unsigned n_pass, n_fail, n_skip;

/* Print one check record; reason may be NULL (pass). */
static void emit(const char *type, const char *name, const char *reason)
{
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), type);
    rec_str(&r, "name", name);
    if (reason) {
        rec_str(&r, "reason", reason);
        kprintf("%s: %s: %s\n", type, name, reason);
    }
    record_emit(&r);
}

void result_pass(const char *name)
{
    __atomic_fetch_add(&n_pass, 1, __ATOMIC_RELAXED);
    emit("pass", name, 0);
}

#define EMIT_FORMATTED(type, counter)                                                              \
    do {                                                                                           \
        char reason[256];                                                                          \
        va_list ap;                                                                                \
        __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);                                         \
        va_start(ap, fmt);                                                                         \
        hz_vsnprintf(reason, sizeof(reason), fmt, ap);                                             \
        va_end(ap);                                                                                \
        emit(type, name, reason);                                                                  \
    } while (0)

void result_fail(const char *name, const char *fmt, ...) { EMIT_FORMATTED("fail", n_fail); }
void result_skip(const char *name, const char *fmt, ...) { EMIT_FORMATTED("skip", n_skip); }

enum hz_status result_status(void)
{
    if (n_fail)
        return HZ_FAIL;
    if (n_skip && !n_pass)
        return HZ_SKIPPED;
    return HZ_PASS;
}

const char *status_name(enum hz_status s)
{
    static const char *const names[] = {"pass", "fail", "skipped", "config", "crash"};
    return (unsigned)s < 5 ? names[s] : "unknown";
}

void result_counts(unsigned *pass, unsigned *fail, unsigned *skip)
{
    *pass = __atomic_load_n(&n_pass, __ATOMIC_RELAXED);
    *fail = __atomic_load_n(&n_fail, __ATOMIC_RELAXED);
    *skip = __atomic_load_n(&n_skip, __ATOMIC_RELAXED);
}
