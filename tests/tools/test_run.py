"""hz run end to end: one short TCG boot of build/hugezero.elf."""

import csv
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import hztest
from hzlib import plot, results

ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")


@unittest.skipUnless(os.path.exists(ELF), "build/hugezero.elf missing (run make)")
@unittest.skipUnless(shutil.which("qemu-system-x86_64"), "qemu-system-x86_64 not installed")
class RunEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = tempfile.mkdtemp(prefix="hz-test-run-")
        # --qemu-arg with values that start with '-' (and one that does not)
        cls.p = subprocess.run([hztest.HZ, "run", "--accel", "tcg", "-m", "256M",
                                "--timeout", "120",
                                "--qemu-arg", "-name", "--qemu-arg", "hz-test-run",
                                "--qemu-arg=-no-user-config",
                                "--results", cls.base, "--", "fault_pages=8"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
        dirs = os.listdir(cls.base)
        cls.dir = os.path.join(cls.base, dirs[0]) if len(dirs) == 1 else None

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.base)

    def test_exit_status_folder_and_report_paths_printed_last(self):
        self.assertEqual(self.p.returncode, 0, self.p.stderr.decode())
        lines = self.p.stdout.decode().splitlines()
        self.assertEqual(os.path.realpath(lines[-1]),
                         os.path.realpath(os.path.join(self.dir, "report.html")))
        self.assertEqual(os.path.realpath(lines[-2]), os.path.realpath(self.dir))
        self.assertRegex(lines[-4], r"^hz: exit status 0 \(pass\), \d+ records, accel tcg, ")
        # the phase line: every phase of run=default, in the order they ran
        self.assertRegex(lines[-3], r"^hz: phases: QEMU start [0-9.]+ [mun]?s, kernel start "
                                    r"[0-9.]+ [mun]?s, clear .*, fault .*, policies .*, "
                                    r"vmstart .*, verdict and exit .*; QEMU [0-9.]+ s in all$")
        out = self.p.stdout.decode()
        self.assertIn("hugezero: starting\n", out)  # the human console, streamed live
        self.assertNotIn("@hz {", out)  # records only with --records, always in serial.log
        with open(os.path.join(self.dir, "serial.log"), "rb") as f:
            self.assertIn(b'@hz {"t":"header"', f.read())
        self.assertRegex(os.path.basename(self.dir), r"^\d{8}T\d{6}Z-direct$")

    def test_results_folder(self):
        for name in ("serial.log", "records.jsonl", "summary.csv", "meta.json", "qemu.stderr"):
            self.assertTrue(os.path.exists(os.path.join(self.dir, name)), name)
        rs = results.load(self.dir)
        self.assertEqual(rs.records[0]["t"], "header")
        # hz run appends how the host backs guest RAM (anonymous here)
        self.assertEqual(rs.records[0]["cmdline"], "fault_pages=8 backing=4k")
        self.assertEqual(rs.records[0]["backing"], "4k")
        self.assertEqual(rs.records[-1]["t"], "summary")
        with open(os.path.join(self.dir, "summary.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(rows[-1]["t"], "summary")
        self.assertEqual(rows[-1]["status"], "0")
        # Plots exist exactly when there is something to plot.
        if not plot.terminal():
            self.skipTest("gnuplot with a png terminal is not installed")
        pngs = sorted(f for f in os.listdir(self.dir) if f.endswith(".png"))
        self.assertEqual(any(p.startswith("clear_gbps") for p in pngs), bool(rs.of_type("clear")))
        self.assertTrue(rs.of_type("fault"), "fault_pages=8 gave no fault records")
        self.assertIn("fault_cdf.png", pngs)
        with open(os.path.join(self.dir, "fault_cdf.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_report_page(self):
        with open(os.path.join(self.dir, "report.html")) as f:
            page = f.read()
        self.assertIn("QEMU TCG: no figure on this page is a hardware timing", page)
        self.assertIn("fault_pages=8", page)  # the header record's cmdline, in the facts
        pngs = [f for f in os.listdir(self.dir) if f.endswith(".png")]
        self.assertEqual(page.count('<img src="data:image/png;base64,'), len(pngs))

    def test_meta(self):
        with open(os.path.join(self.dir, "meta.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["boot"], meta["accel"], meta["cmdline"], meta["exit_status"],
                          meta["status_name"], meta["qemu_exit"], meta["timed_out"]),
                         ("direct", "tcg", "fault_pages=8 backing=4k", 0, "pass", 1, False))
        self.assertTrue(meta["qemu_version"].startswith("QEMU emulator version"))
        self.assertIn("-accel tcg -cpu max -m 256M", meta["qemu_cmdline"])
        self.assertEqual((meta["cpu_model"], meta["cpu_fallback_reason"], meta["guest_ram"]),
                         ("max", None, "anonymous 4K"))
        self.assertGreater(meta["qemu_rss_bytes"] or 0, 0)  # sampled while QEMU ran
        self.assertGreater(meta["first_output_s"], 0)  # the first console byte, timed
        self.assertLess(meta["first_output_s"], meta["elapsed_s"])
        self.assertIn("-append 'fault_pages=8 backing=4k'", meta["qemu_cmdline"])
        argv = meta["qemu_argv"]
        self.assertIn(["-name", "hz-test-run"], [argv[i:i + 2] for i in range(len(argv))])
        self.assertIn("-no-user-config", argv)
        self.assertTrue(meta["host_cpu"])
        self.assertTrue(meta["commit"])


class PassThroughOptions(unittest.TestCase):
    def test_values_starting_with_a_dash(self):
        from hzlib import cli
        argv = ["run", "--qemu-arg", "-drive", "--qemu-arg", "file=d.img", "--linux-arg",
                "--quick", "--qemu-arg=-s", "--", "--qemu-arg", "x"]
        self.assertEqual(cli.join_pass_through(argv),
                         ["run", "--qemu-arg=-drive", "--qemu-arg=file=d.img",
                          "--linux-arg=--quick", "--qemu-arg=-s", "--", "--qemu-arg", "x"])
        a = cli.parser().parse_args(cli.join_pass_through(argv))
        self.assertEqual(a.qemu_arg, ["-drive", "file=d.img", "-s"])
        self.assertEqual(a.linux_arg, ["--quick"])
        self.assertEqual(a.args, ["--qemu-arg", "x"])  # kernel arguments stay as given
        self.assertEqual(cli.join_pass_through(["run", "--qemu-arg"]), ["run", "--qemu-arg"])


class BadRunArguments(unittest.TestCase):
    def test_smp_and_timeout_must_be_above_zero(self):
        for argv in (["run", "--smp", "0"], ["run", "--smp", "x"], ["run", "--timeout", "-1"],
                     ["run", "--timeout", "0"]):
            p = subprocess.run([hztest.HZ] + argv + ["--", "run=none"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=60)
            self.assertEqual(p.returncode, 2, argv)
            self.assertIn("argument " + argv[1], p.stderr.decode())
            self.assertNotIn("Traceback", p.stderr.decode())

    def test_quiet_run_still_says_which_option_is_bad(self):
        """-q hides the console; a config error (status 3) is still named."""
        with tempfile.TemporaryDirectory(prefix="hz-test-q-") as d:
            p = subprocess.run([hztest.HZ, "run", "-q", "--accel", "tcg", "-m", "256M",
                                "--results", d, "--", "tolerance=0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=120)
        self.assertEqual(p.returncode, 3)
        self.assertIn("hz: bad option 'tolerance':", p.stderr.decode())


if __name__ == "__main__":
    unittest.main()


class UnwritablePaths(unittest.TestCase):
    """A path that cannot be written ends in one clear line and exit 2 (hz
    parse -o, hz plot -o) or hz run's no-status code, never a traceback."""

    def test_each_command_says_which_path(self):
        with tempfile.NamedTemporaryFile() as f:
            bad = os.path.join(f.name, "sub")  # below a file: no folder can be made there
            for argv, rc, want in (
                    (["parse", hztest.fixture("clean.log"), "-o", bad], 2,
                     "hz: parse: cannot write into -o %s: Not a directory\n" % bad),
                    (["plot", hztest.fixture("results-verdict"), "-o", bad], 2,
                     "hz: plot: cannot write into %s: Not a directory\n" % bad),
                    (["run", "--accel", "tcg", "--results", bad, "--", "run=none"], 125,
                     "hz: --results %s: cannot make a results folder there: Not a directory\n"
                     % bad)):
                p = subprocess.run([hztest.HZ] + argv, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=120)
                err = p.stderr.decode()
                self.assertEqual(p.returncode, rc, err)
                self.assertTrue(err.endswith(want), err)
                self.assertNotIn("Traceback", err)
