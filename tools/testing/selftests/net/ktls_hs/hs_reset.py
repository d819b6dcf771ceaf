#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A client that resets or closes its connection mid-handshake.

TCP reports a reset to the socket through its error callback only: no
data arrives, no write space.  The handshake must end on it at once, not
at its timeout, and say why:
  - per-socket: the client sends its ClientHello, reads the server's
    flight, then resets (SO_LINGER 0 close) while the server waits in
    recv(): recv(), send() and KTLS_HS_SESSION give ECONNRESET, the
    errno TCP set, well before the handshake timeout, and poll()
    reports EPOLLERR;
  - per-socket: half a ClientHello, then a FIN: EPROTO, promptly (the
    peer closed before the handshake was over: a protocol failure, as
    a truncated handshake is to any TLS library);
  - armed listener: clients that send a ClientHello and reset each hold
    a block of the handshake pool until their handshake ends; every
    block must come back well before the timeout, the children be
    freed, nothing reach accept(), and each be counted once, as failed
    (KTLS_HS_STATS) and as a peer that closed (/proc/net/ktls_hs_stat);
    likewise for clients that send half a hello and a FIN;
  - and a whole handshake on the same listener still works after them.
KTLS_HS_KEY names the server's identity key.  Output is KTAP.
"""

import errno
import os
import select
import socket
import struct
import sys
import threading
import time

import hs_hostile as hh
from hs_hostile import (APPDATA, HANDSHAKE, SOL_TLS, TCP_ULP, Handshake,
                        Keys, check, client_hello, record, std_exts)

KTLS_HS_IDENTITY = 100
KTLS_HS_TIMEOUT = 104
KTLS_HS_START = 105
KTLS_HS_SESSION = 106
KTLS_HS_VERSIONS = 109
KTLS_HS_VERSION_TLS13 = 2
SESSION_INFO_LEN = 520

POOL = "/proc/net/tls_hs_pool"
HS_STAT = "/proc/net/ktls_hs_stat"

# Long enough that ending at the timeout cannot pass for ending promptly.
TIMEOUT_MS = 30000
PROMPT_S = 10
CLIENTS = 16

KEY = int(os.environ["KTLS_HS_KEY"])


def pool_in_use():
    with open(POOL) as f:
        return sum(int(v) for k, v in (line.split() for line in f)
                   if k.startswith("TlsHsPoolInUse"))


def hs_stat():
    with open(HS_STAT) as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


def stat_delta(before):
    now = hs_stat()
    return {k: now[k] - before[k] for k in now if now[k] != before[k]}


def tcp_alloc():
    """TCP sockets allocated, from /proc/net/sockstat: a child that
    ended in TCP_CLOSE is in no hash table /proc/net/tcp walks."""
    with open("/proc/net/sockstat") as f:
        for line in f:
            if line.startswith("TCP:"):
                fields = line.split()
                return int(fields[fields.index("alloc") + 1])
    return -1


def wait_for(cond, secs):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


def reset(sock):
    """Close with SO_LINGER 0: TCP sends a reset, not a FIN."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                    struct.pack("ii", 1, 0))
    sock.close()


def half_hello():
    """The first half of a ClientHello record."""
    h = Handshake(None)
    rec = record(HANDSHAKE, client_hello(std_exts(h.pub)), 0x0301)
    return rec[:len(rec) // 2]


def per_socket_server(ls):
    """The accepted side of @ls with a per-socket handshake started."""
    a, _ = ls.accept()
    a.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
    a.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("i", KEY))
    a.setsockopt(SOL_TLS, KTLS_HS_VERSIONS,
                 struct.pack("I", KTLS_HS_VERSION_TLS13))
    a.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT, struct.pack("I", TIMEOUT_MS))
    a.setsockopt(SOL_TLS, KTLS_HS_START, None, 0)
    return a


def errno_of(fn):
    try:
        fn()
    except OSError as e:
        return e.errno
    return 0


def waiter(a, after, name, want):
    """@after (in a thread, 0.3 s on) ends the connection under a
    waiter in recv(); recv() must give @want promptly, and the other
    per-socket paths the same."""
    def later():
        time.sleep(0.3)
        after()

    t = threading.Thread(target=later)
    t.start()
    start = time.monotonic()
    err = errno_of(lambda: a.recv(16))
    took = time.monotonic() - start
    t.join()
    print(f"# {name}: recv() returned {took:.2f} s after it began "
          f"(the end came 0.3 s in; timeout {TIMEOUT_MS / 1000:.0f} s)")
    check(f"{name}: the waiter in recv() gets {errno.errorcode[want]} "
          f"promptly", err == want and took < PROMPT_S,
          f"errno {errno.errorcode.get(err, err)} after {took:.1f} s")
    p = select.poll()
    p.register(a, select.POLLIN | select.POLLOUT)
    ev = p.poll(0)
    mask = ev[0][1] if ev else 0
    errs = [errno_of(lambda: a.recv(16)),
            errno_of(lambda: a.send(b"x")),
            errno_of(lambda: a.getsockopt(SOL_TLS, KTLS_HS_SESSION,
                                          SESSION_INFO_LEN))]
    check(f"{name}: then recv(), send(), KTLS_HS_SESSION give "
          f"{errno.errorcode[want]}, poll() EPOLLERR",
          errs == [want] * 3 and mask & select.POLLERR,
          f"errnos {[errno.errorcode.get(e, e) for e in errs]}, "
          f"poll {mask:#x}")


def test_per_socket_reset(ls):
    c = hh.Conn(ls.getsockname()[1])
    a = per_socket_server(ls)
    h = Handshake(c)
    h.hello()
    flight = h.server_flight()
    check("per-socket: the server flight before the reset", flight)
    waiter(a, lambda: reset(c.s), "per-socket, reset after the flight",
           errno.ECONNRESET)
    a.close()


def test_per_socket_fin(ls):
    c = hh.Conn(ls.getsockname()[1])
    a = per_socket_server(ls)
    c.s.sendall(half_hello())
    waiter(a, lambda: c.s.shutdown(socket.SHUT_WR),
           "per-socket, half a ClientHello and a FIN", errno.EPROTO)
    a.close()
    c.close()


def listener():
    srv = hh.Server(KEY)
    srv.ls.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT,
                      struct.pack("I", TIMEOUT_MS))
    return srv


def test_listener(srv, name, start, end):
    """CLIENTS clients each @start a handshake and @end it."""
    wait_for(lambda: pool_in_use() == 0, PROMPT_S)
    in_use, st0, stat0 = pool_in_use(), srv.stats(), hs_stat()
    alloc = tcp_alloc()
    conns = [srv.connect() for _ in range(CLIENTS)]
    started = [start(c) for c in conns]
    running = wait_for(lambda: srv.stats()["in_progress"] == CLIENTS,
                       PROMPT_S)
    held = pool_in_use() - in_use
    check(f"listener, {name}: {CLIENTS} handshakes running, each "
          f"holding a pool block", all(started) and running and
          held == CLIENTS,
          f"started {started.count(True)}, stats {srv.stats()}, "
          f"{held} blocks")

    t0 = time.monotonic()
    for c in conns:
        end(c)
    back = wait_for(lambda: srv.stats()["in_progress"] == 0 and
                    pool_in_use() == in_use, PROMPT_S)
    took = time.monotonic() - t0
    print(f"# listener, {name}: blocks back {took:.2f} s after the "
          f"clients began to end (timeout {TIMEOUT_MS / 1000:.0f} s)")
    check(f"listener, {name}: every block back promptly", back,
          f"after {took:.1f} s: stats {srv.stats()}, "
          f"{pool_in_use() - in_use} blocks held")
    for c in conns:
        c.close()
    gone = wait_for(lambda: tcp_alloc() <= alloc, PROMPT_S)
    st, delta = srv.stats(), stat_delta(stat0)
    check(f"listener, {name}: children freed, none accepted",
          gone and srv.accept(0) is None,
          f"{tcp_alloc() - alloc} more TCP sockets than before")
    counted = {k: st[k] - st0[k] for k in ("completed", "failed",
                                           "timed_out", "dropped")}
    want = {"TlsHsStarted": CLIENTS, "TlsHsFailed": CLIENTS,
            "TlsHsPeerClosed": CLIENTS}
    check(f"listener, {name}: counted once each, as failed, peer closed",
          counted == {"completed": 0, "failed": CLIENTS, "timed_out": 0,
                      "dropped": 0} and delta == want,
          f"KTLS_HS_STATS {counted}, {HS_STAT} {delta}")


def hello_flight(c):
    h = Handshake(c)
    h.hello()
    return h.server_flight()


def send_half_hello(c):
    c.s.sendall(half_hello())
    return True


def test_full_after(srv):
    c = srv.connect()
    h = Handshake(c)
    h.hello()
    ok = h.server_flight()
    got = None
    if ok:
        c.s.sendall(h.finished() + Keys(h.c_ap).seal(APPDATA, b"ping"))
        a = srv.accept(10)
        if a:
            a.settimeout(10)
            got = a.recv(100)
            a.close()
    check("listener: a whole handshake after them", ok and got == b"ping",
          f"flight {ok}, got {got!r}")
    c.close()


def main():
    print("TAP version 13")
    print("1..15")
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.bind(("127.0.0.1", 0))
    ls.listen(8)
    test_per_socket_reset(ls)
    test_per_socket_fin(ls)
    ls.close()

    srv = listener()
    test_listener(srv, "ClientHello and a reset", hello_flight,
                  lambda c: reset(c.s))
    test_listener(srv, "half a ClientHello and a FIN", send_half_hello,
                  lambda c: c.s.shutdown(socket.SHUT_WR))
    test_full_after(srv)
    st = srv.stats()
    check("listener: nothing left in progress, nothing timed out",
          st["in_progress"] == 0 and st["timed_out"] == 0, str(st))
    srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) and \
        len(hh.RESULTS) == 15 else 1


if __name__ == "__main__":
    sys.exit(main())
