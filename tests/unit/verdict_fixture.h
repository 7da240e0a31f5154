/*
 * tests/unit/verdict_fixture.h - fixture cell sets shared by
 * tests/unit/test_verdict.c (the clear items) and
 * tests/unit/test_verdict_items.c (fault, VM start, trust, verdict_open).
 */
#ifndef HZ_TESTS_VERDICT_FIXTURE_H
#define HZ_TESTS_VERDICT_FIXTURE_H

#include "lib/verdict.h"
/* The cell kinds, each declared by its scenario (scenarios/NAME/kind.c). */
#include "scenarios/clear/cells.h"
#include "scenarios/fault/fault.h"
#include "scenarios/faultclear/faultclear.h"
#include "scenarios/interference/interference.h"
#include "scenarios/numa/numa.h"
#include "scenarios/smp/smp.h"
#include "scenarios/vmstart/vmstart.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

extern struct vd_cell cells[64];
extern uint64_t store[64][CMP_MAX_N]; /* cells[i]'s samples */
extern size_t ncells;
extern const struct vd_facts kvm; /* nested KVM, CPL 3, 0.01 % steal */
extern struct vd_item it[VD_MAX_ITEMS];
extern size_t nit; /* items in it[] (the last decide()) */
extern struct vd_trust tr;
extern struct vd_log lg;

/* n samples of cell c spread evenly over +-spread_pct % around median_ns,
 * `bursts` of them slowed 1.3x..1.8x; c's samples and stats. */
void fill(struct vd_cell *c, uint64_t median_ns, unsigned spread_pct, size_t n, unsigned bursts);
/* Verified cells (11 samples, +-2 % / +-4 % for faults) appended to cells[]. */
struct vd_cell *clear_cell(const char *s, bool nt, uint64_t chunk, unsigned gbps_x10);
void smp_cell(const struct vd_kind *k, const char *s, unsigned threads, unsigned gbps_x10);
void fault_cell(bool prezeroed, uint64_t ns);
/* A verified run=faultclear rep_stosb cell (11 samples, +-4 %): model
 * "linux_4k" or "linux_batch=32M", prezeroed = the clear taken out. */
void faultclear_cell(const char *model, bool prezeroed, uint64_t frame, uint64_t ns);
/* The sets (cells[] from 0): 12, 9 and 9 cold clear cells on a 1 GiB target. */
void milan(void);
void spr(void);
void noisy(void);
/* verdict_decide() of cells[] under f into it, tr, lg. */
void decide(const struct vd_facts *f);
/* The console lines of it[i] as lib/verdict_text.c renders them (the facts
 * of the last decide()); a static buffer. */
const char *rendered(size_t i);
/* The index in it[] of the item whose key is `key` (the last decide());
 * fails the test when there is none. */
size_t at(const char *key);
/* The logged comparison of item `item` between cells ia and ib (fails the test when absent). */
const struct vd_cmp *logged(size_t item, size_t ia, size_t ib);

#endif /* HZ_TESTS_VERDICT_FIXTURE_H */
