#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The end of a connection, as a server that knows nothing of TLS sees it.

On a socket whose handshake the kernel ran, closure alerts and error
alerts (RFC 8446 6, RFC 5246 7.2) are the kernel's: the client's
close_notify reads as EOF once the data before it is read, and the
records after it are not read; user_canceled is nothing; any other alert
reads as ECONNRESET (TLS 1.2: fatal ones; warnings are ignored).  The
server's close() or shutdown(SHUT_WR) sends close_notify behind its data,
before TCP's FIN.  Each case over TLS 1.3 and TLS 1.2, with the raw
clients of hs_hostile.py and hs_tls12_hostile.py.  A socket keyed from
userspace keeps upstream's behaviour: the alert record is EIO to a plain
read(), and close() sends no alert.  KTLS_HS_KEY names the server's
identity key.  Output is KTAP.
"""

import errno
import os
import select
import socket
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import hs_hostile as hh
import hs_tls12_hostile as h12
from hs_hostile import ALERT, APPDATA, SOL_TLS, TCP_ULP, Keys, check
from hs_keyupdate import Session, tcp_pair, user_keys

TLS_TX = 1
TLS_RX = 2

CLOSE_NOTIFY = bytes([1, 0])
USER_CANCELED = bytes([1, 90])
HANDSHAKE_FAILURE = bytes([2, 40])
UNKNOWN_WARNING = bytes([1, 255])
POLLRDHUP = 0x2000


class Session13:
    """A TLS 1.3 session: seal() under the client's key, read() the
    server's next record."""

    name = "TLS 1.3"

    def __init__(self, srv):
        self.s = Session(srv)
        self.a, self.c = self.s.a, self.s.c

    def seal(self, typ, data):
        return self.s.tx.seal(typ, data)

    def read(self):
        return self.s.read()


class Session12:
    """The same over a TLS 1.2 handshake."""

    name = "TLS 1.2"

    def __init__(self, srv):
        self.c = hh.Conn(srv.port)
        self.h = h12.Handshake12(self.c)
        self.h.hello()
        if not self.h.server_flight():
            raise RuntimeError("no server flight")
        self.c.s.sendall(self.h.key_exchange() +
                         hh.record(hh.CCS, b"\x01") + self.h.finished())
        if not self.h.server_finished():
            raise RuntimeError("no server Finished")
        self.a = srv.accept(10)
        if self.a is None:
            raise RuntimeError("accept() got nothing")
        self.a.settimeout(10)

    def seal(self, typ, data):
        return self.h.tx.seal(typ, data)

    def read(self):
        r = self.c.read_record()
        if not r:
            return None, None
        try:
            return r[0], self.h.rx.open(r[0], r[2])
        except Exception:
            return None, None


def recv_result(sock):
    """What one blocking recv() of @sock gives: bytes or an errno."""
    try:
        return sock.recv(100)
    except OSError as e:
        return errno.errorcode.get(e.errno, e.errno)


def poll_mask(sock):
    p = select.poll()
    p.register(sock, select.POLLIN | POLLRDHUP)
    ev = p.poll(0)
    return ev[0][1] if ev else 0


def client_rest(s):
    """The server's records up to the end of the stream, then "eof" for a
    FIN or the errno of a reset."""
    raw, end = s.c.buf, "eof"
    s.c.buf = b""
    s.c.s.settimeout(10)
    while True:
        try:
            data = s.c.s.recv(65536)
        except OSError as e:
            end = errno.errorcode.get(e.errno, str(e))
            break
        if not data:
            break
        raw += data
    s.c.buf = raw
    recs = []
    while True:
        typ, data = s.read()
        if typ is None:
            break
        recs.append((typ, data))
    return recs + [end]


def close_both(s):
    s.a.close()
    s.c.close()


def test_close_notify(srv, new):
    """Data, then close_notify: the data, then EOF on every later read."""
    s = new(srv)
    s.c.s.sendall(s.seal(APPDATA, b"hello") + s.seal(ALERT, CLOSE_NOTIFY))
    first = recv_result(s.a)
    ends = [recv_result(s.a), recv_result(s.a)]
    mask = poll_mask(s.a)
    want = select.POLLIN | POLLRDHUP
    check(f"{s.name}: close_notify after data: data, then EOF twice,"
          " poll readable and RDHUP",
          first == b"hello" and ends == [b"", b""] and
          mask & want == want, f"{first!r} {ends} poll {mask:#x}")
    # The server's close() answers with its own close_notify.
    s.a.close()
    recs = client_rest(s)
    check(f"{s.name}: close() after the peer's close_notify sends"
          " close_notify", recs == [(ALERT, CLOSE_NOTIFY), "eof"], str(recs))
    s.c.close()


def test_after_close_notify(srv, new):
    """Records after close_notify are ignored (RFC 8446 6.1)."""
    s = new(srv)
    s.c.s.sendall(s.seal(APPDATA, b"before") + s.seal(ALERT, CLOSE_NOTIFY) +
                  s.seal(APPDATA, b"after") + s.seal(ALERT, HANDSHAKE_FAILURE))
    got = [recv_result(s.a) for _ in range(3)]
    check(f"{s.name}: data and an alert after close_notify are ignored",
          got == [b"before", b"", b""], str(got))
    close_both(s)


def test_server_close(srv, new):
    """close(): the queued data, close_notify, then FIN."""
    s = new(srv)
    s.a.sendall(b"bye")
    s.a.close()
    recs = client_rest(s)
    check(f"{s.name}: close() sends the data, then close_notify, then FIN",
          recs == [(APPDATA, b"bye"), (ALERT, CLOSE_NOTIFY), "eof"],
          str(recs))
    s.c.close()


def test_shutdown(srv, new):
    """shutdown(SHUT_WR): close_notify behind the data, the socket still
    readable; close() later sends nothing more."""
    s = new(srv)
    s.a.sendall(b"half")
    s.a.shutdown(socket.SHUT_WR)
    recs = client_rest(s)
    s.c.s.sendall(s.seal(APPDATA, b"still") + s.seal(ALERT, CLOSE_NOTIFY))
    got = [recv_result(s.a), recv_result(s.a)]
    s.a.close()
    more = s.c.s.recv(100) if select.select([s.c.s], [], [], 5)[0] else None
    check(f"{s.name}: shutdown(SHUT_WR) sends data, close_notify, FIN;"
          " reads go on",
          recs == [(APPDATA, b"half"), (ALERT, CLOSE_NOTIFY), "eof"] and
          got == [b"still", b""] and more == b"",
          f"{recs} {got} then {more!r}")
    s.c.close()


def test_error_alert(srv, new, alert, what):
    """An error alert: ECONNRESET on every read; close() sends no alert,
    and a FIN, since the alert was taken off TCP's queue."""
    s = new(srv)
    s.c.s.sendall(s.seal(APPDATA, b"first") + s.seal(ALERT, alert))
    got = [recv_result(s.a), recv_result(s.a), recv_result(s.a)]
    s.a.close()
    recs = client_rest(s)
    check(f"{s.name}: {what}: the data, then ECONNRESET; close() sends no"
          " alert, then FIN",
          got == [b"first", "ECONNRESET", "ECONNRESET"] and
          recs == ["eof"],
          f"{got} {recs}")
    s.c.close()


def test_ignored_alert(srv, new, alerts, what):
    """@alerts read as nothing: the data around them arrives whole."""
    s = new(srv)
    s.c.s.sendall(s.seal(APPDATA, b"one") +
                  b"".join(s.seal(ALERT, a) for a in alerts) +
                  s.seal(APPDATA, b"two"))
    got = b""
    while len(got) < 6:
        r = recv_result(s.a)
        if not isinstance(r, bytes) or not r:
            got = r
            break
        got += r
    check(f"{s.name}: {what} is nothing to the reader", got == b"onetwo",
          repr(got))
    close_both(s)


def test_user_canceled(srv, new):
    """user_canceled, then close_notify: EOF after the data."""
    s = new(srv)
    s.c.s.sendall(s.seal(APPDATA, b"data") + s.seal(ALERT, USER_CANCELED) +
                  s.seal(ALERT, CLOSE_NOTIFY))
    got = [recv_result(s.a), recv_result(s.a)]
    check(f"{s.name}: user_canceled then close_notify: data, then EOF",
          got == [b"data", b""], str(got))
    close_both(s)


def test_unread_close_notify(srv, new):
    """close_notify while the server does not read: poll() wakes it."""
    s = new(srv)
    s.c.s.sendall(s.seal(ALERT, CLOSE_NOTIFY))
    r, _, _ = select.select([s.a], [], [], 10)
    got = recv_result(s.a) if r else "not readable"
    check(f"{s.name}: unread close_notify: readable, then EOF", got == b"",
          repr(got))
    close_both(s)


class ZeroKeys(Keys):
    """The all-zero TLS 1.3 AES-128-GCM keys of user_keys()."""

    def __init__(self):
        self.aead = AESGCM(bytes(16))
        self.iv = bytes(12)
        self.seq = 0


def test_userspace_keys():
    """Keys from TLS_TX/TLS_RX: upstream's behaviour, untouched."""
    a, b = tcp_pair()
    a.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
    a.setsockopt(SOL_TLS, TLS_TX, user_keys())
    a.setsockopt(SOL_TLS, TLS_RX, user_keys())
    a.settimeout(10)
    k = ZeroKeys()
    b.sendall(k.seal(APPDATA, b"data") + k.seal(ALERT, CLOSE_NOTIFY))
    got = [recv_result(a), recv_result(a)]
    a.close()
    b.settimeout(10)
    rest = b""
    while True:
        data = b.recv(100)
        if not data:
            break
        rest += data
    check("userspace keys: close_notify is EIO to a plain read(), close()"
          " sends no alert",
          got == [b"data", "EIO"] and rest == b"", f"{got} {rest!r}")
    b.close()


def cases(srv, new):
    test_close_notify(srv, new)
    test_after_close_notify(srv, new)
    test_server_close(srv, new)
    test_shutdown(srv, new)
    test_error_alert(srv, new, HANDSHAKE_FAILURE, "fatal handshake_failure")
    test_user_canceled(srv, new)
    test_ignored_alert(srv, new, [USER_CANCELED], "user_canceled alone")
    test_unread_close_notify(srv, new)


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    srv13 = hh.Server(key)
    srv12 = h12.Server12(key, versions=1)
    print("TAP version 13")
    print("1..23")
    cases(srv13, Session13)
    # RFC 8446 6: an unknown alert is an error, whatever its level.
    test_error_alert(srv13, Session13, UNKNOWN_WARNING,
                     "unknown warning-level alert")
    cases(srv12, Session12)
    # RFC 5246 7.2: a warning leaves the connection to the receiver.
    test_ignored_alert(srv12, Session12, [UNKNOWN_WARNING],
                       "a warning-level alert")
    test_userspace_keys()
    for srv in (srv13, srv12):
        st = srv.stats()
        check("no handshake failed", st["failed"] == 0, str(st))
        srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
