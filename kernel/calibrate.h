/*
 * kernel/calibrate.h - this machine's own rates, measured once at boot
 * before the first scenario, so the plan (lib/plan.h) is priced here and
 * not with the development machine's model: one dirtying pass, one clear,
 * one zero check and one check-and-dirty pass (run=clear's) over the clear
 * scenario's large target size (a 1 GiB
 * frame; 16 MiB under TCG, where emulated passes are slow), after one
 * untimed dirtying pass (the host backs a page at its first touch, which
 * the scenarios' pools pay once at set-up, never per repeat), and one
 * demand fault on a 2 MiB frame (mm/demand.h). Well under a second under KVM.
 */
#ifndef HZ_KERNEL_CALIBRATE_H
#define HZ_KERNEL_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/plan.h"

struct calibration {
    bool ok;                 /* every part measured */
    const char *why;         /* when !ok: what could not be measured (constant string) */
    uint64_t bytes;          /* bytes of the dirty, clear and check passes */
    uint64_t dirty_ns;       /* clear_dirty_fast() over them (arch/clear.h) */
    uint64_t clear_ns;       /* one rep_stosb call over them, fenced */
    uint64_t check_ns;       /* clear_verify_zero() over them */
    uint64_t check_dirty_ns; /* clear_verify_dirty() over them */
    uint64_t fault_ns;       /* one 2 MiB demand fault, the faulting load as timed */
    uint64_t fault_clear_ns; /* of which the clear inside the fault */
    uint64_t took_ns;        /* the whole calibration, set-up included */
};

/*
 * Measure this machine (boot CPU, after mm_init, user_init and smp_init;
 * takes and gives back its frames). Every pass runs at the measurement CPL
 * (arch/user.h) as the scenarios' passes do. On a machine without a free
 * 2 MiB frame or without rep_stosb, c->ok is false and c->why says why.
 */
void calibrate_run(struct calibration *c);

/*
 * The plan model priced with c (lib/plan.h): each pass kind at its own
 * measured rate, a pass of no named kind at the mean of the dirty, clear
 * and check rates, the fault's fixed cost (its time less its clear), the
 * multi-CPU rate scaled from `base` as the development machine's model
 * has it; base's per-repeat cost and boot. c not ok: *base.
 */
void calibrate_machine(const struct calibration *c, const struct plan_machine *base,
                       struct plan_machine *m);

#endif /* HZ_KERNEL_CALIBRATE_H */
