#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Both columns of the conformance suite side by side.

  compare.py OURS.json OPENSSL.json [--rst] [--unexplained]

A table per family (family | cases | ours pass | openssl pass), the
totals, then every case where the two servers differ, with its clause,
level, the expectation, what each did and the case's note: why the
clause asks for what it asks.  --rst writes the same as
reStructuredText tables for Documentation/.  --unexplained lists the
cases where the two differ and the case has no note, and fails if there
is one: a difference from OpenSSL must say which text makes ours right.
"""

import argparse
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def rows(ours, theirs):
    fams = {}
    for name, r in ours["cases"].items():
        f = fams.setdefault(r["family"], [0, 0, 0])
        f[0] += 1
        f[1] += r["pass"]
        o = theirs["cases"].get(name)
        f[2] += bool(o and o["pass"])
    return sorted(fams.items())


def differ(ours, theirs):
    out = []
    for name, r in sorted(ours["cases"].items()):
        o = theirs["cases"].get(name)
        if o is None or o["pass"] != r["pass"]:
            out.append((name, r, o))
    return out


def text(ours, theirs):
    lines = []
    fams = rows(ours, theirs)
    w = max(len(f) for f, _ in fams + [("family", 0)])
    lines.append(f"{'family':<{w}} {'cases':>5} {'ours':>5} {'openssl':>7}")
    tot = [0, 0, 0]
    for fam, (n, a, b) in fams:
        lines.append(f"{fam:<{w}} {n:>5} {a:>5} {b:>7}")
        tot = [tot[0] + n, tot[1] + a, tot[2] + b]
    lines.append(f"{'total':<{w}} {tot[0]:>5} {tot[1]:>5} {tot[2]:>7}")
    d = differ(ours, theirs)
    lines.append("")
    lines.append(f"{len(d)} cases where the two differ "
                 f"(ours: {ours['version']}, openssl: {theirs['version']}):")
    for name, r, o in d:
        lines.append(f"  {name} [{r['clause']}, {r['level']}] expected "
                     f"{r['expect']}")
        lines.append(f"      ours {'PASS' if r['pass'] else 'FAIL'}: "
                     f"{r['got']}")
        lines.append(f"      openssl {'PASS' if o and o['pass'] else 'FAIL'}"
                     f": {o['got'] if o else 'not run'}")
        lines.append(f"      why: {r.get('note') or '(no note)'}")
    return "\n".join(lines)


def rst_table(header, body):
    cols = list(zip(*([header] + body)))
    w = [max(len(str(c)) for c in col) for col in cols]
    sep = "  ".join("=" * n for n in w)
    fmt = lambda r: "  ".join(f"{str(c):<{n}}" for c, n in zip(r, w)).rstrip()
    return "\n".join([sep, fmt(header), sep] + [fmt(r) for r in body] +
                     [sep])


def rst(ours, theirs):
    fams = rows(ours, theirs)
    body = [(f"``{f}``", n, a, b) for f, (n, a, b) in fams]
    tot = [sum(x[i] for _, x in fams) for i in range(3)]
    body.append(("**total**", *tot))
    out = [rst_table(("family", "cases", "ours pass", "openssl pass"), body)]
    d = differ(ours, theirs)
    diff = [(f"``{n}``", r["clause"], r["level"], r["expect"],
             ("pass" if r["pass"] else "FAIL: " + r["got"]),
             ("pass" if o and o["pass"] else
              "FAIL: " + (o["got"] if o else "not run")),
             r.get("note", ""))
            for n, r, o in d]
    if diff:
        out.append("")
        out.append(rst_table(("case", "clause", "level", "expected", "ours",
                              "openssl", "why"), diff))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ours")
    ap.add_argument("openssl")
    ap.add_argument("--rst", action="store_true")
    ap.add_argument("--unexplained", action="store_true")
    args = ap.parse_args()
    ours, theirs = load(args.ours), load(args.openssl)
    if args.unexplained:
        # A known gap of ours says why it fails instead.
        bare = [n for n, r, _ in differ(ours, theirs)
                if not r.get("note") and not r.get("gap")]
        for n in bare:
            print(n)
        return 1 if bare else 0
    print(rst(ours, theirs) if args.rst else text(ours, theirs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
