"""tools/hzlib/probe.py: the KVM CPU-model probe, its cache and the
messages for an unusable KVM, against a fake qemu-system-x86_64 on PATH.

The fake imitates QEMU 7.2 on an AMD EPYC under nested KVM: `-cpu
host,+invtsc,host-cache-info=on` and `max,host-cache-info=on` abort with
"failed to set MSR 0x10a" (stderr, then SIGABRT); a named model given
host-cache-info=on exits 1 ("Property ... not found", as QEMU 7.2); the
models named in $FAKE_QEMU_OK (|-separated) boot and print a header and a
summary record; any other model prints only warnings and exits
1. Every boot appends its -cpu to $FAKE_QEMU_LOG.
"""

import errno
import json
import os
import shutil
import tempfile
import unittest
from unittest import mock

import hztest  # noqa: F401  (import paths)
from hzlib import probe, qemu

FAKE_QEMU = r"""#!/bin/sh
if [ "$1" = --version ]; then echo "QEMU emulator version ${FAKE_QEMU_VERSION:-7.2.0} (fake)"; exit 0; fi
cpu= prev=
for a in "$@"; do [ "$prev" = -cpu ] && cpu=$a; prev=$a; done
if [ "$cpu" = help ]; then
    printf 'Available CPUs:\nx86 EPYC-Milan          (alias configured by machine type)\n'
    printf 'x86 EPYC-Milan-v1       AMD EPYC-Milan Processor\nx86 EPYC-Rome           (alias)\n'
    printf 'x86 SapphireRapids      (alias)\nx86 max                 Enables all features\n'
    exit 0
fi
echo "$cpu" >> "$FAKE_QEMU_LOG"
if [ -n "$FAKE_KVM_INIT_FAIL" ]; then
    echo "Could not access KVM kernel module: No such file or directory" >&2
    echo "qemu-system-x86_64: failed to initialize kvm: No such file or directory" >&2
    exit 1
fi
case "|$FAKE_QEMU_OK|" in *"|$cpu|"*)
    printf '@hz {"t":"header","v":1}\r\n@hz {"t":"summary","v":1,"pass":0,"fail":0,"skip":0,"status":0}\r\n'
    exit 1;;
esac
case "$cpu" in host,*|max,*) ;; *host-cache-info*)
    echo "qemu-system-x86_64: can't apply global ${cpu%%,*}-x86_64-cpu.host-cache-info=on: Property '${cpu%%,*}-x86_64-cpu.host-cache-info' not found" >&2
    exit 1;;
esac
case "$cpu" in host,+invtsc,host-cache-info=on|max,host-cache-info=on)
    echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
    echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: Assertion failed." >&2
    kill -ABRT $$;;
esac
echo "qemu-system-x86_64: warning: host doesn't support requested feature: CPUID.01H:ECX.pni [bit 0]" >&2
exit 1
"""

H1 = "host,+invtsc,host-cache-info=on"
H2 = "host,+invtsc,-arch-capabilities,host-cache-info=on"
MAXK = "max,host-cache-info=on"

ZEN4 = ("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
        "model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse2 avx512f\n\nprocessor\t: 1\n")


class ProbeTest(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="hz-test-probe-")
        self.addCleanup(shutil.rmtree, self.d)
        fake = os.path.join(self.d, "bin", "qemu-system-x86_64")
        os.makedirs(os.path.dirname(fake))
        with open(fake, "w") as f:
            f.write(FAKE_QEMU)
        os.chmod(fake, 0o755)
        self.log = os.path.join(self.d, "boots")
        env = {"PATH": os.path.dirname(fake) + os.pathsep + os.environ["PATH"],
               "FAKE_QEMU_LOG": self.log, "FAKE_QEMU_OK": H2}
        patcher = mock.patch.dict(os.environ, env)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(probe._failed.clear)
        self.kernel = self.file("hugezero.elf", "")
        self.dev = self.file("kvm", "")  # a regular file opens O_RDWR like a usable /dev/kvm
        self.cpuinfo = self.file("cpuinfo", ZEN4)
        self.cache = os.path.join(self.d, "build", "qemu-probe.json")

    def file(self, name, text):
        path = os.path.join(self.d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def boots(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return f.read().split()

    def choose(self, accel="auto", cpu=None, dev=None):
        cfg = qemu.BootConfig(accel=accel, cpu=cpu, kernel=self.kernel)
        return probe.choose(cfg, cache=self.cache, dev=dev or self.dev, cpuinfo=self.cpuinfo)


class Decision(ProbeTest):
    def test_host_cpu_and_named_model(self):
        cpu = probe.host_cpu(self.cpuinfo)
        self.assertEqual((cpu["vendor"], cpu["family"], cpu["model"], cpu["stepping"], cpu["name"]),
                         ("AuthenticAMD", 0x19, 0x11, 1, "AMD EPYC"))
        self.assertEqual(probe.host_cpu_string(cpu),
                         "AuthenticAMD family 0x19 model 0x11 stepping 1 (AMD EPYC)")
        known = probe.qemu_models()
        self.assertIn("EPYC-Milan-v1", known)
        # QEMU 7.2 lacks EPYC-Genoa: the newest family-0x19 model it has is Milan.
        self.assertEqual(probe.candidates(cpu, known),
                         [H1, H2,
                          "EPYC-Milan,+invtsc", MAXK])
        self.assertEqual(probe.named_model(cpu, known + ["EPYC-Genoa"]), "EPYC-Genoa")
        intel = {"vendor": "GenuineIntel", "family": 6}
        self.assertEqual(probe.named_model(intel, known), "SapphireRapids")
        self.assertEqual(probe.candidates({"vendor": "CentaurHauls", "family": 7}, known),
                         [H1, H2, MAXK])
        # QEMU 7.2 has host-cache-info only on host and max: every host model
        # passes the host's cache leaves, a named model carries its own.
        for c in probe.candidates(cpu, known):
            self.assertEqual(c.endswith(",host-cache-info=on"), not c.startswith("EPYC-"), c)
        self.assertIn("Property 'EPYC-Milan-x86_64-cpu.host-cache-info' not found",
                      probe.try_model(self.kernel, "EPYC-Milan,+invtsc,host-cache-info=on", 30))

    def test_msr_abort_falls_back_to_no_arch_capabilities(self):
        c = self.choose()
        self.assertEqual((c.accel, c.cpu), ("kvm", H2))
        self.assertEqual(c.refused, [(H1, "error: failed to set MSR 0x10a to 0x69")])
        self.assertEqual(c.line(), "KVM, -cpu host,+invtsc,-arch-capabilities,host-cache-info=on "
                                   "(probed): host,+invtsc,host-cache-info=on refused (error: "
                                   "failed to set MSR 0x10a to 0x69)")
        self.assertEqual(self.boots(), [H1, H2])

    def test_first_candidate_that_boots_has_no_reason(self):
        os.environ["FAKE_QEMU_OK"] = H1
        c = self.choose(accel="kvm")
        self.assertEqual((c.cpu, c.reason, c.refused), (H1, None, []))

    def test_named_model_after_both_host_forms(self):
        os.environ["FAKE_QEMU_OK"] = "EPYC-Milan,+invtsc"
        c = self.choose()
        self.assertEqual(c.cpu, "EPYC-Milan,+invtsc")
        self.assertEqual(c.refused, [
            (H1, "error: failed to set MSR 0x10a to 0x69"),
            (H2,
             "QEMU exit status 1 without the kernel's summary record")])

    def test_no_model_boots_is_an_error_not_tcg(self):
        os.environ["FAKE_QEMU_OK"] = "none"
        for accel in ("auto", "kvm"):
            with self.assertRaisesRegex(qemu.ConfigError,
                                        "^no CPU model boots hugezero under KVM: "
                                        r"host,\+invtsc,host-cache-info=on refused "
                                        r"\(error: failed to set MSR 0x10a"):
                self.choose(accel)
            self.assertEqual(len(self.boots()), 4)  # the failure is remembered, not re-probed
        self.assertFalse(os.path.exists(self.cache))

    def test_given_cpu_and_tcg_are_not_probed(self):
        self.assertEqual(self.choose(cpu="EPYC-Rome").line(), "KVM, -cpu EPYC-Rome (--cpu)")
        self.assertEqual(self.choose(accel="tcg").line(), "TCG, -cpu max (--accel tcg)")
        self.assertEqual(self.boots(), [])

    def test_cpu_in_qemu_args_is_the_choice(self):
        # QEMU runs the last -cpu it is given: `--qemu-arg -cpu --qemu-arg X` comes after
        # hz's own, so X is the model; the line and meta.json name it, and no probe runs.
        def choose(accel="auto", cpu=None):
            cfg = qemu.BootConfig(accel=accel, cpu=cpu, kernel=self.kernel,
                                  extra=["-s", "-cpu", "EPYC-Rome", "-cpu", "qemu64,pmu=off"])
            return probe.choose(cfg, cache=self.cache, dev=self.dev, cpuinfo=self.cpuinfo)
        self.assertEqual(choose().line(), "KVM, -cpu qemu64,pmu=off (--qemu-arg -cpu)")
        self.assertEqual(choose(accel="tcg").line(),
                         "TCG, -cpu qemu64,pmu=off (--accel tcg, -cpu from --qemu-arg)")
        self.assertEqual(choose(cpu="host").line(),
                         "KVM, -cpu qemu64,pmu=off (--qemu-arg -cpu): replaces --cpu host")
        self.assertEqual(self.boots(), [])
        dev = os.path.join(self.d, "no-kvm")
        cfg = qemu.BootConfig(kernel=self.kernel, extra=["-cpu", "EPYC-Rome"])
        c = probe.choose(cfg, cache=self.cache, dev=dev, cpuinfo=self.cpuinfo)
        self.assertEqual((c.accel, c.cpu, c.how), ("tcg", "EPYC-Rome",
                                                   "--accel auto, -cpu from --qemu-arg"))


class MsrHint(unittest.TestCase):
    def test_names_the_msr_and_the_fix(self):
        err = ("qemu-system-x86_64: error: failed to set MSR 0x38d to 0x0\n"
               "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: "
               "Assertion failed.\n")
        self.assertEqual(probe.msr_hint(err),
                         "QEMU could not set MSR 0x38d (IA32_FIXED_CTR_CTRL, a PMU control): the "
                         "hypervisor below refuses it; add pmu=off to -cpu")
        self.assertEqual(probe.msr_hint("error: failed to set MSR 0x10a to 0x69"),
                         "QEMU could not set MSR 0x10a (IA32_ARCH_CAPABILITIES): the hypervisor "
                         "below refuses it; add -arch-capabilities to -cpu")
        self.assertEqual(probe.msr_hint("error: failed to set MSR 0x48d to 0xff00000016"),
                         "QEMU could not set MSR 0x48d (IA32_VMX_*, a VMX capability MSR of "
                         "nested virtualization): the hypervisor below refuses it; add -vmx to "
                         "-cpu")
        for msr in ("0x480", "0x492"):
            self.assertIn("add -vmx", probe.msr_hint("failed to set MSR %s to 0x0" % msr))
        self.assertNotIn("VMX", probe.msr_hint("failed to set MSR 0x493 to 0x0"))
        self.assertIn("(AMD PERF_CTL/PERF_CTR, a PMU counter)",
                      probe.msr_hint("failed to set MSR 0xc0010004 to 0x0"))
        self.assertEqual(probe.msr_hint("failed to set MSR 0x1b to 0x0"),
                         "QEMU could not set MSR 0x1b: the hypervisor below refuses it")
        self.assertIsNone(probe.msr_hint("warning: host doesn't support requested feature"))
        self.assertIsNone(probe.msr_hint(None))


class MachineLine(unittest.TestCase):
    def test_names_the_cpu_model_qemu_ran(self):
        # Two KVM runs on one host with different -cpu are different machines to hz compare.
        from hzlib import results
        hdr = {"t": "header", "hypervisor": "KVMKVMKVM", "cpu": {"brand": "AMD EPYC"}}
        a = results.ResultSet("a", [hdr], {"cpu_model": "host,+invtsc,-arch-capabilities"})
        b = results.ResultSet("b", [hdr], {"cpu_model": "EPYC-Milan,pmu=off"})
        self.assertEqual(results.machine(a), "AMD EPYC, hypervisor KVMKVMKVM, "
                                             "-cpu host,+invtsc,-arch-capabilities")
        self.assertNotEqual(results.machine(a), results.machine(b))
        self.assertEqual(results.machine(results.ResultSet("c", [hdr])),
                         "AMD EPYC, hypervisor KVMKVMKVM")


class Cache(ProbeTest):
    def test_second_choice_boots_nothing(self):
        self.choose()
        c = self.choose(accel="kvm")
        self.assertEqual(c.cpu, H2)
        self.assertEqual(c.how, "probed earlier, %s" % os.path.relpath(self.cache))
        self.assertIn("failed to set MSR 0x10a", c.reason)
        self.assertEqual(len(self.boots()), 2)

    def test_changed_host_or_qemu_probes_again(self):
        self.choose()
        self.file("cpuinfo", ZEN4.replace("model\t\t: 17", "model\t\t: 1"))  # now a Milan
        os.environ["FAKE_QEMU_OK"] = "EPYC-Milan,+invtsc"
        self.assertEqual(self.choose().cpu, "EPYC-Milan,+invtsc")
        self.assertEqual(len(self.boots()), 2 + 3)
        os.environ["FAKE_QEMU_VERSION"] = "8.2.2"
        os.environ["FAKE_QEMU_OK"] = H1
        self.assertEqual(self.choose().cpu, H1)
        self.assertEqual(len(self.boots()), 2 + 3 + 1)

    def test_cache_from_before_host_cache_info_is_probed_again(self):
        # A cache written when the host models had no host-cache-info=on: its
        # key lacks host_models, so its answer (without the cache leaves) is
        # not reused.
        key = dict(probe.cache_key(self.cpuinfo))
        del key["host_models"]
        os.makedirs(os.path.dirname(self.cache))
        with open(self.cache, "w") as f:
            json.dump({"key": key, "cpu": "host,+invtsc,-arch-capabilities", "refused": []}, f)
        c = self.choose()
        self.assertEqual((c.cpu, c.how), (H2, "probed"))
        self.assertEqual(self.boots(), [H1, H2])
        with open(self.cache) as f:
            self.assertEqual(json.load(f)["key"]["host_models"], [H1, H2, MAXK])

    def test_broken_cache_is_probed_again(self):
        os.makedirs(os.path.dirname(self.cache))
        with open(self.cache, "w") as f:
            f.write("{not json")
        self.assertEqual(self.choose().cpu, H2)
        self.assertEqual(len(self.boots()), 2)


class Unusable(ProbeTest):
    def test_missing_device_names_the_cause(self):
        dev = os.path.join(self.d, "no-kvm")
        self.assertEqual(probe.kvm_problem(dev, self.cpuinfo),
                         "%s does not exist: the CPU shows no svm or vmx flag: hardware "
                         "virtualisation is off in the firmware or not given to this VM" % dev)
        svm = self.file("cpuinfo-svm", ZEN4.replace("avx512f", "avx512f svm"))
        self.assertIn("kvm_amd or kvm_intel module is not loaded", probe.kvm_problem(dev, svm))

    def test_permission_and_busy(self):
        for err, want in ((errno.EACCES, "permission denied (add this user to group kvm"),
                          (errno.EBUSY, "is busy: another hypervisor")):
            with mock.patch("os.open", side_effect=OSError(err, os.strerror(err))):
                self.assertIn(want, probe.kvm_problem("/dev/kvm", self.cpuinfo))
        self.assertIsNone(probe.kvm_problem(self.dev, self.cpuinfo))

    def test_auto_runs_tcg_and_kvm_fails_with_the_line(self):
        dev = os.path.join(self.d, "no-kvm")
        c = self.choose(accel="auto", dev=dev)
        self.assertEqual((c.accel, c.cpu), ("tcg", "max"))
        self.assertEqual(c.line(), "TCG, -cpu max (--accel auto): KVM unusable: %s" %
                         probe.kvm_problem(dev, self.cpuinfo))
        with self.assertRaisesRegex(probe.KvmUnusable,
                                    "^--accel kvm: KVM unusable: .*does not exist"):
            self.choose(accel="kvm", dev=dev)
        self.assertEqual(self.boots(), [])

    def test_qemu_cannot_start_kvm(self):
        os.environ["FAKE_KVM_INIT_FAIL"] = "1"
        c = self.choose()
        self.assertEqual(c.accel, "tcg")
        self.assertEqual(c.reason, "KVM unusable: QEMU cannot start KVM: "
                                   "Could not access KVM kernel module: No such file or directory")
        self.assertEqual(len(self.boots()), 1)  # no further models tried


if __name__ == "__main__":
    unittest.main()
