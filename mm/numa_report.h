/*
 * mm/numa_report.h - the NUMA topology (arch/numa.h) against the frame
 * allocator (mm/frames.h), on the console: the header's `numa` member and
 * the `numa` record with its start-up self-check (docs/results.md). In mm/
 * because the self-check takes frames: arch/ includes nothing of mm/ but
 * its leaves (docs/hacking.md "Map").
 */
#ifndef HZ_MM_NUMA_REPORT_H
#define HZ_MM_NUMA_REPORT_H

struct rec;

/* Kernel only: the header's `numa` member into r: an object with nodes,
 * source, slit, why, dist and node[] (docs/results.md, `header`). */
void numa_rec_member(struct rec *r);

/* Kernel only, after mm_init: split free 1 GiB frames that cross a node
 * boundary into the small pool, print the topology, take one 2 MiB and (when
 * the node has one) one 1 GiB frame from every node and check each lies in
 * its node (given back, never written), and emit the `numa` record, one
 * `numa_range` record per range and `numa.frames` pass or fail. */
void numa_report(void);

#endif /* HZ_MM_NUMA_REPORT_H */
