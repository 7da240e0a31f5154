"""hz report --text DIR (and A B): the answer for a mailing-list reply.

One result set, at most LINES (40) lines of at most report_text.WIDTH (80)
columns, ASCII:
  facts     one line: CPU, where it ran, CPUs, guest RAM, TSC, commit;
  verdict   the verdict block, item by item, as the kernel's console prints
            it (report.merged_block, from the records: make answers' two
            boots in one block, each item marked with the boot it came
            from), its lines whole (at most 100 columns, as the console's:
            each is an answer to paste; the other blocks keep to 80);
  grid      strategy x call size (clear_grid.py): each strategy's GB/s
            [95 % interval] on one line and its x clear_page [interval]
            below it; the slowest strategies give way when the lines run
            out, and a line says so;
  reproduce the commit and the hz run command, --hugepages as hz run had it.
`hz report --text --full` prints everything (report_text.py).

Two result sets (hz report --text A B): the same shape, one row per verdict
item (its headline figure, the spread rule: the records carry no samples)
and per grid cell found on both sides (the Hodges-Lehmann rule), each in
phrase.py's one sentence, B against A.
"""

from typing import List, Optional, Tuple

from . import (compare, compare_rows, compare_stat, phrase, report, report_text, results,
               verdict_merge, verdict_text)
from .compare_stat import Stat, num
from .scenarios import clear_grid

LINES = 40
WIDTH = report_text.WIDTH
BASELINE = clear_grid.BASELINE
# CPUID 0x40000000 signatures (header `hypervisor`) by their usual names
HYPERVISORS = {"KVMKVMKVM": "KVM", "TCGTCGTCGTCG": "TCG", "Microsoft Hv": "Hyper-V",
               "VMwareVMware": "VMware", "XenVMMXenVMM": "Xen"}


def facts_line(rs) -> str:
    """One line of machine facts, the least needed left off to fit WIDTH
    (where it ran: each boot's when they differ, and never left off when
    a boot was TCG)."""
    h, m = rs.header(), rs.meta
    cpu = h.get("cpu") if isinstance(h.get("cpu"), dict) else {}
    brand = " ".join(str(cpu.get("brand") or m.get("host_cpu") or "unknown CPU").split())

    def where(x, accel):
        hv = x.get("hypervisor")
        return ("TCG" if x.get("tcg") else "bare metal" if hv == "" else
                "hypervisor unknown" if hv is None else str(accel).upper()
                if accel else HYPERVISORS.get(str(hv), str(hv)))
    heads = [(str(x.get("run", 0)), where(x, None)) for x in rs.of_type("header")]
    # boots on different accelerators (a TCG one among KVM ones): each one's
    here = verdict_merge.each(heads) if len({w for _, w in heads}) > 1 else where(h, m.get("accel"))
    t = next(iter(rs.of_type("tsc")), None)
    smp: dict = next(iter(rs.of_type("smp")), {})
    cpus = smp.get("cpus", m.get("smp"))
    parts = [brand + (" (family %#x model %#x)" % (cpu["family"], cpu["model"])
                      if num(cpu.get("family")) is not None and num(cpu.get("model")) is not None
                      else ""),
             here,
             "%s CPUs" % cpus if cpus is not None else "",
             "%s %s" % (m.get("mem"), m.get("guest_ram") or h.get("backing") or "")
             if m.get("mem") else str(h.get("backing") or ""),
             "TSC %.2f GHz%s" % (t["hz"] / 1e9, "" if all(  # any boot's TSC: not invariant
                 x.get("invariant") for x in rs.of_type("tsc")) else " not invariant")
             if t and num(t.get("hz")) else "",
             str(h.get("commit") or m.get("commit") or "")]
    parts = [p.strip() for p in parts if p and p.strip()]
    keep = 2 if "TCG" in here else 1  # the CPU and the commit longest; TCG longer still
    while len(", ".join(parts)) > WIDTH and len(parts) > keep:
        parts.pop(-1 if keep == 2 and len(parts) == 3 else -2 if len(parts) > 2 else -1)
    return report_text.ascii_text(", ".join(parts))[:WIDTH]


def verdict_lines(rs) -> List[str]:
    """The verdict block (report.merged_block: each item from the last run
    that measured it, so both boots of make answers show and a reboot loop
    shows its last run), its lines whole as the console prints them (at most
    verdict_text.WIDTH, 100 columns): each is an answer to paste, and a
    wrapped one is no longer one line."""
    lines = report.merged_block(rs)
    if not lines:
        return ["no verdict records (a run that stopped early, or made before them)"]
    out = []
    for line in lines:  # only a merged header runs past 100 (the items can't)
        body = line.lstrip(" ")
        ind = " " * (len(line) - len(body))
        out += report_text.wrap(body, ind + "    ", ind, width=verdict_text.WIDTH)
    return out


def grid_lines(rs, budget: int, tol_pct=compare_stat.TOL_PCT) -> List[str]:
    """The strategy x call size table (clear_grid.py) in at most `budget`
    lines: the slowest strategies give way, and a line says so."""
    g = clear_grid.grid(rs, tol_pct)
    if g is None:
        return ["no single-thread clear cells"]
    ci = clear_grid.ci_label(rs)
    head = ["clear, 1 CPU, %s target, %s cache: GB/s [%s], below it"
            % (results.human_size(g.target), g.cache, ci),
            "x clear_page (%s/4K) [interval], ~ tie at +-%g%%, ? undecided"
            % (BASELINE[0], tol_pct)]
    if not g.has_base:
        head[1] = "no %s/4K cell: no x clear_page" % BASELINE[0]
    if g.tcg:
        head.append("%s: GB/s marked %s, every ratio ?"
                    % (clear_grid.TCG_SAYS, clear_grid.TCG_MARK))
    names = [r[0] for r in g.rows]
    name_w = max(len(s) for s in names + ["strategy"])
    sizes = [results.human_size(c) for c in g.chunks]

    def lines_of(rows, plain):
        def strip(c):  # '8.26 [5.60..8.77]*' -> '8.26*'
            return c.split(" [")[0] + c[len(c.rstrip("*?~")):] if plain and " [" in c else c
        widths = [max([len(strip(x)) for r in rows for x in (r[1][i], r[2][i])] + [len(n)])
                  for i, n in enumerate(sizes)]

        def line(name, texts):
            return ("%-*s  " % (name_w, name) + "  ".join(
                "%-*s" % (w, strip(x)) for w, x in zip(widths, texts))).rstrip()
        out = [line("strategy", sizes)]
        for s, gb, xr in rows:
            out += [line(s, gb)] + ([line("", xr)] if g.has_base else [])
        return out

    keep = max(1, (budget - len(head) - 2) // (2 if g.has_base else 1))
    shown = g.rows[:keep]
    if g.has_base and BASELINE[0] not in [r[0] for r in shown]:
        shown = shown[:keep - 1] + [r for r in g.rows if r[0] == BASELINE[0]]
    table = lines_of(shown, False)
    if max(len(t) for t in table) > WIDTH:
        table = lines_of(shown, True)
        head[0] = head[0].replace(" [%s]" % ci, "")
        head[1] = head[1].replace(" [interval]", "") + " (intervals: --full)"
    out = head + table
    if len(shown) < len(g.rows):
        out.append("%d slower strategies left out: hz report --text --full"
                   % (len(g.rows) - len(shown)))
    return out


def reproduce_lines(rs) -> List[str]:
    words = report_text.reproduce(rs)
    if not words:
        return ["no meta.json: records from a capture, not from hz run"]
    commit = str(rs.header().get("commit") or rs.meta.get("commit") or "?")
    clean = commit.replace("-dirty", "")
    return (["reproduce%s: git checkout %s && make -j2 && \\"
             % (" (built with local changes)" if clean != commit else "", clean)]
            + report_text.command_lines(words, "  "))


def text(rs) -> str:
    """The short plain-text report of one result set (module comment)."""
    head = [facts_line(rs)]
    if rs.stream_warning():
        head += report_text.wrap(rs.stream_warning())
    verdict = verdict_lines(rs)
    repro = reproduce_lines(rs)
    budget = LINES - len(head) - len(verdict) - len(repro) - 3
    blocks = [head, verdict, grid_lines(rs, budget), repro]
    lines = [report_text.ascii_text(ln).rstrip() for b in blocks for ln in b + [""]]
    return "\n".join(lines).rstrip("\n") + "\n"


def _item_stat(r) -> Tuple[Optional[Stat], bool]:
    """A verdict record's headline figure as a Stat (its interval as a 95 %
    one) and whether more is better (a GB/s figure), or (None, _)."""
    v, lo, hi = num(r.get("figure")), num(r.get("lo")), num(r.get("hi"))
    if v is None:
        return None, False
    ci = None not in (lo, hi)
    return Stat(v, lo, hi, ci=ci), "/s" in str(r.get("unit") or "")


def _item_rows(a, b, tol_pct) -> List[str]:
    """One line per verdict item on both sides (its headline figure)."""
    out = []
    ia = {str(r.get("item")): r for _, r in report.merged_verdict(a)}
    ib = {str(r.get("item")): r for _, r in report.merged_verdict(b)}
    for item in [k for k in report.item_order(ia) if k in ib]:  # A's order
        ra, rb = ia[item], ib[item]
        sa, hib = _item_stat(ra)
        sb, _ = _item_stat(rb)
        if sa and sb:
            j = compare_stat.judge(sa, sb, hib, tol_pct)
            what = str(rb.get("unit") or "figure") if hib else phrase.TIME
            said = phrase.comparison("B", "A", j.ratio, j.lo, j.hi, compare.word(j), what)
        else:
            said = "no headline figure on %s" % ("either side" if not sa and not sb else
                                                 "A" if not sa else "B")
        if ra.get("answer") != rb.get("answer"):
            said += "; answer A %s, B %s" % (ra.get("answer") or "-", rb.get("answer") or "-")
        out += report_text.wrap(said, " " * 4, "  %-12s " % item)
    return out


def _cell_rows(a, b, tol_pct) -> List[str]:
    """One line per grid cell on both sides, A's fastest strategies first."""
    ga, gb, grid = clear_grid.cells(a), clear_grid.cells(b), clear_grid.grid(a, tol_pct)
    if not ga or not gb or not grid or ga[:2] != gb[:2]:
        return []
    out = ["clear, 1 CPU, %s target, %s cache" % (results.human_size(ga[1]), ga[0])]
    order = [r[0] for r in grid.rows]
    names = ["%s/%s" % (s, results.human_size(c)) for s in order for c in ga[2][s]]
    w = max(len(n) for n in names)
    for s in order:
        for c, ra in sorted(ga[2][s].items()):
            rb = gb[2].get(s, {}).get(c)
            sa, sb = compare_rows.clear_stat([ra]), compare_rows.clear_stat([rb]) if rb else None
            if sa and sb:
                j = compare_stat.judge(sa, sb, True, tol_pct)
                out += report_text.wrap(
                    phrase.comparison("B", "A", j.ratio, j.lo, j.hi, compare.word(j), "GB/s"),
                    " " * 4, "  %-*s " % (w, "%s/%s" % (s, results.human_size(c))))
    return out


def pair_text(a, b, tol_pct=compare_stat.TOL_PCT) -> str:
    """hz report --text A B (module comment), in at most LINES lines: the
    cells of the slowest strategies give way, and a line says so."""
    head = ["A: " + facts_line(a)[:WIDTH - 3], "B: " + facts_line(b)[:WIDTH - 3],
            "B against A: verdict items (headline figure, spread rule), then cells"]
    items, cells = _item_rows(a, b, tol_pct), _cell_rows(a, b, tol_pct)
    room = LINES - len(head) - len(items)
    if len(cells) > room:
        left = sum(1 for c in cells[room - 1:] if not c.startswith("     "))
        cells = cells[:room - 1] + ["%d more cells: hz compare A B, or hz report --text --full A B"
                                    % left]
    lines = [report_text.ascii_text(ln).rstrip() for ln in head + items + cells]
    return "\n".join(lines) + "\n"
