#!/usr/bin/env python3
"""tools/bench.py - `make bench`: hugezero against Linux on this machine.

1. Boots hugezero under KVM (direct boot; accelerator and -cpu from
   tools/hzlib/probe.py through `hz run`) with the default clear suite
   (run=clear), and takes the best single-thread GB/s on the large target.
2. Boots it again for 1 GiB demand faults zeroed with that best strategy.
3. Runs tools/linux-bench once as a pilot (every strategy and chunk, warm
   and cold, --repeats 3, and with --threads set to every CPU this process
   may use) in the same session, to pick Linux's best single-thread and
   all-thread cells. Linux there runs one virtualization layer above
   hugezero (the summary says so).
4. Runs BLOCKS alternating blocks (hugezero, linux-bench, hugezero, ...;
   tools/hzlib/benchpair.py): per block one hugezero boot of just the picked
   cells (run=clear of the best cell, run=smp of Linux's best all-thread
   strategy and chunk, run=fault when Linux has a 1 GiB page) and one
   linux-bench of just its picked cells, BLOCK_REPEATS rounds each. Each
   ratio is the median of the block ratios (each block's Hodges-Lehmann
   ratio) with its sign-test interval and the outcome at +-5 %
   (tools/hzlib/blocks.py), so host drift between the sides lies inside it:
     P1 hugezero best single-thread GB/s / Linux best user-space GB/s  (target >= 1.0)
     P2 hugezero 1 GiB fault / Linux 1 GiB hugetlb fault                 (target <= 0.45)
        like with like: the faulting access as the program sees it,
        without mmap (hugezero access_ns of each zeroing fault, Linux
        touch_samples_ns of each repeat)
     P4 hugezero all-thread GB/s / linux-bench --threads N GB/s         (target >= 1.0)
        with the median start skew of hugezero's all-thread cells
5. Sets the REP STOSQ extent curve and the 1 GiB fault GB/s beside the
   published figures of docs/validation.md (tools/hzlib/validation.py).
6.-9. Boot each scenario of the registry that has a bench boot
   (tools/hzlib/scenarios/: its kernel arguments, RAM, CPUs and lines), in
   its order:
6. Boots it for run=faultclear (every fault_clear= model x rep_stosb,
   rep_stosq, the best non-temporal row on 1 GiB and 2 MiB frames) and prints
   its table, the predicted clear_pages() gain and the published anchors
   beside it (tools/hzlib/scenarios/faultclear.py).
7. Runs every pre-zeroing policy on vm_boot (run=policies) and prints the
   vm_boot total time of none, idle and boot and the pre-zeroed fault latency
   (targets: a pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none;
   tools/hzlib/scenarios/policies.py).
8. Boots it with every CPU this process may use for run=vmstart (the VM
   fault-in with T = 1..all CPUs under none, boot, idle, batch and the
   qemu rows) and prints its table, the knees, the pre-zeroed policies' own
   costs and the 2 TB model lines with their ceiling, each labelled MODEL
   (tools/hzlib/scenarios/vmstart.py).
9. Runs run=interference with every CPU (the probe's host models carry
   host-cache-info=on, so the guest's cache leaves are the real ones) and
   prints its summary (tools/hzlib/scenarios/interference.py).
10. Prints the verdict of all those boots as one (tools/hzlib/answers.py):
   each item as the kernel of the boot that measured it decided it, so the
   thread's three answers (fault and the clear_pages() gain, VM start, the
   background zeroer) stand together, and each boot's trust line.

Guest RAM comes from hugetlbfs (tools/hzlib/hugepages.py): pages already free
on a mounted hugetlbfs, or, as root, 2 MiB pages reserved and a hugetlbfs
mounted for each boot and given back after it, also on failure, SIGINT,
SIGTERM or SIGHUP. Otherwise the bench says what to run and marks every
figure "4 KiB-backed". linux-bench gets a 1 GiB page the same way.
Everything lands under results/bench-<UTC time>/ (summary.txt is the printed
summary). These are figures, not tests. `tools/bench.py --ratios-only` stops
after step 5 (the ratios and the validation block, without steps 6-10).
"""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from hzlib import (answers, benchpair, blocks, hugepages, probe, qemu, records,  # noqa: E402
                   steal, validation)
from hzlib import scenarios as registry  # noqa: E402
from hzlib.scenarios.base import BenchContext  # noqa: E402

PILOT_REPEATS = 3  # the pilot linux-bench's --repeats: it only picks the cells
BLOCKS = 6  # block pairs (hugezero, linux-bench); their min..max covers the median 96.9 %
BLOCK_REPEATS = 5  # rounds of every cell in one block, on each side

SAID = set()  # advice printed once per bench, not once per boot


def say_once(text):
    if text not in SAID:
        SAID.add(text)
        print("bench: " + text, flush=True)


def run_group(cmd, **kw):
    """subprocess.run in a new session, so that on any exception (SIGINT,
    SIGTERM) the whole group, hz and its QEMU, is killed before the huge
    pages are given back. stdout/stderr are captured as text."""
    p = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    try:
        out, err = p.communicate()
    except BaseException:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        raise
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def say(text):
    print("bench: " + text, flush=True)


def reserve(nbytes, size=hugepages.SZ_2M, mount=True, host=None, is_root=None, run=subprocess.run,
            mount_base="/run"):
    """hugepages.reserve() with bench's lines; why there are no pages is
    said once per bench."""
    return hugepages.reserve(nbytes, say, say_once, size, mount, host, is_root, run, mount_base)


def give_back(r):
    hugepages.give_back(r, say, lambda p: print("bench: " + p, file=sys.stderr, flush=True))


def ram_note(meta):
    """What backed the guest RAM, for every figure of that boot."""
    ram = meta.get("guest_ram") or hugepages.ANON
    if ram.startswith("hugetlbfs"):
        return "guest RAM " + ram
    thp, rss = meta.get("qemu_thp_bytes") or 0, meta.get("qemu_rss_bytes") or 0
    note = "4 KiB-backed"
    if thp and rss:
        note += (": anonymous RAM, not hugetlbfs; host THP had %d%% of QEMU's memory in 2 MiB pages"
                 % (100 * thp // rss))
    return note


def boot_note(meta):
    """ram_note() and, when meta.json has it, how busy the host was during
    the boot (hz run's host_load): every figure of a loaded host says so."""
    hl = meta.get("host_load")
    if not hl:
        return ram_note(meta)
    return "%s; host load average %.1f, CPUs %s%% busy, %s" % (
        ram_note(meta), max(hl["loadavg_1m_start"], hl["loadavg_1m_end"]), hl["busy_pct"],
        steal.host(hl))


def hz_run(outdir, args, mem, smp=1):
    """Boot once through tools/hz run with smp CPUs; (records, meta.json of
    that boot)."""
    r = None
    try:
        r = reserve(qemu.parse_size(mem))
        cmd = [str(ROOT / "tools/hz"), "run", "--accel", "auto", "-m", mem, "--smp", str(smp),
               "-q", "--results", str(outdir)] + \
            (["--hugepages"] if r else []) + ["--"] + args
        print("bench: " + " ".join(cmd), flush=True)
        p = run_group(cmd)
        sys.stdout.write(p.stderr)  # hz's probe line and diagnostics
    finally:
        give_back(r)
    runs = sorted(d for d in outdir.iterdir() if d.is_dir()) if outdir.exists() else []
    if not runs:
        sys.exit("bench: hz run made no results folder (exit %d)" % p.returncode)
    lines = (runs[-1] / "records.jsonl").read_text().splitlines()
    recs = [json.loads(line) for line in lines if line]
    return recs, json.loads((runs[-1] / "meta.json").read_text())


def gbps(r):
    """The headline figure of a clear record: its median (older records
    without one: gbps)."""
    return float(r["gbps_median"] if "gbps_median" in r else r["gbps"])


def best_clear(recs, threads=1):
    """The fastest verified cell of `threads` threads on the large target
    (the most bytes: a 1 GiB frame, clear_bytes, 64 MiB under TCG)."""
    rows = [r for r in recs if r.get("t") == "clear" and r.get("threads", 1) == threads
            and r.get("verified") and r.get("cache") != "first_touch"]
    big = max((r.get("bytes", 0) for r in rows), default=0)
    return max((r for r in rows if r.get("bytes", 0) == big), key=gbps, default=None)


def fault_pair(faults, lx_fault):
    """Like with like for P2: (hugezero median access_ns of its 1 GiB
    faults that zeroed in the fault, how many, Linux's median faulting write of a 1 GiB hugetlb page
    without mmap (touch_median_ns), whether hugezero's ring 0 was emulated),
    or None when a side lacks that statistic. Medians are the lower median,
    as lib/stats.h."""
    recs = records.zeroing_faults(faults, 1 << 30)
    acc = sorted(r["access_ns"] for r in recs if r.get("access_ns") is not None)
    if not acc or not lx_fault or lx_fault.get("page_bytes") != 1 << 30 \
            or not lx_fault.get("touch_median_ns"):
        return None
    return (acc[(len(acc) - 1) // 2], len(acc), lx_fault["touch_median_ns"],
            any(r.get("emulated_ring0") for r in recs))


def start_skew(hz_smp, threads):
    """The median start skew of run=smp's `threads`-thread cells as % of
    their wall (smp_scale start_skew_pct), or None."""
    v = sorted(r["start_skew_pct"] for r in hz_smp if r.get("t") == "smp_scale"
               and r.get("threads") == threads and isinstance(r.get("start_skew_pct"),
                                                              (int, float)))
    return v[(len(v) - 1) // 2] if v else None


def layers_note(lx_header):
    """Where Linux's figures come from, relative to hugezero's: hugezero is
    a guest of the Linux that linux-bench runs on, so Linux runs one
    virtualization layer above it (and on hardware when that Linux has no
    hypervisor)."""
    hv = lx_header.get("hypervisor")
    if hv:
        return ("layers: Linux (linux-bench) runs one virtualization layer above hugezero: "
                "under hypervisor %s, with hugezero a guest of that Linux" % hv)
    return ("layers: Linux (linux-bench) runs on bare metal (no hypervisor), one virtualization "
            "layer above hugezero, its guest")


def linux_bench(outfile, args):
    """Run build/tools/linux-bench with args and a 1 GiB hugetlb page for it
    when one is free or can be reserved (root), putting the pool back
    afterwards; its output goes to outfile, its records are returned."""
    r = None
    cmd = [str(ROOT / "build/tools/linux-bench")] + args
    try:
        r = reserve(hugepages.SZ_1G, hugepages.SZ_1G, mount=False)
        print("bench: " + " ".join(cmd), flush=True)
        proc = run_group(cmd)
    finally:
        give_back(r)
    outfile.write_text(proc.stdout + proc.stderr)
    return records.extract(proc.stdout)[0]


def run_blocks(out, hz_best, lx_best, lx_all, fault, threads):
    """The alternating blocks (blocks.order): per block one hugezero boot of
    benchpair.hz_args and one linux-bench of benchpair.lx_args; a list of
    (hugezero records, its meta.json, linux records) per block."""
    done = []
    for side, i in blocks.order(BLOCKS):
        if side == "hugezero":
            hz, meta = hz_run(out / ("block%d" % i), benchpair.hz_args(
                hz_best, lx_all, fault, BLOCK_REPEATS), "6G", smp=threads if lx_all else 1)
        else:
            done.append((hz, meta, linux_bench(out / ("linux-block%d.log" % i), benchpair.lx_args(
                lx_best, lx_all, BLOCK_REPEATS, threads))))
    return done


def ratio_line(put, name, what, target, speed, per_block, note, tcg=False):
    """One P line from the block ratios (benchpair.ratio_text), or why not."""
    p = benchpair.decide_blocks(per_block)
    put((benchpair.ratio_text(name, p, what, target, speed, tcg) if p.n else
         "%s (%s): not computed (no block gave both sides' samples)" % (name, what))
        + "  [%s]" % note)


def ratios(out, put, hz, hz_best, faults, linux, ncpu):
    """The pilot's picks, the alternating blocks and the P1, P2, P4 lines.
    P4's cell is Linux's best all-thread cell among the strategies the
    pilot run=clear verified (hz), so that hugezero can run it too."""
    lx_best = best_clear(linux)
    lx_fault = next((r for r in linux if r.get("t") == "linux_fault"), None)
    lx_header = next((r for r in linux if r.get("t") == "header"), {})
    put(layers_note(lx_header))
    if not lx_best:
        put("Linux user-space: no verified clear record (see linux.log): no ratios")
        return
    put("Linux user-space best (median of the pilot's %d): %s %s at chunk %s: %.3f GB/s  "
        "[%s pages]" % (PILOT_REPEATS, lx_best["strategy"], lx_best["cache"], lx_best["chunk"],
                        gbps(lx_best), lx_header.get("page_size", "?")))
    threads = max((r.get("threads", 1) for r in linux if r.get("t") == "clear"), default=1)
    ours = {r.get("strategy") for r in hz if r.get("t") == "clear" and r.get("verified")}
    lx_all = best_clear([r for r in linux if r.get("strategy") in ours], threads) \
        if threads > 1 else None
    if lx_all:
        put("Linux user-space best, %d pinned threads, of hugezero's strategies (median of the "
            "pilot's %d): %s %s at chunk "
            "%s: %.3f GB/s" % (threads, PILOT_REPEATS, lx_all["strategy"], lx_all["cache"],
                               lx_all["chunk"], gbps(lx_all)))
    fault = bool(lx_fault) and lx_fault.get("page_bytes") == 1 << 30
    done = run_blocks(out, hz_best, lx_best, lx_all, fault, ncpu)
    note = "%d blocks of %d rounds a side, hugezero then linux-bench; %s" % (
        BLOCKS, BLOCK_REPEATS, boot_note(done[0][1]))
    tcg = done[0][1].get("accel") == "tcg"
    ratio_line(put, "P1 best clear", "hugezero / Linux GB/s", ">= 1.0", True,
               [benchpair.p1_block(hz, lx, hz_best, lx_best) for hz, _, lx in done], note, tcg)
    if lx_all:
        smp = [r for hz, _, _ in done for r in hz]
        skew = start_skew(smp, threads)
        ratio_line(put, "P4 all-thread clear", "hugezero / Linux GB/s, %d threads" % threads,
                   ">= 1.0", True, [benchpair.p4_block(hz, lx, lx_all) for hz, _, lx in done],
                   "hugezero median start skew %s of the wall; %s" % (
                       "%.2f%%" % skew if skew is not None else "?", note), tcg)
    pair = fault_pair(faults, lx_fault)
    if not fault or not pair:
        why = "no 1 GiB hugetlb page for linux-bench" if lx_fault else "no linux_fault record"
        put("P2: not computed (%s; hugezero faults: %s)" % (why, ", ".join(
            "%.1f ms" % (r["access_ns"] / 1e6) for r in faults
            if r.get("t") == "fault" and r.get("access_ns") is not None) or "none"))
        return
    hz_med, n, lx_ns, emulated = pair
    put("hugezero 1 GiB fault (zero=%s): access median %.1f ms of %d; Linux 1 GiB hugetlb "
        "fault: faulting write median %.1f ms of %s (no mmap; the pilots)"
        % (hz_best["strategy"], hz_med / 1e6, n, lx_ns / 1e6, lx_fault.get("repeats")))
    ratio_line(put, "P2 1 GiB fault", "hugezero / Linux time", "<= 0.45", False,
               [benchpair.p2_block(hz, lx) for hz, _, lx in done],
               note + ("; hugezero's ring 0 emulated: its fault is mostly hypervisor time"
                       if emulated else ""), tcg)


def load():
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def scenarios(out, put, hz, faults, hz_best, ncpu):
    """The boots past the ratios: each scenario of the registry with a
    bench boot (tools/hzlib/scenarios/: run=faultclear, run=policies,
    run=vmstart, run=interference), its lines, and the verdict of all the
    boots as one."""
    boots = [("clear", hz), ("fault", faults)]
    for sc in (sc for sc in registry.ALL if sc.bench):
        b = sc.bench
        recs, meta = hz_run(out / sc.name, b.args(hz_best["strategy"]), b.mem,
                            smp=ncpu if b.all_cpus else 1)
        ctx = BenchContext(boot_note(meta), ncpu if b.all_cpus else 1, hz_best["strategy"],
                           str(out / sc.name))
        for line in b.lines(recs, ctx):
            put(line)
        boots.append((sc.name, recs))
    for line in answers.lines(boots):
        put(line)


def main(argv):
    ratios_only = argv == ["--ratios-only"]
    if argv and not ratios_only:
        sys.exit("usage: tools/bench.py [--ratios-only]")

    def stop(signum, frame):  # SIGTERM/SIGHUP unwind like SIGINT: pages go back
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    out = ROOT / "results" / time.strftime("bench-%Y%m%dT%H%M%SZ", time.gmtime())
    out.mkdir(parents=True)
    summary = []

    def put(line):
        summary.append(line)

    load_before = load()
    print("bench: host %s before the runs (other work on the host makes figures noisy)"
          % load_before, flush=True)
    problem = probe.kvm_problem()
    if problem:
        print("bench: KVM unusable (%s): running under TCG, figures are emulator timings" % problem)

    hz, meta = hz_run(out / "clear", ["run=clear"], "6G")
    hz_best = best_clear(hz)
    if not hz_best:
        sys.exit("bench: the kernel produced no verified clear record")
    faults, _ = hz_run(out / "fault", ["run=fault", "fault_pages=4",
                                       "zero=" + hz_best["strategy"]], "6G")

    ncpu = len(os.sched_getaffinity(0))
    linux = linux_bench(out / "linux.log", ["--repeats", str(PILOT_REPEATS)] +
                        (["--threads", str(ncpu)] if ncpu > 1 else []))
    put("host: %s; %s; %s, -cpu %s" % (probe.host_cpu_string(probe.host_cpu()),
                                       meta.get("qemu_version"), meta.get("accel"),
                                       meta.get("cpu_model")))
    put("hugezero best single-thread (median): %s %s at chunk %s: %.3f GB/s [%s..%s]%s  [%s]" % (
        hz_best["strategy"], hz_best["cache"], hz_best["chunk"], gbps(hz_best),
        hz_best.get("gbps_lo", "?"), hz_best.get("gbps_hi", "?"),
        " NOISY" if hz_best.get("noisy") else "", boot_note(meta)))
    run = next((r for r in hz if r.get("t") == "clear_run"), {})
    summ = next((r for r in hz if r.get("t") == "summary"), {})
    put("clear rounds: %s (stop: %s, seed %s), %s of %s cells noisy; steal %s%% (%s)" % (
        run.get("rounds"), run.get("stop"), run.get("seed"), run.get("noisy_cells"),
        run.get("cells"), summ.get("steal_pct", "?"), summ.get("steal_method", "not measured")))
    ratios(out, put, hz, hz_best, faults, linux, ncpu)
    cpu = next((r.get("cpu") for r in hz if r.get("t") == "header"), None) or {}
    for line in validation.report(cpu, validation.ours(hz + faults)):
        put(line)

    if not ratios_only:
        scenarios(out, put, hz, faults, hz_best, ncpu)
    put("host %s before, %s after" % (load_before, load()))
    text = "bench results (%s)\n" % out + "".join("  %s\n" % line for line in summary)
    (out / "summary.txt").write_text(text)
    print("\n" + text, end="")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:  # the huge pages went back on the way out
        sys.exit("bench: interrupted")
