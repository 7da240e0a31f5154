/*
 * arch/trap.h - exceptions: the IDT (SDM Vol. 3A §6.10, §6.14), the frame
 * the entry stubs in arch/trap.asm build, and per-vector handlers.
 */
#ifndef HZ_ARCH_TRAP_H
#define HZ_ARCH_TRAP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Saved state, lowest address first. arch/trap.asm pushes r15..rax (in
 * reverse) and then the entry TSC, the vector and the error code (0 when the CPU pushes none); the
 * CPU pushed rip..ss (SDM Vol. 3A §6.14.2, Figure 6-9).
 */
struct trap_frame {
    uint64_t tsc; /* fenced RDTSC right after the entry code saved the registers (TSC cycles) */
    uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp, r8, r9, r10, r11, r12, r13, r14, r15; /* stub */
    uint64_t vector, error_code;                                                      /* stub */
    uint64_t rip, cs, rflags, rsp, ss;                                                /* CPU */
};
_Static_assert(sizeof(struct trap_frame) == 23 * 8, "trap frame layout is shared with trap.asm");

/* The interrupt vectors with a gate (every other vector from 32 up has none:
 * taking one is a #NP crash report). */
#define TRAP_VECTOR_WAKE 0xf0     /* fixed IPI that wakes a parked AP (kernel/smp_work.c) */
#define TRAP_VECTOR_SPURIOUS 0xff /* the local APIC's spurious vector (arch/apic.c) */

/* A handler returns true when it resolved the exception (the faulting
 * instruction is restarted), false to fall through to the crash report. */
typedef bool (*trap_handler_fn)(struct trap_frame *f);

/* A 64-bit IDT gate (SDM Vol. 3A §6.14.1, Figure 6-8). */
struct idt_gate {
    uint16_t off_lo, sel;
    uint8_t ist, type_attr;
    uint16_t off_mid;
    uint32_t off_hi, zero;
} __attribute__((packed));
_Static_assert(sizeof(struct idt_gate) == 16, "64-bit IDT gate (SDM Vol. 3A Figure 6-8)");

/* The gate of every vector hugezero handles: a present 64-bit interrupt
 * gate (IF cleared on entry), DPL 0, selector GDT_KERNEL_CS, to `handler`,
 * on IST stack `ist` (0: none; 1..7 the TSS's IST entries). */
struct idt_gate idt_gate_make(uint64_t handler, uint8_t ist);

/* Load the IDT on this CPU (vectors 0-31, NMI on IST1, #DF and #MC on IST2;
 * the TSS comes from arch/gdt.h; gates for TRAP_VECTOR_WAKE and
 * TRAP_VECTOR_SPURIOUS, the latter handled here: ignored, no EOI, SDM Vol.
 * 3A §11.9). Call after gdt_init_cpu(). */
void idt_init(void);
void idt_load(void);

/* Install a handler for exception `vector` (0..31) or TRAP_VECTOR_WAKE;
 * NULL removes it. Other vectors are ignored. */
void trap_set_handler(unsigned vector, trap_handler_fn fn);

/*
 * What an exception no handler resolved ends in, after the crash report (a
 * human block and a `crash` record, docs/results.md): fn(), which must not
 * return (kernel/main.c sets hz_exit with status crash). A second fault
 * while a crash is reported calls fn() without a report. Without a hook,
 * or if fn returns, the CPU halts with interrupts off. NULL removes it.
 */
void trap_set_crash_hook(void (*fn)(void));

/*
 * Expected faults, for one MSR or counter instruction at a time (as Linux's
 * exception table does for rdmsr_safe): between trap_expect_begin() and
 * trap_expect_end(), a #GP (13) or #UD (6) raised at CPL 0 by RDMSR (0F 32),
 * WRMSR (0F 30) or RDPMC (0F 33) is caught: RAX and RDX are zeroed and
 * execution resumes after the 2-byte instruction. trap_expect_end() returns
 * the vector caught, 0 when none. Any other fault, or one raised by another
 * instruction or at CPL 3 (arch/user.h's #UD), still goes to its handler or
 * the crash report. Boot CPU only (one expectation at a time), after
 * idt_init(). Sources: SDM Vol. 2B "RDMSR", "WRMSR", "RDPMC" (#GP(0) for
 * a reserved MSR or counter; #UD where the hypervisor hides them).
 */
void trap_expect_begin(void);
unsigned trap_expect_end(void);

/* "#DE", "#PF", ... for vectors 0..31, "vector" otherwise (SDM Vol. 3A Table 6-1). */
const char *trap_name(uint64_t vector);

/* Called by arch/trap.asm for every exception and interrupt. */
void trap_dispatch(struct trap_frame *f);

#endif /* HZ_ARCH_TRAP_H */
