/*
 * arch/idle.h - waiting at CPL 0 for a 64-bit word to change (arch/idle.asm):
 * HLT woken by an interrupt, or MONITOR/MWAIT woken by a store to the
 * word's cache line. Kernel only (HLT, MONITOR and MWAIT need CPL 0).
 */
#ifndef HZ_ARCH_IDLE_H
#define HZ_ARCH_IDLE_H

#include <stdint.h>

/*
 * With interrupts off: return *word at once when it differs from `seen`;
 * else `sti; hlt` (an interrupt, e.g. a wake IPI, ends it; the shadow of
 * STI keeps one that comes after the check from being lost, SDM Vol. 2B
 * "STI"), `cli`, and return *word again. Returns with interrupts off; the
 * value may still equal `seen` (another interrupt woke it): call again.
 * `word`: 8-byte aligned.
 */
uint64_t idle_hlt(volatile uint64_t *word, uint64_t seen);

/*
 * With interrupts off and CPUID.01H:ECX.MONITOR[3]: MONITOR word's line,
 * read *word again, return it when it differs from `seen`; else MWAIT
 * (hint 0 = C1, no extensions) until a store to the line (or another
 * break event), and return *word. May return `seen`: call again. Not where
 * ring 0 is emulated (MONITOR stops the VM under kvm_pvm) nor under TCG
 * (MWAIT is a no-op there: the caller spins).
 */
uint64_t idle_mwait(volatile uint64_t *word, uint64_t seen);

#endif /* HZ_ARCH_IDLE_H */
