/*
 * arch/apic.h - the local APIC, just what AP start-up needs: the APIC ID and
 * INIT / START-UP inter-processor interrupts, in xAPIC mode (memory-mapped
 * registers) or x2APIC mode (MSRs). Kernel only.
 *
 * Sources (Intel SDM Vol. 3A): IA32_APIC_BASE (MSR 0x1B: bit 8 BSP, bit 10
 * EXTD = x2APIC mode, bit 11 EN, bits 12+ base), §11.4.4 and §11.12.1;
 * xAPIC register offsets, Table 11-1 (ID 0x20 bits 31:24, SVR 0xF0, ESR
 * 0x280, ICR 0x300/0x310); x2APIC MSRs 0x800 + offset/16, Table 11-6 (ID
 * 0x802 all 32 bits, ICR 0x830 one 64-bit write, destination in bits
 * 63:32), §11.12.9; the ICR fields, §11.6.1 Figure 11-12 (vector 7:0,
 * delivery mode 10:8 with 101b INIT and 110b START-UP, delivery status bit
 * 12 in xAPIC mode only, level bit 14, trigger mode bit 15); the INIT-SIPI-
 * SIPI sequence and its delays, §9.4.4.1; EOI 0xB0 (x2APIC 0x80B), §11.8.5.
 * The only interrupts taken are the fixed IPIs that wake a parked AP
 * (kernel/smp_work.c) and the spurious vector (0xff, §11.9, no EOI).
 */
#ifndef HZ_ARCH_APIC_H
#define HZ_ARCH_APIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum apic_mode { APIC_OFF = 0, APIC_XAPIC, APIC_X2APIC };

#define APIC_XAPIC_MAX_ID 0xfe /* 0xff is the xAPIC broadcast destination */

/*
 * Set up the local APIC of the boot CPU. Keeps x2APIC mode when the firmware
 * left it on (it cannot be turned off without disabling the APIC); enters it
 * when `want_x2apic` (some CPU has an APIC ID above 0xfe, or the user asked)
 * and CPUID.1:ECX[21] allows; otherwise uses xAPIC mode at the IA32_APIC_BASE base, which must be
 * below 4 GiB (identity-mapped). `madt_base` (the MADT's Local Interrupt
 * Controller Address, 0 if unknown) is only compared and a difference noted
 * in `note`. Sets the software-enable bit of the spurious-vector register
 * (vector 0xff). Returns the mode in use, or APIC_OFF with the reason in
 * `note` (no APIC in CPUID.1:EDX[9], globally disabled, base above 4 GiB).
 */
enum apic_mode apic_init(uint64_t madt_base, bool want_x2apic, char *note, size_t cap);

/* Mode chosen by apic_init() (APIC_OFF before). */
enum apic_mode apic_mode(void);

/* "off", "xapic", "x2apic". */
const char *apic_mode_name(enum apic_mode m);

/* Physical base of the xAPIC registers (0 in x2APIC mode or before init). */
uint64_t apic_base(void);

/* Put the calling AP's APIC in the boot CPU's mode (x2APIC: set EXTD),
 * software-enable it. Call on every AP before apic_id(). */
void apic_ap_init(void);

/* The calling CPU's APIC ID: xAPIC ID register bits 31:24, or the 32-bit
 * x2APIC ID. */
uint32_t apic_id(void);

/* The calling CPU's x2APIC ID as CPUID reports it: CPUID.0BH:EDX into *id
 * and true where leaf 0BH is valid (max basic leaf >= 0BH and
 * CPUID.(0BH,0):EBX[15:0] != 0, SDM Vol. 2A "CPUID"; Vol. 3A §11.12.8
 * "CPUID Extensions and Topology Enumeration"); false (*id = 0) where it is
 * not. Any CPU, any CPL: CPUID only. */
bool apic_cpuid_x2apic_id(uint32_t *id);

/*
 * Send INIT (level assert, trigger level) or START-UP with `vector` (the AP
 * starts in real mode at physical vector << 12, CS = vector << 8, IP = 0) to
 * the APIC with ID `dest`. In xAPIC mode the ESR is cleared first and the
 * call waits until the ICR's delivery status reads idle, at most
 * `timeout_us` microseconds (TSC-calibrated). Returns 0, or -1 when the
 * IPI stayed pending, dest is not addressable in this mode (> 0xfe in
 * xAPIC), or the APIC is off. *esr (may be NULL) gets the Error Status
 * Register read after the send (0 in x2APIC mode: not read).
 */
int apic_send_init(uint32_t dest, uint64_t timeout_us, uint32_t *esr);
int apic_send_sipi(uint32_t dest, uint8_t vector, uint64_t timeout_us, uint32_t *esr);

/* A fixed interrupt with `vector` (0x20..0xfe) to APIC ID `dest`: delivery
 * mode 000b, edge, physical destination (§11.6.1). Waits and returns as
 * apic_send_init(); -1 also for a vector below 0x20 (reserved, §11.5.2). */
int apic_send_fixed(uint32_t dest, uint8_t vector, uint64_t timeout_us);

/* End of a fixed interrupt on the calling CPU: write 0 to the EOI register
 * (§11.8.5). Not for the spurious vector (§11.9). No-op when the APIC is off. */
void apic_eoi(void);

#endif /* HZ_ARCH_APIC_H */
