"""tests/boot/numa_check.py - the NUMA checks of the boot tests: what the
`numa` record (docs/results.md) must say for the QEMU command line of a
case, and the invariants of every `numa` record whatever the case.

QEMU 7.2 (hw/i386/acpi-build.c build_srat) gives each `-numa node` with a
memdev one or more SRAT memory ranges in nodeid order from address 0, with
the 640 KiB-1 MiB hole cut out of the node holding it (384 KiB less) and the
PCI hole moved above 4 GiB (no bytes lost); a node without memdev has none.
It builds a SLIT only when a `-numa dist` is given; a pair given in one
direction only is the same both ways."""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

HOLE_640K = 0x100000 - 0xA0000


@dataclass
class Node:
    nodeid: int
    cpus: int = 0
    mem_bytes: int = 0


@dataclass
class Expected:
    nodes: List[Node] = field(default_factory=list)
    dist: Optional[List[List[int]]] = None  # None: no SLIT, 10/20


def _opts(s: str) -> Dict[str, List[str]]:
    out: Dict[str, List[str]] = {}
    key = ""
    for part in s.split(","):
        if "=" in part:
            key, _, v = part.partition("=")
            out.setdefault(key, []).append(v)
        elif key:  # cpus=0,1 style continuation is not QEMU's; keep it out
            out.setdefault(key, []).append(part)
    return out


def _size(s: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    return int(s[:-1]) * units[s[-1].upper()] if s[-1:].upper() in units else int(s)


def _count_cpus(specs: List[str]) -> int:
    n = 0
    for spec in specs:
        lo, _, hi = spec.partition("-")
        n += int(hi or lo) - int(lo) + 1
    return n


def expected(qemu_args: List[str]) -> Optional[Expected]:
    """The topology the command line builds, or None without -numa."""
    mem: Dict[str, int] = {}
    nodes: List[Tuple[int, Dict[str, List[str]]]] = []
    dists: Dict[Tuple[int, int], int] = {}
    for flag, val in zip(qemu_args, qemu_args[1:]):
        o = _opts(val)
        if flag == "-object" and val.startswith("memory-backend-"):
            mem[o["id"][0]] = _size(o["size"][0])
        elif flag == "-numa" and val.startswith("node"):
            nodes.append((int(o.get("nodeid", [str(len(nodes))])[0]), o))
        elif flag == "-numa" and val.startswith("dist"):
            dists[int(o["src"][0]), int(o["dst"][0])] = int(o["val"][0])
    if not nodes:
        return None
    e = Expected()
    for nodeid, o in sorted(nodes, key=lambda x: x[0]):
        n = Node(nodeid, _count_cpus(o.get("cpus", [])), mem.get(o.get("memdev", [""])[0], 0))
        e.nodes.append(n)
    if e.nodes and e.nodes[0].mem_bytes:
        e.nodes[0].mem_bytes -= HOLE_640K  # the node holding 640K-1M
    if dists:
        ids = [n.nodeid for n in e.nodes]
        e.dist = [[10 if a == b else dists.get((a, b), dists.get((b, a), 20)) for b in ids]
                  for a in ids]
    # QEMU lists a node in the SRAT only through its CPUs and memory.
    e.nodes = [n for n in e.nodes if n.cpus or n.mem_bytes]
    return e


def topo(r: dict) -> dict:
    """The topology members of a `numa` record or the header's member."""
    keep = ("domain", "cpus", "mem_bytes", "ranges", "memory_only", "cpu_only")
    return {"nodes": r.get("nodes"), "source": r.get("source"), "slit": r.get("slit"),
            "why": r.get("why"), "dist": r.get("dist"),
            "node": [{k: n.get(k) for k in keep} for n in r.get("node", [])]}


def check_expected(e: Expected, numa: dict) -> List[str]:
    """Every node and distance of the record against the command line."""
    errs = []
    want = {"nodes": len(e.nodes), "source": "srat", "slit": e.dist is not None}
    for k, v in want.items():
        if numa.get(k) != v:
            errs.append("numa.%s %r, the QEMU command line gives %r" % (k, numa.get(k), v))
    dist = e.dist or [[10 if i == j else 20 for j in range(len(e.nodes))]
                      for i in range(len(e.nodes))]
    if numa.get("dist") != dist:
        errs.append("numa.dist %r, the QEMU command line gives %r" % (numa.get("dist"), dist))
    for i, (n, got) in enumerate(zip(e.nodes, numa.get("node", []))):
        w = {"domain": n.nodeid, "cpus": n.cpus, "mem_bytes": n.mem_bytes,
             "memory_only": n.cpus == 0, "cpu_only": n.mem_bytes == 0}
        for k, v in w.items():
            if got.get(k) != v:
                errs.append("numa.node[%d].%s %r, the QEMU command line gives %r"
                            % (i, k, got.get(k), v))
    return errs


def check_records(recs: List[dict]) -> List[str]:
    """Whatever the case: one `numa` record, its topology the header's, its
    ranges in `numa_range` records, and each self-check frame wholly inside
    a range of its own node (and of no other)."""
    numas = [r for r in recs if r["t"] == "numa"]
    heads = [r for r in recs if r["t"] == "header"]
    if not numas:
        return []
    errs = []
    numa = numas[0]
    if len(numas) != 1:
        errs.append("%d numa records, want one" % len(numas))
    if heads and topo(heads[0].get("numa", {})) != topo(numa):
        errs.append("header.numa %r differs from the numa record %r"
                    % (heads[0].get("numa"), topo(numa)))
    ranges: Dict[int, List[Tuple[int, int]]] = {}
    for r in recs:
        if r["t"] == "numa_range":
            ranges.setdefault(r["node"], []).append((int(r["base"], 16), int(r["length"], 16)))
    for i, n in enumerate(numa.get("node", [])):
        if len(ranges.get(i, [])) != n.get("ranges"):
            errs.append("numa node %d: %r ranges, %d numa_range records"
                        % (i, n.get("ranges"), len(ranges.get(i, []))))
        for key, size in (("frame_2m", 2 << 20), ("frame_1g", 1 << 30)):
            if n.get(key) is None:
                continue
            pa = int(n[key], 16)
            owners = [k for k, rs in ranges.items()
                      if any(b <= pa and pa + size <= b + ln for b, ln in rs)]
            if owners != [i]:
                errs.append("numa node %d: %s %s lies in the ranges of nodes %r"
                            % (i, key, n[key], owners))
    if numa.get("check") != "pass":
        errs.append("numa.check %r" % numa.get("check"))
    return errs
