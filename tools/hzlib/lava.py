"""LAVA: job definitions from lab/lava/ and results back from a LAVA job log.

LAVA (Linaro Automated Validation Architecture, lava-dispatcher and
lava-server) schedules lab machines; docs/lab.md section 6 has the set-up.

  render_job()     a job definition from lab/lava/<device>.yaml plus the
                   shared lab/lava/monitors.yaml (`hz lava-job`)
  parse_log()      the entries of a LAVA job log: one YAML flow mapping per
                   line ({"dt":..., "lvl":..., "msg":...}), as lava-run prints
                   them and as lava-server's REST API serves them (each line
                   then starts with "- ")
  fetch()          job details and log of a finished job over the REST API
                   v0.2 (GET /api/v0.2/jobs/<id>/ and .../logs/)
  write_results()  a normal results folder from a job log (`hz lava-fetch`)

The log lines are YAML flow mappings, read by PyYAML (Debian python3-yaml,
which lava-dispatcher itself uses): its escapes and the `!` tag LAVA's dumper
puts on numbers (`! "9.917"`, resolved as the number) need nothing more.
"""

import json
import os
import re
import string
import urllib.error
import urllib.parse
import urllib.request

import yaml

from . import ROOT, records as rec, results

LAB = os.path.join(ROOT, "lab", "lava")
DEVICES = {"qemu": "qemu.yaml", "qemu-iso": "qemu-iso.yaml", "pxe-grub": "pxe-grub.yaml"}
DEFAULT_DEVICE_TYPE = {"qemu": "qemu", "qemu-iso": "qemu", "pxe-grub": "x86-pxe-grub"}
URL_SCHEMES = ("file", "http", "https")
# Characters kernel arguments may not have here: quotes and backslashes would
# end the quoted YAML and QEMU -append strings, braces are LAVA substitutions.
_BAD_ARG_CHARS = set("\"'\\{}\n\r\t")


class LavaError(ValueError):
    pass


def render_job(device, kernel_url, args="", run=None, job_name=None, device_type=None,
               job_minutes=20, boot_minutes=5, test_minutes=15):
    """The job definition (YAML text) for `device` (a DEVICES key).

    kernel_url: hugezero.elf, or for qemu-iso the ISO. args: kernel
    arguments; `results=lava` is put first unless a results= option is given
    (the measurements monitor needs it; results=hz is an error). run: a
    scenario list (`run=` option) or None for the kernel's default. qemu-iso
    takes neither: the ISO's GRUB menu gives the arguments, and its job has
    the checks monitor only. Timeouts in minutes. Raises LavaError on bad
    input.
    """
    if device not in DEVICES:
        raise LavaError("unknown device %r (one of %s)" % (device, ", ".join(DEVICES)))
    scheme = urllib.parse.urlsplit(kernel_url).scheme
    if scheme not in URL_SCHEMES:
        raise LavaError("kernel URL %r: scheme must be one of %s"
                        % (kernel_url, ", ".join(URL_SCHEMES)))
    iso = device == "qemu-iso"
    if iso and (args.strip() or run is not None):
        raise LavaError("qemu-iso: the kernel arguments are those of the ISO's GRUB menu; "
                        "make an ISO with others (tools/mkiso.sh OUT.iso GRUB.CFG)")
    words = args.split()
    if run is not None:
        if any(w.startswith("run=") for w in words):
            raise LavaError("give the scenarios either with --run or as run= in --args")
        words.append("run=" + run)
    bad = sorted(_BAD_ARG_CHARS & set(" ".join(words)) | _BAD_ARG_CHARS & set(kernel_url))
    if bad:
        raise LavaError("kernel arguments and URL may not contain %s" % " ".join(map(repr, bad)))
    given = [w for w in words if w.startswith("results=")]
    if given and given != ["results=lava"]:
        raise LavaError("the LAVA monitors need results=lava, not %s" % " ".join(given))
    if not given and not iso:
        words.insert(0, "results=lava")
    for name, v in (("job", job_minutes), ("boot", boot_minutes), ("test", test_minutes)):
        if not isinstance(v, int) or not 1 <= v <= 24 * 60:
            raise LavaError("%s timeout %r: minutes 1..1440" % (name, v))
    params = {
        "device_type": device_type or DEFAULT_DEVICE_TYPE[device],
        "job_name": job_name or " ".join(["hugezero", device] + words),
        "kernel_url": kernel_url,
        "args": " ".join(words),
        "job_minutes": job_minutes,
        "boot_minutes": boot_minutes,
        "test_minutes": test_minutes,
    }
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", params["device_type"]):
        raise LavaError("device type %r: letters, digits, '_', '.', '-' only"
                        % params["device_type"])
    params["job_name"] = json.dumps(params["job_name"])  # a quoted YAML scalar
    out = []
    for name in (DEVICES[device], "monitors.yaml"):
        with open(os.path.join(LAB, name)) as f:
            text = f.read()
        try:
            out.append(string.Template(text).substitute(params))
        except (KeyError, ValueError) as e:
            raise LavaError("lab/lava/%s: bad template parameter %s" % (name, e)) from None
    # Without the templates' comment headers; monitors.yaml is the last action
    # (for qemu-iso without its second monitor, the measurements).
    job = out[0][out[0].index("\ndevice_type:") + 1:].rstrip("\n")
    test = out[1][out[1].index("\n- test:") + 1:]
    if iso:
        test = test[:test.index("    - name: hugezero-measurements")]
    return ("# generated by tools/hz lava-job from lab/lava/%s and lab/lava/monitors.yaml\n%s\n%s"
            % (DEVICES[device], job, test))


# libyaml's loader when PyYAML has it (a job log has thousands of lines).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_log(text):
    """Entries (dicts with dt, lvl, msg) of a LAVA job log; lines that are not
    entries (blank, comments) are skipped. Raises LavaError naming the first
    line that looks like an entry but cannot be read."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s.lstrip("- ").startswith("{"):
            continue
        if s.startswith("- "):
            s = s[2:]
        try:
            entry = yaml.load(s, Loader=_LOADER)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            why = "%s at column %d" % (e.problem, mark.column + 1) if mark else str(e)
            raise LavaError("job log line %d: not a LAVA log entry (%s)" % (n, why)) from None
        if isinstance(entry, dict) and "lvl" in entry:
            out.append(entry)
    return out


def test_cases(entries):
    """The `results` entries: LAVA's test cases, in log order."""
    return [e["msg"] for e in entries
            if e.get("lvl") == "results" and isinstance(e.get("msg"), dict)]


def serial_text(entries):
    """The device's console output: the `target` lines, one per line.

    The dispatcher logs console text with every `"` written as `\\"`, CR and
    ESC removed and blank lines merged (lava_dispatcher/shell.py
    ShellLogger.write); `\\"` -> `"` undoes the quoting exactly. hz parse
    copes with the rest."""
    return "".join(e["msg"].replace('\\"', '"') + "\n" for e in entries
                   if e.get("lvl") == "target" and isinstance(e.get("msg"), str))


def _get(url, token, what):
    req = urllib.request.Request(url, headers={"Accept": "application/json, application/yaml"})
    if token:
        req.add_header("Authorization", "Token %s" % token)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as e:
        raise LavaError("%s: HTTP %d %s from %s" % (what, e.code, e.reason, url)) from None
    except (urllib.error.URLError, OSError) as e:
        raise LavaError("%s: cannot reach %s (%s)" % (what, url, getattr(e, "reason", e))) from None


def fetch(server, job_id, token=None):
    """(job details dict, log text) of a finished job on a lava-server.

    server: the base URL (https://lava.example.org). Raises LavaError when the
    server cannot be reached, the job does not exist or has not finished.
    """
    if not str(job_id).isdigit():
        raise LavaError("job id %r: a number" % job_id)
    base = "%s/api/v0.2/jobs/%s/" % (server.rstrip("/"), job_id)
    try:
        job = json.loads(_get(base, token, "job %s" % job_id))
    except json.JSONDecodeError:
        raise LavaError("job %s: the server did not answer with JSON (%s)"
                        % (job_id, base)) from None
    if not isinstance(job, dict):
        raise LavaError("job %s: unexpected answer from %s" % (job_id, base))
    # "Finished": get_state_display() in the v0.2 serializer (lava-server
    # 2019 and later); 3 (TestJob.STATE_FINISHED) from older servers.
    if job.get("state") not in ("Finished", 3):
        raise LavaError("job %s is not finished (state %s)" % (job_id, job.get("state")))
    return job, _get(base + "logs/", token, "job %s log" % job_id)


def write_results(outdir, log_text, job=None, server=None):
    """A results folder from a LAVA job log: lava-job.yaml (the log as
    given), serial.log (the console), records.jsonl and summary.csv,
    lava-cases.jsonl (LAVA's test cases) and meta.json. Returns (records,
    diagnostics, test cases)."""
    entries = parse_log(log_text)
    serial = serial_text(entries)
    recs, diags = rec.extract(serial, os.path.join(outdir, "serial.log"))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "lava-job.yaml"), "w") as f:
        f.write(log_text)
    with open(os.path.join(outdir, "serial.log"), "w") as f:
        f.write(serial)
    results.write_records(outdir, recs)
    cases = test_cases(entries)
    results.write_jsonl(os.path.join(outdir, "lava-cases.jsonl"), cases)
    job = job or {}
    summary = [r for r in recs if r.get("t") == "summary"]
    meta = {"source": "lava", "lava_server": server, "lava_job_id": job.get("id"),
            "lava_device": job.get("actual_device"),
            "lava_device_type": job.get("requested_device_type"),
            "lava_health": job.get("health"), "started_utc": job.get("start_time"),
            "boot": "lava",
            "cmdline": next((r.get("cmdline") for r in recs if r.get("t") == "header"), None),
            "exit_status": summary[-1].get("status") if summary else None,
            "status_name": summary[-1].get("status_name") if summary else None}
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    return recs, diags, cases
