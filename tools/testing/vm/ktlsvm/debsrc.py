# SPDX-License-Identifier: GPL-2.0-only
"""Kernel sources from a Debian suite the host does not use (linux-source-7.3
of trixie-backports on a Debian 12 host).  apt runs with a configuration of
its own under ~/.cache/ktls-hs/apt-<suite>: its own sources list, package
lists and download cache, so the host's apt sources and state are never
touched.  The package is architecture-independent: only the source tarball
inside it is used, unpacked once per package version."""

import os
import shutil
import subprocess
import time

from .host import CACHE, RunnerError, log, run

MIRROR = os.environ.get("KTLS_DEBIAN_MIRROR", "http://deb.debian.org/debian")
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# Package lists younger than this are used as they are: a run does not
# depend on the mirror when the source it needs is already unpacked.
LISTS_MAX_AGE = 24 * 3600


def _apt_root(suite):
    root = CACHE / f"apt-{suite}"
    for d in ("lists/partial", "cache/archives/partial", "parts", "debs"):
        (root / d).mkdir(parents=True, exist_ok=True)
    sources = root / "sources.list"
    sources.write_text(f"deb [signed-by={KEYRING}] {MIRROR} {suite} main\n")
    return root


def _apt_opts(root):
    """Everything apt reads or writes, moved under root; the host's dpkg
    status is replaced by an empty one so nothing counts as installed."""
    return ["-q",
            "-o", f"Dir::Etc::SourceList={root / 'sources.list'}",
            "-o", f"Dir::Etc::SourceParts={root / 'parts'}",
            "-o", f"Dir::State::Lists={root / 'lists'}",
            "-o", f"Dir::Cache={root / 'cache'}",
            "-o", "Dir::State::status=/dev/null",
            # The download lands in a root-owned cache the sandbox user
            # cannot write; the signature check is unaffected.
            "-o", "APT::Sandbox::User=root"]


def _lists_fresh(root):
    lists = list((root / "lists").glob("*_Packages*"))
    return lists and time.time() - min(p.stat().st_mtime for p in lists) < LISTS_MAX_AGE


def _candidate(root, pkg):
    res = subprocess.run(["apt-cache"] + _apt_opts(root) + ["policy", pkg],
                         capture_output=True, text=True)
    for line in res.stdout.splitlines():
        key, _, value = line.strip().partition(":")
        if key == "Candidate" and value.strip() not in ("", "(none)"):
            return value.strip()
    return None


def _unpacked(pkg):
    """Trees of pkg already unpacked, newest first (offline fallback)."""
    marks = sorted(CACHE.glob("src-*/.ktls-extracted"), key=lambda p: p.stat().st_mtime,
                   reverse=True)
    return [m.parent for m in marks if m.read_text().split()[0] == pkg]


def source(pkg, suite):
    """(tree, version) of pkg's kernel source, fetched and unpacked if new."""
    root = _apt_root(suite)
    if not _lists_fresh(root):
        res = run(["apt-get"] + _apt_opts(root) + ["update"], capture=True, check=False)
        if res.returncode:
            have = _unpacked(pkg)
            if have:
                log(f"apt update for {suite} failed; using {have[0].name}")
                return have[0], have[0].name[len("src-"):]
            raise RunnerError(f"apt-get update for {suite}:\n{res.stdout[-2000:]}")
    ver = _candidate(root, pkg)
    if not ver:
        raise RunnerError(f"{pkg} is not in {suite} at {MIRROR}")
    tree = CACHE / f"src-{ver}"
    if (tree / ".ktls-extracted").exists():
        return tree, ver
    debs = root / "debs"
    for old in debs.glob("*.deb"):
        old.unlink()
    log(f"downloading {pkg} {ver} from {suite}")
    run(["apt-get"] + _apt_opts(root) + ["download", f"{pkg}={ver}"], cwd=debs, capture=True)
    deb = next(debs.glob("*.deb"))
    log(f"extracting {deb.name}")
    tmp = CACHE / f"src-{ver}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    tarball = f"./usr/src/{pkg}.tar.xz"
    # dpkg-deb streams the data member; tar takes the source tarball out of it.
    cmd = (f"dpkg-deb --fsys-tarfile '{deb}' | tar -xOf - '{tarball}' "
           f"| tar -xJf - -C '{tmp}' --strip-components=1")
    run(["bash", "-o", "pipefail", "-c", cmd], capture=True)
    shutil.rmtree(tree, ignore_errors=True)
    tmp.rename(tree)
    (tree / ".ktls-extracted").write_text(f"{pkg} {ver}\n")
    deb.unlink()
    return tree, ver
