"""hz report --text --full DIR: all of one result set as plain text (the
short form, for a mailing-list reply, is report_short.py).

ASCII only, at most plaintext.WIDTH (80) columns, no tabs, in blocks:
  verdict   the kernel's `verdict` records, item by item, as the console
            prints them (verdict_text.item_lines: whole lines, at most 100
            columns, since each is an answer to paste), each with the `compare`
            records behind it when the run has them, in phrase.py's one
            sentence ("X takes 1.43x [..] the time of Y (slower), n=18/10"),
            and the cells it used; a record written before issue 29 also
            gives its whole stored sentence;
  scenarios each scenario's `text` blocks (tools/hzlib/scenarios/, in the
            registry's order): run=clear's Key table (scenarios/clear.py),
            run=interference's tables when it ran;
  machine   CPU brand/vendor/family/model, microcode and where it was read,
            hypervisor and accelerator, caches (header `cache`), guest RAM
            backing, TSC, steal (the run's and the worst cell's);
  reproduce the commit and the hz run command rebuilt from meta.json (boot,
            accelerator, -cpu, memory, CPUs, --hugepages as given, load, the
            kernel command line less the backing= hz run adds itself), and
            the QEMU command line hz ran, verbatim.
"""

import shlex
from typing import List

from . import phrase, qemu, report, results, scenarios, steal, verdict_merge, verdict_text
from .compare_stat import num
from .plaintext import WIDTH, ascii_text, wrap
from .scenarios.clear import cell_name


def verdict_block(rs) -> List[str]:
    """The verdict, item by item (report.merged_lines: each from the last
    run that measured it, so both boots of make answers show and a reboot
    loop shows its last run; an item from an earlier boot says which, the
    trust item speaks for every run that supplied one): its lines
    (verdict_text.item_lines, as the console prints them), then its
    `compare` records in phrase.py's sentence and the cells it used."""
    out = ["Verdict"]
    picked = report.merged_lines(rs)
    if not picked:
        return out + ["  no verdict records (a run that stopped early, or made before them)"]
    last = max(run for run, _, _ in picked)
    for run, r, lines in picked:
        out += _item_block(rs, run, str(r.get("item")), r, lines)
        if run != last:
            out += wrap("from boot %s (run=%s)" % (run, r.get("run_text")), " " * 6, " " * 4)
    return out


def _item_block(rs, run, item, r, lines) -> List[str]:
    out = [ascii_text(line) for line in lines]  # whole, as the console's: answers to paste
    if "label" not in r:  # an old record: its whole stored sentence too
        out += wrap("stored text: %s" % (r.get("text") or r.get("reason") or "-"),
                    " " * 6, " " * 4)
    for c in rs.of_type("compare"):
        if c.get("item") == item and c.get("run", 0) == run:
            out += wrap(phrase.of_compare_record(c), " " * 6, " " * 4)
    if isinstance(r.get("cells"), list) and r["cells"]:
        out += wrap("cells: " + ", ".join(map(str, r["cells"])), " " * 6, " " * 4)
    return out


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

    def hv(x):
        v = x.get("hypervisor")
        return "%s%s" % (v or ("none (bare metal)" if v == "" else "unknown"),
                         ", QEMU TCG: not hardware timings" if x.get("tcg") else "")
    heads = [(str(x.get("run", 0)), hv(x)) for x in rs.of_type("header")] or [("0", hv(h))]
    qemu_as = ", %s, -cpu %s, %s" % (m.get("accel"), m.get("cpu_model"), m.get("qemu_version")) \
        if m.get("accel") else ""  # meta.json: the last boot's
    if len({text for _, text in heads}) > 1:  # boots that differ: each one's, QEMU the last's
        heads[-1] = (heads[-1][0], heads[-1][1] + qemu_as)
        fact("hypervisor", verdict_merge.each(heads) or "?")
    else:
        fact("hypervisor", heads[0][1] + qemu_as)
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
    tscs = [(str(t.get("run", 0)), "%s, %s, %.3f GHz" % (
        t.get("source"), "invariant" if t.get("invariant") else "NOT invariant",
        (num(t.get("hz")) or 0) / 1e9)) for t in rs.of_type("tsc")]
    if tscs:  # boots that differ: each one's
        fact("TSC", verdict_merge.each(tscs) or "?")
    cells = [r for r in rs.of_type("clear") if num(r.get("steal_pct")) is not None]
    worst = max(cells, key=lambda r: r["steal_pct"], default=None)
    fact("steal", "; ".join(guest_steal(rs)
                            + ([steal.cell(worst["steal_pct"], "%s %s" % (
                                cell_name(worst), worst.get("cache")))] if worst else [])
                            + [steal.host(m.get("host_load"))]))
    return out


def guest_steal(rs) -> List[str]:
    """The guest's steal (steal.guest: the summary's, else the trust
    item's) of each run, marked with its boot when there are several (make
    answers' two boots: the last one's alone would hide the other's)."""
    runs = sorted({r.get("run", 0) for r in rs.records if r.get("t") in ("summary", "verdict")})

    def last(t, run, keep=lambda r: True):
        return next((r for r in reversed(rs.of_type(t)) if r.get("run", 0) == run and keep(r)),
                    None)
    said = [(run, steal.guest(last("summary", run), last("verdict", run, verdict_text.run_facts)))
            for run in runs or [0]]
    return [text if len(said) == 1 else verdict_merge.mark(text, [str(run)]) for run, text in said]


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
    blocks = [head, verdict_block(rs)]
    blocks += [b for b in (f(rs) for s in scenarios.ALL for f in s.text) if b]
    blocks += [machine_block(rs), reproduce_block(rs)]
    lines = [ascii_text(ln).rstrip() for b in blocks for ln in b + [""]]
    return "\n".join(lines).rstrip("\n") + "\n"
