# SPDX-License-Identifier: GPL-2.0-only
"""The conformance suite's host side.

The guest runs the cases against our server (the scored column).  The
OpenSSL column is the same cases against Debian's `openssl s_server`:
it needs no module, so it runs here on the host, before the boot, with
the certificate the guest then loads; its result depends only on the
suite's source and the openssl build, so it is cached under a key of
both and reused.  After the boot both columns are printed side by side.
"""

import hashlib
import json
import shutil
import subprocess
import sys

from .host import CACHE, OUT, REPO, RunnerError, log, run

SUITE_DIR = REPO / "tools" / "testing" / "selftests" / "net" / "ktls_hs" / "conformance"
HS_LIB = SUITE_DIR.parent / "hs_lib.sh"


def _openssl_version():
    return run(["openssl", "version", "-a"], capture=True).stdout


def _key():
    h = hashlib.sha256()
    for path in sorted(SUITE_DIR.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(_openssl_version().encode())
    return h.hexdigest()[:16]


def make_cert():
    """A fresh test CA and P-256 identity, made as the selftests make
    theirs (hs_lib.sh), where the guest can read it."""
    d = OUT / "conformance" / "cert"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    run(["bash", "-c", f'source "{HS_LIB}" && hs_make_ca "$1" && '
         f'hs_make_identity "$1" srv www.example.test', "_", d], capture=True)
    return d


def openssl_column(cert):
    """The OpenSSL column's JSON: cached, or run now (about a minute)."""
    cached = CACHE / f"conformance-openssl-{_key()}.json"
    if cached.exists():
        log(f"conformance: OpenSSL column cached ({cached.name})")
        return cached
    log("conformance: running the OpenSSL column on the host")
    tmp = OUT / "conformance" / "openssl.json"
    with open(OUT / "conformance" / "openssl.ktap", "w") as ktap:
        res = subprocess.run([sys.executable, SUITE_DIR / "run.py", "--target", "openssl",
                              "--cert", cert, "--json", tmp], stdout=ktap,
                             stderr=subprocess.STDOUT)
    if not tmp.exists():
        raise RunnerError(f"conformance: the OpenSSL column did not run (exit {res.returncode}); "
                          f"see {OUT / 'conformance' / 'openssl.ktap'}")
    CACHE.mkdir(parents=True, exist_ok=True)
    shutil.copy(tmp, cached)
    return cached


def prepare():
    """The guest's environment for the suite."""
    cert = make_cert()
    return {"KTLS_CONF_CERT": cert, "KTLS_CONF_OPENSSL": openssl_column(cert)}


def table(report, openssl_json):
    """Both columns, and the cases where they differ, as text; also left
    in the report directory."""
    ours = report / "conformance.json"
    if not ours.exists():
        return None
    res = run([sys.executable, SUITE_DIR / "compare.py", ours, openssl_json], capture=True)
    (report / "conformance-table.txt").write_text(res.stdout)
    return res.stdout


def openssl_passed(openssl_json):
    data = json.loads(openssl_json.read_text())
    cases = data["cases"].values()
    return sum(c["pass"] for c in cases), len(cases), data["version"]


def unexplained(report, openssl_json):
    """The cases where ours and OpenSSL differ that carry no note saying
    which text makes ours right (compare.py --unexplained)."""
    ours = report / "conformance.json"
    if not ours.exists():
        return []
    res = subprocess.run([sys.executable, SUITE_DIR / "compare.py", ours, openssl_json,
                          "--unexplained"], capture_output=True, text=True)
    return res.stdout.split()
