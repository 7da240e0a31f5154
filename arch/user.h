/*
 * arch/user.h - running measured code at CPL 3.
 *
 * Some hypervisors do not run a guest's ring 0 natively: PVM-style KVM
 * (kvm_pvm) emulates the instructions of a kernel that is not PVM-aware,
 * which makes every store in ring 0 cost thousands of cycles, while guest
 * ring 3 runs natively. So hugezero can run its timed and bulk memory work
 * (dirtying, clearing, verifying) at CPL 3: the identity map is
 * user-accessible (this is a measurement mode, not a protection boundary;
 * SMEP/SMAP stay off), the CPU enters ring 3 with IRETQ and comes back
 * through a deliberate #UD (arch/user.asm). Ring 3 cannot print (port I/O) or run
 * privileged instructions such as WBINVD: only pure memory work goes there.
 *
 * `cpl=auto` (default) times a store loop in both rings at start-up and
 * picks CPL 3 when ring 0 is more than 4x slower; `cpl=0` and `cpl=3` force.
 */
#ifndef HZ_ARCH_USER_H
#define HZ_ARCH_USER_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*user_fn)(void *arg);

/* arch/user.asm: run fn(arg) at CPL 3 on user_rsp (16-byte aligned top of a
 * user-accessible stack) with *rsp0_slot (the TSS RSP0 of this CPU) pointing
 * at the kernel stack; returns when fn returns. */
void user_enter(user_fn fn, void *arg, uint64_t user_rsp, void *rsp0_slot);
/* arch/user.asm: the UD2 that ends a CPL 3 call, and the unwind to
 * user_enter's caller from the #UD handler (rsp0: the TSS RSP0 value). */
extern const char user_return[];
_Noreturn void user_unwind(uint64_t rsp0);

#define USER_STACK_BYTES 16384u                     /* one CPL 3 stack */
#define USER_CPU_STACK_BYTES (2 * USER_STACK_BYTES) /* a CPU's two: measurement, fault path */

/*
 * Give the boot CPU its user stacks (in .bss) and decide the measurement
 * CPL (option `cpl=`), printing the comparison and a `measure` record. Call
 * on the BSP after mm_init and fpu_init. Returns the CPL in use (0 or 3).
 */
int user_init(void);

/*
 * Give CPU `cpu` (1..HZ_MAX_CPUS-1) its two user stacks: the
 * USER_CPU_STACK_BYTES at physical (= virtual) `base`, 16-byte aligned,
 * user-accessible (the identity map is), owned by that CPU from now on.
 * Call on the BSP before the CPU runs work; until then user_run() on that
 * CPU runs fn at CPL 0. An out-of-range cpu is ignored.
 */
void user_set_stacks(unsigned cpu, uint64_t base);

/* The CPL measured work runs at: 0 or 3 (0 before user_init). */
int user_cpl(void);

/* True when user_init's probe found ring 0 emulated: the stores took more
 * than RING0_EMULATED_RATIO times longer at CPL 0 than at CPL 3 (whatever
 * `cpl=` then chose). A timed region holding CPL-0 code (a #PF handler, a
 * ring switch) then measures the hypervisor's emulator, and the records
 * of such regions say `emulated_ring0: true`. False before user_init. */
#define RING0_EMULATED_RATIO 4
bool user_ring0_emulated(void);

/*
 * Run fn(arg) at the measurement CPL on CPU `cpu`: directly at CPL 0, or in
 * ring 3 on that CPU's measurement stack. Must be called at CPL 0, not
 * re-entered on the same CPU (a #PF taken inside may call user_run_fault).
 */
void user_run(unsigned cpu, user_fn fn, void *arg);

/* The same from the #PF path on CPU `cpu`, on a second stack; restores the
 * TSS RSP0 of an interrupted user_run afterwards. */
void user_run_fault(unsigned cpu, user_fn fn, void *arg);

#endif /* HZ_ARCH_USER_H */
