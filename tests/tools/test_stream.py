"""hz parse: a record lost, merged or changed on the way is a failure naming
its seq (docs/results.md "Sequence numbers"), never a pass.

fixtures/seq.log is a real TCG capture (run=none, 22 records, seq 0..21,
the summary's records and crc32); each test damages a copy the way a slow
reader or a serial line does and runs `hz parse` on it.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

import hztest
from hzlib import records as rec, report_text, results


def lines():
    return hztest.read_bytes("seq.log").decode().split("\n")


def parse(text):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([hztest.HZ, "parse", f.name], capture_output=True, text=True,
                              timeout=60)
    finally:
        os.unlink(f.name)


def index(ls, seq):
    return next(i for i, l in enumerate(ls) if '"seq":%d,' % seq in l)


class Stream(unittest.TestCase):
    def test_the_capture_is_whole(self):
        raw = []
        recs, diags = rec.extract(hztest.read_bytes("seq.log"), "seq.log", raw)
        self.assertEqual(diags, [])
        self.assertEqual([r["seq"] for r in recs], list(range(22)))
        summary = recs[-1]
        self.assertEqual((summary["t"], summary["records"]), ("summary", 21))
        self.assertEqual(summary["uart"], {"dropped": 0, "timeouts": 0, "wait_max_us": 0})
        self.assertEqual(recs[0]["uart"]["fifo"], "16550A")
        self.assertEqual(rec.check_stream(recs, raw, diags, "seq.log"), [])
        p = parse("\n".join(lines()))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("record stream", p.stderr)

    def test_a_lost_record_fails(self):
        ls = lines()
        del ls[index(ls, 17)]
        p = parse("\n".join(ls))
        self.assertEqual(p.returncode, 1)
        self.assertIn("record stream: run 0: record(s) lost: seq 17 (1 of 22)", p.stderr)
        self.assertIn("hz: FAIL", p.stderr)

    def test_a_dropped_colon_fails_naming_the_record(self):
        # The slow-pipe finding: `"clear_ns"550155`, a byte lost in a number.
        ls = lines()
        i = index(ls, 10)
        self.assertIn('"hz":', ls[i])
        ls[i] = ls[i].replace('"hz":', '"hz"', 1)
        p = parse("\n".join(ls))
        self.assertEqual(p.returncode, 1)
        self.assertIn("(record tsc, seq 10)", p.stderr)
        self.assertIn("broken record(s) seq 10 (malformed, see line %d)" % (i + 1), p.stderr)

    def test_two_lines_merged_fail(self):
        # The end of one record and the start of the next lost together: the
        # merged line is valid JSON, with the wrong name; seq 17 is gone.
        ls = lines()
        i = index(ls, 16)
        merged = ls[i][:ls[i].index('"name"') + 3] + ls[i + 1][ls[i + 1].index('me":'):]
        self.assertIsInstance(rec.parse_record(merged[4:]), dict)
        ls[i:i + 2] = [merged]
        p = parse("\n".join(ls))
        self.assertEqual(p.returncode, 1)
        self.assertIn("record(s) lost: seq 17 (1 of 22)", p.stderr)

    def test_a_changed_digit_fails_the_checksum(self):
        # A byte lost inside a number leaves valid JSON and every seq: only
        # the summary's crc32 tells.
        ls = lines()
        i = index(ls, 10)
        head, tail = ls[i].split('"hz":', 1)
        ls[i] = head + '"hz":' + tail[1:]
        p = parse("\n".join(ls))
        self.assertEqual(p.returncode, 1)
        self.assertIn("a record's bytes changed in transit", p.stderr)

    def test_a_reboot_whose_header_was_lost(self):
        ls = lines()
        second = list(ls)
        del second[index(second, 0)]
        p = parse("\n".join(ls + second))
        self.assertEqual(p.returncode, 1)
        self.assertIn("in 2 run(s)", p.stderr)
        self.assertIn("run 1: record(s) lost: seq 0 (1 of 22)", p.stderr)
        self.assertNotIn("run 0:", p.stderr)

    def test_a_capture_without_seq_is_not_checked(self):
        # linux-bench and kernels before seq: nothing to check, still a pass.
        p = subprocess.run([hztest.HZ, "parse", os.path.join(hztest.FIXTURES, "clean.log")],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("record stream", p.stderr)


if __name__ == "__main__":
    unittest.main()


class ReportsSayIt(unittest.TestCase):
    """hz report and hz compare on a capture that lost a record warn, as
    hz parse fails: a report built from a broken stream once read clean."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        ls = lines()
        del ls[index(ls, 5)]
        self.broken = os.path.join(self.dir, "serial.log")
        with open(self.broken, "w") as f:
            f.write("\n".join(ls))

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_report_text_and_compare_warn(self):
        whole = results.load(hztest.fixture("seq.log"))
        self.assertIsNone(whole.stream_warning())
        self.assertNotIn("WARNING", report_text.text(whole))
        rs = results.load(self.dir)
        self.assertEqual(len(rs.stream_problems), 1)
        self.assertIn("seq 5", rs.stream_problems[0].reason)
        self.assertIn("WARNING: 1 record stream problem(s)", report_text.text(rs))
        p = subprocess.run([hztest.HZ, "compare", hztest.fixture("seq.log"), self.broken],
                           capture_output=True, text=True, timeout=60)
        self.assertIn("WARNING: 1 record stream problem(s) in %s" % self.broken, p.stderr)
