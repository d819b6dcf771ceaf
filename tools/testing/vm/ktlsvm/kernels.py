# SPDX-License-Identifier: GPL-2.0-only
"""The test kernels.  distro: Debian's linux-image-6.12-amd64, what users
run.  6.1: Debian 12's default kernel (linux-image-amd64), the oldest the
module builds for.  debug: built from Debian's linux-source-6.12 with the
fragments base.config and debug.config (KUnit, KASAN, lockdep, kmemleak,
...).  7.3: the newest upstream kernel, built from linux-source-7.3 of
trixie-backports with base.config alone, fast under TCG, its own tls.ko
the in-tree baseline.  Built kernels are cached under ~/.cache/ktls-hs
keyed by the fragments, the source version and the compiler, and rebuilt
only when one of those changes."""

import hashlib
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .host import CACHE, REPO, SOURCE_PKG, SOURCE_PKG_61, SOURCE_PKG_73, RunnerError, log, \
    run, source_tree, source_version

BASE_FRAGMENT = REPO / "tools" / "testing" / "vm" / "base.config"
DEBUG_FRAGMENT = REPO / "tools" / "testing" / "vm" / "debug.config"
V7_FRAGMENT = REPO / "tools" / "testing" / "vm" / "7.x.config"
UDEV_RULES = REPO / "tools" / "testing" / "vm" / "udev"


@dataclass
class Kernel:
    name: str            # "distro", "debug", "6.1", "7.3"
    image: Path          # what vng boots: a vmlinuz, or a build tree
    kdir: Path           # what modules build against
    kunit: bool          # CONFIG_KUNIT: the KUnit suites can run
    has_intree_tls: bool  # tls.ko exists, so the in-tree baseline can run
    # The linux-source-X.Y package whose tls.c this kernel is held to.
    source: str = SOURCE_PKG
    # A Debian package: its own modules (bonding.ko, nfp.ko) and build tree.
    packaged: bool = False
    append: list = field(default_factory=list)
    vng_args: list = field(default_factory=list)


def _release_key(path):
    nums = re.findall(r"\d+", path.name)
    return [int(n) for n in nums]


def packaged(name, series, source):
    """The newest installed Debian kernel of a series ("6.12"), with the
    headers modules build against."""
    images = sorted(Path("/boot").glob(f"vmlinuz-{series}.*-amd64"), key=_release_key)
    if not images:
        raise RunnerError(f"no /boot/vmlinuz-{series}.*-amd64: install its linux-image")
    image = images[-1]
    release = image.name[len("vmlinuz-"):]
    kdir = Path(f"/lib/modules/{release}/build")
    if not (kdir / "Makefile").exists():
        kdir = Path(f"/usr/src/linux-headers-{release}")
    if not (kdir / "Makefile").exists():
        raise RunnerError(f"no headers for {release}: install linux-headers-{release}")
    return Kernel(name, image, kdir, kunit=False,
                  has_intree_tls=Path(f"/lib/modules/{release}/kernel/net/tls").exists(),
                  source=source, packaged=True)


def distro():
    return packaged("distro", "6.12", SOURCE_PKG)


def bookworm():
    """Debian 12's default kernel (linux-image-amd64)."""
    return packaged("6.1", "6.1", SOURCE_PKG_61)


def _fragment_options(fragments):
    """(name, value) of every option the fragments set, in order."""
    opts = []
    for frag in fragments:
        for line in frag.read_text().splitlines():
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line.strip())
            if m:
                opts.append((m.group(1), m.group(2)))
    return opts


def _kconfig_symbols(src):
    """Every option the source's Kconfig files define."""
    res = run(["grep", "-rhoE", "--include=Kconfig*", r"^\s*(menu)?config\s+\w+", src],
              capture=True)
    return {"CONFIG_" + l.split()[-1] for l in res.stdout.splitlines()}


def _check_config(config, fragments, src):
    """Kconfig silently drops options whose dependencies are unmet: refuse
    such a kernel.  An option the source does not define at all is one a
    shared fragment names for another kernel version: skipped."""
    known = _kconfig_symbols(src)
    have = {}
    for line in config.read_text().splitlines():
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            have[m.group(1)] = m.group(2)
    bad = [f"{k}={v} (got {have.get(k, 'unset')})" for k, v in _fragment_options(fragments)
           if k in known and have.get(k, "n") != v]
    if bad:
        raise RunnerError("kernel config lost options of "
                          + " + ".join(f.name for f in fragments) + ":\n  "
                          + "\n  ".join(bad))


def _cache_key(fragments, version):
    """The build's cache key: the options the fragments set, in the order
    they are merged (comments and moves between fragments rebuild
    nothing), the source version and the compiler."""
    cc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout
    h = hashlib.sha256()
    parts = [f"{k}={v}" for k, v in _fragment_options(fragments)]
    for part in parts + [version, cc.splitlines()[0]]:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _build(name, src, version, fragments):
    """The build tree of kernel @name: tinyconfig of @src with @fragments
    merged over it, built once and cached."""
    obj = CACHE / f"kernel-{name}-{_cache_key(fragments, version)}"
    stamp = obj / ".ktls-built"
    if not stamp.exists():
        log(f"building the {name} kernel in {obj} (some 15 min on 2 cores)")
        shutil.rmtree(obj, ignore_errors=True)
        obj.mkdir(parents=True)
        jobs = str(os.cpu_count() or 2)
        start = time.monotonic()
        run(["make", "-s", "-C", src, f"O={obj}", "tinyconfig"], capture=True)
        run([src / "scripts/kconfig/merge_config.sh", "-m", "-O", obj,
             obj / ".config"] + fragments, cwd=src, capture=True)
        run(["make", "-s", "-C", src, f"O={obj}", "olddefconfig"], capture=True)
        _check_config(obj / ".config", fragments, src)
        res = run(["make", "-s", "-C", obj, f"-j{jobs}", "bzImage", "modules"], capture=True,
                  own_group=True)
        stamp.write_text("ok\n")
        log(f"{name} kernel built in {time.monotonic() - start:.0f}s "
            f"({res.cpu:.0f}s of host CPU)")
        _prune_old_builds(name, keep=obj)
    _check_config(obj / ".config", fragments, src)
    return obj


def _built_kernel(name, obj, **kw):
    # The kernel mounts the 9p root itself; there is no initramfs to do it.
    # With every driver built in, udev needs only the rule for the script
    # ports: the host's full rule set would cost minutes of coldplug.
    return Kernel(name, obj, obj, append=["root=/dev/root"],
                  vng_args=["--rodir", f"/usr/lib/udev/rules.d={UDEV_RULES}"], **kw)


def debug():
    # Full priority: in make check its guest, the longest, waits for it.
    obj = _build("debug", source_tree(), source_version(), [BASE_FRAGMENT, DEBUG_FRAGMENT])
    return _built_kernel("debug", obj, kunit=True, has_intree_tls=False)


def upstream_7_3():
    """No KASAN or lockdep: under TCG it runs at the distro kernel's pace.
    tls.ko is built (CONFIG_TLS=m) and the guest finds it by name."""
    src, ver = source_tree(SOURCE_PKG_73), source_version(SOURCE_PKG_73)
    # make check builds it after the debug kernel, in a group of its
    # own beside the guests; its guest waits for one of theirs to end.
    obj = _build("7.3", src, ver, [BASE_FRAGMENT, V7_FRAGMENT])
    return _built_kernel("7.3", obj, kunit=False, has_intree_tls=True, source=SOURCE_PKG_73)


def _prune_old_builds(name, keep):
    for old in CACHE.glob(f"kernel-{name}-*"):
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


KERNELS = {"distro": distro, "debug": debug, "6.1": bookworm, "7.3": upstream_7_3}


def by_name(name):
    return KERNELS[name]()
