#!/usr/bin/env python3
"""tools/bench.py - `make bench`: hugezero against Linux on this machine.

1. Boots hugezero under KVM (direct boot; accelerator and -cpu from
   tools/hzlib/probe.py through `hz run`) with the default clear suite
   (run=clear), and takes the best single-thread GB/s on the large target.
2. Boots it again for 1 GiB demand faults zeroed with that best strategy.
3. Runs tools/linux-bench (the same strategies in Linux user space on a
   1 GiB hugetlb page, warm and cold, and with --threads set to every CPU
   this process may use) in the same session. Linux there runs one
   virtualization layer above hugezero (the summary says so).
4. Prints the two ratios of the clear-strategies issue as Hodges-Lehmann
   ratios with their Moses intervals and the outcome at +-5 %
   (tools/hzlib/decide.py, the rule of lib/compare.h):
     P1 hugezero best single-thread GB/s / Linux best user-space GB/s  (target >= 1.0)
        from the two cells' samples_ns (time per byte)
     P2 hugezero 1 GiB fault / Linux 1 GiB hugetlb fault                 (target <= 0.45)
     P4 hugezero all-thread GB/s / linux-bench --threads N GB/s         (target >= 1.0)
        run=smp on every CPU with Linux's best all-thread strategy and
        chunk, and the median start skew of its cells
        like with like: the faulting access as the program sees it,
        without mmap (hugezero access_ns of each zeroing fault, Linux
        touch_samples_ns of each repeat)
   linux-bench runs with --repeats 10, so each side has at least the 6
   samples a verdict needs.
5. Sets the REP STOSQ extent curve and the 1 GiB fault GB/s beside the
   published figures of docs/validation.md (tools/hzlib/validation.py).
6. Boots it for run=faultclear (every fault_clear= model x rep_stosb,
   rep_stosq, the best non-temporal row on 1 GiB and 2 MiB frames) and prints
   its table, the predicted clear_pages() gain and the published anchors
   beside it (tools/hzlib/faultclear.py).
7. Runs every pre-zeroing policy on vm_boot (run=policies) and prints the
   vm_boot total time of none, idle and boot and the pre-zeroed fault latency
   (targets: a pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none).
8. Boots it with every CPU this process may use for run=vmstart (the VM
   fault-in with T = 1..all CPUs under none, boot, idle, batch and the
   qemu rows) and prints its table, the knees, the pre-zeroed policies' own
   costs and the 2 TB model lines with their ceiling, each labelled MODEL
   (tools/hzlib/vmstart.py).
9. Runs run=interference with every CPU (the probe's host models carry
   host-cache-info=on, so the guest's cache leaves are the real ones) and
   prints its summary (tools/hzlib/interference.py).
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
summary). These are figures, not tests.
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
from hzlib import (answers, decide, faultclear, hugepages, interference, probe,  # noqa: E402
                   qemu, records, steal, validation, vmstart)

LINUX_REPEATS = 10  # linux-bench --repeats: at least decide.MIN_N samples per cell

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
    return float(r.get("gbps_median", r["gbps"]))


def best_clear(recs, threads=1):
    rows = [r for r in recs if r.get("t") == "clear" and r.get("threads", 1) == threads
            and r.get("verified") and r.get("cache") != "first_touch"
            and r.get("bytes", 0) >= (256 << 20)]
    return max(rows, key=gbps, default=None)


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


def hl_ratio(base, base_bytes, ours, our_bytes, speed):
    """hugezero (ours) against Linux (base) by decide.compare: (ratio, lo,
    hi, outcome, n ours, n base), the ratio hugezero / Linux of GB/s
    (speed: the inverse of the time-per-byte ratio) or of time; outcome
    "faster" means hugezero is faster. None when a side has no samples."""
    if not base or not ours:
        return None
    c = decide.compare(base, base_bytes, ours, our_bytes)
    if speed:
        def inv(x):
            return 1 / x if x else float("inf")
        return inv(c.ratio), inv(c.hi), inv(c.lo), c.outcome, c.nb, c.na
    return c.ratio, c.lo, c.hi, c.outcome, c.nb, c.na


def p1(hz_best, lx_best):
    """P1: the best hugezero cell against the best Linux cell (hl_ratio of
    their samples_ns, GB/s), or None when one lacks samples (older
    records)."""
    return hl_ratio(lx_best.get("samples_ns"), lx_best.get("bytes"),
                    hz_best.get("samples_ns"), hz_best.get("bytes"), True)


def p2(faults, lx_fault):
    """P2: hugezero's 1 GiB faults that zeroed in the fault (access_ns, run
    order) against Linux's 1 GiB hugetlb faulting writes (touch_samples_ns),
    hl_ratio of time; None when a side lacks them."""
    acc = [r["access_ns"] for r in records.zeroing_faults(faults, 1 << 30)
           if r.get("access_ns")]
    if not lx_fault or lx_fault.get("page_bytes") != 1 << 30:
        return None
    return hl_ratio(lx_fault.get("touch_samples_ns"), 1 << 30, acc, 1 << 30, False)


def p4(hz_smp, lx_all):
    """P4: hugezero's all-thread clear (run=smp's `clear` record of the most
    threads, same strategy as Linux's best all-thread cell) against
    linux-bench --threads N's, both wall time from the first CPU's start to
    the last CPU's end (GB/s, hl_ratio of samples_ns); None when a side has
    no such cell or no samples."""
    if not lx_all:
        return None
    rows = [r for r in hz_smp if r.get("t") == "clear" and r.get("verified")
            and r.get("threads") == lx_all.get("threads")
            and r.get("strategy") == lx_all.get("strategy")]
    if not rows:
        return None
    return hl_ratio(lx_all.get("samples_ns"), lx_all.get("bytes"),
                    rows[0].get("samples_ns"), rows[0].get("bytes"), True)


def start_skew(hz_smp, threads):
    """The median start skew of run=smp's `threads`-thread cells as % of
    their wall (smp_scale start_skew_pct), or None."""
    v = sorted(r["start_skew_pct"] for r in hz_smp if r.get("t") == "smp_scale"
               and r.get("threads") == threads and isinstance(r.get("start_skew_pct"),
                                                              (int, float)))
    return v[(len(v) - 1) // 2] if v else None


def ratio_text(name, r, what, target):
    """'P1 ...: 1.23 [1.10..1.35] hugezero faster (±5%, n=14/10; target >= 1.0)'."""
    ratio, lo, hi, outcome, n_hz, n_lx = r
    word = "tie (±%g%%)" % (decide.TOL_X100 / 100) if outcome == decide.TIE else \
        "hugezero " + outcome if outcome in (decide.FASTER, decide.SLOWER) else outcome
    return "%s (%s): %.2f [%.2f..%.2f] %s (Hodges-Lehmann, n=%d/%d; target %s)" % (
        name, what, ratio, lo, hi, word, n_hz, n_lx, target)


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


def linux_bench(lb):
    """Run linux-bench with a 1 GiB hugetlb page for it when one is free or
    can be reserved (root), putting the pool back afterwards."""
    r = None
    n = len(os.sched_getaffinity(0))
    try:
        r = reserve(hugepages.SZ_1G, hugepages.SZ_1G, mount=False)
        return run_group([str(lb), "--repeats", str(LINUX_REPEATS)] +
                         (["--threads", str(n)] if n > 1 else []))
    finally:
        give_back(r)


def load():
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def main():
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
    faults, fmeta = hz_run(out / "fault", ["run=fault", "fault_pages=4",
                                           "zero=" + hz_best["strategy"]], "6G")

    proc = linux_bench(ROOT / "build/tools/linux-bench")
    (out / "linux.log").write_text(proc.stdout + proc.stderr)
    linux = records.extract(proc.stdout)[0]
    lx_best = best_clear(linux)
    lx_fault = next((r for r in linux if r.get("t") == "linux_fault"), None)
    lx_header = next((r for r in linux if r.get("t") == "header"), {})
    lx_page = lx_header.get("page_size", "?")

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
    put(layers_note(lx_header))
    if lx_best:
        put("Linux user-space best (median): %s %s at chunk %s: %.3f GB/s  [%s pages]" % (
            lx_best["strategy"], lx_best["cache"], lx_best["chunk"], gbps(lx_best), lx_page))
        r1 = p1(hz_best, lx_best)
        put((ratio_text("P1 best clear", r1, "hugezero / Linux GB/s", ">= 1.0") if r1 else
             "P1 best clear (hugezero / Linux GB/s): %.2f, ratio of medians: a side has no "
             "samples_ns (target >= 1.0)" % (gbps(hz_best) / gbps(lx_best)))
            + "  [%s]" % boot_note(meta))
    else:
        put("Linux user-space: no verified clear record (see linux.log)")
    threads = max((r.get("threads", 1) for r in linux if r.get("t") == "clear"), default=1)
    lx_all = best_clear(linux, threads) if threads > 1 else None
    if lx_all:
        put("Linux user-space best, %d pinned threads (median): %s %s at chunk %s: %.3f GB/s" % (
            threads, lx_all["strategy"], lx_all["cache"], lx_all["chunk"], gbps(lx_all)))
        smp, smeta = hz_run(out / "smp", ["run=smp", "smp_strategies=" + lx_all["strategy"],
                                          "smp_chunk=%dK" % (lx_all["chunk"] // 1024),
                                          "smp_fill=none"], "6G", smp=threads)
        r4 = p4(smp, lx_all)
        skew = start_skew(smp, threads)
        put((ratio_text("P4 all-thread clear", r4, "hugezero / Linux GB/s, %d threads" % threads,
                        ">= 1.0") if r4 else
             "P4 all-thread clear: not computed (no %d-thread %s cell with samples on a side)"
             % (threads, lx_all["strategy"]))
            + "; hugezero median start skew %s of the wall  [%s]"
            % ("%.2f%%" % skew if skew is not None else "?", boot_note(smeta)))
    pair = fault_pair(faults, lx_fault)
    if pair:
        hz_med, n, lx_ns, emulated = pair
        put("hugezero 1 GiB fault (zero=%s): access median %.1f ms of %d; Linux 1 GiB hugetlb "
            "fault: faulting write median %.1f ms of %s (no mmap)"
            % (hz_best["strategy"], hz_med / 1e6, n, lx_ns / 1e6, lx_fault.get("repeats")))
        r2 = p2(faults, lx_fault)
        put((ratio_text("P2 1 GiB fault", r2, "hugezero / Linux time", "<= 0.45") if r2 else
             "P2 1 GiB fault (hugezero / Linux time): %.2f, ratio of medians: Linux gave no "
             "touch_samples_ns (target <= 0.45)" % (hz_med / lx_ns))
            + "  [%s%s]" % (boot_note(fmeta), "; hugezero's ring 0 emulated: its fault is "
                            "mostly hypervisor time" if emulated else ""))
    else:
        why = "no 1 GiB hugetlb page for linux-bench" if lx_fault else "no linux_fault record"
        put("P2: not computed (%s; hugezero faults: %s)" % (why, ", ".join(
            "%.1f ms" % (r["access_ns"] / 1e6) for r in faults
            if r.get("t") == "fault" and r.get("access_ns") is not None) or "none"))

    cpu = next((r.get("cpu") for r in hz if r.get("t") == "header"), None) or {}
    for line in validation.report(cpu, validation.ours(hz + faults)):
        put(line)

    fc, fcmeta = hz_run(out / "faultclear", ["run=faultclear"], "6G")
    lines = faultclear.report(fc)
    put("run=faultclear  [%s]:" % boot_note(fcmeta) if lines else
        "run=faultclear: no faultclear records (see %s)" % (out / "faultclear"))
    for line in lines:
        put("  " + line)

    pol, pmeta = hz_run(out / "policies", ["run=policies", "workload=vm_boot",
                                           "zero=" + hz_best["strategy"]], "8G")
    runs = {r["policy"]: r for r in pol if r.get("t") == "prezero"}
    none = runs.get("none")
    if none:
        put("vm_boot %s x %s MiB, zero=%s  [%s]:" % (none["pages"], none["frame_bytes"] >> 20,
                                                     hz_best["strategy"], boot_note(pmeta)))
        for name in ("none", "idle", "boot"):
            r = runs.get(name)
            if r:
                p99 = r.get("lat_p99_ns")  # null below 100 faults: their max, not a p99
                put("  %-5s total %9.3f ms (%6.2f%% of none)  fault p50 %8.1f us  p99 %s  (n=%s)"
                    % (name, r["total_ns"] / 1e6, 100.0 * r["total_ns"] / none["total_ns"],
                       r["lat_p50_ns"] / 1e3, "%8.1f us" % (p99 / 1e3) if p99 is not None
                       else "n/a (needs 100 faults)", r.get("lat_n")))
        put("  targets: pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none")
    else:
        put("policies: no prezero records (see %s)" % (out / "policies"))

    ncpu = len(os.sched_getaffinity(0))
    vm, vmeta = hz_run(out / "vmstart", ["run=vmstart", "zero=" + hz_best["strategy"]], "8G",
                       smp=ncpu)
    lines = vmstart.report(vm)
    put("run=vmstart, %d CPUs, zero=%s  [%s]:" % (ncpu, hz_best["strategy"], boot_note(vmeta))
        if lines else "run=vmstart: no vmstart records (see %s)" % (out / "vmstart"))
    for line in lines:
        put("  " + line)
    inter, imeta = hz_run(out / "interference", ["run=interference"], "6G", smp=ncpu)
    lines = interference.summary(inter)
    put("run=interference, %d CPUs  [%s]:" % (ncpu, boot_note(imeta)) if lines
        else "run=interference: no records (see %s)" % (out / "interference"))
    for line in lines:
        put(line)
    for line in answers.lines([("clear", hz), ("fault", faults), ("faultclear", fc),
                               ("policies", pol), ("vmstart", vm), ("interference", inter)]):
        put(line)
    put("host %s before, %s after" % (load_before, load()))
    text = "bench results (%s)\n" % out + "".join("  %s\n" % line for line in summary)
    (out / "summary.txt").write_text(text)
    print("\n" + text, end="")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the huge pages went back on the way out
        sys.exit("bench: interrupted")
