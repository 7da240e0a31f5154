/*
 * scenarios/smp/kind.c - the cells run=smp hands the verdict (lib/verdict.h
 * struct vd_kind): samples = wall ns per repeat on `threads` CPUs. Ids past
 * "smp/": "avx512_nt/2T/1G" (strategy/threads/bytes). Written by
 * lib/verdict_text.h vd_name_threads(). Portable C: the host verdict tests
 * link it (VERDICT_C).
 */
#include "lib/verdict_text.h"
#include "scenarios/smp/smp.h"

HZ_CELL_KIND(smp_kind, .run = "smp", .id = vd_name_threads, .clears = true);
