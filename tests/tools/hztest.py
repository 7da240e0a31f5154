"""Shared set-up for the tools tests: import paths and fixture locations.

Fixtures (tests/tools/fixtures/) imitate real captures of one run:
  clean.log         QEMU serial output (CRLF, human lines between records)
  grub-noise.log    the same run behind OVMF/GRUB output: ANSI CSI/OSC
                    sequences, NUL bytes, noise before/after records
  sol-split.log     the same run over IPMI SOL: banners, one record split by
                    a reconnect, one split around a banner, a truncated last line
  reboot-loop.log   a PXE reboot loop: three runs
  malformed.log     broken records among good ones
  clean.expected.jsonl, reboot-loop.expected.jsonl  the records they hold
  results-a/, results-b/  result sets for compare and plot
  results-verdict/  a default run under KVM on this AMD EPYC host (hz run of
                    34a740d, cold/warm 1 GiB cells, faults, policies, SMP),
                    with `verdict` records written to the contract
                    (docs/results.md `verdict`) for hz report
  results-kvm-a/, results-kvm-b/  two run=clear runs (rep_stosb, 4K and
                    1G calls) under KVM on a Milan-class EPYC (family 0x19
                    model 0x1) at ~45 % steal: clear records with samples_ns,
                    the header's cache member (progress and memmap left out)
  results-tcg-answers/  `tools/hz answers --accel tcg` on the 2-vCPU AMD EPYC
                    host (two boots, TCG), records trimmed to what the
                    answers block and hz report read (test_answers_block.py)
  lava-job-4242.yaml  a lava-run job log of a short run=clear job, in
                    lava-server's "- {...}" form (hz lava-fetch)
"""

import json
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(HERE, "fixtures")
HZ = os.path.join(ROOT, "tools", "hz")
if os.path.join(ROOT, "tools") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "tools"))
if os.path.join(ROOT, "tests", "boot") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))


def fixture(name):
    return os.path.join(FIXTURES, name)


def read_bytes(name):
    with open(fixture(name), "rb") as f:
        return f.read()


def expected(name):
    with open(fixture(name)) as f:
        return [json.loads(line) for line in f if line.strip()]


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    """(width, height) from the IHDR chunk, which must come first (PNG spec §11.2.2)."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != PNG_MAGIC or head[12:16] != b"IHDR":
        raise AssertionError("%s is not a PNG" % path)
    return struct.unpack(">II", head[16:24])


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def png_rows(path, max_rows=None):
    """(width, height, bytes per pixel, [row bytes]) of an 8-bit, non-interlaced
    grey/RGB/RGBA PNG, the first max_rows rows unfiltered (PNG spec §9:
    filter types 0-4 per scanline, §10: zlib-compressed IDAT)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != PNG_MAGIC:
        raise AssertionError("%s is not a PNG" % path)
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 21])
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + n])
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or interlace or bpp is None:
        raise AssertionError("%s: only 8-bit non-interlaced grey/RGB(A) is decoded" % path)
    raw, stride = zlib.decompress(b"".join(idat)), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h if max_rows is None else min(h, max_rows)):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 2:
            line = bytearray((x + p) & 255 for x, p in zip(line, prev))
        elif kind:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                c = prev[i - bpp] if i >= bpp else 0
                pred = (a if kind == 1 else (a + prev[i]) // 2 if kind == 3
                        else _paeth(a, prev[i], c))
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows
