"""Disassembly checks on build/hugezero.elf (objdump -d): the orders of
instructions the idle and start-up paths depend on, which no boot test can
see (a mutation of any of them still boots under TCG):

- every idle HLT directly follows STI: STI's one-instruction interrupt
  shadow (SDM Vol. 2B "STI") is what keeps a wake IPI sent after the
  mailbox check from being taken before HLT and lost. A HLT that ends in a
  loop back to itself or to the CLI before it is a stop, not an idle wait.
- MONITOR gets RAX = the wake word's address, ECX = 0, EDX = 0; the word is
  read again from that address after MONITOR and before MWAIT; MWAIT gets
  EAX = a constant hint and ECX = 0 (SDM Vol. 2B "MONITOR", "MWAIT").
- smp_run (kernel/smp_work.c), which the boot CPU runs while APs are
  measured, holds no PAUSE loop: it waits through user_run (arch/user.h,
  at the measurement CPL), because where ring 0 is emulated a ring-0 spin
  runs the hypervisor's emulator beside the measured CPUs.
- the AP trampoline sets EXTD (bit 10 of IA32_APIC_BASE, MSR 0x1b) with
  WRMSR before any RDMSR/WRMSR of an x2APIC register (MSRs 0x800-0x8ff;
  SDM Vol. 3A §11.12.1: they #GP in xAPIC mode).

Each checker also runs on mutated listings, so it is shown to fail.
"""

import os
import re
import shutil
import subprocess
import unittest

import hztest

ELF = os.path.join(hztest.ROOT, "build", "hugezero.elf")
LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
SYMBOL = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
# The register a name writes, by its family: rax/eax/ax/al -> a ...
FAMILY = {}
for fam, names in {"a": "rax eax ax al", "c": "rcx ecx cx cl", "d": "rdx edx dx dl",
                   "b": "rbx ebx bx bl", "si": "rsi esi si sil", "di": "rdi edi di dil",
                   "sp": "rsp esp", "bp": "rbp ebp"}.items():
    for n in names.split():
        FAMILY[n] = fam
for i in range(8, 16):
    for suffix in ("", "d", "w", "b"):
        FAMILY["r%d%s" % (i, suffix)] = "r%d" % i
IMPLICIT = {"rdmsr": "ad", "rdtsc": "ad", "cpuid": "abcd", "rdtscp": "acd"}


class Insn:
    def __init__(self, addr, mnem, ops, func):
        self.addr, self.mnem, self.ops, self.func = addr, mnem, ops, func

    def operands(self):
        """AT&T operands, split at top-level commas."""
        out, depth, cur = [], 0, ""
        for ch in self.ops.split("#")[0].split("<")[0].strip():
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if ch == "," and depth == 0:
                out.append(cur.strip())
                cur = ""
            else:
                cur += ch
        if cur.strip():
            out.append(cur.strip())
        return out

    def writes(self):
        """Register families this instruction writes (explicit destination
        of a two-operand instruction, or an implicit one)."""
        if self.mnem in IMPLICIT:
            return set(IMPLICIT[self.mnem]) if self.mnem != "cpuid" else {"a", "b", "c", "d"}
        ops = self.operands()
        if len(ops) == 2 and not self.mnem.startswith(("cmp", "test")) and ops[1].startswith("%"):
            return {FAMILY.get(ops[1][1:], ops[1][1:])}
        return set()

    def zeroes(self, fam):
        """True when this instruction sets register family fam to 0."""
        ops = self.operands()
        if len(ops) != 2 or FAMILY.get(ops[1].lstrip("%")) != fam:
            return False
        if self.mnem.startswith("xor") and ops[0] == ops[1]:
            return True
        return self.mnem.startswith("mov") and ops[0] in ("$0x0", "$0")

    def __repr__(self):
        return "%x: %s %s" % (self.addr, self.mnem, self.ops)


def parse(text):
    """objdump -d --no-show-raw-insn text -> [Insn] in address order; func
    is the symbol without NASM's local-label suffix (idle_hlt.out ->
    idle_hlt)."""
    out, func = [], ""
    for line in text.splitlines():
        m = SYMBOL.match(line.strip())
        if m:
            func = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1)).split(".")[0]
            continue
        m = LINE.match(line)
        if m and not m.group(2).startswith("("):
            out.append(Insn(int(m.group(1), 16), m.group(2), m.group(3), func))
    return out


def check_hlt(insns):
    """Problems with HLTs; [] when every idle HLT directly follows STI."""
    bad = []
    for i, ins in enumerate(insns):
        if ins.mnem != "hlt":
            continue
        prev = insns[i - 1] if i else None
        nxt = insns[i + 1] if i + 1 < len(insns) else None
        target = None
        if nxt and nxt.mnem == "jmp":
            m = re.match(r"([0-9a-f]+)", nxt.ops)
            target = int(m.group(1), 16) if m else None
        if target == ins.addr:
            continue  # hlt; jmp hlt: a stop (boot code, interrupts never enabled)
        if prev and target == prev.addr:
            if prev.mnem != "cli":
                bad.append("%r: a halt loop that does not start with cli" % ins)
            continue
        if not prev or prev.mnem != "sti":
            bad.append("%r: an idle hlt after %r, not directly after sti" % (ins, prev))
    return bad


def _last_write(seq, fam):
    for ins in reversed(seq):
        if fam in ins.writes():
            return ins
    return None


def check_mwait(insns):
    """Problems with MONITOR/MWAIT; [] when every MWAIT is preceded in its
    function by MONITOR with RAX = an address register, ECX = EDX = 0, a
    load through that register after MONITOR, and EAX = constant, ECX = 0
    at MWAIT."""
    bad = []
    for i, ins in enumerate(insns):
        if ins.mnem != "mwait":
            continue
        body = [x for x in insns[:i] if x.func == ins.func]
        mon = [k for k, x in enumerate(body) if x.mnem == "monitor"]
        if not mon:
            bad.append("%r: mwait without monitor in %s" % (ins, ins.func))
            continue
        before, after = body[:mon[-1]], body[mon[-1] + 1:]
        src = _last_write(before, "a")
        ops = src.operands() if src else []
        if not src or not src.mnem.startswith(("mov", "lea")) or not ops[0].startswith(("%", "(")):
            bad.append("%r: monitor's rax is not an address register (%r)" % (ins, src))
            continue
        addr = FAMILY.get(ops[0].strip("()%").split(",")[0].lstrip("%"))
        for fam in "cd":
            w = _last_write(before, fam)
            if not w or not w.zeroes(fam):
                bad.append("%r: monitor's e%sx is not 0 (%r)" % (ins, "cd"[fam == "d"], w))
        moved = any(addr in x.writes() for x in after)
        reread = any("(%%%s)" % n in x.ops for x in after for n, f in FAMILY.items()
                     if f == addr and not x.mnem.startswith("lea"))
        if moved or not reread:
            bad.append("%r: the wake word is not read again after monitor" % ins)
        wa = _last_write(body, "a")
        if not wa or not (wa.zeroes("a") or wa.operands()[0].startswith("$")):
            bad.append("%r: mwait's eax is not a constant hint (%r)" % (ins, wa))
        wc = _last_write(body, "c")
        if not wc or not wc.zeroes("c"):
            bad.append("%r: mwait's ecx is not 0 (%r)" % (ins, wc))
    return bad


def check_extd(insns, func="smp_ap_entry64"):
    """Problems in the trampoline's long-mode entry; [] when EXTD is set
    (or, one branch, tested set) before the first x2APIC MSR access."""
    body = [x for x in insns if x.func == func]
    if not body:
        return ["no %s in the disassembly" % func]
    ecx, extd, first = None, None, None
    for k, x in enumerate(body):
        ops = x.operands()
        if x.mnem.startswith("mov") and len(ops) == 2 and FAMILY.get(ops[1].lstrip("%")) == "c":
            ecx = int(ops[0][1:], 16) if ops[0].startswith("$") else None
        if x.mnem in ("rdmsr", "wrmsr") and ecx is not None and 0x800 <= ecx <= 0x8ff:
            first = k
            break
        if x.mnem == "wrmsr" and ecx == 0x1b and k and body[k - 1].mnem.startswith("or") \
                and body[k - 1].operands()[0] == "$0x400":
            extd = k
    if first is None:
        return ["%s touches no x2APIC MSR" % func]
    if extd is None:
        return ["%r: x2APIC MSR 0x%x accessed before EXTD is set" % (body[first], ecx)]
    return []


def check_bsp_wait(insns, func="smp_run", poll="wait_done"):
    """Problems with the boot CPU's wait in smp_run; [] when its body has no
    PAUSE, calls user_run, and the poll it hands over (wait_done) holds the
    PAUSE loop instead."""
    body = [x for x in insns if x.func == func]
    if not body:
        return ["no %s in the disassembly" % func]
    bad = ["%r: a PAUSE spin in %s (ring 0)" % (x, func) for x in body if x.mnem == "pause"]
    if not any(x.mnem == "call" and "<user_run>" in x.ops for x in body):
        bad.append("%s does not wait through user_run" % func)
    if not any(x.mnem == "pause" for x in insns if x.func == poll):
        bad.append("%s (the CPL 3 poll) holds no PAUSE loop" % poll)
    return bad


def disassemble():
    objdump = shutil.which("objdump")
    if not objdump:
        raise unittest.SkipTest("objdump (binutils) is not installed")
    return subprocess.run([objdump, "-d", "--no-show-raw-insn", ELF], check=True,
                          stdout=subprocess.PIPE, text=True).stdout


IDLE_HLT = """
0000000000200850 <idle_hlt>:
  200850:	mov    (%rdi),%rax
  200853:	cmp    %rsi,%rax
  200856:	jne    20085e <idle_hlt.out>
  200858:	sti
  200859:	hlt
  20085a:	cli
  20085b:	mov    (%rdi),%rax
0000000000215430 <hz_exit+0x130>:
  215430:	cli
  215431:	hlt
  215432:	jmp    215430 <hz_exit+0x130>
"""

IDLE_MWAIT = """
000000000020085f <idle_mwait>:
  20085f:	mov    %rdi,%rax
  200862:	xor    %ecx,%ecx
  200864:	xor    %edx,%edx
  200866:	monitor %rax,%ecx,%edx
  200869:	mov    (%rdi),%rax
  20086c:	cmp    %rsi,%rax
  20086f:	jne    20087b <idle_mwait.out>
  200871:	xor    %eax,%eax
  200873:	xor    %ecx,%ecx
  200875:	mwait  %eax,%ecx
  200878:	mov    (%rdi),%rax
"""

AP_ENTRY = """
0000000000200730 <smp_ap_entry64>:
  20074d:	mov    $0x1b,%ecx
  200752:	rdmsr
  200754:	test   $0x400,%eax
  200759:	jne    200772 <smp_ap_entry64.x2apic_id>
  200764:	or     $0x800,%eax
  200769:	wrmsr
  20076b:	or     $0x400,%eax
  200770:	wrmsr
0000000000200772 <smp_ap_entry64.x2apic_id>:
  200772:	mov    $0x802,%ecx
  200777:	rdmsr
  200779:	mov    %eax,%edx
"""


SMP_RUN = """
000000000021f8f0 <wait_done>:
  21f910:	pause
  21f912:	jmp    21f900 <wait_done+0x10>
000000000021f9d0 <smp_run>:
  21f9dd:	call   21e770 <smp_cpu_index>
  21faec:	call   *%r12
  21fbaf:	call   208ea0 <user_run>
  21fc10:	call   21f930 <smp_kick>
"""


class Checkers(unittest.TestCase):
    """The checkers on the good listings (copied from the ELF) and on the
    mutations issue 23 names: each mutation must be caught."""

    def test_hlt(self):
        self.assertEqual(check_hlt(parse(IDLE_HLT)), [])
        nop = IDLE_HLT.replace("  200859:\thlt", "  200859:\tnop\n  20085a:\thlt")
        self.assertIn("not directly after sti", check_hlt(parse(nop))[0])
        loop = IDLE_HLT.replace("215430:\tcli", "215430:\tnop")
        self.assertIn("does not start with cli", check_hlt(parse(loop))[0])

    def test_mwait(self):
        self.assertEqual(check_mwait(parse(IDLE_MWAIT)), [])
        no_reread = IDLE_MWAIT.replace("200869:\tmov    (%rdi),%rax", "200869:\tnop")
        self.assertIn("not read again", check_mwait(parse(no_reread))[0])
        eax_addr = IDLE_MWAIT.replace("200871:\txor    %eax,%eax", "200871:\tmov    %rdi,%rax")
        self.assertIn("not a constant hint", check_mwait(parse(eax_addr))[0])
        ecx = IDLE_MWAIT.replace("200873:\txor    %ecx,%ecx", "200873:\tmov    $0x1,%ecx")
        self.assertIn("ecx is not 0", check_mwait(parse(ecx))[0])
        rax = IDLE_MWAIT.replace("20085f:\tmov    %rdi,%rax", "20085f:\txor    %eax,%eax")
        self.assertIn("not an address register", check_mwait(parse(rax))[0])

    def test_bsp_wait(self):
        self.assertEqual(check_bsp_wait(parse(SMP_RUN)), [])
        spin = SMP_RUN.replace("  21fc10:", "  21fb60:\tpause\n  21fc10:")
        self.assertIn("PAUSE spin in smp_run", check_bsp_wait(parse(spin))[0])
        direct = SMP_RUN.replace("call   208ea0 <user_run>", "call   21f8f0 <wait_done>")
        self.assertIn("not wait through user_run", check_bsp_wait(parse(direct))[0])

    def test_extd(self):
        self.assertEqual(check_extd(parse(AP_ENTRY)), [])
        early = AP_ENTRY.replace("  20074d:\tmov    $0x1b,%ecx\n",
                                 "  200740:\tmov    $0x802,%ecx\n  200745:\trdmsr\n"
                                 "  20074d:\tmov    $0x1b,%ecx\n")
        self.assertIn("before EXTD", check_extd(parse(early))[0])
        no_extd = AP_ENTRY.replace("20076b:\tor     $0x400,%eax", "20076b:\tnop")
        self.assertIn("before EXTD", check_extd(parse(no_extd))[0])


class Kernel(unittest.TestCase):
    """The same checks on build/hugezero.elf."""

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(ELF):
            raise AssertionError("build/hugezero.elf missing: run make")
        cls.insns = parse(disassemble())

    def test_idle_hlt_follows_sti(self):
        self.assertEqual(check_hlt(self.insns), [])
        idle = [i for i, x in enumerate(self.insns) if x.mnem == "hlt" and x.func == "idle_hlt"]
        self.assertEqual(len(idle), 1, "idle_hlt (arch/idle.asm) holds the one idle hlt")
        self.assertEqual(self.insns[idle[0] - 1].mnem, "sti")

    def test_monitor_mwait(self):
        self.assertEqual(check_mwait(self.insns), [])
        funcs = {x.func for x in self.insns if x.mnem == "mwait"}
        self.assertEqual(funcs, {"idle_mwait"})

    def test_bsp_waits_at_measurement_cpl(self):
        self.assertEqual(check_bsp_wait(self.insns), [])

    def test_trampoline_sets_extd_first(self):
        self.assertEqual(check_extd(self.insns), [])


if __name__ == "__main__":
    unittest.main()
