/*
 * kernel/cpu_record.c - CPU identification and features as record members.
 */
#include "kernel/cpu_record.h"
#include "arch/cpu.h"

static const struct cpu_feature feats[] = {
    X86_FEATURE_SSE2,    X86_FEATURE_AVX,       X86_FEATURE_AVX2,   X86_FEATURE_AVX512F,
    X86_FEATURE_ERMS,    X86_FEATURE_FSRM,      X86_FEATURE_FZRM,   X86_FEATURE_FSRS,
    X86_FEATURE_MOVDIRI, X86_FEATURE_MOVDIR64B, X86_FEATURE_CLZERO, X86_FEATURE_CLFLUSHOPT,
    X86_FEATURE_CLWB,    X86_FEATURE_PDPE1GB,   X86_FEATURE_NX,     X86_FEATURE_RDTSCP,
    X86_FEATURE_INVTSC,  X86_FEATURE_X2APIC,    X86_FEATURE_XSAVE,  X86_FEATURE_HYPERVISOR,
};

void rec_cpu_members(struct rec *r)
{
    const struct cpu_ident *id = cpu_ident();
    rec_obj_begin(r, "cpu");
    rec_str(r, "vendor", id->vendor);
    rec_u64(r, "family", id->family);
    rec_u64(r, "model", id->model);
    rec_u64(r, "stepping", id->stepping);
    rec_str(r, "brand", id->brand);
    rec_obj_end(r);
    rec_str(r, "hypervisor", id->hypervisor);
    rec_bool(r, "tcg", cpu_is_tcg());
    rec_obj_begin(r, "features");
    for (unsigned i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
        rec_bool(r, feats[i].name, cpu_has(feats[i]));
    rec_obj_end(r);
}

void rec_microcode(struct rec *r, const struct cpu_microcode *m)
{
    if (m->known)
        rec_hex(r, "microcode", m->rev);
    else
        rec_str(r, "microcode", "unknown");
    rec_str(r, "microcode_source", m->source);
}
