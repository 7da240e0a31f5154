"""The `hz` command: run, parse, compare, plot (reference: docs/tools.md)."""

import argparse
import os
import shutil
import subprocess
import sys

from . import (BUILD, ROOT, cli_answers, compare, hugepages, lava, loadcheck, phases, plot,
               probe, qemu, qemurun, records as rec, report, results, runner, steal)
from .cli_report import cmd_plot, cmd_report, load_all, print_diags


def _linux_bench(outdir, args):
    """Run build/tools/linux-bench ARGS (its own --size/--chunks/... options,
    not the kernel's); its records go to linux.jsonl, its output to linux.log."""
    exe = os.path.join(BUILD, "tools", "linux-bench")
    if not os.access(exe, os.X_OK):
        print("hz: --linux: %s is not built (make linux-bench); skipped" % exe, file=sys.stderr)
        return
    print("hz: running %s %s" % (os.path.relpath(exe, ROOT), " ".join(args)), file=sys.stderr)
    p = subprocess.run([exe] + args, stdout=subprocess.PIPE)
    log = os.path.join(outdir, "linux.log")
    with open(log, "wb") as f:
        f.write(p.stdout)
    recs, diags = rec.extract(p.stdout, log)
    print_diags(diags)
    results.write_jsonl(os.path.join(outdir, "linux.jsonl"), recs)
    print("hz: linux-bench exit %d, %d records in linux.jsonl" % (p.returncode, len(recs)),
          file=sys.stderr)


def _stale_kernel_note():
    """hz run boots build/hugezero.elf as it is; say so when a kernel source
    is newer (a kernel older than these tools refuses the options they pass,
    such as backing=, with a config error)."""
    elf = os.path.join(BUILD, "hugezero.elf")
    if not os.path.exists(elf):
        return  # qemu.BootConfig says it is missing
    built = os.path.getmtime(elf)
    for d in ("boot", "arch", "mm", "lib", "kernel", "measure", "scenarios"):
        for top, _, files in os.walk(os.path.join(ROOT, d)):
            for name in files:
                path = os.path.join(top, name)
                if name.endswith((".c", ".h", ".asm", ".inc")) and os.path.getmtime(path) > built:
                    print("hz: warning: %s is newer than build/hugezero.elf; run `make` first "
                          "(an older kernel may refuse options hz passes, e.g. backing=)"
                          % os.path.relpath(path, ROOT), file=sys.stderr)
                    return


def _say(text):
    print("hz: " + text, file=sys.stderr, flush=True)


def _auto_hugepages(a, host=None, is_root=None, run=subprocess.run, mount_base="/run",
                    kvm_problem=probe.kvm_problem):
    """`--hugepages auto`: a hugepages.Reservation of the guest RAM for this
    run, or None after saying why the guest RAM stays on 4 KiB pages (TCG,
    the QEMU arguments give their own memory backends, not root, too few
    pages granted)."""
    if a.accel == "tcg" or (a.accel == "auto" and kvm_problem()):
        _say("guest RAM on 4 KiB pages: TCG (emulator timings: the backing changes nothing worth "
             "a pool)")
        return None
    if any("memory-backend" in q for q in a.qemu_arg):
        _say("guest RAM as the --qemu-arg memory backends say (--hugepages auto left alone)")
        return None
    return hugepages.reserve(qemu.parse_size(a.mem), _say,
                             lambda why: _say("guest RAM on 4 KiB pages: " + why),
                             host=host, is_root=is_root, run=run, mount_base=mount_base)


def cmd_run(a):
    reservation = _auto_hugepages(a) if a.hugepages == "auto" else None
    try:
        return _run(a, reservation is not None or a.hugepages == "yes")
    finally:
        hugepages.give_back(reservation, _say, _say)


def _run(a, huge):
    if not a.kernel:
        _stale_kernel_note()
    try:
        cfg = qemu.BootConfig(boot=a.boot, accel=a.accel, mem=a.mem, smp=a.smp, cpu=a.cpu,
                              args=" ".join(a.args), prealloc=not a.no_prealloc,
                              hugepages=huge, machine=a.machine, kernel=a.kernel,
                              extra=a.qemu_arg, modules=a.module)
        outdir = None
        try:
            outdir = runner.new_results_dir(a.results, a.boot)
        except OSError as e:
            raise qemu.ConfigError("--results %s: cannot make a results folder there: %s"
                                   % (a.results, e.strerror or e))
        console = None if a.quiet else qemurun.Console(records=a.records)
        load = a.load if a.load is not None else (2 if a.load_check else 0)
        if load:
            print("hz: %d busy thread(s) beside the guest (--load)" % load, file=sys.stderr)
        out = runner.boot(cfg, outdir, a.timeout, console,
                          say=lambda text: print("hz: " + text, file=sys.stderr, flush=True),
                          busy_threads=load, tell_backing=True, hugepages=a.hugepages)
    except qemu.ConfigError as e:
        print("hz: %s" % e, file=sys.stderr)
        if outdir and not os.path.exists(os.path.join(outdir, "serial.log")):
            shutil.rmtree(outdir)  # nothing ran: leave no empty results folder
        return runner.NO_STATUS
    print_diags(out.diags)
    if a.quiet:  # the console was not shown: a bad option still says which and why
        for r in out.records:
            if r.get("t") == "config":
                print("hz: bad option %r: %s; accepted: %s" % (
                    r.get("option"), r.get("error"), r.get("accepted")), file=sys.stderr)
    if out.stream_problems and out.status == 0:
        print("hz: FAIL: the kernel passed, but %d record stream problem(s) above: records were "
              "lost or broken on the way; exit status 1" % len(out.stream_problems),
              file=sys.stderr)
    note = runner.no_status_note(out)
    if note:
        print("hz: " + note, file=sys.stderr)
        if out.status == runner.NO_STATUS:
            hint = probe.msr_hint(out.stderr)
            if hint:
                print("hz: " + hint, file=sys.stderr)
    if out.timed_out:
        print("hz: timed out after %s s; QEMU killed" % a.timeout, file=sys.stderr)
    rs = results.ResultSet(outdir, out.records, out.meta)
    try:
        files, msgs = plot.plot_all(rs, outdir)
    except RuntimeError as e:
        files, msgs = [], [str(e)]
    if files:
        msgs = [m for m in msgs if "no " not in m]
    elif rs.of_type("clear") or rs.of_type("fault"):
        msgs = msgs or ["no plots"]
    else:
        msgs = []
    for m in msgs:
        print("hz: plot: %s" % m, file=sys.stderr)
    if a.linux:
        _linux_bench(outdir, a.linux_arg)
    page = os.path.join(outdir, "report.html")
    report.write(rs, page, files)
    print("hz: exit status %d (%s), %d records, accel %s, %.1f s"
          % (out.status, out.status_name, len(out.records), out.accel, out.elapsed))
    line = phases.phase_line(out.records, out.elapsed, out.meta.get("first_output_s"))
    if line:
        print("hz: " + line)
    hl = out.meta.get("host_load")
    if hl:
        print("hz: host: load average %.2f -> %.2f, CPUs %s%% busy, %s"
              % (hl["loadavg_1m_start"], hl["loadavg_1m_end"], hl["busy_pct"],
                 steal.host(hl)), file=sys.stderr)
    silent = 0
    if a.load_check:
        lines, silent = loadcheck.report(out.records, load)
        with open(os.path.join(outdir, "load-check.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        for line in lines:
            print("hz: " + line)
    for path in (outdir, page):
        rel = os.path.relpath(path)
        print(path if rel.startswith("..") else rel)
    if a.load_check and out.status == 0 and silent:
        return 1
    if out.stream_problems and out.status == 0:
        return 1
    return out.status


def cmd_answers(a):
    """make answers: the boots of cli_answers.plan() through cmd_run, then
    the block."""
    def boot(b, base, ncpu):
        return cmd_run(parser().parse_args(
            ["run", "--accel", cli_answers.choose_accel(a.accel), "-m", b.mem, "--smp",
             str(ncpu), "--timeout", str(b.timeout), "--hugepages", "auto", "--results", base] +
            (["-q"] if a.quiet else []) + ["--"] + b.args))
    return cli_answers.run(a.accel, a.budget, os.path.abspath(a.results), a.args, boot, _say)


def cmd_parse(a):
    try:
        with open(a.log, "rb") as f:
            data = f.read()
    except OSError as e:
        print("hz: %s" % e, file=sys.stderr)
        return 2
    raw = []
    recs, diags = rec.extract(data, a.log, raw)
    print_diags(diags)
    problems = rec.check_stream(recs, raw, diags, a.log)
    print_diags(problems)
    nruns = len(rec.runs(recs))
    if a.out:
        try:
            names = results.write_records(a.out, recs)
        except OSError as e:
            print("hz: parse: cannot write into -o %s: %s" % (a.out, e.strerror or e),
                  file=sys.stderr)
            return 2
        print("hz: %d records in %d run(s) -> %s" % (len(recs), nruns,
              ", ".join(os.path.join(a.out, n) for n in names)), file=sys.stderr)
    else:
        results.dump_jsonl(sys.stdout, recs)
        print("hz: %d records in %d run(s)" % (len(recs), nruns), file=sys.stderr)
    if problems:
        print("hz: FAIL: %d record stream problem(s): records were lost or broken in transit"
              % len(problems), file=sys.stderr)
        return 1
    return 0 if recs else 1


def cmd_compare(a):
    sets = load_all(a.paths)
    if sets is None:
        return 2
    diff = [d for rs in sets[1:] for d in compare.differences(sets[0], rs)]
    if a.strict and diff:
        print("hz: compare --strict: the results come from different machines (%s)"
              % "; ".join(diff), file=sys.stderr)
        return 2
    lines, n = (compare.compare(*sets, tol_pct=a.tolerance) if len(sets) == 2
                else compare.fleet(sets))
    print("\n".join(lines))
    return 0 if n else 1


def cmd_lava_job(a):
    try:
        text = lava.render_job(a.device, a.kernel_url, a.args, run=a.run, job_name=a.job_name,
                               device_type=a.device_type, job_minutes=a.job_timeout,
                               boot_minutes=a.boot_timeout, test_minutes=a.test_timeout)
    except lava.LavaError as e:
        print("hz: lava-job: %s" % e, file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def cmd_lava_fetch(a):
    if not a.log and not a.server:
        print("hz: lava-fetch: give --server URL (or --log FILE)", file=sys.stderr)
        return 2
    try:
        if a.log:
            with open(a.log, encoding="utf-8", errors="replace") as f:
                job, text = {"id": a.job_id}, f.read()
        else:
            job, text = lava.fetch(a.server, a.job_id, a.token or os.environ.get("LAVA_TOKEN"))
        outdir = a.out or os.path.join(ROOT, "results", "lava-%s" % a.job_id)
        recs, diags, cases = lava.write_results(outdir, text, job, a.server)
    except (lava.LavaError, OSError) as e:
        print("hz: lava-fetch: %s" % e, file=sys.stderr)
        return 2
    print_diags(diags)
    print("hz: job %s: %d records, %d LAVA test cases" % (a.job_id, len(recs), len(cases)),
          file=sys.stderr)
    print(outdir)
    return 0 if recs else 1


def _positive(kind):
    """An argparse type: a number of `kind` above zero."""
    def check(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a number" % text)
        if not v > 0:
            raise argparse.ArgumentTypeError("must be above 0, not %s" % text)
        return v
    return check


def _tolerance(text):
    """An argparse type: a tolerance in percent, 0.01 to 100."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % text)
    if not 0.01 <= v <= 100:
        raise argparse.ArgumentTypeError("a percentage from 0.01 to 100, not %s" % text)
    return v


def parser():
    p = argparse.ArgumentParser(prog="hz", description="hugezero host tools (docs/tools.md)")
    sub = p.add_subparsers(dest="cmd", required=True)

    r = sub.add_parser("run", help="boot build/hugezero.elf in QEMU and save a results folder")
    r.add_argument("--boot", choices=qemu.BOOTS, default="direct")
    r.add_argument("--accel", choices=("auto", "kvm", "tcg"), default="auto")
    r.add_argument("--cpu", help="QEMU -cpu model (default: probed under KVM, max under TCG)")
    r.add_argument("-m", dest="mem", default="4G", help="guest RAM (QEMU -m, default 4G)")
    r.add_argument("--smp", type=_positive(int), default=1)
    r.add_argument("--machine", default="q35", help="QEMU machine type (default q35)")
    r.add_argument("--no-prealloc", action="store_true", help="no -mem-prealloc under KVM")
    r.add_argument("--hugepages", nargs="?", const="yes", choices=("yes", "auto"),
                   help="guest RAM from hugetlbfs: yes (default when given alone): pages "
                        "already free on a mounted hugetlbfs, else fail; auto: as root under "
                        "KVM, grow the pool and mount one for this run and put both back "
                        "after, else say why and use 4 KiB pages (make run)")
    r.add_argument("--timeout", type=_positive(float), default=600, help="seconds (default 600)")
    r.add_argument("--results", default=os.path.join(ROOT, "results"),
                   help="base folder for results/<UTC timestamp>-<boot>/")
    r.add_argument("--kernel", help="kernel ELF (default build/hugezero.elf)")
    r.add_argument("--linux", action="store_true", help="also run build/tools/linux-bench")
    r.add_argument("--linux-arg", action="append", default=[], metavar="ARG",
                   help="argument for linux-bench, e.g. --linux-arg --quick (repeatable)")
    r.add_argument("--module", action="append", default=[], metavar="FILE",
                   help="boot module (repeatable; direct boot: one, as -initrd)")
    r.add_argument("--qemu-arg", action="append", default=[], metavar="ARG",
                   help="extra QEMU argument, e.g. --qemu-arg -drive --qemu-arg file=d.img "
                        "(repeatable; values may start with '-')")
    r.add_argument("-q", "--quiet", action="store_true", help="do not stream the console")
    r.add_argument("--records", action="store_true",
                   help="show the @hz record lines on the console too (always in serial.log "
                        "and records.jsonl)")
    r.add_argument("--load", type=_positive(int), metavar="N",
                   help="run N busy-loop threads beside the guest (a deliberately loaded host)")
    r.add_argument("--load-check", action="store_true",
                   help="loaded-host check: --load 2 unless given; exit 1 when a timed cell "
                        "carries neither a noisy nor a steal flag")
    r.add_argument("args", nargs="*", help="kernel arguments (after --)")
    r.set_defaults(func=cmd_run)

    an = sub.add_parser("answers", help="the thread's three answers (fault, VM start, background "
                        "zeroer) from one boot under one QEMU-time budget: answers.txt")
    an.add_argument("--accel", choices=("auto", "kvm", "tcg"), default="auto")
    an.add_argument("--budget", type=_positive(float), default=cli_answers.BUDGET_MAX,
                    help="QEMU seconds, at most (and default) %d" % cli_answers.BUDGET_MAX)
    an.add_argument("--results", default=os.path.join(ROOT, "results"),
                    help="base folder for results/<UTC timestamp>-direct/")
    an.add_argument("-q", "--quiet", action="store_true", help="do not stream the console")
    an.add_argument("args", nargs="*", help="more kernel arguments (after --): bw_ceiling=")
    an.set_defaults(func=cmd_answers)

    pa = sub.add_parser("parse", help="extract records from a serial capture")
    pa.add_argument("log")
    pa.add_argument("-o", dest="out", help="write records.jsonl and CSV into this folder")
    pa.set_defaults(func=cmd_parse)

    c = sub.add_parser("compare", help="compare two result sets, or one row per machine for more")
    c.add_argument("paths", nargs="+", metavar="RESULTS")
    c.add_argument("--tolerance", type=_tolerance, default=5.0, metavar="PCT",
                   help="a ratio within ±PCT %% is a tie (default 5, as the kernel's tolerance=)")
    c.add_argument("--strict", action="store_true",
                   help="refuse (status 2) results from different machines: another QEMU -cpu, "
                        "CPU model or host CPU")
    c.set_defaults(func=cmd_compare)

    lj = sub.add_parser("lava-job", help="write a LAVA job definition (lab/lava/) to stdout")
    lj.add_argument("--device", choices=sorted(lava.DEVICES), required=True)
    lj.add_argument("--kernel-url", required=True,
                    help="file://, http:// or https:// URL of hugezero.elf")
    lj.add_argument("--args", default="", help="kernel arguments (results=lava is added)")
    lj.add_argument("--run", help="scenario list, as run= (default: the kernel's default run)")
    lj.add_argument("--device-type", help="LAVA device type (default qemu / x86-pxe-grub)")
    lj.add_argument("--job-name")
    lj.add_argument("--job-timeout", type=int, default=20, help="minutes (default 20)")
    lj.add_argument("--boot-timeout", type=int, default=5, help="minutes (default 5)")
    lj.add_argument("--test-timeout", type=int, default=15, help="minutes (default 15)")
    lj.set_defaults(func=cmd_lava_job)

    lf = sub.add_parser("lava-fetch", help="a finished LAVA job's log as a results folder")
    lf.add_argument("job_id")
    lf.add_argument("--server", help="lava-server base URL, e.g. https://lava.example.org")
    lf.add_argument("--token", help="REST API token (default: $LAVA_TOKEN)")
    lf.add_argument("--log", help="read the job log from this file instead of the server")
    lf.add_argument("-o", dest="out", help="results folder (default results/lava-JOB_ID)")
    lf.set_defaults(func=cmd_lava_fetch)

    pl = sub.add_parser("plot", help="draw PNG plots of a result set")
    pl.add_argument("path")
    pl.add_argument("-o", dest="out", help="output folder (default: beside the records)")
    pl.set_defaults(func=cmd_plot)

    rp = sub.add_parser("report", help="one self-contained HTML page: verdict, plots, tables, "
                                       "machine facts (two result sets: side by side)")
    rp.add_argument("paths", nargs="+", metavar="RESULTS", help="one result set, or A B")
    rp.add_argument("-o", dest="out", help="output file (default RESULTS/report.html; "
                    "A B: ./report-A-vs-B.html; --text: stdout)")
    rp.add_argument("--text", action="store_true",
                    help="plain text for a mailing-list reply, at most 40 lines of 80 columns: "
                         "machine facts, the verdict, strategy x call size, the command that "
                         "reproduces the run (A B: B against A, item by item and cell by cell)")
    rp.add_argument("--full", action="store_true",
                    help="with --text: everything (every comparison, the key table, machine "
                         "facts, QEMU's command line; A B: hz compare's table)")
    rp.set_defaults(func=cmd_report)
    return p


# Options whose value is passed on to another program and so often starts
# with '-' (argparse would take `--qemu-arg -drive` for two options).
PASS_THROUGH = ("--qemu-arg", "--linux-arg")


def join_pass_through(argv):
    """argv with `--qemu-arg VALUE` written as `--qemu-arg=VALUE`, which
    argparse accepts whatever VALUE starts with; nothing after `--` changes."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] == "--":
            return out + argv[i:]
        if argv[i] in PASS_THROUGH and i + 1 < len(argv):
            out.append(argv[i] + "=" + argv[i + 1])
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def main(argv=None):
    a = parser().parse_args(join_pass_through(sys.argv[1:] if argv is None else argv))
    try:
        return a.func(a)
    except KeyboardInterrupt:
        print("hz: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
