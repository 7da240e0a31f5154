/*
 * arch/numa.c - the NUMA topology from the SRAT (ACPI 6.5 §5.2.16) and the
 * SLIT (§5.2.17): see arch/numa.h. The builder is pure; the kernel's copy
 * (numa_init/numa_get) is at the end.
 */
#include "arch/numa.h"

#include "lib/kstring.h"
#include "mm/memmap.h"

/* The one node: every CPU the MADT enables, every address. */
static int one_node(const struct acpi_info *ai, struct numa_topo *t, const char *why)
{
    memset(t, 0, sizeof *t);
    t->n = 1;
    t->why = why;
    size_t cpus = ai && ai->madt.present ? ai->madt.ncpu_enabled : 0;
    t->node[0].ncpus = cpus ? (unsigned)cpus : 1;
    t->node[0].range[0] = (struct numa_range){.base = 0, .length = UINT64_MAX};
    t->node[0].nrange = 1;
    t->dist[0][0] = NUMA_LOCAL;
    return 1;
}

/* Index of domain in t->node[0..t->n), adding it (sorted) when absent;
 * -1 when the table is full. */
static int node_slot(struct numa_topo *t, uint32_t domain)
{
    unsigned i = 0;
    while (i < t->n && t->node[i].domain < domain)
        i++;
    if (i < t->n && t->node[i].domain == domain)
        return (int)i;
    if (t->n == NUMA_MAX_NODES)
        return -1;
    memmove(&t->node[i + 1], &t->node[i], (t->n - i) * sizeof t->node[0]);
    memset(&t->node[i], 0, sizeof t->node[i]);
    t->node[i].domain = domain;
    t->n++;
    return (int)i;
}

/* Insert range m into node x in base order; false when the node is full. */
static bool add_range(struct numa_node *x, const struct acpi_mem_affinity *m)
{
    if (x->nrange == NUMA_MAX_RANGES)
        return false;
    size_t i = x->nrange++;
    while (i > 0 && x->range[i - 1].base > m->base) {
        x->range[i] = x->range[i - 1];
        i--;
    }
    x->range[i] =
        (struct numa_range){m->base, m->length, m->hotpluggable, m->nonvolatile, m->length};
    x->mem_bytes += m->length;
    return true;
}

/* Two enabled memory affinities that share an address; false when none. */
static bool overlap(const struct acpi_srat *s, size_t *a, size_t *b)
{
    for (size_t i = 0; i < s->nmem; i++)
        for (size_t j = i + 1; j < s->nmem; j++) {
            const struct acpi_mem_affinity *x = &s->mem[i], *y = &s->mem[j];
            if (x->enabled && y->enabled && x->length && y->length &&
                x->base < y->base + y->length && y->base < x->base + x->length) {
                *a = i, *b = j;
                return true;
            }
        }
    return false;
}

/* The SRAT's nodes into t; NULL, or why it cannot be trusted (diagnosed). */
static const char *srat_nodes(const struct acpi_srat *s, struct numa_topo *t, struct acpi_diag *d)
{
    size_t a, b;
    if (s->cpu_dropped || s->mem_dropped) {
        acpi_diag(d, "numa: the SRAT has more entries than kept (%zu CPU, %zu memory dropped)",
                  s->cpu_dropped, s->mem_dropped);
        return "SRAT entries dropped";
    }
    for (size_t i = 0; i < s->nmem; i++) {
        const struct acpi_mem_affinity *m = &s->mem[i];
        if (!m->enabled || m->length == 0)
            continue;
        if (m->base + m->length < m->base) {
            acpi_diag(d, "numa: SRAT memory 0x%llx + 0x%llx passes 2^64",
                      (unsigned long long)m->base, (unsigned long long)m->length);
            return "SRAT range past 2^64";
        }
        int k = node_slot(t, m->domain);
        if (k < 0) {
            acpi_diag(d, "numa: more than %u proximity domains", NUMA_MAX_NODES);
            return "too many domains";
        }
        if (!add_range(&t->node[k], m)) {
            acpi_diag(d, "numa: domain %u has more than %u memory ranges", m->domain,
                      NUMA_MAX_RANGES);
            return "too many ranges";
        }
    }
    if (t->n == 0) {
        acpi_diag(d, "numa: the SRAT lists no enabled memory");
        return "SRAT without memory";
    }
    if (overlap(s, &a, &b)) {
        acpi_diag(d, "numa: SRAT memory 0x%llx (domain %u) and 0x%llx (domain %u) overlap",
                  (unsigned long long)s->mem[a].base, s->mem[a].domain,
                  (unsigned long long)s->mem[b].base, s->mem[b].domain);
        return "SRAT ranges overlap";
    }
    for (size_t i = 0; i < s->ncpu; i++) {
        if (!s->cpu[i].enabled)
            continue;
        int k = node_slot(t, s->cpu[i].domain);
        if (k < 0) {
            acpi_diag(d, "numa: more than %u proximity domains", NUMA_MAX_NODES);
            return "too many domains";
        }
        t->node[k].ncpus++;
    }
    for (unsigned i = 0; i < t->n; i++) {
        t->node[i].memory_only = t->node[i].ncpus == 0;
        t->node[i].cpu_only = t->node[i].nrange == 0;
    }
    return NULL;
}

/* Distances from the SLIT (or the defaults); NULL, or why not (diagnosed). */
static const char *distances(const struct acpi_slit *sl, struct numa_topo *t, struct acpi_diag *d)
{
    if (sl->rejected)
        return "SLIT rejected";         /* the parser said why */
    for (unsigned i = 0; i < t->n; i++) /* every domain first: row i reads all of them */
        if (sl->present && t->node[i].domain >= sl->n) {
            acpi_diag(d, "numa: SLIT has %u localities, SRAT domain %u is beyond them", sl->n,
                      t->node[i].domain);
            return "SLIT does not cover the SRAT";
        }
    for (unsigned i = 0; i < t->n; i++) {
        for (unsigned j = 0; j < t->n; j++)
            t->dist[i][j] = sl->present ? sl->dist[t->node[i].domain][t->node[j].domain]
                            : i == j    ? NUMA_LOCAL
                                        : NUMA_REMOTE;
    }
    t->slit = sl->present;
    return NULL;
}

int numa_build(const struct acpi_info *ai, struct numa_topo *out, struct acpi_diag *d)
{
    if (!out)
        return -1;
    if (!ai || !ai->ok || !ai->srat.present) /* a listed SRAT was reported by its parser */
        return one_node(
            ai, out, ai && acpi_find_table(&ai->tables, "SRAT", 0) ? "SRAT rejected" : "no SRAT");
    memset(out, 0, sizeof *out);
    const char *why = srat_nodes(&ai->srat, out, d);
    if (!why)
        why = distances(&ai->slit, out, d);
    if (why)
        return one_node(ai, out, why);
    out->from_srat = true;
    return 0;
}

int numa_node_of_domain(const struct numa_topo *t, uint32_t domain)
{
    if (!t->from_srat)
        return 0;
    for (unsigned i = 0; i < t->n; i++)
        if (t->node[i].domain == domain)
            return (int)i;
    return -1;
}

int numa_node_of_pa(const struct numa_topo *t, uint64_t pa)
{
    if (!t->from_srat)
        return 0;
    for (unsigned i = 0; i < t->n; i++)
        for (size_t k = 0; k < t->node[i].nrange; k++) {
            const struct numa_range *r = &t->node[i].range[k];
            if (pa >= r->base && pa - r->base < r->length)
                return (int)i;
        }
    return -1;
}

void numa_mark_present(struct numa_topo *t, const struct memmap *map)
{
    for (unsigned i = 0; t->from_srat && i < t->n; i++) {
        struct numa_node *x = &t->node[i];
        x->mem_bytes = x->absent_bytes = 0;
        for (size_t k = 0; k < x->nrange; k++) {
            struct numa_range *r = &x->range[k];
            uint64_t end = r->base + r->length;
            r->present = r->hotpluggable ? 0 : r->length;
            for (size_t j = 0; r->hotpluggable && j < map->n; j++) {
                uint64_t lo = map->r[j].base > r->base ? map->r[j].base : r->base;
                uint64_t hi = map->r[j].end < end ? map->r[j].end : end;
                r->present += hi > lo ? hi - lo : 0;
            }
            x->mem_bytes += r->present;
            x->absent_bytes += r->length - r->present;
        }
        x->memory_only = x->ncpus == 0 && x->mem_bytes;
        x->cpu_only = x->ncpus && !x->mem_bytes;
    }
}

#ifndef HZ_HOSTED
static struct numa_topo topo;
static struct acpi_diag topo_diag;
static bool built;

void numa_init(const struct memmap *map)
{
    if (numa_build(acpi_get(), &topo, &topo_diag) != 0)
        topo.node[0].mem_bytes = memmap_usable_bytes(map);
    else
        numa_mark_present(&topo, map);
    built = true;
}

const struct numa_topo *numa_get(void)
{
    if (!built)
        one_node(NULL, &topo, "not built");
    return &topo;
}

const struct acpi_diag *numa_diag(void) { return &topo_diag; }
#endif
