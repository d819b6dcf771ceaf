#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A per-socket handshake while TCP replays the socket's backlog.

KTLS_HS_START runs the first handshake step in the setsockopt() itself,
with the socket owned: what the client sends meanwhile (records, ACKs)
waits in the backlog.  The server flight then goes to
tcp_sendmsg_locked(), which after every 16 new skbs of one call replays
that backlog (sk_flush_backlog(): tcp.c, sock.c): TCP's receive path
calls the socket's data-ready callback from there, and the proto's
release callback follows, which runs a handshake timeout left while the
socket was owned.  Both re-enter the handshake under the send in
progress.  For one call to make more than 16 skbs, the client's MSS is
the smallest TCP allows (TCP_MAXSEG 88 before connect), the loopback of
the namespace hs_reentry.sh sets up takes one segment per skb
(gso_max_segs 1), the server's send buffer is large (SO_SNDBUF), and the
identity's chain makes the flight more than a page (two sends).

Honest clients go first and must complete, with and without the large
send buffer; how long their KTLS_HS_START takes sets the range of delays
each race is then tried over (the guest may be fast or slow), the
client sending:
  - one garbage record behind its ClientHello: the handshake must fail
    with bad_record_mac behind an intact flight (a nested run would send
    the flight twice, and free the engine under the outer send);
  - a stream of garbage records over the whole step: likewise;
  - nothing, with a handshake timeout as short: the timer fires while
    the step computes, the client's ACKs of the first send wait in the
    backlog, and the release callback ends the handshake under the
    second send; the client must get a clean prefix of the flight.
KTLS_HS_KEY names the server's identity key.  Output is KTAP.
"""

import errno
import fcntl
import os
import socket
import struct
import sys
import termios
import time

from cryptography.exceptions import InvalidTag

import hs_hostile as hh
from hs_hostile import (APPDATA, HANDSHAKE, SOL_TLS, TCP_ULP, Handshake,
                        Keys, check, record)

KTLS_HS_IDENTITY = 100
KTLS_HS_TIMEOUT = 104
KTLS_HS_START = 105
KTLS_HS_SESSION = 106
KTLS_HS_VERSIONS = 109
KTLS_HS_VERSION_TLS13 = 2
SESSION_INFO_LEN = 520

TCP_MIN_MSS = 88
BAD_RECORD_MAC = 20
GARBAGE = record(APPDATA, b"not a record under any key" * 2)
# Of the time KTLS_HS_START takes: where the garbage or the timeout lands.
FRACTIONS = (0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
             1, 1.2, 1.5)

KEY = int(os.environ["KTLS_HS_KEY"])


class SmallConn(hh.Conn):
    """A client that asks the server for the smallest segments."""

    def __init__(self, addr):
        self.s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, TCP_MIN_MSS)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.s.settimeout(10)
        self.s.connect(addr)
        self.buf = b""


class Replay(hh.Conn):
    """What a client received, read back as records."""

    class _Eof:
        def recv(self, n):
            return b""

    def __init__(self, raw):
        self.s = self._Eof()
        self.buf = raw


def read_all(c):
    """Everything until EOF (the server shuts its side down)."""
    raw = c.buf
    while True:
        try:
            data = c.s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not data:
            break
        raw += data
    return raw


def outcome(h, raw):
    """What the client got: 'empty', 'prefix' (of the flight, cut short),
    'flight', 'flight+alert N', or 'corrupt ...' for anything else, such
    as bytes sent twice."""
    if not raw:
        return "empty"
    c = Replay(raw)
    h.c = c
    hello = len(h.transcript)
    try:
        full = h.server_flight()
    except InvalidTag:
        return "corrupt: a record does not open"
    if not full:
        # Cut short is fine, but only behind a ServerHello, with nothing
        # left over but the start of a record.
        if len(h.transcript) == hello:
            return "corrupt: no ServerHello"
        n = struct.unpack(">H", c.buf[3:5])[0] if len(c.buf) >= 5 else 0
        if len(c.buf) >= 5 + n and len(c.buf) >= 5:
            return "corrupt: a whole record left over"
        return "prefix"
    if not c.buf:
        return "flight"
    alert = h.encrypted_alert()
    if alert is None:
        return "corrupt: bytes after the flight"
    if c.buf:
        return f"corrupt: bytes after alert {alert}"
    return f"flight+alert {alert}"


def wait_inq(sock, n, timeout=10):
    """Until @n bytes wait in @sock's receive queue."""
    buf = bytearray(4)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        fcntl.ioctl(sock.fileno(), termios.FIONREAD, buf)
        if struct.unpack("i", buf)[0] >= n:
            return True
        time.sleep(0.001)
    return False


def wait_end(a, timeout=15):
    """0 once the handshake completed, else the errno it ended with."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            a.getsockopt(SOL_TLS, KTLS_HS_SESSION, SESSION_INFO_LEN)
            return 0
        except OSError as e:
            if e.errno != errno.EINPROGRESS:
                return e.errno
        time.sleep(0.005)
    return errno.EINPROGRESS


def server_side(ls, timeout_ms, sndbuf):
    a, _ = ls.accept()
    if sndbuf:
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    a.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
    a.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("i", KEY))
    a.setsockopt(SOL_TLS, KTLS_HS_VERSIONS,
                 struct.pack("I", KTLS_HS_VERSION_TLS13))
    a.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT, struct.pack("I", timeout_ms))
    return a


def sender(sock, delay_ms, mode):
    """In a child: wait for the go, then send what @mode says."""
    r, w = os.pipe()
    pid = os.fork()
    if pid:
        os.close(r)
        return pid, w
    os.close(w)
    code = 0
    try:
        os.read(r, 1)
        time.sleep(delay_ms / 1000)
        if mode == "record":
            sock.sendall(GARBAGE)
        elif mode == "stream":
            end = time.monotonic() + 0.3
            while time.monotonic() < end:
                sock.sendall(GARBAGE)
                time.sleep(0.0003)
    except OSError:
        pass
    except BaseException:
        code = 1
    os._exit(code)


def race(ls, mode, delay_ms=0, timeout_ms=10000):
    """One handshake started with the ClientHello queued, the client
    sending per @mode from @delay_ms after the start; returns what the
    client got and the errno the handshake ended with."""
    c = SmallConn(ls.getsockname())
    a = server_side(ls, timeout_ms, True)
    h = Handshake(c)
    h.hello()
    if not wait_inq(a, 5 + len(h.transcript)):
        return "ClientHello never arrived", None
    pid, go = sender(c.s, delay_ms, mode)
    os.write(go, b"!")
    try:
        a.setsockopt(SOL_TLS, KTLS_HS_START, None, 0)
        err = 0
    except OSError as e:
        err = e.errno
    _, status = os.waitpid(pid, 0)
    os.close(go)
    if err:
        a.close()
        c.close()
        return f"KTLS_HS_START: errno {err}", None
    end = wait_end(a)
    # A FIN behind what TCP holds: the client reads up to it.
    a.shutdown(socket.SHUT_WR)
    got = outcome(h, read_all(c))
    a.close()
    c.close()
    if status:
        got += f" (sender exit status {status})"
    return got, end


def run_races(ls, name, mode, delays, want, want_errno, timeout=False):
    bad = []
    seen = {}
    for d in delays:
        if timeout:
            got, end = race(ls, mode, timeout_ms=d)
        else:
            got, end = race(ls, mode, delay_ms=d)
        seen[got] = seen.get(got, 0) + 1
        if got not in want or end != want_errno:
            bad.append(f"{d} ms: {got}, errno {end}")
    print(f"# {name}: " + ", ".join(f"{k} x{v}" for k, v in seen.items()))
    check(name, not bad, "; ".join(bad))


def complete(ls, sndbuf):
    """An honest client, the flight in small segments: done, data flows.
    Returns how long KTLS_HS_START took, in ms."""
    c = SmallConn(ls.getsockname())
    a = server_side(ls, 10000, sndbuf)
    h = Handshake(c)
    h.hello()
    wait_inq(a, 5 + len(h.transcript))
    start = time.monotonic()
    a.setsockopt(SOL_TLS, KTLS_HS_START, None, 0)
    took = (time.monotonic() - start) * 1000
    try:
        ok = h.server_flight()
    except InvalidTag:
        ok = False
    got = back = None
    if ok:
        c.s.sendall(h.finished() + Keys(h.c_ap).seal(APPDATA, b"ping"))
        a.settimeout(10)
        got = a.recv(100)
        a.sendall(b"pong")
        r = c.read_record()
        try:
            back = Keys(h.s_ap).open(r[1], r[2]) if r else None
        except InvalidTag:
            back = "does not open"
    end = wait_end(a)
    a.close()
    c.close()
    what = "large send buffer" if sndbuf else "default send buffer"
    check(f"honest client, smallest MSS, {what}: handshake completes",
          ok and end == 0 and got == b"ping" and back == (APPDATA, b"pong"),
          f"flight {ok}, errno {end}, got {got!r}, back {back!r}")
    return took


def main():
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.bind(("127.0.0.1", 0))
    ls.listen(8)
    print("TAP version 13")
    print("1..5")
    # One may pay for a cold start: the other is the measure.
    took = [complete(ls, True), complete(ls, False)]
    print("# KTLS_HS_START took " +
          ", ".join(f"{t:.1f}" for t in took) + " ms")
    took = min(took)
    delays = [round(took * f, 1) for f in FRACTIONS]
    timeouts = sorted({max(1, round(took * f)) for f in FRACTIONS})
    alert = {f"flight+alert {BAD_RECORD_MAC}"}
    run_races(ls, "garbage record behind the ClientHello: intact flight, "
              "bad_record_mac", "record", delays, alert, errno.EPROTO)
    run_races(ls, "garbage records all along: intact flight, bad_record_mac",
              "stream", delays, alert, errno.EPROTO)
    run_races(ls, "timeout while the socket is owned: a clean prefix",
              "none", timeouts, {"empty", "prefix", "flight"},
              errno.ETIMEDOUT, timeout=True)
    ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
