/*
 * scenarios/interference/residency.c - where a victim of the `interference`
 * scenario lives (scenarios/interference/interference.h): its time per access alone, classed
 * against reference accesses of the same kind measured in the same phase
 * (sets known to fit in L2, to fit in the LLC but not in L2, and of 4 x
 * LLC). The class boundaries are the geometric midpoints of adjacent
 * references: latencies of the levels differ by factors (about 4 ns L2,
 * 10-40 ns LLC, 80-150 ns DRAM on current x86: Drepper, "What every
 * programmer should know about memory", 2007, §3.3, and the vendors'
 * optimisation manuals), so the middle on a log scale is the fair split.
 */
#include "scenarios/interference/interference.h"

const char *if_level_name(enum if_level l)
{
    return l == IF_L2 ? "L2" : l == IF_LLC ? "LLC" : l == IF_DRAM ? "DRAM" : "?";
}

bool if_llc_separated(const struct if_refs *r)
{
    /* the LLC reference at least IF_SEP_PCT % faster than DRAM */
    return r->llc && r->dram &&
           (unsigned __int128)r->llc * (100 + IF_SEP_PCT) <= (unsigned __int128)r->dram * 100;
}

enum if_level if_classify(const struct if_refs *r, uint64_t t)
{
    unsigned __int128 tt = (unsigned __int128)t * t;
    if (!r->l2 || !r->llc || !r->dram || !t)
        return IF_LEVEL_UNKNOWN;
    if (tt <= (unsigned __int128)r->l2 * r->llc)
        return IF_L2;
    if (!if_llc_separated(r)) /* no LLC level to tell apart: beyond L2 is DRAM */
        return IF_DRAM;
    return tt <= (unsigned __int128)r->llc * r->dram ? IF_LLC : IF_DRAM;
}
