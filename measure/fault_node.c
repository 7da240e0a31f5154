/*
 * measure/fault_node.c - where the fault scenarios' CPU runs and where their
 * frames come from (issue 22, measure/fault_pool.h): the `fault_node=` and
 * `zero_node=` options (node indices of arch/numa.h), the faulting CPU of
 * a node, and the `fault_numa` record that says where a run faulted and
 * whether every pool frame lay in the node it was asked from.
 */
#include "arch/numa.h"
#include "kernel/smp.h"
#include "lib/cmdline.h"
#include "lib/fmt.h"
#include "lib/print.h"
#include "lib/record.h"
#include "lib/results.h"
#include "measure/fault_pool.h"

static int zero_node = -1, cpu_node = -1; /* -1: not given */

static int node_opt(const struct option *o, const char *v, char *err, size_t n)
{
    if (v[0] < '0' || v[0] >= '0' + NUMA_MAX_NODES || v[1])
        return hz_snprintf(err, n, "want a NUMA node index 0..%u", NUMA_MAX_NODES - 1), -1;
    *(int *)o->dest = v[0] - '0';
    return 0;
}

HZ_OPTION(opt_fault_node, .name = "fault_node", .kind = OPT_CUSTOM, .parse = node_opt,
          .dest = &cpu_node, .accepted = "0..7 (a node of the `numa` record)",
          .help = "the NUMA node whose first online CPU takes run=fault's faults (default: the "
                  "boot CPU)");
HZ_OPTION(opt_zero_node, .name = "zero_node", .kind = OPT_CUSTOM, .parse = node_opt,
          .dest = &zero_node, .accepted = "0..7 (a node of the `numa` record)",
          .help = "the NUMA node every fault pool takes its frames from (default: any)");

int fault_zero_node(void) { return zero_node; }

int fault_cpu_node(void) { return cpu_node; }

int fault_node_cpu(int node)
{
    const struct numa_topo *t = numa_get();
    if (node < 0)
        return 0;
    for (unsigned i = 0; i < smp_count(); i++) {
        const struct smp_cpu *c = smp_cpu(i);
        int n = numa_node_of_domain(t, (uint32_t)c->domain);
        if (c->state == SMP_CPU_ONLINE && (n == node || (n < 0 && !t->from_srat && !node)))
            return (int)i;
    }
    return -1;
}

void fault_numa_record(const struct fault_env *env, unsigned cpu)
{
    const struct numa_topo *t = numa_get();
    int cn = numa_node_of_domain(t, (uint32_t)smp_cpu(cpu)->domain);
    uint32_t in = 0;
    for (uint32_t i = 0; i < env->nframes; i++) {
        uint64_t pa = pool_phys(&env->pool, i);
        int a = numa_node_of_pa(t, pa), b = numa_node_of_pa(t, pa + env->frame_bytes - 1);
        in += env->node < 0 || (a == env->node && b == env->node);
    }
    char buf[HZ_RECORD_MAX];
    struct rec r;
    rec_begin(&r, buf, sizeof(buf), "fault_numa");
    rec_u64(&r, "fault_cpu", cpu);
    rec_i64(&r, "fault_node", cn < 0 && !t->from_srat ? 0 : cn);
    rec_i64(&r, "zero_node", env->node);
    rec_u64(&r, "frames", env->nframes);
    rec_u64_opt(&r, "frames_asked", env->asked != 0, env->asked);
    rec_u64(&r, "frames_in_node", in);
    rec_u64(&r, "distance", cn >= 0 && env->node >= 0 ? t->dist[cn][env->node] : 0);
    record_emit(&r);
    char from[24] = "any node";
    if (env->node >= 0)
        hz_snprintf(from, sizeof(from), "node %d", env->node);
    char got[80] = "";
    if (env->asked > env->nframes) /* the free frames of the size ran out (RAM) */
        hz_snprintf(got, sizeof(got), "; asked for %zu pages, RAM has %zu free %llu MiB frames",
                    env->asked, env->nframes, (unsigned long long)(env->frame_bytes >> 20));
    kprintf("faults: on CPU %u (node %d), frames from %s (%u of %zu in that node)%s\n", cpu, cn,
            from, in, env->nframes, got);
    if (in != env->nframes)
        result_fail("fault.zero_node", "%zu of %zu pool frames lie outside node %d",
                    env->nframes - in, env->nframes, env->node);
    else if (env->node >= 0)
        result_pass("fault.zero_node");
}
