#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Handshake memory: the pool behind max_handshakes, seen from userspace.

An identity whose chain is too large for the largest block is refused
with EMSGSIZE when it is configured; one that needs the large block gets
it and completes handshakes.  With max_handshakes lowered, stalled
clients take exactly that many handshakes, the rest are dropped and
counted (KTLS_HS_STATS and /proc/net/tls_hs_pool), a real client is
turned away cleanly, KTLS_HS_START gives EBUSY, and once the stalled
clients go, handshakes complete again.  KTLS_HS_KEY, KTLS_HS_MID_KEY,
KTLS_HS_BIG_KEY name the identities and KTLS_HS_CA the CA (hs_pool.sh
sets them).  Output is KTAP.
"""

import errno
import os
import socket
import ssl
import struct
import time

SOL_TLS = 282
TCP_ULP = 31
KTLS_HS_IDENTITY = 100
KTLS_HS_TIMEOUT = 104
KTLS_HS_START = 105
KTLS_HS_STATS = 107
STATS_FMT = "=QQQQII"

PARAM = "/sys/module/ktls_hs/parameters/max_handshakes"
POOL = "/proc/net/tls_hs_pool"
NAME = "www.example.test"

KEY = int(os.environ["KTLS_HS_KEY"])
MID_KEY = int(os.environ["KTLS_HS_MID_KEY"])
BIG_KEY = int(os.environ["KTLS_HS_BIG_KEY"])
CA = os.environ["KTLS_HS_CA"]

results = []


def check(ok, what):
    results.append(ok)
    print(f"{'ok' if ok else 'not ok'} {len(results)} {what}", flush=True)


def pool():
    with open(POOL) as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


def listener(key, backlog=64):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(backlog)
    s.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"ktls_hs")
    s.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT, struct.pack("=I", 60000))
    if key:
        s.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("=i", key))
    return s


def stats(lsk):
    raw = lsk.getsockopt(SOL_TLS, KTLS_HS_STATS, struct.calcsize(STATS_FMT))
    keys = ("completed", "failed", "timed_out", "dropped", "in_progress")
    return dict(zip(keys, struct.unpack(STATS_FMT, raw)))


def wait_for(cond, secs=20):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def handshake(lsk):
    """A TLS 1.3 client; True if it got through to a kTLS echo."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.load_verify_locations(CA)
    raw = socket.create_connection(lsk.getsockname(), timeout=30)
    try:
        with ctx.wrap_socket(raw, server_hostname=NAME) as c:
            c.sendall(b"ping")
            lsk.settimeout(30)
            child, _ = lsk.accept()
            with child:
                if child.recv(4, socket.MSG_WAITALL) != b"ping":
                    return False
                child.sendall(b"pong")
            return c.recv(4) == b"pong"
    except (OSError, ssl.SSLError):
        return False
    finally:
        raw.close()


def stalled(lsk, n):
    """Clients that connect and say nothing: handshakes that stay."""
    return [socket.create_connection(lsk.getsockname()) for _ in range(n)]


def set_limit(n):
    with open(PARAM, "w") as f:
        f.write(f"{n}\n")


def test_oversize():
    with listener(None) as lsk:
        try:
            lsk.setsockopt(SOL_TLS, KTLS_HS_IDENTITY,
                           struct.pack("=i", BIG_KEY))
            err = 0
        except OSError as e:
            err = e.errno
        check(err == errno.EMSGSIZE,
              f"an identity too large for any block: EMSGSIZE ({err})")
        got = lsk.getsockopt(SOL_TLS, KTLS_HS_IDENTITY, 32)
        check(len(got) == 0, "and it is not configured")


def test_large_block():
    with listener(MID_KEY) as lsk:
        before = pool()
        clients = stalled(lsk, 1)
        ok = wait_for(lambda: pool()["TlsHsPoolInUse64k"] ==
                      before["TlsHsPoolInUse64k"] + 1)
        check(ok, "a 9 KiB chain takes a 64 KiB block")
        for c in clients:
            c.close()
        check(handshake(lsk), "and completes a handshake")


def test_cap():
    limit, extra = 4, 6
    with listener(KEY) as lsk:
        wait_for(lambda: pool()["TlsHsPoolInUse32k"] == 0)
        before = pool()
        set_limit(limit)
        clients = stalled(lsk, limit + extra)
        wait_for(lambda: sum(stats(lsk)[k] for k in
                             ("in_progress", "dropped")) == limit + extra)
        st, now = stats(lsk), pool()
        check(st["in_progress"] == limit and st["dropped"] == extra,
              f"max_handshakes={limit}: {limit + extra} clients, "
              f"{st['in_progress']} in progress, {st['dropped']} dropped")
        fails = now["TlsHsPoolCapFail"] - before["TlsHsPoolCapFail"]
        check(now["TlsHsPoolInUse32k"] == limit and fails == extra,
              f"pool: {now['TlsHsPoolInUse32k']} in use, {fails} refused")
        check(not handshake(lsk), "a client over the limit is turned away")

        for c in clients:
            c.close()
        ok = wait_for(lambda: stats(lsk)["in_progress"] == 0 and
                      pool()["TlsHsPoolInUse32k"] == 0)
        check(ok, "stalled clients gone: every block back")
        check(handshake(lsk), "handshakes complete again")

        set_limit(0)
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        cli = socket.create_connection(srv.getsockname())
        conn, _ = srv.accept()
        conn.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
        conn.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("=i", KEY))
        try:
            conn.setsockopt(SOL_TLS, KTLS_HS_START, None, 0)
            err = 0
        except OSError as e:
            err = e.errno
        check(err == errno.EBUSY, f"KTLS_HS_START at the limit: EBUSY ({err})")
        for s in (conn, cli, srv):
            s.close()


def main():
    print("TAP version 13")
    print("1..11", flush=True)
    with open(PARAM) as f:
        saved = f.read().strip()
    try:
        test_oversize()
        test_large_block()
        test_cap()
    finally:
        set_limit(saved)
    check(pool()["TlsHsPoolLimit"] == int(saved), "limit restored")
    print(f"# {POOL}: " +
          " ".join(f"{k}={v}" for k, v in pool().items()), flush=True)
    return 0 if all(results) and len(results) == 11 else 1


if __name__ == "__main__":
    raise SystemExit(main())
