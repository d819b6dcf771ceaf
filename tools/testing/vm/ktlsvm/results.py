# SPDX-License-Identifier: GPL-2.0-only
"""Reading what the guests left: TAP and KTAP results, the kernel log
(any splat fails the run), and the list of upstream tls.c cases we claim
to pass."""

import re
import subprocess
from dataclasses import dataclass, field

from .host import REPO, run

CLAIMS_DIR = REPO / "tools" / "testing" / "selftests" / "net" / "ktls_hs"


@dataclass
class Tally:
    passed: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    skipped: list = field(default_factory=list)

    def add(self, name, status):
        {"pass": self.passed, "fail": self.failed, "skip": self.skipped}[status].append(name)

    def extend(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped

    def counts(self):
        return len(self.passed), len(self.failed), len(self.skipped)


_RESULT = re.compile(r"^(?P<prefix>(?:# )*)\s*(?P<not>not )?ok\s+\d*\s*-?\s*(?P<name>[^#]*?)"
                     r"\s*(?:#\s*(?P<directive>\w+).*)?$")


def _status(m):
    if m.group("directive") and m.group("directive").upper() == "SKIP":
        return "skip"
    return "fail" if m.group("not") else "pass"


def parse_tap(text, scope=""):
    """Leaf results of a TAP stream.  kselftest's run_tests nests each
    program's own TAP behind "# ": the nested cases are the leaves, and a
    program that failed although its cases passed (it crashed, or timed
    out) adds one failure of its own."""
    tally = Tally()
    nested = Tally()
    for line in text.splitlines():
        m = _RESULT.match(line)
        if not m:
            continue
        name = f"{scope}{m.group('name')}"
        if m.group("prefix"):
            if m.group("prefix") == "# ":
                nested.add(name, _status(m))
            continue
        status = _status(m)
        if nested.counts() == (0, 0, 0):
            tally.add(name, status)
        else:
            tally.extend(nested)
            if status == "fail" and not nested.failed:
                tally.add(name + " (program)", "fail")
        nested = Tally()
    tally.extend(nested)
    return tally


def parse_ktap(text, scope=""):
    """Leaf cases of KTAP from debugfs, named suite.case[.param].  A
    "# Subtest: X" header sits at the indentation of X's own results, and
    children print before their parent, so a result is a leaf unless the
    result before it is deeper."""
    tally = Tally()
    headers = {}
    entries = []
    for line in text.splitlines():
        h = re.match(r"^(\s*)# Subtest: (\S+)", line)
        if h:
            depth = len(h.group(1))
            headers = {d: n for d, n in headers.items() if d < depth}
            headers[depth] = h.group(2)
            continue
        m = re.match(r"^(?P<indent>\s*)(?P<not>not )?ok \d+ (?P<name>[^#]*?)\s*(?:#\s*(?P<d>\w+).*)?$",
                     line)
        if not m:
            continue
        depth = len(m.group("indent"))
        status = "skip" if (m.group("d") or "").upper() == "SKIP" else (
            "fail" if m.group("not") else "pass")
        path = [n for d, n in sorted(headers.items()) if d <= depth]
        entries.append((depth, ".".join(path + [m.group("name")]), status))
    for i, (depth, name, status) in enumerate(entries):
        if i > 0 and entries[i - 1][0] > depth:
            continue
        tally.add(scope + name, status)
    return tally


def kunit_parse(src, ktap_path):
    """Runs the kernel's own KTAP parser over the file; returns (ok, text)."""
    res = subprocess.run(["python3", src / "tools" / "testing" / "kunit" / "kunit.py",
                          "parse", str(ktap_path)], capture_output=True, text=True)
    return res.returncode == 0, res.stdout + res.stderr


# Anything here in the guest's kernel log fails the run.
SPLATS = re.compile("|".join([
    r"\bBUG[: ]", r"WARNING:", r"KASAN", r"UBSAN", r"kmemleak", r"unreferenced object",
    r"general protection fault", r"Oops", r"Kernel panic", r"\bpanic\b",
    r"sleeping function called from invalid context", r"possible circular locking",
    r"possible recursive locking", r"inconsistent lock state", r"lockdep",
    r"INFO: task .* blocked for more than", r"rcu.*stall", r"Call Trace:",
    r"refcount_t:", r"list_(add|del) corruption",
]))
# Kernel lines on the serial console start with a printk timestamp.
_KLINE = re.compile(r"^\[\s*\d+\.\d+\]")
# Boot chatter that matches the patterns above but reports no problem.
_BENIGN = re.compile(r"kmemleak: Kernel memory leak detector initialized|"
                     r"kmemleak: Automatic memory scanning thread started|"
                     r"KASAN: (?:vmalloc|flag|tag|stack).*enabled|"
                     r"kasan.*(?:initialized|KernelAddressSanitizer)|"
                     r"Lock dependency validator|lockdep: (?:fixed|)|"
                     r"Command line:|Kernel command line:|"
                     r"panic=|rcu:\s+(?:RCU|Preemptible|Hierarchical|\t)|"
                     r"RCU CPU stall warnings timeout|"
                     r"module verification failed")


# The stack the faults suite asks for with each failure it injects
# (verbose 2): a report, not a splat.  Only the lines such a dump is
# made of are taken out, so a real report interleaved with one still shows.
_FAULT_DUMP_START = re.compile(r"FAULT_INJECTION: forcing a failure")
_FAULT_DUMP_LINE = re.compile(
    r"^(?:\[\s*\d+\.\d+\]\s*)?(?:"
    r"name (?:failslab|fail_page_alloc), interval|CPU: \d+ |Tainted: |Hardware name: |"
    r"Call Trace:|<(?:/?)(?:TASK|IRQ|NMI|SOFTIRQ)>|\??\s*[\w.]+\+0x[0-9a-f]+/0x[0-9a-f]+|"
    r"RIP: |Code: |RSP: |RAX: |RDX: |RBP: |R10: |R13: |FS: |CS: |CR2: |DR[0-9]: |PKRU: |"
    r"\? )")


def strip_fault_dumps(kernel_log):
    out = []
    # A log read after the ring buffer wrapped may begin inside a dump.
    in_dump = True
    for line in kernel_log.splitlines():
        if _FAULT_DUMP_START.search(line):
            in_dump = True
            continue
        body = re.sub(r"^\[\s*\d+\.\d+\]\s*", "", line).strip()
        # The logs are joined with blank lines: a dump goes on across one.
        if not body:
            out.append(line)
            continue
        if in_dump and _FAULT_DUMP_LINE.match(body):
            if body.startswith("</TASK>"):
                in_dump = False
            continue
        in_dump = False
        out.append(line)
    return "\n".join(out)


def splats(kernel_log):
    found = []
    for line in strip_fault_dumps(kernel_log).splitlines():
        if SPLATS.search(line) and not _BENIGN.search(line):
            found.append(line.rstrip())
    return found


def console_kernel_lines(console):
    return "\n".join(l for l in console.splitlines() if _KLINE.match(l))


def claims_path(kernel):
    return CLAIMS_DIR / f"upstream_tls.{kernel}.claimed"


def read_claims(kernel):
    path = claims_path(kernel)
    if not path.exists():
        return []
    return [l.strip() for l in path.read_text().splitlines()
            if l.strip() and not l.startswith("#")]


def baseline_path(kernel):
    return CLAIMS_DIR / f"upstream_tls.{kernel}.baseline"


def read_baseline(kernel):
    """The tls.c cases the kernel's in-tree tls.ko passes, as `run
    baseline` recorded them, and the kernel release they were taken on
    (the "# release:" line); None where no baseline was recorded."""
    path = baseline_path(kernel)
    if not path.exists():
        return None, None
    release, cases = None, []
    for line in path.read_text().splitlines():
        if line.startswith("# release:"):
            release = line.split(":", 1)[1].strip()
        elif line.strip() and not line.startswith("#"):
            cases.append(line.strip())
    return release, cases


def claims_only_grew():
    """A claim list may gain cases, never lose one: no commit may delete a line."""
    res = run(["git", "-C", REPO, "log", "-p", "--format=", "--",
               str(CLAIMS_DIR / "upstream_tls.*.claimed")], capture=True, check=False)
    if res.returncode:
        return True, "no git history to check"
    removed = [l[1:] for l in res.stdout.splitlines()
               if l.startswith("-") and not l.startswith("---")]
    removed = [l for l in removed if l.strip() and not l.startswith("#")]
    return (not removed), ", ".join(removed[:5])
