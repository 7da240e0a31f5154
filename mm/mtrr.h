/*
 * mm/mtrr.h - decoding the memory-type range registers and the PAT from raw
 * MSR values (SDM Vol. 3A §11.11 "Memory Type Range Registers", §11.12
 * "Page Attribute Table", chapter 11 "Memory Cache Control", which newer
 * SDM editions renumber): the MTRR memory type of a physical range [base, end), "mixed" when the
 * range holds several types (what a 2 MiB or 1 GiB page must not span, §11.11.9), and the effective
 * type of a page given its PAT entry (§11.5.2.2, Table 11-7).
 *
 * The kernel reads the MSRs once (mtrr_read, kernel builds only) and hands
 * the raw values to mtrr_decode(); everything else is portable and pure.
 */
#ifndef HZ_MM_MTRR_H
#define HZ_MM_MTRR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MSRs (SDM Vol. 4, Table 2-2). IA32_MTRRCAP 0xfe, IA32_MTRR_DEF_TYPE
 * 0x2ff and IA32_PAT 0x277 are in arch/x86.h. */
#define MSR_IA32_MTRR_PHYSBASE(n) (0x200u + 2u * (n))
#define MSR_IA32_MTRR_PHYSMASK(n) (0x201u + 2u * (n))
#define MSR_IA32_MTRR_FIX64K_00000 0x250u
#define MSR_IA32_MTRR_FIX16K_80000 0x258u
#define MSR_IA32_MTRR_FIX16K_A0000 0x259u
#define MSR_IA32_MTRR_FIX4K_C0000 0x268u /* ... 0x26f: IA32_MTRR_FIX4K_F8000 */

/* Register fields (SDM Vol. 3A §11.11.1, §11.11.2). */
#define MTRRCAP_VCNT 0xffu          /* number of variable ranges */
#define MTRRCAP_FIX (1u << 8)       /* fixed ranges supported */
#define MTRRCAP_WC (1u << 10)       /* WC type supported */
#define MTRR_DEF_TYPE_TYPE 0xffu    /* default memory type */
#define MTRR_DEF_TYPE_FE (1u << 10) /* fixed ranges enabled */
#define MTRR_DEF_TYPE_E (1u << 11)  /* MTRRs enabled */
#define MTRR_PHYSMASK_V (1u << 11)  /* variable range valid */

#define MTRR_VAR_MAX 32                    /* variable ranges decoded (VCNT may say more) */
#define MTRR_FIXED_MSRS 11                 /* fixed-range MSRs, each 8 sub-ranges */
#define MTRR_FIXED_RANGES 88               /* sub-ranges below 1 MiB */
#define PAT_POWER_ON 0x0007040600070406ULL /* WB WT UC- UC WB WT UC- UC (§11.12.4) */

/* Memory types: MTRR encodings (Table 11-8) and PAT encodings (Table
 * 11-10, which adds UC- = 7), then the decoder's own results. */
enum mem_cache {
    MC_UC = 0,
    MC_WC = 1,
    MC_WT = 4,
    MC_WP = 5,
    MC_WB = 6,
    MC_UC_MINUS = 7,   /* PAT only */
    MC_MIXED = 16,     /* the range holds more than one MTRR type */
    MC_UNDEFINED = 17, /* overlapping variable ranges without a defined result */
    MC_NONE = 18,      /* no MTRRs (CPUID.01H:EDX.MTRR[bit 12] = 0) */
    MC_RESERVED = 19,  /* a reserved encoding */
};

/* Raw register values, as the kernel read them. */
struct mtrr_msrs {
    bool has_mtrr;                   /* CPUID.01H:EDX.MTRR[bit 12]; nothing else read when false */
    bool has_pat;                    /* CPUID.01H:EDX.PAT[bit 16]; `pat` read only when true */
    uint8_t maxphyaddr;              /* CPUID.80000008H:EAX[7:0]; 36 when the leaf is absent */
    uint64_t cap;                    /* IA32_MTRRCAP */
    uint64_t def_type;               /* IA32_MTRR_DEF_TYPE */
    uint64_t fixed[MTRR_FIXED_MSRS]; /* mtrr_fixed_msr[] order; read when cap.FIX */
    uint64_t physbase[MTRR_VAR_MAX], physmask[MTRR_VAR_MAX]; /* min(VCNT, MAX) pairs */
    uint64_t pat;                                            /* IA32_PAT */
};

/* The fixed-range MSR numbers in struct mtrr_msrs.fixed[] order. */
extern const uint32_t mtrr_fixed_msr[MTRR_FIXED_MSRS];

/* Decoded state; read it through the functions below. */
struct mtrr_state {
    bool valid, has_mtrr, enabled, fixed_enabled, has_pat;
    int error; /* mtrr_decode's result */
    uint8_t def_type;
    uint8_t maxphyaddr;
    unsigned vcnt, nvar; /* VCNT as reported; pairs decoded */
    uint8_t fixed[MTRR_FIXED_RANGES];
    struct {
        bool on;
        uint8_t type;
        uint64_t base, end; /* [base, end), from a contiguous mask */
    } var[MTRR_VAR_MAX];
    uint64_t pat;
};

enum {
    MTRR_OK = 0,
    MTRR_EINVAL = -1, /* NULL argument, end <= base, end past 2^MAXPHYADDR */
    MTRR_EPHYS = -2,  /* maxphyaddr outside 32..52 */
    MTRR_ETYPE = -3,  /* reserved type in DEF_TYPE, a fixed range or a valid variable range */
    MTRR_EMASK = -4,  /* a valid PHYSMASK that is not contiguous (SDM §11.11.3 allows
                       * interleaved ranges; this decoder does not model them) */
    MTRR_EVCNT = -5,  /* VCNT > MTRR_VAR_MAX: ranges beyond could change any type */
    MTRR_ESTATE = -6, /* query on a state whose decode failed */
};

/*
 * Decode raw MSR values into s. Returns MTRR_OK, or an MTRR_E* code with a
 * one-line explanation in err (cap bytes, may be NULL), e.g. "PHYSMASK3
 * 0xff00f00800 is not contiguous". On error s->valid is false and range
 * queries return MTRR_ESTATE; the PAT functions still work.
 */
int mtrr_decode(struct mtrr_state *s, const struct mtrr_msrs *raw, char *err, size_t cap);

/* Result of a range query. */
struct mtrr_range {
    int type;       /* enum mem_cache: the one type of the whole range, MC_MIXED,
                     * MC_UNDEFINED (everywhere undefined) or MC_NONE */
    int first_type; /* type at base */
    uint64_t split; /* mixed: first address whose type differs from base's */
    int split_type; /* mixed: the type at split */
    int overlap[2]; /* variable ranges of the first undefined overlap, or -1 */
};

/*
 * MTRR memory type of the physical range [base, end) (bytes), following
 * SDM Vol. 3A §11.11.4.1: MTRRs disabled (DEF_TYPE.E = 0) -> UC; below
 * 1 MiB with FE = 1 -> the fixed range; else the matching variable ranges
 * (one: its type; several: the same type, UC if any is UC, WT for WT + WB,
 * otherwise undefined); none -> the default type. A range holding two
 * types is MC_MIXED: as a large page it is the implementation-defined case
 * of §11.11.9. MTRR_EINVAL for end <= base or end > 2^MAXPHYADDR.
 */
int mtrr_range_type(const struct mtrr_state *s, uint64_t base, uint64_t end, struct mtrr_range *r);

/* Type of PAT entry idx (0..7) of an IA32_PAT value (SDM Vol. 3A §11.12.2):
 * MC_UC..MC_UC_MINUS, or MC_RESERVED for encodings 2, 3, 8..255 or idx > 7. */
int pat_entry_type(uint64_t pat, unsigned idx);

/*
 * Effective memory type of a page (SDM Vol. 3A §11.5.2.2, Table 11-7,
 * CR0.CD = NW = 0) from its MTRR type and its PAT entry type. MC_NONE as
 * the MTRR type (no MTRRs) yields the PAT type, UC- read as UC. MC_MIXED,
 * MC_UNDEFINED or MC_RESERVED in, or a type outside the table: that value
 * (MC_RESERVED for a type that is not an enum mem_cache value).
 */
int mem_cache_effective(int mtrr_type, int pat_type);

/* Effective type of [base, end) mapped with PAT index 0 (PWT = PCD = PAT =
 * 0, as the direct map does): PAT entry 0 (WB when the CPU has no PAT)
 * combined with mtrr_range_type(). Returns the type, or an MTRR_E* code
 * (negative) from mtrr_range_type. */
int mtrr_pat0_type(const struct mtrr_state *s, uint64_t base, uint64_t end);

/* "UC", "WC", "WT", "WP", "WB", "UC-", "mixed", "undefined", "none",
 * "reserved"; "reserved" for any other value. */
const char *mem_cache_name(int type);

/*
 * The decoded setup as text lines for the kernel to print: a summary
 * (enabled, default type, VCNT, MAXPHYADDR), runs of fixed ranges of one
 * type, each valid variable range, and the PAT entries. Start with
 * *iter = 0; each call writes one line (no newline) and returns true, false
 * after the last. A failed decode gives one line saying so.
 */
bool mtrr_layout_line(const struct mtrr_state *s, size_t *iter, char *buf, size_t cap);

#ifndef HZ_HOSTED
/* Read every MSR above on the calling CPU (needs cpu_init() first); the
 * MSRs CPUID says are absent are left 0. Kernel only. */
void mtrr_read(struct mtrr_msrs *raw);
#endif

#endif /* HZ_MM_MTRR_H */
