/*
 * arch/trap.c - IDT for the 32 exception vectors (NMI is vector 2), the wake
 * IPI and the APIC spurious vector, and the crash report (SDM Vol. 3A
 * §6.10-§6.15, Table 6-1 for names and error codes).
 */
#include "arch/trap.h"
#include "arch/gdt.h"
#include "arch/x86.h"
#include "lib/print.h"
#include "lib/record.h"

extern const uint64_t trap_stubs[32], trap_stub_wake, trap_stub_spurious;
static struct idt_gate idt[256];
static trap_handler_fn handlers[256];
static volatile int crashing;
static void (*crash_hook)(void);

static const char *const names[32] = {
    "#DE",       "#DB",       "NMI",       "#BP",       "#OF", "#BR", "#UD",       "#NM",
    "#DF",       "CSO",       "#TS",       "#NP",       "#SS", "#GP", "#PF",       "vector 15",
    "#MF",       "#AC",       "#MC",       "#XM",       "#VE", "#CP", "vector 22", "vector 23",
    "vector 24", "vector 25", "vector 26", "vector 27", "#HV", "#VC", "#SX",       "vector 31"};

const char *trap_name(uint64_t vector) { return vector < 32 ? names[vector] : "vector"; }

struct idt_gate idt_gate_make(uint64_t a, uint8_t ist)
{
    return (struct idt_gate){
        .off_lo = (uint16_t)a,
        .sel = GDT_KERNEL_CS,
        .ist = ist,
        .type_attr = 0x8e, /* P, DPL 0, 64-bit interrupt gate: IF cleared */
        .off_mid = (uint16_t)(a >> 16),
        .off_hi = (uint32_t)(a >> 32),
    };
}

static void set_gate(unsigned v, uint64_t a, uint8_t ist) { idt[v] = idt_gate_make(a, ist); }

static bool spurious(struct trap_frame *f)
{
    (void)f;
    return true;
}

void idt_init(void)
{
    for (unsigned v = 0; v < 32; v++)
        set_gate(v, trap_stubs[v], v == 2 ? IST_NMI : (v == 8 || v == 18) ? IST_FAULT : 0);
    set_gate(TRAP_VECTOR_WAKE, trap_stub_wake, 0);
    set_gate(TRAP_VECTOR_SPURIOUS, trap_stub_spurious, 0);
    handlers[TRAP_VECTOR_SPURIOUS] = spurious;
    idt_load();
}

void idt_load(void)
{
    struct desc_ptr idtr = {sizeof(idt) - 1, (uint64_t)(uintptr_t)idt};
    lidt(&idtr);
}

void trap_set_handler(unsigned vector, trap_handler_fn fn)
{
    if (vector < 32 || vector == TRAP_VECTOR_WAKE)
        handlers[vector] = fn;
}

/* Read up to n qwords above rsp when they lie in identity-mapped memory
 * below 4 GiB (always mapped); otherwise print nothing rather than fault. */
static unsigned stack_words(uint64_t rsp, uint64_t *out, unsigned n)
{
    if ((rsp & 7) || rsp < 0x1000 || rsp + n * 8 > 0x100000000ull)
        return 0;
    for (unsigned i = 0; i < n; i++)
        out[i] = ((const uint64_t *)(uintptr_t)rsp)[i];
    return n;
}

/* #PF error code bits (SDM Vol. 3A §4.7, Figure 4-12 "Page-Fault Error
 * Code"): the record key, and the words for a set and a clear bit. */
static const struct {
    uint8_t bit;
    const char *key, *set, *clear;
} pf_bits[] = {
    {0, "present", "protection violation (P=1)", "not present (P=0)"},
    {1, "write", "write (W/R=1)", "read (W/R=0)"},
    {2, "user", "user mode (U/S=1)", "supervisor mode (U/S=0)"},
    {3, "rsvd", "reserved bit set in a paging entry (RSVD=1)", NULL},
    {4, "fetch", "instruction fetch (I/D=1)", "data access (I/D=0)"},
    {5, "pk", "protection key (PK=1)", NULL},
    {6, "ss", "shadow-stack access (SS=1)", NULL},
    {15, "sgx", "SGX access-control violation (SGX=1)", NULL},
};

static void pf_decode(uint64_t code, uint64_t cr2)
{
    kprintf("    cr2 0x%016llx, error code bits:", (unsigned long long)cr2);
    for (unsigned i = 0; i < sizeof(pf_bits) / sizeof(pf_bits[0]); i++) {
        const char *w = (code >> pf_bits[i].bit) & 1 ? pf_bits[i].set : pf_bits[i].clear;
        if (w)
            kprintf("%s %s", i ? "," : "", w);
    }
    kprintf("\n");
}

static void crash_report(const struct trap_frame *f)
{
    uint64_t cr2 = read_cr2(), cr0 = read_cr0(), cr3 = read_cr3(), cr4 = read_cr4();
    uint64_t stack[16];
    unsigned ns = stack_words(f->rsp, stack, 16);
    const char *rn[15] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8",
                          "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    const uint64_t *regs = &f->rax;

    kprintf("\n*** hugezero crash: %s (vector %llu) error code 0x%llx at rip 0x%llx\n",
            trap_name(f->vector), (unsigned long long)f->vector, (unsigned long long)f->error_code,
            (unsigned long long)f->rip);
    if (f->vector == 14)
        pf_decode(f->error_code, cr2);
    for (unsigned i = 0; i < 15; i += 3)
        kprintf("    %-3s 0x%016llx  %-3s 0x%016llx  %-3s 0x%016llx\n", rn[i],
                (unsigned long long)regs[i], rn[i + 1], (unsigned long long)regs[i + 1], rn[i + 2],
                (unsigned long long)regs[i + 2]);
    kprintf("    rsp 0x%016llx  rflags 0x%llx  cs 0x%llx  ss 0x%llx\n", (unsigned long long)f->rsp,
            (unsigned long long)f->rflags, (unsigned long long)f->cs, (unsigned long long)f->ss);
    kprintf("    cr0 0x%llx  cr2 0x%llx  cr3 0x%llx  cr4 0x%llx\n", (unsigned long long)cr0,
            (unsigned long long)cr2, (unsigned long long)cr3, (unsigned long long)cr4);
    kprintf("    stack at rsp:%s\n", ns ? "" : " (not readable)");
    for (unsigned i = 0; i < ns; i += 4)
        kprintf("      %016llx %016llx %016llx %016llx\n", (unsigned long long)stack[i],
                (unsigned long long)stack[i + 1], (unsigned long long)stack[i + 2],
                (unsigned long long)stack[i + 3]);

    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "crash");
    rec_u64(&r, "vector", f->vector);
    rec_str(&r, "name", trap_name(f->vector));
    rec_hex(&r, "error_code", f->error_code);
    rec_hex(&r, "rip", f->rip);
    rec_hex(&r, "cr2", cr2);
    if (f->vector == 14) {
        rec_obj_begin(&r, "pf");
        for (unsigned i = 0; i < sizeof(pf_bits) / sizeof(pf_bits[0]); i++)
            rec_bool(&r, pf_bits[i].key, (f->error_code >> pf_bits[i].bit) & 1);
        rec_obj_end(&r);
    }
    rec_hex(&r, "rsp", f->rsp);
    rec_hex(&r, "rflags", f->rflags);
    rec_hex(&r, "cr0", cr0);
    rec_hex(&r, "cr3", cr3);
    rec_hex(&r, "cr4", cr4);
    rec_obj_begin(&r, "regs");
    for (unsigned i = 0; i < 15; i++)
        rec_hex(&r, rn[i], regs[i]);
    rec_obj_end(&r);
    rec_arr_begin(&r, "stack");
    for (unsigned i = 0; i < ns; i++)
        rec_hex(&r, 0, stack[i]);
    rec_arr_end(&r);
    record_emit(&r);
}

static volatile bool expecting;
static volatile unsigned expected_caught;

void trap_expect_begin(void)
{
    expected_caught = 0;
    expecting = true;
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* keep the instruction after this */
}

unsigned trap_expect_end(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    expecting = false;
    return expected_caught;
}

/* A #GP or #UD of RDMSR, WRMSR or RDPMC at CPL 0 while one is expected. */
static bool expected(struct trap_frame *f)
{
    const uint8_t *ip = (const uint8_t *)(uintptr_t)f->rip;
    if (!expecting || (f->vector != 13 && f->vector != 6) || (f->cs & 3) || ip[0] != 0x0f ||
        (ip[1] != 0x30 && ip[1] != 0x32 && ip[1] != 0x33))
        return false;
    expected_caught = (unsigned)f->vector;
    f->rax = f->rdx = 0;
    f->rip += 2;
    return true;
}

void trap_set_crash_hook(void (*fn)(void)) { crash_hook = fn; }

static _Noreturn void crash_stop(void)
{
    if (crash_hook)
        crash_hook();
    for (;;) {
        cli();
        hlt();
    }
}

void trap_dispatch(struct trap_frame *f)
{
    if (expected(f))
        return;
    if (f->vector < 256 && handlers[f->vector] && !crashing && handlers[f->vector](f))
        return;
    if (__atomic_exchange_n(&crashing, 1, __ATOMIC_ACQ_REL)) {
        /* A fault while reporting a crash: no more reports, just stop. */
        kprintf("*** hugezero: %s while handling a crash; stopping\n", trap_name(f->vector));
        crash_stop();
    }
    print_crash_mode();
    crash_report(f);
    crash_stop();
}
