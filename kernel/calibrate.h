/*
 * kernel/calibrate.h - this machine's own rates, measured once at boot
 * before the first scenario, so the plan (lib/plan.h) is priced here and
 * not with the development machine's model: one dirtying pass, one clear
 * and one zero check over the clear scenario's large target size (a 1 GiB
 * frame; 16 MiB under TCG, where emulated passes are slow), and one demand
 * fault on a 2 MiB frame (mm/demand.h). Well under a second under KVM.
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
    uint64_t dirty_ns;       /* clear_dirty() over them (arch/clear.h) */
    uint64_t clear_ns;       /* one rep_stosb call over them, fenced */
    uint64_t check_ns;       /* clear_verify_zero() over them */
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
 * The plan model priced with c (lib/plan.h): a pass at the mean rate of
 * the three passes, the fault's fixed cost (its time less its clear), the
 * multi-CPU rate and per-repeat cost scaled from `base` as the development
 * machine's model has them, base->boot_ms for the boot. c not ok: *base.
 */
void calibrate_machine(const struct calibration *c, const struct plan_machine *base,
                       struct plan_machine *m);

#endif /* HZ_KERNEL_CALIBRATE_H */
