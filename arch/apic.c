/*
 * arch/apic.c - local APIC: ID and INIT/START-UP IPIs in xAPIC or x2APIC
 * mode (arch/apic.h; Intel SDM Vol. 3A chapter 11).
 */
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/tsc.h"
#include "arch/x86.h"
#include "lib/fmt.h"

#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_EXTD (1ull << 10) /* x2APIC mode */
#define APIC_BASE_EN (1ull << 11)   /* global enable */
#define APIC_BASE_ADDR 0x000ffffffffff000ull

/* xAPIC register offsets (Table 11-1); x2APIC MSR = 0x800 + offset / 16. */
#define APIC_ID 0x020
#define APIC_EOI 0x0b0
#define APIC_SVR 0x0f0
#define APIC_ESR 0x280
#define APIC_ICR_LO 0x300
#define APIC_ICR_HI 0x310
#define X2APIC_MSR(off) (0x800u + (off) / 16u)

#define SVR_ENABLE (1u << 8)
#define SVR_VECTOR 0xffu

/* ICR low word (Figure 11-12). */
#define ICR_FIXED (0u << 8)
#define ICR_INIT (5u << 8)
#define ICR_STARTUP (6u << 8)
#define ICR_PENDING (1u << 12)
#define ICR_ASSERT (1u << 14)
#define ICR_LEVEL (1u << 15)

static enum apic_mode mode;
static volatile uint32_t *mmio;
static uint64_t mmio_phys;

enum apic_mode apic_mode(void) { return mode; }
uint64_t apic_base(void) { return mode == APIC_XAPIC ? mmio_phys : 0; }

const char *apic_mode_name(enum apic_mode m)
{
    return m == APIC_XAPIC ? "xapic" : m == APIC_X2APIC ? "x2apic" : "off";
}

static uint32_t reg_read(uint32_t off)
{
    if (mode == APIC_X2APIC)
        return (uint32_t)rdmsr(X2APIC_MSR(off));
    return mmio[off / 4];
}

static void reg_write(uint32_t off, uint32_t v)
{
    if (mode == APIC_X2APIC)
        wrmsr(X2APIC_MSR(off), v);
    else
        mmio[off / 4] = v;
}

static void software_enable(void)
{
    uint32_t svr = reg_read(APIC_SVR);
    reg_write(APIC_SVR, (svr & ~SVR_VECTOR) | SVR_ENABLE | SVR_VECTOR);
}

enum apic_mode apic_init(uint64_t madt_base, bool want_x2apic, char *note, size_t cap)
{
    if (cap)
        note[0] = 0;
    if (!cpu_has(X86_FEATURE_APIC)) {
        hz_snprintf(note, cap, "CPUID.1:EDX[9] says there is no local APIC");
        return mode = APIC_OFF;
    }
    uint64_t msr = rdmsr(MSR_IA32_APIC_BASE);
    if (!(msr & APIC_BASE_EN)) {
        hz_snprintf(note, cap, "the firmware left the local APIC disabled (IA32_APIC_BASE 0x%llx)",
                    (unsigned long long)msr);
        return mode = APIC_OFF;
    }
    if (msr & APIC_BASE_EXTD) {
        mode = APIC_X2APIC;
        hz_snprintf(note, cap, "x2APIC mode (left on by the firmware)");
    } else if (want_x2apic && cpu_has(X86_FEATURE_X2APIC)) {
        wrmsr(MSR_IA32_APIC_BASE, msr | APIC_BASE_EXTD); /* xAPIC -> x2APIC, §11.12.5 */
        mode = APIC_X2APIC;
        hz_snprintf(note, cap, "x2APIC mode (asked for, or APIC IDs above 0xfe)");
    } else {
        mmio_phys = msr & APIC_BASE_ADDR;
        if (mmio_phys >= (1ull << 32)) {
            hz_snprintf(note, cap, "xAPIC base 0x%llx is above 4 GiB",
                        (unsigned long long)mmio_phys);
            return mode = APIC_OFF;
        }
        mmio = (volatile uint32_t *)(uintptr_t)mmio_phys;
        mode = APIC_XAPIC;
        if (madt_base && madt_base != mmio_phys)
            hz_snprintf(note, cap, "xAPIC at 0x%llx (IA32_APIC_BASE), MADT says 0x%llx",
                        (unsigned long long)mmio_phys, (unsigned long long)madt_base);
        else
            hz_snprintf(note, cap, "xAPIC at 0x%llx", (unsigned long long)mmio_phys);
    }
    software_enable();
    return mode;
}

void apic_ap_init(void)
{
    if (mode == APIC_X2APIC) {
        uint64_t msr = rdmsr(MSR_IA32_APIC_BASE);
        if (!(msr & APIC_BASE_EXTD)) /* EN must be set before EXTD, §11.12.5 */
            wrmsr(MSR_IA32_APIC_BASE, msr | APIC_BASE_EN | APIC_BASE_EXTD);
    }
    if (mode != APIC_OFF)
        software_enable();
}

uint32_t apic_id(void)
{
    if (mode == APIC_X2APIC)
        return (uint32_t)rdmsr(X2APIC_MSR(APIC_ID));
    if (mode == APIC_XAPIC)
        return mmio[APIC_ID / 4] >> 24;
    return 0;
}

bool apic_cpuid_x2apic_id(uint32_t *id)
{
    uint32_t r[4];
    *id = 0;
    cpuid(0, 0, r);
    if (r[0] < 0x0b)
        return false;
    cpuid(0x0b, 0, r);
    if (!(r[1] & 0xffff))
        return false;
    *id = r[3];
    return true;
}

/* One ICR write; in xAPIC mode wait for the delivery status to go idle. */
static int send_ipi(uint32_t dest, uint32_t low, uint64_t timeout_us, uint32_t *esr)
{
    if (esr)
        *esr = 0;
    if (mode == APIC_X2APIC) {
        wrmsr(X2APIC_MSR(APIC_ICR_LO), ((uint64_t)dest << 32) | low);
        return 0;
    }
    if (mode != APIC_XAPIC || dest > APIC_XAPIC_MAX_ID)
        return -1;
    reg_write(APIC_ESR, 0); /* a write arms the ESR for the next read, §11.5.3 */
    reg_write(APIC_ICR_HI, dest << 24);
    reg_write(APIC_ICR_LO, low); /* the write of the low word sends */
    uint64_t hz = tsc_info()->hz ? tsc_info()->hz : 4000000000ull;
    uint64_t end = rdtsc() + mul_div_u64(timeout_us, hz, 1000000);
    int rc = -1;
    do {
        if (!(reg_read(APIC_ICR_LO) & ICR_PENDING)) {
            rc = 0;
            break;
        }
        cpu_relax();
    } while (rdtsc() < end);
    if (esr) {
        reg_write(APIC_ESR, 0);
        *esr = reg_read(APIC_ESR);
    }
    return rc;
}

int apic_send_init(uint32_t dest, uint64_t timeout_us, uint32_t *esr)
{
    return send_ipi(dest, ICR_INIT | ICR_ASSERT | ICR_LEVEL, timeout_us, esr);
}

int apic_send_sipi(uint32_t dest, uint8_t vector, uint64_t timeout_us, uint32_t *esr)
{
    return send_ipi(dest, ICR_STARTUP | ICR_ASSERT | vector, timeout_us, esr);
}

int apic_send_fixed(uint32_t dest, uint8_t vector, uint64_t timeout_us)
{
    if (vector < 0x20)
        return -1;
    return send_ipi(dest, ICR_FIXED | ICR_ASSERT | vector, timeout_us, 0);
}

void apic_eoi(void)
{
    if (mode != APIC_OFF)
        reg_write(APIC_EOI, 0);
}
