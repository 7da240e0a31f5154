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
  lava-job-4242.yaml  a lava-run job log of a short run=clear job, in
                    lava-server's "- {...}" form (hz lava-fetch)
"""

import json
import os
import sys

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
        return [json.loads(l) for l in f if l.strip()]
