"""docs/validation.md: hugezero beside published clear and fault figures.

table() reads the "published figures" table from docs/validation.md (the
one place the numbers live); anchor() picks the rows for a CPU (vendor,
family, model) and says whether they are the same CPU or the nearest one;
ours() takes hugezero's figures of the same names from a run's records;
report() puts the two side by side as lines of text.
"""

import pathlib

from . import records

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "validation.md"
CHUNKS = {"4K": 4096, "2M": 2 << 20, "1G": 1 << 30}


def table(path=DOC):
    """[{anchor, cpu, figure, unit, value, meaning}] from the markdown table."""
    rows, cols = [], None
    for line in pathlib.Path(path).read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cols is None and cells[:3] == ["anchor", "cpu", "figure"]:
            cols = cells
        elif cols and line.startswith("|") and not set(line) <= set("|-: "):
            r = dict(zip(cols, cells))
            r["value"] = float(r["value"])
            rows.append(r)
        elif cols and rows and not line.startswith("|"):
            break
    return rows


def anchor(vendor, family, model):
    """(anchor name or None, "same CPU" / "nearest anchor, not the same CPU")."""
    if vendor == "AuthenticAMD" and family == 0x19:
        return "milan", "same CPU" if model == 0x01 else "nearest anchor, not the same CPU"
    if vendor == "GenuineIntel":
        return "icelake", "nearest anchor, not the same CPU"
    return None, "no published anchor for this CPU"


def _flags(r):
    return [f for f, on in (("noisy", r.get("noisy") is True),
                            ("steal", r.get("steal_high") is True),
                            ("not-cold", r.get("cache_verified") is False)) if on]


def ours(recs):
    """{figure: (GB/s, lo, hi, [flags])} of hugezero from one run's records."""
    out = {}
    for name, chunk in CHUNKS.items():
        for r in recs:
            if (r.get("t") == "clear" and r.get("strategy") == "rep_stosq"
                    and r.get("cache") == "cold" and r.get("threads", 1) == 1
                    and r.get("chunk") == chunk and r.get("bytes") == 1 << 30
                    and r.get("verified") is True):
                out["rep_stosq_" + name] = (r.get("gbps_median", r.get("gbps")),
                                            r.get("gbps_lo"), r.get("gbps_hi"), _flags(r))
    f1g = records.zeroing_faults(recs, 1 << 30)
    key = "access_ns" if any(r.get("access_ns") for r in f1g) else "service_ns"
    faults = sorted(r[key] for r in f1g if r.get(key))
    if faults:
        med = faults[(len(faults) - 1) // 2]
        note = ["%d faults, median %s" % (len(faults), key)]
        if any(r.get("emulated_ring0") for r in f1g):
            note.append("emulated-ring0")
        out["fault_1G"] = ((1 << 30) / med, None, None, note)
    return out


def report(cpu, mine, rows=None):
    """Lines comparing hugezero (`mine`, from ours()) with the anchor rows."""
    rows = table() if rows is None else rows
    name, how = anchor(cpu.get("vendor"), cpu.get("family"), cpu.get("model"))
    lines = ["validation (docs/validation.md): host %s family 0x%x model 0x%x: %s%s" % (
        cpu.get("vendor"), cpu.get("family") or 0, cpu.get("model") or 0,
        ("anchor %s, " % name) if name else "", how)]
    pub = {r["figure"]: r for r in rows if r["anchor"] == name}
    for fig in ("rep_stosq_4K", "rep_stosq_2M", "rep_stosq_1G", "fault_1G"):
        v = mine.get(fig)
        ref = pub.get(fig) or pub.get(fig + "_after")
        text = "  %-13s hugezero " % fig
        if v and v[0] is not None:
            text += "%7.2f GB/s" % v[0]
            if v[1] is not None and v[2] is not None:
                text += " [%.2f..%.2f]" % (v[1], v[2])
            text += "".join(" " + f for f in v[3])
        else:
            text += "      - (no record)"
        if ref:
            text += "   published %s %.1f GB/s" % (ref["anchor"], ref["value"])
            if fig == "fault_1G" and fig + "_before" in pub:
                text += " (page at a time: %.1f)" % pub[fig + "_before"]["value"]
            if v and v[0]:
                text += "   ratio %.2f" % (v[0] / ref["value"])
        lines.append(text)
    return lines
