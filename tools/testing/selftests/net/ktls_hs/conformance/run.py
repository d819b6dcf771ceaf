#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs the conformance cases against one server.

  run.py --target ours                 an armed listener of ktls_hs.ko
                                       (KTLS_HS_KEY names its identity)
  run.py --target openssl --cert DIR   openssl s_server with DIR/srv.leaf,
                                       DIR/srv.key, DIR/ca.pem
  --json FILE    every case's expectation and outcome, for compare.py
  --only REGEX   the cases whose name matches
  --list         the cases, one a line, and their count

Output is KTAP: one result per case, named by the case and its clause.
"""

import argparse
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases as C  # noqa: E402
import targets  # noqa: E402
import tlsclient as t  # noqa: E402


def describe(got):
    k = got["kind"]
    if k == "alert":
        return (f"alert {got['alert']} ({got['prot']})" +
                ("" if got["closed"] else ", not closed"))
    if k in ("broken", "error"):
        return f"{k}: {got['detail']}"
    return k


def judge(exp, got, accepted):
    if accepted:
        return False
    k = got["kind"]
    if exp.kind == "ok":
        return k == "ok"
    if exp.kind == "close":
        return k == "close" or (k == "alert" and got["alert"] ==
                                "close_notify" and got["closed"])
    if k == "ok":
        return exp.also_ok
    return (k == "alert" and got["alert"] in exp.alerts and
            got["prot"] == exp.prot and
            (got["closed"] or not exp.must_close))


def run_case(target, case):
    conn = t.Conn(target.port, target.addr)
    ctx = C.Ctx(target, conn)
    try:
        case.run(ctx)
        got = {"kind": "ok"}
    except t.ServerAlert as a:
        got = {"kind": "alert", "alert": t.ALERT_NAMES.get(a.desc, a.desc),
               "prot": a.prot, "level": a.level,
               "closed": ctx.conn.closes()}
    except t.ServerClosed:
        got = {"kind": "close"}
    except t.ServerSilent:
        got = {"kind": "silent"}
    except t.Broken as e:
        got = {"kind": "broken", "detail": str(e)}
    except Exception as e:     # a bug of ours, or a server far off course
        got = {"kind": "error", "detail": f"{type(e).__name__}: {e}"}
    accepted = False
    if not case.established and case.expect.kind != "ok" and \
       got["kind"] != "ok":
        try:
            accepted = target.accepted(ctx.conn)
        except OSError:
            accepted = False
    ctx.conn.close()
    if conn is not ctx.conn:
        conn.close()
    if got["kind"] in ("silent", "error"):
        target.reset()
    return got, accepted


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", choices=("ours", "openssl"))
    ap.add_argument("--cert")
    ap.add_argument("--json")
    ap.add_argument("--only")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()

    cases = C.all_cases()
    if args.only:
        cases = [c for c in cases if re.search(args.only, c.name)]
    if args.list:
        for c in cases:
            print(f"{c.name}\t{c.clause}\t{c.level}\t{c.expect}")
        print(f"{len(cases)} cases")
        return 0
    if args.target == "ours":
        target = targets.Ours(int(os.environ["KTLS_HS_KEY"]))
        version = "ktls_hs"
    else:
        target = targets.OpenSSL(args.cert)
        version = targets.OpenSSL.version()

    print("KTAP version 1")
    print(f"# conformance: {len(cases)} cases against {target.name} "
          f"({version})")
    print(f"1..{len(cases)}")
    sys.stdout.flush()
    results = {}
    start = time.monotonic()
    failed = passed = 0
    for i, case in enumerate(cases, 1):
        t0 = time.monotonic()
        got, accepted = run_case(target, case)
        ok = judge(case.expect, got, accepted)
        # A gap of ours is reported, not scored; it never counts as a pass.
        gap = case.gap if not ok and args.target == "ours" else ""
        failed += not ok and not gap
        passed += ok
        seen = describe(got) + (", reached accept()" if accepted else "")
        results[case.name] = {
            "family": case.family, "clause": case.clause,
            "level": case.level, "expect": str(case.expect),
            "got": seen, "pass": ok, "note": case.note, "gap": gap,
            "seconds": round(time.monotonic() - t0, 3)}
        title = f"{case.name} [{case.clause}, {case.level}]"
        if ok:
            print(f"ok {i} {title}")
        elif gap:
            print(f"ok {i} {title} # SKIP known gap: {gap}; got {seen}")
        else:
            print(f"not ok {i} {title} # expected {case.expect}; got {seen}")
        sys.stdout.flush()
    target.close()
    gaps = len(cases) - passed - failed
    print(f"# {passed}/{len(cases)} passed against {target.name}"
          + (f", {gaps} known gaps" if gaps else "")
          + f" in {time.monotonic() - start:.0f}s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"target": target.name, "version": version,
                       "cases": results}, f, indent=1, sort_keys=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
