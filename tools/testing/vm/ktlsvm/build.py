# SPDX-License-Identifier: GPL-2.0-only
"""Everything the guests run, built on the host: ktls_hs.ko per kernel,
our kselftests, and the upstream tls.c selftest of the kernel source,
adapted at build time to compile, and cut into pieces run in parallel."""

import os
import re
import shutil

from .host import OUT, REPO, RunnerError, log, run

MODULE_SOURCES = ["Kbuild", "Kconfig", "Makefile", "dkms.conf", "net", "crypto", "include",
                  "drivers", "tools/install"]
KSFT = REPO / "tools" / "testing" / "selftests" / "net" / "ktls_hs"


def has_tls_device(kernel):
    """Kbuild builds the simulated offload NIC, and sim_offload*.sh run,
    where the kernel has CONFIG_TLS_DEVICE: skb->decrypted and the
    offload hooks exist only there."""
    return "CONFIG_TLS_DEVICE=y" in (kernel.kdir / ".config").read_text()


def sim_routable(kernel):
    """The upstream-offload suite routes tls.c's connections to its own
    host out of the simulated NIC with policy rules ahead of the local
    table: it needs the NIC and policy routing for IPv4 and IPv6."""
    config = (kernel.kdir / ".config").read_text()
    return has_tls_device(kernel) and all(
        f"CONFIG_{o}=y" in config for o in ("IP_MULTIPLE_TABLES", "IPV6_MULTIPLE_TABLES"))


def module(kernel, extra=()):
    """Builds ktls_hs.ko (and the KUnit module where the kernel has KUnit)
    in out/build/<kernel>: 6.12 kbuild cannot put one source tree's
    objects for two kernels apart, so each kernel gets its own copy."""
    dest = OUT / "build" / kernel.name
    dest.mkdir(parents=True, exist_ok=True)
    srcs = [s for s in MODULE_SOURCES if (REPO / s).exists()]
    run(["rsync", "-aR", "--delete", "--exclude=*.o", "--exclude=*.ko",
         "--exclude=.*.cmd"] + srcs + [f"{dest}/"], cwd=REPO)
    # TEST_MODULES: the selftests' helper modules (Kbuild) too.
    res = run(["make", f"-j{os.cpu_count() or 2}", "-C", dest, f"KDIR={kernel.kdir}",
               "TEST_MODULES=m"] + list(extra), capture=True)
    warnings = [l for l in res.stdout.splitlines() if re.search(r"\b(warning|error):", l)]
    sim = has_tls_device(kernel)
    for ko in (["ktls_hs.ko"] + (["ktls_sim.ko"] if sim else [])
               + (["ktls_hs_kunit.ko", "ktls_ulp_squat.ko"] if kernel.kunit else [])):
        if not (dest / ko).exists():
            raise RunnerError(f"{kernel.name}: {ko} was not built")
    return dest, warnings


def dkms_tarball(kernel, release):
    """DKMS builds the module from its sources against @release's installed
    headers (/lib/modules/<release>/build), on the host, in a DKMS tree of
    its own under out/dkms/<kernel>; the result is a binaries-only DKMS
    tarball, which the guest's dkms suite loads and installs (dkms
    ldtarball, dkms install), as a build host's tarball reaches the
    machines of a fleet.  The compile is the host's: under TCG the
    guest's own takes over half an hour."""
    conf = (REPO / "dkms.conf").read_text()
    m = re.search(r'^PACKAGE_VERSION="(.+)"$', conf, re.M)
    if not m:
        raise RunnerError("dkms.conf has no PACKAGE_VERSION")
    ver = m.group(1)
    work = OUT / "dkms" / kernel.name
    shutil.rmtree(work, ignore_errors=True)
    src = work / "src" / f"ktls-hs-{ver}"
    src.mkdir(parents=True)
    srcs = [s for s in MODULE_SOURCES if (REPO / s).exists()]
    run(["rsync", "-aR", "--exclude=*.o", "--exclude=*.ko", "--exclude=.*.cmd"] + srcs
        + [f"{src}/"], cwd=REPO)
    tree = work / "tree"
    tree.mkdir()
    args = ["-m", "ktls-hs", "-v", ver, "--dkmstree", str(tree),
            "--sourcetree", str(work / "src")]
    run(["dkms", "add"] + args, capture=True)
    log(f"dkms: building ktls-hs {ver} for {release} on the host")
    run(["dkms", "build", "-k", release] + args, capture=True)
    run(["dkms", "mktarball", "-k", release, "--binaries-only",
         "--archive", "ktls-hs-bin.tar.gz"] + args, capture=True)
    tarball = tree / "ktls-hs" / ver / "tarball" / "ktls-hs-bin.tar.gz"
    if not tarball.exists():
        raise RunnerError(f"dkms mktarball left no {tarball}")
    return tarball


def selftests(src, hdrs, tag=""):
    """Our kselftests, built with the harness and uapi of @src into
    out/selftests<tag>."""
    out = OUT / f"selftests{tag}"
    out.mkdir(parents=True, exist_ok=True)
    args = ["make", "-s", "-C", KSFT, f"KSFT_DIR={src}/tools/testing/selftests",
            f"OUTPUT={out}", f"KHDR_INCLUDES=-isystem {hdrs}"]
    run(args, capture=True)
    tests = run(args + ["print_tests"], capture=True).stdout.split()
    (out / "tests.list").write_text("\n".join(tests) + "\n")
    return out


# Debian's 6.12.117 tls.c carries rekey tests that call
# tls_crypto_info_init() with a fourth argument, the key generation byte
# that fills the key material, but still defines the three-argument helper.
_OLD_HELPER = re.compile(
    r"(static void tls_crypto_info_init\(uint16_t tls_version, uint16_t cipher_type,\s*"
    r"struct tls_crypto_info_keys \*tls12)\)\s*\{\s*memset\(tls12, 0, sizeof\(\*tls12\)\);")
_NEW_HELPER = (r"\1, char key_generation)\n{\n"
               "\t/* adapted by ktls-hs at build time: key material = generation byte */\n"
               "\tmemset(tls12, key_generation, sizeof(*tls12));\n"
               "\tmemset(tls12, 0, sizeof(struct tls_crypto_info));")


def _call_args(text, start):
    """Splits the argument list opening at text[start] == '(' at top level."""
    depth, args, cur = 0, [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i])
                return args, i
        elif c == "," and depth == 1:
            args.append(text[cur:i])
            cur = i + 1
    raise RunnerError("tls.c: unbalanced call to tls_crypto_info_init")


def adapt_tls_c(text):
    """Returns tls.c with the helper taking the generation byte and every
    three-argument call passing generation 0 (all-zero keys, as before)."""
    text, n = _OLD_HELPER.subn(_NEW_HELPER, text)
    if n == 0:
        if "char key_generation)" in text:
            return text  # already the four-argument helper: nothing to adapt
        raise RunnerError("tls.c: tls_crypto_info_init() has an unknown shape; "
                          "update adapt_tls_c()")
    out, pos = [], 0
    for m in re.finditer(r"(?<!void )tls_crypto_info_init\(", text):
        if m.start() < pos:
            continue
        open_paren = m.end() - 1
        args, close = _call_args(text, open_paren)
        out.append(text[pos:close])
        if len(args) == 3:
            out.append(", 0")
        pos = close
    out.append(text[pos:])
    return "".join(out)


# The harness kills a test after 30 s.  The mutliproc cases move 36 to
# 72 MB through one socket with 12 to 16 processes; under TCG that takes
# from 10 s (distro kernel, AES-NI) to minutes (KASAN with the generic
# SM4/ARIA code, over five on a loaded host).  The sendfile cases move
# less, but through AES-CCM under KASAN on a loaded host they too were
# seen to miss 30 s.  None of that says anything about the module, so
# these cases get a limit of their own.  Every other case keeps the
# harness's 30 s: the in-tree tls.ko of 6.12 never answers some of the
# rekey cases of Debian's tls.c, and there a long limit only makes the
# baseline hang longer (a 600 s default did not finish it in 50 min).
UPSTREAM_SLOW_TESTS = re.compile(
    r"^TEST_F\((\s*tls\s*,\s*(?:mutliproc_\w+|sendfile|multi_chunk_sendfile)\s*)\)", re.M)
UPSTREAM_SLOW_TIMEOUT = 600


def scale_harness_timeout(text, seconds=UPSTREAM_SLOW_TIMEOUT):
    """Returns tls.c with the slow cases declared with a per-test limit
    of @seconds (TEST_F_TIMEOUT) instead of the harness default."""
    text, n = UPSTREAM_SLOW_TESTS.subn(rf"TEST_F_TIMEOUT(\1, {seconds})", text)
    if n == 0:
        raise RunnerError("tls.c: none of the slow cases found; update UPSTREAM_SLOW_TESTS")
    return text


def upstream_pieces(text):
    """tls.c cut into pieces the guest runs side by side, one harness
    process per fixture variant; "@none" stands for the fixtures and tests
    that have no variant."""
    names = ["@none"]
    for v in re.findall(r"FIXTURE_VARIANT_ADD\(\s*\w+\s*,\s*(\w+)\s*\)", text):
        if v not in names:
            names.append(v)
    return names


def upstream_tls(src, hdrs, source, harness):
    """tls.c of @src, the tree of the package @source, built in out/ with
    the kselftest harness of the tree @harness.  Debian backports tls.c
    cases to older kernels with the harness calls of newer ones
    (__test_passed() in 6.1.192's rekey cases), so the harness of the
    newest tree builds them all, as its uapi headers do."""
    out = OUT / f"upstream-{source}"
    out.mkdir(parents=True, exist_ok=True)
    ksft = src / "tools" / "testing" / "selftests"
    hksft = harness / "tools" / "testing" / "selftests"
    text = scale_harness_timeout(adapt_tls_c((ksft / "net" / "tls.c").read_text()))
    (out / "tls.c").write_text(text)
    # tls.c includes "../kselftest_harness.h": found through -I<harness>/net.
    run(["gcc", "-O2", "-Wall", "-isystem", hdrs, f"-I{hksft}",
         f"-I{hksft}/net", out / "tls.c", "-o", out / "tls", "-lpthread"], capture=True)
    (out / "pieces").write_text("\n".join(upstream_pieces(text)) + "\n")
    log(f"upstream tls.c built ({text.count('TEST_F(') + text.count('TEST(')} test bodies)")
    return out
