"""hz report --text --full DIR: all of one result set as plain text (the
short form, for a mailing-list reply, is report_short.py).

ASCII only, at most WIDTH (80) columns, no tabs, in four blocks:
  verdict   the kernel's `verdict` records, item by item, as the console
            prints them (verdict_text.item_lines), each with the `compare`
            records behind it when the run has them, in phrase.py's one
            sentence ("X takes 1.43x [..] the time of Y (slower), n=18/10"),
            and the cells it used; a record written before issue 29 also
            gives its whole stored sentence;
  key table the single-thread clear cells of the largest target: strategy/
            chunk, median GB/s with its 95 % interval, and the ratio against
            Linux's clear_page (rep_stosb in 4 KiB calls, same cache state)
            as the Hodges-Lehmann ratio of their samples_ns with its Moses
            interval and outcome at +-5 % (compare_stat.judge, the rule of
            hz compare); records without samples give the ratio of medians,
            marked "(medians)"; under TCG no outcome (clear_grid.py's marks);
  machine   CPU brand/vendor/family/model, microcode and where it was read,
            hypervisor and accelerator, caches (header `cache`), guest RAM
            backing, TSC, steal (the run's and the worst cell's);
  reproduce the commit and the hz run command rebuilt from meta.json (boot,
            accelerator, -cpu, memory, CPUs, --hugepages as given, load, the
            kernel command line less the backing= hz run adds itself), and
            the QEMU command line hz ran, verbatim.
"""

import shlex
import textwrap
from typing import List

from . import (compare_rows, compare_stat, phrase, qemu, report, results, steal,
               verdict_text)
from .compare_stat import num
from .scenarios import clear_grid, interference

WIDTH = 80
BASELINE = clear_grid.BASELINE
ROW = "  %-5s %-16s %-17s %-18s %s"  # cache, cell, GB/s [lo..hi], ratio [lo..hi], outcome


def ascii_text(text) -> str:
    return (str(text).replace("\u00b1", "+-").replace("\u2013", "-").replace("\u00d7", "x")
            .replace("\t", " ").encode("ascii", "replace").decode())


def wrap(text, indent="", first=None, width=WIDTH) -> List[str]:
    """text wrapped to width columns (long words broken), first line
    prefixed by first (default indent), the others by indent."""
    return textwrap.wrap(ascii_text(text), width, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False) or [first or indent]


def verdict_block(rs) -> List[str]:
    """The verdict of the last run (a reboot loop has several), item by
    item: its lines (verdict_text.item_lines, as the console prints them),
    then its `compare` records in phrase.py's sentence and the cells it
    used."""
    out = ["Verdict"]
    by_run = report.verdicts(rs)
    if not by_run:
        return out + ["  no verdict records (a run that stopped early, or made before them)"]
    last = max(by_run)
    items = by_run[last]
    for item in report.item_order(items):
        r = items[item]
        for line in verdict_text.item_lines(r):
            body = line.lstrip(" ")
            out += wrap(body, " " * 6, " " * (len(line) - len(body)))
        if "label" not in r:  # an old record: its whole stored sentence too
            out += wrap("stored text: %s" % (r.get("text") or r.get("reason") or "-"),
                        " " * 6, " " * 4)
        for c in rs.of_type("compare"):
            if c.get("item") == item and c.get("run", 0) == last:
                out += wrap(phrase.of_compare_record(c), " " * 6, " " * 4)
        if isinstance(r.get("cells"), list) and r["cells"]:
            out += wrap("cells: " + ", ".join(map(str, r["cells"])), " " * 6, " " * 4)
    return out


def _cell_name(r):
    return "%s/%s" % (r.get("strategy"), results.human_size(r.get("chunk")))


def key_table(rs, tol_pct=compare_stat.TOL_PCT) -> List[str]:
    cells = [r for r in rs.of_type("clear") if r.get("threads", 1) == 1
             and r.get("cache") != "first_touch" and num(r.get("bytes"))]
    if not cells:
        return ["Key table", "  no single-thread clear cells"]
    target = max(r["bytes"] for r in cells)
    cells = [r for r in cells if r["bytes"] == target]
    out = ["Key table: clear, one CPU, %s target: each strategy's fastest call size"
           % results.human_size(target),
           "  and its 4K calls. x clear_page: GB/s over %s/4K (Linux clear_page) in"
           % BASELINE[0],
           "  the same cache state, Hodges-Lehmann ratio [95%% Moses interval], +-%g%%"
           % tol_pct]
    tcg = results.tcg(rs)
    if tcg:  # the emulator's timings: no outcome (clear_grid.py)
        out.append("  %s: GB/s marked %s, every ratio ?"
                   % (clear_grid.TCG_SAYS, clear_grid.TCG_MARK))
    head = ROW % ("cache", "strategy/chunk", "GB/s [interval]", "x clear_page", "outcome")
    out.append(head.rstrip())
    left = []
    for cache in sorted({str(r.get("cache")) for r in cells}):
        mine = [r for r in cells if str(r.get("cache")) == cache]
        base = next((r for r in mine if (r.get("strategy"), r.get("chunk")) == BASELINE), None)
        if base is None:
            left.append("%d %s" % (len(mine), cache))
            continue
        for r in _key_cells(mine):
            g = num(r.get("gbps_median"))
            lo, hi = num(r.get("gbps_lo")), num(r.get("gbps_hi"))
            fig = "-" if g is None else "%.1f" % g if None in (lo, hi) else \
                "%.1f [%.1f..%.1f]" % (g, lo, hi)
            ratio, outcome = "-", "no baseline"
            if base is r:
                ratio, outcome = "1.00x", "baseline"
            elif base is not None:
                sa = compare_rows.clear_stat([base])
                sb = compare_rows.clear_stat([r])
                if sa and sb:
                    j = compare_stat.judge(sa, sb, True, tol_pct)
                    ratio = ("%.2fx [%.2f..%.2f]" % (j.ratio, j.lo, j.hi)
                             if j.ratio is not None and j.lo is not None and j.hi is not None
                             else "%.2fx (medians)" % j.ratio if j.ratio else "-")
                    outcome = j.verdict_text().replace(" (%s)" % compare_stat.SPREAD, "")
                    if tcg:
                        ratio, outcome = ratio + "?", "none (TCG)"
            if tcg and fig != "-":
                fig += clear_grid.TCG_MARK
            out.append((ROW % (cache, _cell_name(r), fig, ratio, outcome)).rstrip())
            flags = [f for f in compare_stat.record_flags(r) if f != "noisy"]
            if flags and len(out[-1]) + 2 + len(" ".join(flags)) <= WIDTH:
                out[-1] += "  " + " ".join(flags)
            elif flags:
                out.append(" " * 8 + "flags: " + " ".join(flags))
    if left:
        out += wrap("not shown: %s cells (no %s/4K cell to compare with)"
                    % (", ".join(left), BASELINE[0]), "    ", "  ")
    return out


def _key_cells(cells):
    """Per strategy its fastest call size and its 4 KiB calls (Linux's
    clear_page size), fastest first."""
    def speed(r):
        return num(r.get("gbps_median")) or 0
    keep = []
    for s in dict.fromkeys(r.get("strategy") for r in cells):
        mine = [r for r in cells if r.get("strategy") == s]
        keep.append(max(mine, key=speed))
        keep += [r for r in mine if r.get("chunk") == BASELINE[1] and r is not keep[-1]]
    return sorted(keep, key=lambda r: -speed(r))


def machine_block(rs) -> List[str]:
    h, m = rs.header(), rs.meta
    cpu = h.get("cpu") if isinstance(h.get("cpu"), dict) else {}
    out = ["Machine"]

    def fact(name, text):
        out.extend(wrap(text, " " * 14, "  %-12s" % (name + ":")))

    if cpu:
        fact("CPU", "%s (%s family %#x model %#x stepping %s)" % (
            cpu.get("brand") or "?", cpu.get("vendor", "?"), cpu.get("family", 0),
            cpu.get("model", 0), cpu.get("stepping", "?")))
    if m.get("host_cpu"):
        fact("host CPU", "%s, Linux %s" % (m["host_cpu"], m.get("host_kernel", "?")))
    if "microcode" in h:
        fact("microcode", "%s (%s)" % (h["microcode"], h.get("microcode_source", "?")))
    hv = h.get("hypervisor")
    fact("hypervisor", "%s%s%s" % (
        hv or ("none (bare metal)" if hv == "" else "unknown"),
        ", QEMU TCG: not hardware timings" if h.get("tcg") else "",
        ", %s, -cpu %s, %s" % (m.get("accel"), m.get("cpu_model"), m.get("qemu_version"))
        if m.get("accel") else ""))
    c = h.get("cache")
    if isinstance(c, dict):
        fact("caches", "L1d %s, L2 %s, L3 %s (%s)" % tuple(
            [results.human_size(c.get(k)) if c.get(k) else "-"
             for k in ("l1d_bytes", "l2_bytes", "l3_bytes")] + [c.get("source")]))
    ram = m.get("guest_ram") or h.get("backing")
    if ram:
        thp, rss = num(m.get("qemu_thp_bytes")), num(m.get("qemu_rss_bytes"))
        fact("guest RAM", str(ram) + (" (host THP backed %d%% of QEMU's memory)"
                                      % (100 * thp // rss) if thp and rss and
                                      str(ram).startswith("anonymous") else ""))
    t = next(iter(rs.of_type("tsc")), None)
    if t:
        fact("TSC", "%s, %s, %.3f GHz" % (t.get("source"), "invariant" if t.get("invariant")
                                          else "NOT invariant", (num(t.get("hz")) or 0) / 1e9))
    summ = rs.of_type("summary")
    trust = [r for r in rs.of_type("verdict") if r.get("item") == "trust"]
    cells = [r for r in rs.of_type("clear") if num(r.get("steal_pct")) is not None]
    worst = max(cells, key=lambda r: r["steal_pct"], default=None)
    fact("steal", "; ".join([steal.guest(summ[-1] if summ else None, trust[-1] if trust else None)]
                            + ([steal.cell(worst["steal_pct"], "%s %s" % (
                                _cell_name(worst), worst.get("cache")))] if worst else [])
                            + [steal.host(m.get("host_load"))]))
    return out


def reproduce(rs) -> List[str]:
    """The hz run command (list of words) rebuilt from meta.json, or []."""
    m = rs.meta
    if not m.get("boot"):
        return []
    argv = list(m.get("qemu_argv") or [])
    words = ["tools/hz", "run", "--boot", m["boot"], "--accel", m.get("accel") or "auto"]
    if m.get("cpu_model"):
        words += ["--cpu", m["cpu_model"]]
    words += ["-m", str(m.get("mem") or "4G"), "--smp", str(m.get("smp") or 1)]
    if "-machine" in argv and argv[argv.index("-machine") + 1] != "q35":
        words += ["--machine", argv[argv.index("-machine") + 1]]
    if m.get("hugepages"):  # as hz run was given it (make run: auto)
        words += ["--hugepages", str(m["hugepages"])]
    elif str(m.get("guest_ram") or "").startswith("hugetlbfs"):  # older meta.json
        words.append("--hugepages")
    if m.get("busy_threads"):
        words += ["--load", str(m["busy_threads"])]
    args = shlex.split(m.get("cmdline") or "")
    if args and args[-1] == "backing=" + qemu.KERNEL_BACKING.get(m.get("guest_ram"), "unknown"):
        args.pop()  # the word hz run adds itself (qemu.with_backing)
    return words + ["--"] + args


def command_lines(words, indent="    ") -> List[str]:
    """A shell command broken with backslashes to fit WIDTH."""
    out, line = [], indent
    for w in (shlex.quote(ascii_text(w)) for w in words):
        if len(line) + len(w) + 3 > WIDTH and line.strip():
            out.append(line + " \\")
            line = indent + "  "
        while len(line) + len(w) + 2 > WIDTH:  # one word longer than a line: split it
            cut = WIDTH - len(line) - 3
            # inside single quotes a backslash is literal: close the quote
            # before the line continuation and open it again after ('a'\
            # 'b' is ab), never cutting into a '"'"' (an escaped quote)
            while cut > 1 and (w[:cut].count("'") % 2 == 0) != ("'" not in w[:cut]):
                cut -= 1
            while cut > 1 and w[cut - 1] in "'\"":
                cut -= 1
            quoted = w[:cut].count("'") % 2 == 1
            out.append(line + w[:cut] + ("'\\" if quoted else "\\"))
            w, line = ("'" if quoted else "") + w[cut:], ""
        line += ("" if not line.strip() else " ") + w
    return out + [line]


def interference_block(rs) -> List[str]:
    """run=interference's tables (tools/hzlib/scenarios/interference.py), long lines
    wrapped to WIDTH ([] without its records)."""
    out: List[str] = []
    for line in interference.text_block(rs.records):
        body = line.lstrip(" ")
        ind = " " * (len(line) - len(body))
        out += wrap(body, ind + "    ", ind) if len(line) > WIDTH else [line]
    return out


def reproduce_block(rs) -> List[str]:
    out = ["Reproduce"]
    words = reproduce(rs)
    if not words:
        return out + ["  no meta.json: records from a capture, not from hz run"]
    commit = rs.header().get("commit") or rs.meta.get("commit") or "?"
    clean = str(commit).replace("-dirty", "")
    out += ["  git checkout %s && make -j2%s" % (clean, "   # built from a tree with local "
                                                 "changes" if clean != commit else "")]
    out += command_lines(words, "  ")
    if rs.meta.get("qemu_cmdline"):
        out.append("  QEMU ran (hz run builds it):")
        out += command_lines(shlex.split(rs.meta["qemu_cmdline"]), "    ")
    return out


def text(rs) -> str:
    """The whole plain-text report of one result set."""
    head = wrap("hugezero %s: %s" % (results.machine(rs), results.config(rs)))
    if rs.stream_warning():
        head += wrap(rs.stream_warning())
    blocks = [head, verdict_block(rs), key_table(rs)]
    blocks += [b for b in [interference_block(rs)] if b]
    blocks += [machine_block(rs), reproduce_block(rs)]
    lines = [ascii_text(ln).rstrip() for b in blocks for ln in b + [""]]
    return "\n".join(lines).rstrip("\n") + "\n"
