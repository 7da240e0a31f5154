/*
 * arch/steal_area.h - the checks on a KVM steal-time record's placement
 * (arch/steal.h): where the host may be told to write, and whether it still
 * writes only there. Portable (tests/unit/test_steal_area.c); prints nothing.
 *
 * Facts (Linux Documentation/virt/kvm/x86/msr.rst, MSR_KVM_STEAL_TIME):
 * the record is 64 bytes, 64-byte aligned (bits 5:1 of the MSR are
 * reserved), bit 0 enables it; KVM writes steal (bytes 0-7), version (8-11),
 * flags (12-15) and preempted (16); bytes 17-63 are padding it never writes.
 */
#ifndef HZ_ARCH_STEAL_AREA_H
#define HZ_ARCH_STEAL_AREA_H

#include <stddef.h>
#include <stdint.h>

#define STEAL_REC_BYTES 64u
#define STEAL_PAD_FROM 17u /* first byte KVM never writes */

/*
 * Why the record at physical `addr` must not be given to KVM, or NULL when
 * it may: it must be 64-byte aligned and lie wholly inside [own, own_end),
 * the kernel's own steal block (any other memory, the frame pool's
 * included, belongs to someone else; an address past RAM is refused the
 * same way). own <= own_end; an empty block refuses everything.
 */
const char *steal_area_refusal(uint64_t addr, uint64_t own, uint64_t own_end);

/*
 * Check MSR_KVM_STEAL_TIME as read back on a CPU (`msr`) against the record
 * that CPU was given (`want`, 64-byte aligned): 0 when msr == want | 1
 * (enabled, pointing at its own record); else -1 with the reason in
 * why[0..n) (disabled, reserved bits set, or the address the host really
 * writes).
 */
int steal_msr_check(uint64_t msr, uint64_t want, char *why, size_t n);

/* FNV-1a 64 over bytes STEAL_PAD_FROM..63 of the record at rec: the part
 * KVM never writes, so its sum must not change while the record is on. */
uint64_t steal_pad_sum(const volatile void *rec);

#endif /* HZ_ARCH_STEAL_AREA_H */
