"""hz parse: record extraction from clean and noisy captures."""

import csv
import json
import os
import subprocess
import tempfile
import unittest

import hztest
from hzlib import records as rec, results, schema


class CleanCapture(unittest.TestCase):
    def test_clean_log_gives_the_expected_records(self):
        recs, diags = rec.extract(hztest.read_bytes("clean.log"), "clean.log")
        self.assertEqual(diags, [])
        self.assertEqual(recs, hztest.expected("clean.expected.jsonl"))
        self.assertEqual(len(recs), 32)
        self.assertEqual([r["t"] for r in recs[:2]], ["header", "memmap"])
        self.assertEqual(recs[-1], {"t": "summary", "v": 1, "pass": 2, "fail": 0, "skip": 0,
                                    "status": 0, "status_name": "pass", "run": 0})

    def test_exact_values_of_one_clear_record(self):
        recs, _ = rec.extract(hztest.read_bytes("clean.log"))
        c = [r for r in recs if r["t"] == "clear"][1]
        self.assertEqual((c["strategy"], c["chunk"], c["bytes"], c["threads"]),
                         ("rep_stosb", 2097152, 1073741824, 1))
        self.assertEqual((c["min_ns"], c["median_ns"], c["max_ns"]), (61000000, 61500000, 62900000))
        self.assertEqual(c["gbps_median"], 17.459)
        self.assertIs(c["verified"], True)


class NoisyCaptures(unittest.TestCase):
    def test_grub_and_firmware_noise_gives_the_same_records(self):
        data = hztest.read_bytes("grub-noise.log")
        self.assertIn(b"\x1b]0;", data)       # the fixture really has OSC,
        self.assertIn(b"\x00", data)          # NUL bytes,
        self.assertIn(b"GRUB noise> @hz {", data)  # and noise before a record
        recs, diags = rec.extract(data, "grub-noise.log")
        self.assertEqual(diags, [])
        self.assertEqual(recs, hztest.expected("clean.expected.jsonl"))

    def test_sol_capture_joins_split_records_and_reports_truncated_end(self):
        data = hztest.read_bytes("sol-split.log")
        recs, diags = rec.extract(data, "sol-split.log")
        self.assertEqual(recs, hztest.expected("clean.expected.jsonl"))
        self.assertEqual(len(diags), 1)
        self.assertEqual(diags[0].line, 58)
        self.assertTrue(str(diags[0]).startswith(
            "sol-split.log:58: malformed record: truncated at end of log"), str(diags[0]))

    def test_banner_inside_a_split_string_is_not_taken_as_data(self):
        recs, _ = rec.extract(hztest.read_bytes("sol-split.log"))
        f = [r for r in recs if r["t"] == "fault" and r["page"] == 3 and r["policy"] == "none"][0]
        self.assertEqual(f["service_ns"], 1210000)
        self.assertNotIn("service[SOL Session operational.  Use ~? for help]_ns", f)

    def test_clean_line_strips_csi_osc_and_controls(self):
        self.assertEqual(
            rec.clean_line("\x1b[0m\x1b[37;40ma\x00b\x1b]0;title\x07c\r\x1b[?25ld\x08"), "abcd")
        self.assertEqual(rec.clean_line("x\x1b]2;unterminated"), "x")
        self.assertEqual(rec.clean_line("\x1b(Bok\x1b7\t"), "ok\t")


class RebootLoop(unittest.TestCase):
    def test_three_runs_are_kept_apart(self):
        recs, diags = rec.extract(hztest.read_bytes("reboot-loop.log"))
        self.assertEqual(diags, [])
        self.assertEqual(recs, hztest.expected("reboot-loop.expected.jsonl"))
        self.assertEqual([r["run"] for r in recs], [0] * 4 + [1] * 4 + [2] * 4)
        per_run = rec.runs(recs)
        self.assertEqual([len(r) for r in per_run], [4, 4, 4])
        self.assertEqual([r[1]["median_ns"] for r in per_run], [61500000, 61800000, 61300000])

    def test_records_before_the_first_header_are_run_0(self):
        log = ('@hz {"t":"pass","v":1,"name":"a"}\n@hz {"t":"header","v":1}\n'
               '@hz {"t":"summary","v":1}\n@hz {"t":"header","v":1}\n')
        recs, _ = rec.extract(log)
        self.assertEqual([(r["t"], r["run"]) for r in recs],
                         [("pass", 0), ("header", 1), ("summary", 1), ("header", 2)])


class Malformed(unittest.TestCase):
    def test_bad_records_are_reported_and_skipped(self):
        recs, diags = rec.extract(hztest.read_bytes("malformed.log"), "malformed.log")
        self.assertEqual([r["t"] for r in recs], ["header", "pass", "pass", "skip", "summary"])
        self.assertEqual(recs[1]["name"], "first on the line")
        self.assertIs(recs[3]["trunc"], True)
        self.assertEqual([d.line for d in diags], [3, 4, 5, 6, 7, 8])
        text = [str(d) for d in diags]
        self.assertTrue(
            text[0].startswith("malformed.log:3: malformed record: Expecting property name"))
        self.assertEqual(text[1], 'malformed.log:4: malformed record: no "t" (record type) string')
        self.assertEqual(text[2],
                         'malformed.log:5: malformed record: no "v" (schema version) integer')
        self.assertEqual(text[3], "malformed.log:6: malformed record: NaN is not JSON (RFC 8259)")
        self.assertEqual(text[4], "malformed.log:7: malformed record: no JSON object after '@hz '")
        self.assertTrue(
            text[5].startswith("malformed.log:8: malformed record: Expecting ',' delimiter"))

    def test_garbage_never_raises(self):
        junk = bytes(range(256)) * 4 + b"@hz {" + b"\xff\xfe" * 10 + b"\n@hz \n@hz {{{{\n@hz"
        recs, diags = rec.extract(junk, "junk")
        self.assertEqual(recs, [])
        # "@hz" without the space is not a record prefix: three bad records.
        self.assertEqual([d.line for d in diags], [5, 6, 7])

    def test_deep_nesting_and_huge_integers_are_diagnostics(self):
        good = b'@hz {"t":"pass","v":1,"name":"a"}\n'
        deep = b'@hz {"t":"x","v":1,"a":' + b"[" * 1000 + b"]" * 1000 + b"}\n"
        digits = b'@hz {"t":"x","v":1,"n":' + b"9" * 4301 + b"}\n"
        recs, diags = rec.extract(good + deep + digits + good, "deep")
        self.assertEqual([r["t"] for r in recs], ["pass", "pass"])
        self.assertEqual([str(d) for d in diags][0],
                         "deep:2: malformed record: nested deeper than the JSON parser allows")
        self.assertTrue(str(diags[1]).startswith(
            "deep:3: malformed record: unreadable value: Exceeds the limit (4300 digits)"))
        self.assertEqual(len(diags), 2)

    def test_diagnostics_are_capped_and_counted(self):
        recs, diags = rec.extract(b"@hz \n" * 5000 + b"@hz " * 5000, "flood")
        self.assertEqual(recs, [])
        self.assertEqual(len(diags), rec.MAX_DIAGS + 1)
        self.assertEqual([d.line for d in diags[:3]], [1, 2, 3])
        self.assertEqual(str(diags[-1]),
                         "flood:5001: malformed record: %d more not listed (the first %d are)"
                         % (10000 - rec.MAX_DIAGS, rec.MAX_DIAGS))


class ParseCommand(unittest.TestCase):
    def hz(self, *args):
        return subprocess.run([hztest.HZ] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=60)

    def test_stdout_is_jsonl_and_diagnostics_go_to_stderr(self):
        p = self.hz("parse", hztest.fixture("malformed.log"))
        self.assertEqual(p.returncode, 0)
        lines = p.stdout.decode().splitlines()
        self.assertEqual(len(lines), 5)
        self.assertEqual(json.loads(lines[1])["name"], "first on the line")
        err = p.stderr.decode()
        self.assertIn("malformed.log:7: malformed record: no JSON object after '@hz '", err)
        self.assertIn("hz: 5 records in 1 run(s)", err)

    def test_a_flood_of_bad_records_gives_a_bounded_report(self):
        with tempfile.NamedTemporaryFile(suffix=".log") as f:
            f.write(b'@hz {"t":"x","v":1,"a":' + b"[" * 5000 + b"\n" + b"@hz " * 200000)
            f.flush()
            p = self.hz("parse", f.name)
        self.assertEqual(p.returncode, 1)  # no records
        err = p.stderr.decode().splitlines()
        self.assertNotIn("Traceback", p.stderr.decode())
        self.assertLessEqual(len(err), rec.MAX_DIAGS + 3)
        self.assertIn("more not listed", err[rec.MAX_DIAGS])

    def test_no_records_exits_1(self):
        with tempfile.NamedTemporaryFile(suffix=".log") as f:
            f.write(b"GRUB loading.\r\nno records here\r\n")
            f.flush()
            self.assertEqual(self.hz("parse", f.name).returncode, 1)

    def test_output_folder_has_jsonl_and_per_run_csv(self):
        with tempfile.TemporaryDirectory() as d:
            p = self.hz("parse", hztest.fixture("reboot-loop.log"), "-o", d)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(sorted(os.listdir(d)), ["records.jsonl", "run0.csv", "run1.csv",
                                                     "run2.csv", "summary.csv"])
            recs, diags = results.read_jsonl(os.path.join(d, "records.jsonl"))
            self.assertEqual((recs, diags), (hztest.expected("reboot-loop.expected.jsonl"), []))
            with open(os.path.join(d, "run1.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([r["t"] for r in rows], ["clear", "pass", "summary"])
            self.assertEqual((rows[0]["run"], rows[0]["strategy"], rows[0]["median_ns"],
                              rows[0]["verified"]), ("1", "rep_stosb", "61800000", "true"))

    def test_summary_csv_puts_clear_columns_first(self):
        with tempfile.TemporaryDirectory() as d:
            recs, _ = rec.extract(hztest.read_bytes("clean.log"))
            results.write_records(d, recs)
            with open(os.path.join(d, "summary.csv")) as f:
                rows = list(csv.reader(f))
        self.assertEqual(rows[0][:len(schema.CLEAR_COLUMNS) + 2],
                         ["run", "t"] + schema.CLEAR_COLUMNS)
        types = [r[1] for r in rows[1:]]
        self.assertEqual(types.count("clear"), 10)
        self.assertNotIn("header", types)
        self.assertNotIn("progress", types)
        self.assertEqual(len(rows) - 1, 32 - 1 - 2)


if __name__ == "__main__":
    unittest.main()
