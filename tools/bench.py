#!/usr/bin/env python3
"""tools/bench.py - `make bench`: hugezero against Linux on this machine.

1. Boots hugezero under KVM (direct boot, -cpu host, -mem-prealloc, and
   hugetlbfs-backed guest RAM when the host has enough free huge pages) with
   the default clear suite (run=clear), and takes the best single-thread
   GB/s on the large target.
2. Boots it again for 1 GiB demand faults zeroed with that best strategy.
3. Runs tools/linux-bench (the same strategies in Linux user space on a
   1 GiB hugetlb page when one is reserved) in the same session.
4. Prints the two ratios of the clear-strategies issue:
     hugezero best single-thread GB/s / Linux best user-space GB/s   (target >= 1.0)
     hugezero 1 GiB fault service time / Linux 1 GiB hugetlb fault    (target <= 0.45)
5. Runs every pre-zeroing policy on vm_boot (run=policies) and prints the
   vm_boot total time of none, idle and boot and the pre-zeroed fault latency
   (targets: a pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none).
Everything lands under results/bench-<UTC time>/. These are figures, not tests.
"""
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from hzlib import probe, qemu, records  # noqa: E402


def hz_run(outdir, args, mem, hugepages):
    cmd = [str(ROOT / "tools/hz"), "run", "--accel", "auto", "-m", mem, "-q",
           "--results", str(outdir)]
    if hugepages:
        cmd.append("--hugepages")
    cmd += ["--"] + args
    print("bench: " + " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, check=False)
    runs = sorted(p for p in outdir.iterdir() if p.is_dir())
    return [json.loads(l) for l in (runs[-1] / "records.jsonl").read_text().splitlines() if l]


def best_clear(recs):
    rows = [r for r in recs if r.get("t") == "clear" and r.get("threads", 1) == 1
            and r.get("verified") and r.get("cache") != "first_touch"
            and r.get("bytes", 0) >= (256 << 20)]
    return max(rows, key=lambda r: float(r["gbps"]), default=None)


def linux_bench(lb):
    """Run linux-bench, reserving one 1 GiB hugetlb page for it when we are
    root and none is free, and putting the pool back afterwards."""
    pool = pathlib.Path("/sys/kernel/mm/hugepages/hugepages-1048576kB")
    saved = None
    try:
        if pool.exists() and int((pool / "free_hugepages").read_text()) == 0:
            saved = int((pool / "nr_hugepages").read_text())
            (pool / "nr_hugepages").write_text(str(saved + 1))
            print("bench: reserved one 1 GiB hugetlb page for linux-bench")
    except OSError as e:
        print("bench: could not reserve a 1 GiB hugetlb page (%s); linux-bench falls back" % e)
        saved = None
    try:
        return subprocess.run([str(lb)], cwd=ROOT, capture_output=True, text=True)
    finally:
        if saved is not None:
            (pool / "nr_hugepages").write_text(str(saved))


def main():
    out = ROOT / "results" / time.strftime("bench-%Y%m%dT%H%M%SZ", time.gmtime())
    out.mkdir(parents=True)
    mem = "6G"
    huge = qemu.hugetlbfs_mount() is not None and qemu.hugepages_free() >= qemu.parse_size(mem)
    problem = probe.kvm_problem()
    if problem:
        print("bench: KVM unusable (%s): running under TCG, figures are emulator timings" % problem)
    print("bench: guest RAM from %s" % ("hugetlbfs" if huge else "ordinary host pages (no free huge pages)"))

    hz = hz_run(out / "clear", ["run=clear"], mem, huge)
    hz_best = best_clear(hz)
    if not hz_best:
        sys.exit("bench: the kernel produced no verified clear record")
    faults = hz_run(out / "fault", ["run=fault", "fault_pages=4", "zero=" + hz_best["strategy"]],
                    mem, huge)
    fault_ns = sorted(r["service_ns"] for r in faults if r.get("t") == "fault"
                      and r.get("bytes") == 1 << 30)

    lb = ROOT / "build/tools/linux-bench"
    proc = linux_bench(lb)
    (out / "linux.log").write_text(proc.stdout + proc.stderr)
    linux = records.extract(proc.stdout)[0]
    lx_best = best_clear(linux)
    lx_fault = next((r for r in linux if r.get("t") == "linux_fault"), None)

    print("\nbench results (%s)" % out)
    print("  hugezero best single-thread: %s %s at chunk %s: %s GB/s" % (
        hz_best["strategy"], hz_best["cache"], hz_best["chunk"], hz_best["gbps"]))
    if lx_best:
        print("  Linux user-space best:        %s at chunk %s: %s GB/s" % (
            lx_best["strategy"], lx_best["chunk"], lx_best["gbps"]))
        print("  ratio 1 (hugezero / Linux GB/s):        %.2f  (target >= 1.0)" % (
            float(hz_best["gbps"]) / float(lx_best["gbps"])))
    else:
        print("  Linux user-space: no verified clear record (see linux.log)")
    if fault_ns and lx_fault and lx_fault.get("page_bytes") == 1 << 30:
        lx_ns = lx_fault["min_ns"] / max(1, lx_fault.get("pages", 1))
        print("  hugezero 1 GiB fault (zero=%s): median %.1f ms; Linux 1 GiB hugetlb fault: %.1f ms"
              % (hz_best["strategy"], fault_ns[len(fault_ns) // 2] / 1e6, lx_ns / 1e6))
        print("  ratio 2 (hugezero / Linux fault time):  %.2f  (target <= 0.45)" % (
            fault_ns[len(fault_ns) // 2] / lx_ns))
    else:
        why = "no 1 GiB hugetlb page reserved on the host" if lx_fault else "no linux_fault record"
        print("  ratio 2: not computed (%s; hugezero faults: %s)" % (
            why, ", ".join("%.1f ms" % (n / 1e6) for n in fault_ns) or "none"))

    pol = hz_run(out / "policies", ["run=policies", "workload=vm_boot", "zero=" + hz_best["strategy"]],
                 "8G", huge)
    runs = {r["policy"]: r for r in pol if r.get("t") == "prezero"}
    none = runs.get("none")
    if none:
        print("  vm_boot %s x %s MiB, zero=%s:" % (none["pages"], none["frame_bytes"] >> 20,
                                                 hz_best["strategy"]))
        for name in ("none", "idle", "boot"):
            r = runs.get(name)
            if r:
                print("    %-5s total %9.3f ms (%6.2f%% of none)  fault p50 %8.1f us  p99 %8.1f us" % (
                    name, r["total_ns"] / 1e6, 100.0 * r["total_ns"] / none["total_ns"],
                    r["lat_p50_ns"] / 1e3, r["lat_p99_ns"] / 1e3))
        print("    targets: pre-zeroed fault <= 20 us; pre-zeroed vm_boot <= 1% of none")
    else:
        print("  policies: no prezero records (see %s)" % (out / "policies"))


if __name__ == "__main__":
    main()
