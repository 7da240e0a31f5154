/*
 * measure/strategy_list.h - a list of clear-strategy names as the
 * scenarios' options take it (`strategies=`, `smp_strategies=`,
 * `numa_strategies=`): one parser, one set of messages. Portable C,
 * host-tested by tests/unit/test_strategy_list.c.
 */
#ifndef HZ_MEASURE_STRATEGY_LIST_H
#define HZ_MEASURE_STRATEGY_LIST_H

#include <stddef.h>

#include "arch/clear.h"

/*
 * The rows (arch/clear.h clear_find) a comma-separated list of names gives
 * ("rep_stosb,avx_nt"), in its order, into out[0..max). Returns the count
 * (>= 1), or -1 with a message in err[0..cap): "no strategy 'NAME'" for an
 * unknown or empty name, "more than MAX strategies" past max. A name may
 * repeat. Whether the CPU supports a row is the caller's check.
 */
int strategy_list_parse(const char *list, const struct clear_strategy **out, size_t max, char *err,
                        size_t cap);

#endif /* HZ_MEASURE_STRATEGY_LIST_H */
