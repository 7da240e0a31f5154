/*
 * arch/numa.h - the machine's NUMA topology: the nodes (SRAT proximity
 * domains, ACPI 6.5 §5.2.16) with their CPUs and memory ranges, and the
 * distances between them (SLIT, §5.2.17).
 *
 * numa_build() is pure (host-testable) and works from a parsed acpi_info;
 * the kernel builds the topology once at start-up (numa_init) and every
 * caller reads it through numa_get(). A node is a proximity domain that
 * holds an enabled CPU or an enabled memory range; nodes are numbered
 * 0..n-1 in ascending domain order. When the SRAT is missing, or the SRAT
 * or the SLIT cannot be trusted, the topology is one node holding every
 * CPU and every address, and the diagnostic says why.
 */
#ifndef HZ_ARCH_NUMA_H
#define HZ_ARCH_NUMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/acpi.h"
#include "mm/memmap.h"

#define NUMA_MAX_NODES 8
#define NUMA_MAX_RANGES 16   /* memory ranges per node */
#define NUMA_LOCAL 10        /* the distance of a node to itself (SLIT normalisation) */
#define NUMA_REMOTE 20       /* the distance assumed between two nodes without a SLIT (as Linux) */
#define NUMA_UNREACHABLE 255 /* SLIT: locality j cannot be reached from i (ACPI 6.5 §5.2.17) */

/* One enabled SRAT Memory Affinity range, bytes [base, base + length). */
struct numa_range {
    uint64_t base, length;
    bool hotpluggable, nonvolatile; /* Memory Affinity Flags bits 1 and 2 */
    uint64_t present;               /* bytes present: length, or for a hot-pluggable range those the
                                       boot memory map lists (numa_mark_present) */
};

struct numa_node {
    uint32_t domain;       /* SRAT proximity domain (0 for the one node without an SRAT) */
    unsigned ncpus;        /* enabled CPUs (SRAT; the MADT's enabled CPUs without an SRAT) */
    uint64_t mem_bytes;    /* sum of its enabled ranges, present bytes after numa_init (one
                              node without an SRAT: 0, numa_init: the usable bytes) */
    uint64_t absent_bytes; /* numa_init: bytes of its hot-pluggable ranges that are absent */
    struct numa_range range[NUMA_MAX_RANGES]; /* ascending base */
    size_t nrange;
    bool memory_only; /* memory present and no CPUs (e.g. a CXL memory expander) */
    bool cpu_only;    /* CPUs and no memory present */
};

struct numa_topo {
    unsigned n;     /* nodes, 1..NUMA_MAX_NODES; 1 when there is no usable SRAT */
    bool from_srat; /* false: one node holding everything, range {0, UINT64_MAX} */
    bool slit;      /* dist[][] from a valid SLIT; else NUMA_LOCAL / NUMA_REMOTE */
    struct numa_node node[NUMA_MAX_NODES];
    uint8_t dist[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* node i to node j */
    const char *why; /* one node: why ("no SRAT", "SLIT rejected", ...); NULL otherwise */
};

/*
 * Build *out from a parsed acpi_info (NULL, !ai->ok or no SRAT: one node,
 * why "no SRAT"; an SRAT that is listed but did not parse: "SRAT rejected"). From the SRAT's
 * enabled CPU and memory affinities: more than NUMA_MAX_NODES domains, more than NUMA_MAX_RANGES
 * ranges in a domain, entries the parser dropped, overlapping ranges or an SRAT with no enabled
 * memory make it one node with a diagnostic. A rejected SLIT (acpi_slit
 * .rejected), or a valid one with fewer localities than the largest node
 * domain + 1, also gives one node: the rule that a topology that
 * cannot be trusted is not guessed at. No SLIT: 10 on the diagonal, 20
 * elsewhere, slit false. Returns 0 with the SRAT's nodes, 1 with one node
 * (out->why says why), -1 for a NULL out.
 */
int numa_build(const struct acpi_info *ai, struct numa_topo *out, struct acpi_diag *d);

/*
 * Node index (0..t->n - 1) of SRAT proximity domain `domain`; -1 when no
 * node has it. Without an SRAT (t->from_srat false) every domain, including
 * the (uint32_t)-1 of a CPU the SRAT does not list, is node 0.
 */
int numa_node_of_domain(const struct numa_topo *t, uint32_t domain);

/* Node index of the node whose memory ranges hold physical address pa; -1
 * when none does. Without an SRAT every address is node 0. */
int numa_node_of_pa(const struct numa_topo *t, uint64_t pa);

/*
 * What of t's SRAT ranges is there. A hot-pluggable range (Memory Affinity
 * Flags bit 1, ACPI 6.5 §5.2.16.2) may describe memory not yet installed:
 * that of empty DIMM slots (QEMU's -m N,slots=S,maxmem=M gives one of
 * M - N and more), absent until a DIMM is plugged, and the firmware's
 * memory map (E820, UEFI) lists only what is installed. Its `present`
 * bytes are those a range of `map` (any type) covers; every other range is
 * present whole (its holes, as the EBDA below 640 KiB, are installed
 * memory the firmware keeps). Each node's mem_bytes becomes the sum of
 * `present`, absent_bytes the rest; memory_only and cpu_only follow the
 * present bytes. Nothing for t without an SRAT.
 */
void numa_mark_present(struct numa_topo *t, const struct memmap *map);

/* Kernel only: build the topology from acpi_get() (after acpi_init), once;
 * the one node's mem_bytes is the usable memory of `map`, SRAT nodes get
 * numa_mark_present(map). The problems go
 * to numa_diag() for the caller to print. */
void numa_init(const struct memmap *map);

/* Kernel only: the topology numa_init() built; one node (why "not built")
 * before it. */
const struct numa_topo *numa_get(void);

/* Kernel only: problems numa_init() found (empty before it). */
const struct acpi_diag *numa_diag(void);

#endif /* HZ_ARCH_NUMA_H */
