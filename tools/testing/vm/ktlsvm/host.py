# SPDX-License-Identifier: GPL-2.0-only
"""Where things live on the host, the packages the runner needs, and the
kernel source it reads the kselftest harness, KUnit tooling and tls.c from."""

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[4]
OUT = Path(os.environ.get("KTLS_OUT", REPO / "out"))
CACHE = Path(os.environ.get("KTLS_CACHE", Path.home() / ".cache" / "ktls-hs"))

SOURCE_PKG = "linux-source-6.12"
# Debian 12's default kernel: its source holds the tls.c it is held to.
SOURCE_PKG_61 = "linux-source-6.1"
# Sources of kernels newer than Debian 12 ships, from the suite named
# (ktlsvm/debsrc.py fetches them without touching the host's apt).
SOURCE_PKG_73 = "linux-source-7.3"
FOREIGN_SOURCES = {SOURCE_PKG_73: "trixie-backports"}

APT_PACKAGES = [
    # the two kernels: the distro one, and the source of the debug one
    "linux-image-6.12-amd64", "linux-headers-6.12-amd64", SOURCE_PKG,
    # Debian 12's default kernel (6.1), which the module builds for too,
    # and its source, for the tls.c of that kernel
    "linux-image-amd64", "linux-headers-amd64", SOURCE_PKG_61,
    # building kernels and modules
    "gcc", "make", "flex", "bison", "bc", "libelf-dev", "libssl-dev",
    "dwarves", "cpio", "kmod", "xz-utils", "zstd", "rsync", "perl", "sparse",
    # the VM, and what virtme-ng's guest init uses from the host root
    "qemu-system-x86", "busybox-static", "udev", "iproute2", "procps",
    # the test suites' userspace; valgrind for the constant-time check of crypto/
    "keyutils", "python3", "python3-cryptography", "valgrind",
    # the offload test reads the simulated NIC's counters with ethtool -S
    "ethtool",
    # the interop suite's and the handshake tests' real peers, whose
    # ClientHellos are also the handshake fuzzer's seeds
    "openssl", "curl", "nginx", "gnutls-bin",
    # the end-to-end selftests watch what a server reads with strace
    "strace",
    # the fuzz targets: clang's libFuzzer, ASan and UBSan
    "clang-16", "libclang-rt-16-dev",
    # make bench-http: the load generator, and its figure
    "wrk", "python3-matplotlib",
    # the install suite builds the module with DKMS in the guest
    "dkms",
]
PIP_PACKAGES = ["virtme-ng==1.42"]


class RunnerError(Exception):
    """A step of the run could not be done; the message says which and why."""


_STARTED = time.monotonic()


def log(msg):
    """A line of the runner's, with the minutes and seconds since it
    started (make check runs against CI's clock)."""
    m, sec = divmod(int(time.monotonic() - _STARTED), 60)
    print(f"ktls-run: {m:02d}:{sec:02d} {msg}", flush=True)


def autogroup_nice(pid):
    """Gives the session of @pid, which must lead one, the nice value of
    the calling thread.  Where the scheduler has autogroups (Debian's
    kernels and the CI machines do), every session is a group with an
    equal share of the CPUs whatever the nice values inside it."""
    try:
        Path(f"/proc/{pid}/autogroup").write_text(f"{os.getpriority(os.PRIO_PROCESS, 0)}\n")
    except OSError:
        pass        # no autogroups: the nice value holds as it is


def run(cmd, *, cwd=None, env=None, capture=False, check=True, own_group=False):
    """Runs cmd; on failure raises RunnerError with the command and its tail.
    With @own_group in a session of its own, whose autogroup gets the
    calling thread's nice (autogroup_nice()): a kernel build then gets
    a share of the CPUs as a guest does, not a part of the runner's."""
    proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE if capture else None,
                            stderr=subprocess.STDOUT if capture else None,
                            start_new_session=own_group)
    if own_group:
        autogroup_nice(proc.pid)
    out = proc.stdout.read() if capture else None
    if capture:
        proc.stdout.close()
    # wait4(), not wait(): the host CPU the command and the children it
    # waited for took (res.cpu, seconds), for the time budget of check.
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    res = subprocess.CompletedProcess(proc.args, proc.returncode, out, None)
    res.cpu = usage.ru_utime + usage.ru_stime
    if check and res.returncode:
        tail = "\n".join((res.stdout or "").splitlines()[-40:])
        raise RunnerError(f"{' '.join(map(str, cmd))}: exit {res.returncode}\n{tail}")
    return res


def _have_go():
    """The selftests' Makefile builds the Go file server with the go of
    PATH or of an upstream or Debian install; any of them will do."""
    return bool(shutil.which("go")) or any(
        Path(p).exists() for p in ("/usr/local/go/bin/go", "/usr/lib/go/bin/go"))


def _missing_debs():
    pkgs = APT_PACKAGES + ([] if _have_go() else ["golang-go"])
    res = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n"]
                         + pkgs, text=True, capture_output=True)
    have = {l.split()[0] for l in res.stdout.splitlines() if l.endswith(" installed")}
    return [p for p in pkgs if p not in have]


def vng_path():
    """vng as installed by pip for this interpreter, else the one on PATH."""
    scripts = Path(sysconfig.get_path("scripts")) / "vng"
    return str(scripts) if scripts.exists() else shutil.which("vng")


def install_deps():
    """Installs what is missing; a machine that has everything is left alone."""
    missing = _missing_debs()
    if missing:
        log(f"apt: installing {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update", "-q"], env=env, capture=True)
        run(["apt-get", "install", "-y", "-q", "--no-install-recommends"] + missing,
            env=env, capture=True)
    if not vng_path():
        log(f"pip: installing {' '.join(PIP_PACKAGES)}")
        run([sys.executable, "-m", "pip", "install", "-q"] + PIP_PACKAGES, capture=True)
    if not vng_path():
        raise RunnerError("virtme-ng installed but no vng found")


def source_version(pkg=SOURCE_PKG):
    if pkg in FOREIGN_SOURCES:
        from . import debsrc
        return debsrc.source(pkg, FOREIGN_SOURCES[pkg])[1]
    res = run(["dpkg-query", "-W", "-f=${Version}", pkg], capture=True)
    return res.stdout.strip()


def source_tree(pkg=SOURCE_PKG):
    """The extracted source of a linux-source-X.Y package, unpacked once
    per package version."""
    if pkg in FOREIGN_SOURCES:
        from . import debsrc
        return debsrc.source(pkg, FOREIGN_SOURCES[pkg])[0]
    ver = source_version(pkg)
    tree = CACHE / f"src-{ver}"
    if (tree / ".ktls-extracted").exists():
        return tree
    tarball = Path(f"/usr/src/{pkg}.tar.xz")
    log(f"extracting {tarball} ({ver})")
    tmp = CACHE / f"src-{ver}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    run(["tar", "-xf", tarball, "-C", tmp, "--strip-components=1"])
    shutil.rmtree(tree, ignore_errors=True)
    tmp.rename(tree)
    (tree / ".ktls-extracted").write_text(ver + "\n")
    return tree


def uapi_headers(src, version=None):
    """usr/include of the source tree (of @version, else Debian's 6.12),
    built out of tree (the tree stays clean)."""
    out = CACHE / f"uapi-{version or source_version()}"
    if not (out / ".ktls-done").exists():
        log("installing uapi headers of the kernel source")
        run(["make", "-s", "-C", src, f"O={out}", "headers"], capture=True)
        (out / ".ktls-done").write_text("ok\n")
    return out / "usr" / "include"
