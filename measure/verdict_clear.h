/*
 * measure/verdict_clear.h - the run=clear cells that more than one
 * scenario's verdict item reads: Linux's clear_page baseline (the clear
 * items compare with it, the idle zeroer item quotes it) and the cold
 * target they are measured on. Here, below the scenarios, because no
 * scenario includes another's header (docs/hacking.md "Map"); a clear cell
 * is told by its kind's run (lib/verdict_priv.h vd_cell_of()). Portable C:
 * the host verdict tests link it (VERDICT_C).
 */
#ifndef HZ_MEASURE_VERDICT_CLEAR_H
#define HZ_MEASURE_VERDICT_CLEAR_H

#include <stddef.h>
#include <stdint.h>

#include "lib/verdict_priv.h"

/* Linux's clear_page cell (run=clear, rep_stosb, 4 KiB calls, cold) on
 * `target` bytes when usable (lib/verdict.h vd_cell_usable()), else NULL. */
const struct vd_cell *vd_clear_base(const struct vd_ctx *x, uint64_t target);

/* The cold large target: the largest bytes of any cold run=clear cell of
 * v[0..n) (0: none). */
uint64_t vd_clear_target(const struct vd_cell *v, size_t n);

#endif /* HZ_MEASURE_VERDICT_CLEAR_H */
