"""lab/lava/monitors.yaml against a captured console, replayed as LAVA reads
it: pexpect's fdpexpect on a pipe, searchwindowsize 4000 (lava_dispatcher
shell.py ShellCommand) and each device dictionary's spawn_maxread as the
read size, the monitors run in order as lava_dispatcher
actions/test/monitor.py (2023.01) does, and each match turned into a case
the way it does (lower-cased, `\\W+` -> `_`, fixupdict). The cases must be
the ones `hz parse` gives for the same console, whatever the chunks the
console arrives in: 1, 7, 64 and 4096 bytes, and random sizes with pauses.

fixtures/lava-console.log: a TCG run of the kernel's default scenarios
made small, with results=lava (tests/tools/test_lava.py SMALL_DEFAULT).
"""

import glob
import os
import random
import re
import threading
import time
import unittest

import hztest
from hzlib import lava, records as rec

try:
    import yaml
    from pexpect import EOF, TIMEOUT, fdpexpect
except ImportError as e:  # both come with lava-dispatcher (tools/deps.sh --test)
    yaml = None
    WHY = "needs PyYAML and pexpect: %s" % e

SEARCH_WINDOW = 4000  # lava_dispatcher/shell.py ShellCommand
STATUS_CASE = {0: "pass", 1: "unknown", 2: "skip", 3: "unknown", 4: "unknown"}
_SIGNAL = re.compile(r"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(\S+) RESULT=pass MEASUREMENT=(\S+) "
                     r"UNITS=([^>\s]+)>$")


def monitors():
    with open(os.path.join(lava.LAB, "monitors.yaml")) as f:
        return yaml.safe_load(f.read().replace("${test_minutes}", "1"))[0]["test"]["monitors"]


def maxreads():
    """spawn_maxread of every device dictionary."""
    out = {}
    for path in glob.glob(os.path.join(hztest.ROOT, "tests", "lava", "*-device.yaml")):
        with open(path) as f:
            out[os.path.basename(path)] = int(yaml.safe_load(f)["constants"]["spawn_maxread"])
    return out


def lava_id(text):
    return re.sub(r"\W+", "_", text.strip().lower())


def replay(data, chunks, maxread, pauses=(), timeout=5):
    """The (suite, case, result, measurement, units) list LAVA's monitors
    make of data written into a pipe in the given chunk sizes (pauses:
    seconds to sleep after chunk i, by index)."""
    r, w = os.pipe()
    pause = dict(pauses)

    def writer():
        pos = 0
        for i, n in enumerate(chunks):
            if pos >= len(data):
                break
            os.write(w, data[pos:pos + n])
            pos += n
            if i in pause:
                time.sleep(pause[i])
        if pos < len(data):
            os.write(w, data[pos:])
        os.close(w)

    t = threading.Thread(target=writer)
    t.start()
    sp = fdpexpect.fdspawn(r, timeout=timeout, maxread=maxread, searchwindowsize=SEARCH_WINDOW,
                           encoding="utf-8", codec_errors="replace")
    out = []
    try:
        for mon in monitors():
            if sp.expect([mon["start"], EOF, TIMEOUT]) != 0:
                break
            fix = mon.get("fixupdict") or {}
            while True:
                i = sp.expect([EOF, TIMEOUT, mon["end"], mon["pattern"]])
                if i != 3:
                    break
                m = sp.match.groupdict()
                case, name = lava_id(m["test_case_id"]), mon["name"]
                if "result" in m:
                    out.append((name, case, fix.get(m["result"], m["result"]), None,
                                m.get("units")))
                else:
                    out.append((name, case, "pass", float(m["measurement"]), m.get("units")))
    finally:
        t.join()
        os.close(r)
    return out


def expected(data):
    """The same list from hz parse's records and the console's lines."""
    recs, _ = rec.extract(data)
    out = []
    for r in recs:
        if r["t"] in ("pass", "fail", "skip"):
            out.append(("hugezero", lava_id(r["name"]), r["t"], None, None))
        elif r["t"] in ("config", "crash"):
            out.append(("hugezero", r["t"], "fail", None, None))
        elif r["t"] == "summary":
            out.append(("hugezero", "summary", STATUS_CASE[r["status"]], None, None))
    for line in data.decode().split("\n"):
        m = _SIGNAL.match(rec.clean_line(line))
        if m:
            out.append(("hugezero-measurements", lava_id(m.group(1)), "pass", float(m.group(2)),
                        m.group(3)))
    return out


@unittest.skipIf(yaml is None, "" if yaml else WHY)
class Monitors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = hztest.read_bytes("lava-console.log")
        cls.want = expected(cls.data)

    def test_the_capture_has_every_kind_of_case(self):
        suites = {c[0] for c in self.want}
        self.assertEqual(suites, {"hugezero", "hugezero-measurements"})
        self.assertGreater(len(self.want), 40)
        self.assertEqual(self.want[len([c for c in self.want if c[0] == "hugezero"]) - 1][:3],
                         ("hugezero", "summary", "pass"))

    def test_every_chunking_gives_the_parse_cases(self):
        rnd = random.Random(23)
        sizes = [rnd.randint(1, 8192) for _ in range(400)]
        pauses = [(i, 0.05) for i in range(0, 400, 37)]
        # lava-run reads QEMU's stdout through a pty, whose ONLCR makes the
        # kernel's \r\n a \r\r\n: the same cases either way.
        pty = self.data.replace(b"\n", b"\r\n")
        self.assertEqual(replay(pty, [4096] * len(pty), 2000), self.want)
        for name, maxread in sorted(maxreads().items()):
            self.assertLessEqual(maxread, SEARCH_WINDOW // 2, name)
            for label, chunks, p in (("1", [1] * len(self.data), ()),
                                     ("7", [7] * len(self.data), ()),
                                     ("64", [64] * len(self.data), ()),
                                     ("4096", [4096] * len(self.data), ()),
                                     ("random", sizes, pauses)):
                with self.subTest(device=name, chunks=label):
                    self.assertEqual(replay(self.data, chunks, maxread, p), self.want)

    def test_start_and_end_once_per_boot(self):
        text = self.data.decode()
        for mon in monitors():
            with self.subTest(monitor=mon["name"]):
                self.assertEqual(len(re.findall(mon["start"], text)), 1, mon["start"])
                after = text[re.search(mon["start"], text).end():]
                self.assertEqual(len(re.findall(mon["end"], after)),
                                 2 if mon["name"] == "hugezero" else 1, mon["end"])
        for marker in ("hugezero: lava: checks end", "hugezero: exit status"):
            self.assertEqual(text.count(marker), 1, marker)

    def test_case_ids_do_not_collide(self):
        # LAVA keys a case by its lowered, \W+ -> _ id within a suite: two
        # ids that become one would hide a result.
        for suite in ("hugezero", "hugezero-measurements"):
            ids = [c[1] for c in self.want if c[0] == suite]
            dup = sorted({i for i in ids if ids.count(i) > 1})
            self.assertEqual(dup, [], suite)

    def test_fail_count_is_the_kernels(self):
        recs, _ = rec.extract(self.data)
        summary = [r for r in recs if r["t"] == "summary"][-1]
        fails = [c for c in self.want if c[2] == "fail"]
        self.assertEqual(len(fails), summary["fail"] +
                         sum(1 for r in recs if r["t"] in ("config", "crash")))

    def test_a_crash_is_one_failed_case(self):
        # A crash: the crash record and a summary with status 4, fail 0.
        text = self.data.decode()
        cut = text.index("@hz {", text.index("hugezero: starting"))
        cut = text.index("\n", text.index('"name":', cut)) + 1
        crash = (text[:cut] + '@hz {"t":"crash","v":1,"seq":99,"name":"#UD","rip":"0x1"}\r\n'
                 '@hz {"t":"summary","v":1,"seq":100,"pass":1,"fail":0,"skip":0,"status":4,'
                 '"status_name":"crash"}\r\nhugezero: exit status 4 (crash)\r\n')
        got = replay(crash.encode(), [64] * len(crash), 2000)
        self.assertEqual([c[1:3] for c in got if c[2] == "fail"], [("crash", "fail")])
        self.assertEqual(got[-1][1:3], ("summary", "unknown"))

    def test_a_reset_ends_the_checks(self):
        # No summary (a triple fault), then the machine boots again: the
        # second boot's start ends the first's checks, whose cases stop there.
        text = self.data.decode()
        head = text[:text.index('"t":"summary"') - 5]
        got = replay((head + "\r\n" + text).encode(), [512] * len(text), 2000, timeout=2)
        first = [c for c in got if c[0] == "hugezero"]
        self.assertNotIn("summary", [c[1] for c in first])
        self.assertEqual(first, [c for c in self.want if c[0] == "hugezero" and
                                 c[1] != "summary"][:len(first)])

    def test_arch_is_one_the_qemu_device_lists(self):
        for name in ("qemu.yaml", "qemu-iso.yaml"):
            with open(os.path.join(lava.LAB, name)) as f:
                arch = re.search(r"^  arch: (\S+)", f.read(), re.M).group(1)
            with open(os.path.join(hztest.ROOT, "tests", "lava", "qemu-device.yaml")) as f:
                self.assertIn(arch, yaml.safe_load(f)["available_architectures"], name)
            # lava_dispatcher actions/boot/qemu.py get_qemu_pkg_suffix: x86 for both names
            self.assertIn(arch, ("amd64", "x86_64"))


if __name__ == "__main__":
    unittest.main()
