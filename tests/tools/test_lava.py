"""LAVA: `hz lava-job` jobs run by the real dispatcher.

lava-run (Debian 12's lava-dispatcher 2023.01, installed by tools/deps.sh;
run with /usr/bin/python3, as root or through `sudo -n`) boots the QEMU job
under TCG against tests/lava/qemu-device.yaml, with no lava-server. The
job log it prints is what a lava-server stores: its `results` entries are
the job's test cases (the server's results.yaml). The tests read that log
with PyYAML (Debian's, through /usr/bin/python3) and check it against the
`@hz` records the same run printed. (test_lava_log.py: hz lava-fetch.)
"""

import functools
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest

import hztest
from hzlib import lava, records as rec

LAVA_RUN = "/usr/bin/lava-run"
DEBIAN_PYTHON = "/usr/bin/python3"
ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")
ISO = os.path.join(hztest.ROOT, "build", "hugezero.iso")
DEVICE = {d: os.path.join(hztest.ROOT, "tests", "lava", "%s-device.yaml" % d.replace("-iso", ""))
          for d in lava.DEVICES}
# The kernel's default run, made small for TCG (about 10 s): every scenario
# still runs, on fewer pages, bytes and repeats.
SMALL_DEFAULT = "repeats=1 pages=16 fault_pages=16 vmstart_size=16M vmstart_rounds=1"


def _lava_run_argv():
    """argv prefix for lava-run, or None with the reason it cannot run."""
    if not os.path.exists(LAVA_RUN):
        return None, "%s missing: tools/deps.sh installs lava-dispatcher" % LAVA_RUN
    argv = [DEBIAN_PYTHON, LAVA_RUN]
    if os.geteuid() == 0:
        return argv, None
    if subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"] + argv, None
    return None, "lava-run needs root (not root, no passwordless sudo)"


ARGV, WHY_NOT = _lava_run_argv()


def hz(*args):
    return subprocess.run([hztest.HZ] + list(args), capture_output=True, text=True, timeout=120)


def yaml_entries(log_text):
    """The job log read by PyYAML, LAVA's own parser (one mapping per line)."""
    doc = "".join("- " + line + "\n" for line in log_text.splitlines() if line.startswith("{"))
    p = subprocess.run([DEBIAN_PYTHON, "-c", "import json, sys, yaml; "
                        "print(json.dumps(yaml.safe_load(sys.stdin.read()), default=str))"],
                       input=doc, capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


JOB_ID = "hz%d" % os.getpid()  # lava-run's folders are named by it


def _tftpd_root():
    """TFTP_DIRECTORY of /etc/default/tftpd-hpa (where a tftp deploy goes), or None."""
    try:
        with open("/etc/default/tftpd-hpa") as f:
            conf = dict(line.strip().split("=", 1) for line in f
                        if "=" in line and not line.startswith("#"))
    except OSError:
        return None
    return conf.get("TFTP_DIRECTORY", "").strip('"') or None


def lava_run(job_text, device="qemu", validate=False, timeout=600, device_path=None, extra=()):
    """Run lava-run on job_text (device: a DEVICE key, or device_path a
    device dictionary; extra: more lava-run options); (return code, job log)."""
    with tempfile.TemporaryDirectory(prefix="hz-lava-") as d:
        path = os.path.join(d, "job.yaml")
        with open(path, "w") as f:
            f.write(job_text)
        job_id = JOB_ID
        argv = ARGV + ["--job-id", job_id, "--output-dir", os.path.join(d, "out"),
                       "--device", device_path or DEVICE[device]] + list(extra) + \
            (["--validate"] if validate else []) + [path]
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        finally:
            _remove_job_dirs(job_id)
        return p.returncode, p.stdout + p.stderr


def _remove_job_dirs(job_id):
    """lava-run keeps a job's files in /var/lib/lava/dispatcher/tmp/<job id>/
    (lava_common.constants.DISPATCHER_DOWNLOAD_DIR) and a tftp deploy's in
    TFTP_DIRECTORY/<job id>/ (tftpd-hpa's config); it removes them after a
    job that ran, not after --validate. Remove both, as the user lava-run
    ran as."""
    paths = [os.path.join("/var/lib/lava/dispatcher/tmp", job_id)]
    if _tftpd_root():
        paths.append(os.path.join(_tftpd_root(), job_id))
    paths = [p for p in paths if os.path.isdir(p)]
    if paths:
        subprocess.run(ARGV[:-2] + ["rm", "-rf", "--"] + paths, check=True)


def job(device="qemu", args="", url=None):
    url = url or "file://" + (ISO if device == "qemu-iso" else ELF)
    p = hz("lava-job", "--device", device, "--kernel-url", url, *(["--args", args] if args else []))
    if p.returncode != 0:
        raise AssertionError("hz lava-job failed: %s" % p.stderr)
    return p.stdout


def suites(entries):
    """{suite: [test case dicts]} from the log's results entries."""
    out = {}
    for e in entries:
        if e.get("lvl") == "results":
            out.setdefault(e["msg"]["definition"], []).append(e["msg"])
    return out


def console_records(entries):
    """The run's records, from the console lines LAVA logged (the same text
    its monitors matched)."""
    serial = lava.serial_text(entries)
    return rec.extract(serial)[0], serial


@unittest.skipIf(ARGV is None, WHY_NOT)
class JobsValidate(unittest.TestCase):
    def test_every_template_validates(self):
        self.assertTrue(os.path.exists(ELF), "build/hugezero.elf missing: run make")
        for device in lava.DEVICES:
            with self.subTest(device=device):
                args = "" if device == "qemu-iso" else "run=clear"
                rc, log = lava_run(job(device, args), device, validate=True)
                self.assertEqual(rc, 0, log[-2000:])
                self.assertIn('"case": "job", "definition": "lava", "result": "pass"', log)

    def test_wrong_device_fails_validation(self):
        # The check above can fail: a GRUB job on the QEMU device does.
        rc, log = lava_run(job("pxe-grub"), "qemu", validate=True)
        self.assertNotEqual(rc, 0)
        self.assertIn('"result": "fail"', log)


class JobRendering(unittest.TestCase):
    def test_iso_takes_no_arguments(self):
        text = job("qemu-iso")
        self.assertIn("image_arg: '-cdrom {iso} -boot d'", text)
        self.assertNotIn("hugezero-measurements", text)
        p = hz("lava-job", "--device", "qemu-iso", "--kernel-url", "file:///h.iso", "--run", "none")
        self.assertEqual(p.returncode, 2)
        self.assertIn("GRUB menu", p.stderr)

    def test_results_lava_first_and_run(self):
        text = job("qemu", "repeats=2")
        self.assertIn('-append "results=lava repeats=2"', text)
        p = hz("lava-job", "--device", "qemu", "--kernel-url", "http://h/k.elf",
               "--run", "clear,fault")
        self.assertIn('-append "results=lava run=clear,fault"', p.stdout)

    def test_bad_input_is_an_error(self):
        for extra, why in ((["--args", "results=hz"], "results=lava"),
                           (["--args", "console='x'"], "may not contain"),
                           (["--args", "run=clear", "--run", "fault"], "either"),
                           (["--job-timeout", "0"], "1..1440")):
            with self.subTest(extra=extra):
                p = hz("lava-job", "--device", "qemu", "--kernel-url", "file:///k.elf", *extra)
                self.assertEqual(p.returncode, 2)
                self.assertIn(why, p.stderr)
        p = hz("lava-job", "--device", "qemu", "--kernel-url", "tftp://h/k.elf")
        self.assertEqual(p.returncode, 2)
        self.assertIn("scheme", p.stderr)


@unittest.skipIf(ARGV is None, WHY_NOT)
class LavaRunQemu(unittest.TestCase):
    """Real jobs: lava-run boots hugezero in QEMU (TCG) and the monitors
    turn its output into test cases."""

    def run_job(self, args, device="qemu", url=None):
        self.assertTrue(os.path.exists(ELF), "build/hugezero.elf missing: run make")
        rc, log = lava_run(job(device, args, url))
        entries = yaml_entries(log)
        self.assertEqual(lava.parse_log(log), entries, "hzlib's log reader disagrees with PyYAML")
        recs, serial = console_records(entries)
        return rc, entries, suites(entries), recs, serial

    def assert_grub_boot(self, recs, s, cmdline):
        """Booted by GRUB (BIOS) with cmdline; one passing case per check, then summary."""
        header = [r for r in recs if r["t"] == "header"][0]
        self.assertEqual((header["boot"], header["cmdline"]), ("multiboot2-bios", cmdline))
        self.assertTrue(header["loader"].startswith("GRUB"), header["loader"])
        checks = [(r["name"], r["t"]) for r in recs if r["t"] in ("pass", "fail", "skip")]
        cases = [(c["extra"]["test_case_id"], c["result"]) for c in s["hugezero"]]
        self.assertGreaterEqual(len(checks), 3)
        self.assertEqual(cases, checks + [("summary", "pass")])

    def test_default_run(self):
        rc, entries, s, recs, _ = self.run_job(SMALL_DEFAULT)
        self.assertEqual(rc, 0)
        self.assertEqual(s["lava"][-1]["case"], "job")
        self.assertEqual(s["lava"][-1]["result"], "pass")
        checks = [(r["name"], r["t"]) for r in recs if r["t"] in ("pass", "fail", "skip")]
        self.assertGreater(len(checks), 30)
        summary = [r for r in recs if r["t"] == "summary"][-1]
        self.assertEqual(summary["status_name"], "pass")
        cases = [(c["extra"]["test_case_id"], c["result"]) for c in s["hugezero"]]
        # One case per check record, in order, then the summary.
        self.assertEqual(cases, checks + [("summary", "pass")])
        self.assertTrue(all(c["case"] == c["extra"]["test_case_id"].lower().replace(".", "_")
                            for c in s["hugezero"]))
        m = {c["extra"]["test_case_id"]: c for c in s["hugezero-measurements"]}
        for c in m.values():
            self.assertIsInstance(c["measurement"], float)
            self.assertEqual(c["result"], "pass")
        units = {k: c["units"] for k, c in m.items()}
        self.assertEqual(units["fault.service_median"], "ms")
        self.assertEqual(units["prezero.vm_boot.boot.fault_p50"], "us")
        self.assertLessEqual({u for k, u in units.items() if k.startswith("clear.")}, {"GB/s"})
        # The figures are the records' own.
        boot = [r for r in recs if r["t"] == "prezero" and r["policy"] == "boot"][0]
        self.assertAlmostEqual(m["prezero.vm_boot.boot.fault_p50"]["measurement"],
                               boot["lat_p50_ns"] / 1000, places=3)
        # run=default measures the cold 1 GiB target only (docs/options.md "Run profiles");
        # under TCG (this device) no cold cell is verified cold, so there is no clear figure
        self.assertNotIn("clear.best_gbps.4K.warm", m)
        cold = [r for r in recs if r["t"] == "clear" and r["cache"] == "cold"]
        self.assertTrue(cold)
        self.assertEqual({r["cache_verified"] for r in cold}, {False})
        self.assertNotIn("clear.best_gbps.4K.cold", m)

    def test_bad_option_is_a_failure(self):
        # Deployed from an http:// URL (a loopback server of build/).
        handler = functools.partial(_Files, directory=os.path.dirname(ELF))
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        try:
            url = "http://127.0.0.1:%d/hugezero.elf" % srv.server_address[1]
            rc, entries, s, recs, _ = self.run_job("bogus=1", url=url)
        finally:
            srv.shutdown()
            srv.server_close()
        self.assertIn("Validating that %s exists" % url, [e["msg"] for e in entries])
        self.assertEqual([r["status"] for r in recs if r["t"] == "summary"], [3])
        cases = {c["extra"]["test_case_id"]: c["result"] for c in s["hugezero"]}
        self.assertEqual(cases, {"config": "fail", "summary": "unknown"})  # one fail, the kernel's
        self.assertNotIn("pass", cases.values())
        self.assertNotIn("hugezero-measurements", s)

    def test_iso_boot(self):
        # SeaBIOS, GRUB from the CD, then the kernel with the menu's arguments.
        with tempfile.TemporaryDirectory(prefix="hz-lava-iso-") as d:
            with open(os.path.join(hztest.ROOT, "boot", "grub.cfg")) as f:
                head = [line for line in f if line.startswith(("serial", "terminal_"))]
            with open(os.path.join(d, "grub.cfg"), "w") as f:
                f.writelines(head + ["set timeout=0\n", 'menuentry "run=none" {\n',
                                     "    multiboot2 /boot/hugezero.elf run=none\n",
                                     "    boot\n}\n"])
            subprocess.run([os.path.join(hztest.ROOT, "tools", "mkiso.sh"),
                            os.path.join(d, "t.iso"), os.path.join(d, "grub.cfg")],
                           check=True, capture_output=True, cwd=hztest.ROOT)
            rc, _, s, recs, _ = self.run_job("", "qemu-iso", "file://" + os.path.join(d, "t.iso"))
        self.assertEqual(rc, 0)
        self.assert_grub_boot(recs, s, "run=none")
        self.assertNotIn("hugezero-measurements", s)

    def test_pxe_grub_job(self):
        # lab/lava/pxe-grub.yaml for real, with a QEMU VM as the lab machine
        # (tests/lava/pxe-grub-qemu-device.yaml): iPXE, GRUB's core.0 over
        # TFTP, LAVA interrupts GRUB's menu and types the multiboot2 line.
        pxe = os.path.join(hztest.ROOT, "build", "pxe", "boot")
        if not os.path.isdir(pxe):
            self.skipTest("build/pxe missing: run make pxe")
        if _tftpd_root() is None:
            self.skipTest("no TFTP_DIRECTORY in /etc/default/tftpd-hpa (tools/deps.sh --test)")
        with tempfile.TemporaryDirectory(prefix="hz-lava-tftp-") as root:
            shutil.copytree(pxe, os.path.join(root, "boot"))
            os.symlink(os.path.join(_tftpd_root(), JOB_ID), os.path.join(root, JOB_ID))
            with open(os.path.join(hztest.ROOT, "tests", "lava", "pxe-grub-qemu-device.yaml")) as f:
                dev = f.read().replace("@TFTP_ROOT@", root)
            with open(os.path.join(root, "device.yaml"), "w") as f:
                f.write(dev)
            with open(os.path.join(root, "dispatcher.yaml"), "w") as f:
                f.write("dispatcher_ip: 10.0.2.2\n")  # slirp's host address
            rc, log = lava_run(job("pxe-grub", "run=none"),
                               device_path=os.path.join(root, "device.yaml"),
                               extra=["--dispatcher", os.path.join(root, "dispatcher.yaml")])
        entries = yaml_entries(log)
        s = suites(entries)
        recs, serial = console_records(entries)
        self.assertEqual(rc, 0, log[-3000:])
        self.assertEqual(s["lava"][-1]["result"], "pass")
        msgs = [e["msg"] for e in entries if isinstance(e["msg"], str)]
        self.assertIn("Press enter to boot the selected OS", serial)
        typed = [m for m in msgs if m.startswith("multiboot2 (tftp,10.0.2.2)/%s/" % JOB_ID)]
        self.assertEqual(len(typed), 1, "the job's multiboot2 command, typed at grub>")
        self.assertTrue(typed[0].rstrip().endswith("/kernel/hugezero.elf results=lava run=none"),
                        typed)
        self.assert_grub_boot(recs, s, "results=lava run=none")

    def test_crash_is_a_failure_with_the_report(self):
        rc, _, s, recs, serial = self.run_job("selftest=ud run=none")
        self.assertEqual([r["status"] for r in recs if r["t"] == "summary"], [4])
        cases = {c["extra"]["test_case_id"]: c["result"] for c in s["hugezero"]}
        self.assertEqual(cases["crash"], "fail")
        self.assertEqual(cases["summary"], "unknown")  # the crash is not counted twice
        crash = [r for r in recs if r["t"] == "crash"]
        self.assertEqual([c["name"] for c in crash], ["#UD"])
        # The human crash report is in the job log, before the crash record.
        report = "*** hugezero crash: #UD (vector 6) error code 0x0 at rip %s" % crash[0]["rip"]
        self.assertIn("selftest: raising ud on purpose", serial)
        self.assertIn(report, serial)
        self.assertLess(serial.index(report), serial.index('@hz {"t":"crash"'))
        self.assertIn("stack at rsp:", serial)


class _Files(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    unittest.main()
