# SPDX-License-Identifier: GPL-2.0-only
"""Booting a test kernel with virtme-ng: whether KVM can be used, the vng
command line, a time limit, and the console log of every boot."""

import os
import shlex
import subprocess
import threading
import time
from pathlib import Path

from .host import CACHE, log, vng_path
from . import kernels

# KVM may exist and still fail ("emulation failure") on some hosts: probe it
# with a real boot, once per host boot, and fall back to TCG.
KVM_PROBE_TIMEOUT = 90
KVM_FAILURE_MARKS = ("emulation failure", "KVM internal error", "failed to initialize kvm",
                     "Could not access KVM")


def _vng_base(kernel, use_kvm, cpus, memory):
    cmd = [vng_path(), "--run", str(kernel.image), "--cpus", str(cpus),
           "--memory", memory]
    if not use_kvm:
        cmd.append("--disable-kvm")
    # The in-tree kTLS must never load by alias behind our back.
    for arg in ["modprobe.blacklist=tls"] + kernel.append:
        cmd += ["--append", arg]
    return cmd + kernel.vng_args


# The guests' udevadm, bound over the host's in the guest's mount namespace
# (the guest's 9p root is the host's /): see the file for why.
UDEVADM_STANDIN = Path(__file__).resolve().parents[1] / "guest" / "udevadm"
UDEVADM = "/usr/bin/udevadm"
_BIND_STANDIN = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                 f'mount --bind "$0" {UDEVADM} && exec "$@"', str(UDEVADM_STANDIN)]
_standin_lock = threading.Lock()
_standin_ok = None


def _without_udev(cmd):
    """@cmd in a mount namespace where the guest's udevadm is the stand-in,
    where this host lets the runner make one (root); else @cmd as it is,
    with the real udev in the guest."""
    global _standin_ok
    with _standin_lock:
        if _standin_ok is None:
            probe = subprocess.run(_BIND_STANDIN + ["true"], stdin=subprocess.DEVNULL,
                                   capture_output=True, text=True)
            _standin_ok = probe.returncode == 0
            if not _standin_ok:
                log(f"guests run the real udev: no mount namespace for the stand-in "
                    f"({probe.stderr.strip()})")
    return _BIND_STANDIN + cmd if _standin_ok else cmd


_TICK = os.sysconf("SC_CLK_TCK")


def _session_cpu(sid):
    """Host CPU seconds the processes of session @sid (a guest: vng, QEMU,
    virtiofsd) have taken so far, the children they waited for included."""
    ticks = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                # after "(comm)": state ppid pgrp session ...; utime is
                # field 14, cstime field 17 of the whole line
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:
            ticks += sum(int(t) for t in fields[11:15])
    return ticks / _TICK


def _boot_id():
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return "unknown"


_kvm_lock = threading.Lock()


def kvm_usable():
    """Whether guests boot with KVM (make check boots two at once: the
    probe runs once)."""
    with _kvm_lock:
        return _kvm_usable()


def _kvm_usable():
    forced = os.environ.get("KTLS_VM_KVM")
    if forced in ("0", "1"):
        return forced == "1"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False
    verdict = CACHE / f"kvm-probe-{os.uname().release}-{_boot_id()}"
    if verdict.exists():
        return verdict.read_text().strip() == "yes"
    log("probing KVM with a test boot")
    cmd = _vng_base(kernels.distro(), True, 1, "512M") + ["--", "echo", "ktls-kvm-ok"]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    timer = threading.Timer(KVM_PROBE_TIMEOUT, lambda: _kill(proc))
    timer.start()
    ok = False
    for line in proc.stdout:
        if "ktls-kvm-ok" in line:
            ok = True
        if any(m in line for m in KVM_FAILURE_MARKS):
            _kill(proc)
    proc.wait()
    timer.cancel()
    CACHE.mkdir(parents=True, exist_ok=True)
    verdict.write_text("yes\n" if ok else "no\n")
    log(f"KVM {'works' if ok else 'does not work here: using TCG'}")
    return ok


def _kill(proc):
    try:
        os.killpg(proc.pid, 9)
    except ProcessLookupError:
        pass


def boot(kernel, script, env, report, timeout, cpus=2, memory="2G", rwdirs=(), extra=()):
    """Boots kernel, runs script with env inside, waits at most timeout s.

    The console (kernel log and script output) goes to report/console.log;
    lines the guest prints with the "ktls-vm:" prefix are echoed as
    progress.  @extra goes to vng as it is.  Returns True if the guest
    finished before the time limit.
    """
    report.mkdir(parents=True, exist_ok=True)
    # vng hands the --exec command to the guest on the kernel command
    # line, which x86 cuts at 2048 bytes (COMMAND_LINE_SIZE), taking the
    # init= behind it along.  The environment goes in a launcher the guest
    # reads from the shared root instead: one path crosses the command line.
    launcher = report / "guest-launch.sh"
    launcher.write_text("#!/bin/sh\nset -a\n"
                        + "".join(f"{k}={shlex.quote(str(v))}\n" for k, v in env.items())
                        + f"set +a\nexec {shlex.quote(str(script))}\n")
    launcher.chmod(0o755)
    cmd = _vng_base(kernel, kvm_usable(), cpus, memory) + ["--verbose"]
    for d in rwdirs:
        cmd += ["--rwdir", str(d)]
    cmd += list(extra)
    cmd = _without_udev(cmd + ["--exec", shlex.quote(str(launcher))])
    console = report / "console.log"
    start = time.monotonic()
    with open(console, "w", buffering=1) as con:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace",
                                start_new_session=True)
        expired = threading.Event()

        def expire():
            expired.set()
            _kill(proc)

        timer = threading.Timer(timeout, expire)
        timer.start()
        for line in proc.stdout:
            con.write(line)
            if "ktls-vm:" in line:
                msg = line.split("ktls-vm:", 1)[1].strip()
                log(f"[{kernel.name} +{time.monotonic() - start:.0f}s "
                    f"cpu {_session_cpu(proc.pid):.0f}s] {msg}")
        # wait4(), not wait(): the host CPU the guest took (QEMU is
        # vng's child, waited for), for the time budget of make check.
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        timer.cancel()
    log(f"{kernel.name}: guest took {usage.ru_utime + usage.ru_stime:.0f}s of host CPU "
        f"in {time.monotonic() - start:.0f}s")
    if expired.is_set():
        log(f"{kernel.name}: guest killed after {timeout}s")
    return not expired.is_set()


def console_tail(report, lines=60):
    path = report / "console.log"
    if not path.exists():
        return "(no console log)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
