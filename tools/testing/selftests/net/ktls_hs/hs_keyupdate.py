#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""TLS 1.3 KeyUpdate on sockets whose handshake ran in the kernel.

The raw client of hs_hostile.py does the handshake against an armed
listener, then drives KeyUpdate (RFC 8446 4.6.3) both ways: the kernel
must follow the client's KeyUpdate by itself, answer update_requested with
exactly one KeyUpdate of its own, send one when the application asks
(KTLS_HS_REKEY), and fail the socket on a malformed one with the errno
Documentation/handshake.rst gives and the alert RFC 8446 asks for.  When
openssl is there, s_client's 'k' and 'K' commands against the same
listener.  KTLS_HS_KEY names the server's identity key.  Output is KTAP.
"""

import ctypes
import errno
import os
import select
import socket
import struct
import subprocess
import sys
import time

import hs_hostile as hh
from hs_hostile import (ALERT, APPDATA, HANDSHAKE, SOL_TLS, TCP_ULP,
                        Handshake, Keys, check, expand_label)

KTLS_HS_IDENTITY = 100
KTLS_HS_START = 105
KTLS_HS_REKEY = 108
TLS_TX = 1
TLS_RX = 2
TLS_1_3_VERSION = 0x0304
TLS_CIPHER_AES_GCM_128 = 51

NOT_REQUESTED, REQUESTED = 0, 1


def key_update(request):
    return b"\x18\x00\x00\x01" + bytes([request])


def next_secret(secret):
    """application_traffic_secret_N+1 (RFC 8446 7.2)."""
    return expand_label(secret, b"traffic upd", b"", 32)


def tls_stat():
    with open("/proc/net/tls_stat") as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


def stat_delta(before, name):
    return tls_stat()[name] - before[name]


class Session:
    """A finished handshake: the raw client and the socket accept() gave."""

    def __init__(self, srv):
        self.c = srv.connect()
        h = Handshake(self.c)
        h.hello()
        if not h.server_flight():
            raise RuntimeError("no server flight")
        self.c.s.sendall(h.finished())
        self.a = srv.accept(10)
        if self.a is None:
            raise RuntimeError("accept() got nothing")
        self.a.settimeout(10)
        self.c_secret, self.s_secret = h.c_ap, h.s_ap
        self.tx = Keys(self.c_secret)
        self.rx = Keys(self.s_secret)

    def send(self, typ, data):
        self.c.s.sendall(self.tx.seal(typ, data))

    def client_update(self, request):
        """Our KeyUpdate under the old key; the next record under the new."""
        rec = self.tx.seal(HANDSHAKE, key_update(request))
        self.c_secret = next_secret(self.c_secret)
        self.tx = Keys(self.c_secret)
        return rec

    def follow_server(self):
        self.s_secret = next_secret(self.s_secret)
        self.rx = Keys(self.s_secret)

    def read(self):
        """(type, plaintext) of the server's next record, or (None, None)."""
        r = self.c.read_record()
        if not r:
            return None, None
        try:
            return self.rx.open(r[1], r[2])
        except Exception:
            return None, None

    def read_data(self, n):
        """n bytes of application data, following the server's KeyUpdates."""
        got, updates = b"", []
        while len(got) < n:
            typ, data = self.read()
            if typ == HANDSHAKE and len(data) == 5 and data[:4] == \
                    b"\x18\x00\x00\x01":
                updates.append(data[4])
                self.follow_server()
            elif typ == APPDATA:
                got += data
            else:
                break
        return got, updates

    def server_recv(self, n):
        got = b""
        while len(got) < n:
            data = self.a.recv(n - len(got))
            if not data:
                break
            got += data
        return got

    def close(self):
        self.a.close()
        self.c.close()


def test_not_requested(srv):
    """(a) The client's own KeyUpdate: followed, and not answered."""
    st = tls_stat()
    s = Session(srv)
    s.send(APPDATA, b"before")
    first = s.server_recv(6)
    # KeyUpdate and the next record in one segment: the second is framed
    # before the first is decrypted, and must still open with the new key.
    s.c.s.sendall(s.client_update(NOT_REQUESTED) +
                  s.tx.seal(APPDATA, b"after the update"))
    second = s.server_recv(16)
    s.a.sendall(b"server reply")
    typ, data = s.read()
    check("KeyUpdate(update_not_requested): server reads on under the new key",
          first == b"before" and second == b"after the update",
          f"{first!r} {second!r}")
    check("KeyUpdate(update_not_requested): server sends no KeyUpdate",
          typ == APPDATA and data == b"server reply", f"{typ} {data!r}")
    ok = (stat_delta(st, "TlsRxRekeyReceived") == 1 and
          stat_delta(st, "TlsRxRekeyOk") == 1 and
          stat_delta(st, "TlsTxRekeyOk") == 0)
    check("KeyUpdate(update_not_requested): rekey counters", ok,
          str(tls_stat()))
    s.close()


def test_requested(srv):
    """(b) update_requested: one answer, then the new key; data intact."""
    s = Session(srv)
    blob = os.urandom(100000)
    s.c.s.sendall(s.client_update(REQUESTED) + s.tx.seal(APPDATA, b"x"))
    got = s.server_recv(1)
    s.a.sendall(blob)
    back, updates = s.read_data(len(blob))
    check("KeyUpdate(update_requested): exactly one KeyUpdate answers it",
          updates == [NOT_REQUESTED], str(updates))
    check("KeyUpdate(update_requested): 100000 bytes identical after it",
          got == b"x" and back == blob, f"{got!r}, {len(back)} bytes")
    s.send(APPDATA, blob[:5000])
    check("KeyUpdate(update_requested): client data on the same key after",
          s.server_recv(5000) == blob[:5000])
    s.close()


def test_requested_open_record(srv):
    """The answer goes behind what the application left open (MSG_MORE)."""
    s = Session(srv)
    s.a.send(b"open ", socket.MSG_MORE)
    s.c.s.sendall(s.client_update(REQUESTED) + s.tx.seal(APPDATA, b"y"))
    got = s.server_recv(1)
    s.a.sendall(b"record")
    t1, d1 = s.read()
    t2, d2 = s.read()
    s.follow_server()
    t3, d3 = s.read()
    check("KeyUpdate(update_requested): open record sealed first, old key",
          got == b"y" and (t1, d1) == (APPDATA, b"open ") and
          (t2, d2) == (HANDSHAKE, key_update(NOT_REQUESTED)) and
          (t3, d3) == (APPDATA, b"record"),
          f"{(t1, d1)} {(t2, d2)} {(t3, d3)}")
    s.close()


def test_requested_flood(srv):
    """Many requests before the server writes: still one answer."""
    s = Session(srv)
    s.c.s.sendall(b"".join(s.client_update(REQUESTED) for _ in range(200)) +
                  s.tx.seal(APPDATA, b"z"))
    got = s.server_recv(1)
    s.a.sendall(b"reply")
    back, updates = s.read_data(5)
    s.a.sendall(b"again")
    back2, updates2 = s.read_data(5)
    check("200 KeyUpdate(update_requested): one answer, only when writing",
          got == b"z" and back == b"reply" and updates == [NOT_REQUESTED]
          and back2 == b"again" and updates2 == [],
          f"{updates} {updates2} {back!r} {back2!r}")
    s.close()


def test_split(srv, name, cuts, request, pause=False):
    """A KeyUpdate in pieces, one protected record each (RFC 8446 5.1),
    the data behind it under the new key in the last piece's segment:
    followed once, answered if asked, and everything after it read.

    @cuts: where the message is cut; @pause: the first piece alone, long
    enough for the kernel to take it before the rest comes."""
    st = tls_stat()
    s = Session(srv)
    m = key_update(request)
    bounds = (0, *cuts, len(m))
    recs = [s.tx.seal(HANDSHAKE, m[a:b]) for a, b in zip(bounds, bounds[1:])]
    s.c_secret = next_secret(s.c_secret)
    s.tx = Keys(s.c_secret)
    if pause:
        s.c.s.sendall(recs.pop(0))
        time.sleep(0.5)
    s.c.s.sendall(b"".join(recs) + s.tx.seal(APPDATA, b"after the split"))
    got = s.server_recv(15)
    s.a.sendall(b"reply")
    back, updates = s.read_data(5)
    s.send(APPDATA, b"and more")
    more = s.server_recv(8)
    want = [NOT_REQUESTED] if request == REQUESTED else []
    check(f"KeyUpdate split {name}: followed once, data after it read",
          got == b"after the split" and back == b"reply" and
          updates == want and more == b"and more" and
          stat_delta(st, "TlsRxRekeyReceived") == 1 and
          stat_delta(st, "TlsRxRekeyOk") == 1,
          f"{got!r} {back!r} {updates} {more!r} {tls_stat()}")
    s.close()


def test_sockopt(srv):
    """(c) KTLS_HS_REKEY: 0 updates ours, 1 also asks the client."""
    st = tls_stat()
    s = Session(srv)
    s.a.setsockopt(SOL_TLS, KTLS_HS_REKEY, struct.pack("i", 0))
    s.a.sendall(b"new key")
    back, updates = s.read_data(7)
    s.send(APPDATA, b"client on its old key")
    got = s.server_recv(21)
    check("KTLS_HS_REKEY 0: KeyUpdate(update_not_requested), then new key",
          updates == [NOT_REQUESTED] and back == b"new key" and
          got == b"client on its old key", f"{updates} {back!r} {got!r}")

    s.a.setsockopt(SOL_TLS, KTLS_HS_REKEY, struct.pack("i", 1))
    typ, data = s.read()
    ok = typ == HANDSHAKE and data == key_update(REQUESTED)
    s.follow_server()
    s.c.s.sendall(s.client_update(NOT_REQUESTED) +
                  s.tx.seal(APPDATA, b"client answered"))
    got = s.server_recv(15)
    s.a.sendall(b"third key")
    back, updates = s.read_data(9)
    check("KTLS_HS_REKEY 1: KeyUpdate(update_requested), client follows",
          ok and got == b"client answered" and back == b"third key" and
          updates == [], f"{typ} {data!r} {got!r} {back!r} {updates}")
    ok = (stat_delta(st, "TlsTxRekeyOk") == 2 and
          stat_delta(st, "TlsRxRekeyOk") == 1)
    check("KTLS_HS_REKEY: rekey counters", ok, str(tls_stat()))
    s.close()


def server_error(sock):
    try:
        data = sock.recv(100)
        return f"data {data!r}"
    except OSError as e:
        return e.errno


def break_stream(s, make):
    """A record the socket takes, then the records @make(s) seals: what
    the socket says after (what it read first, the errno of two reads and
    of a send, and the type and plaintext of the client's next record)."""
    s.send(APPDATA, b"fine")
    first = s.server_recv(4)
    s.c.s.sendall(b"".join(make(s)))
    errs = [server_error(s.a), server_error(s.a)]
    try:
        s.a.send(b"late")
        errs.append("sent")
    except OSError as e:
        errs.append(e.errno)
    return (first, *errs, *s.read())


def test_malformed(srv, name, payload, err, alert, more=(),
                   typ=HANDSHAKE, tamper=False):
    """(d) The socket fails with @err, the client gets @alert, no data.

    @more: (type, content) of records sealed behind @payload's.
    @tamper: the record's tag is broken (and @payload never seen)."""
    def records(s):
        recs = [s.tx.seal(typ, payload)]
        if tamper:
            recs[0] = hh.tamper(recs[0])
        recs += [s.tx.seal(t, d) for t, d in more]
        return recs + [s.tx.seal(APPDATA, b"never read")]

    s = Session(srv)
    first, e1, e2, e3, rtyp, data = break_stream(s, records)
    got_alert = data[1] if rtyp == ALERT and len(data) == 2 else None
    check(f"{name}: {errno.errorcode[err]}, "
          f"{alert}",
          first == b"fine" and e1 == err and e2 == err and e3 == err and
          got_alert == hh.ALERTS[alert],
          f"recv {e1} then {e2}, send {e3}, client got {rtyp} {data!r}")
    s.close()


def test_misuse(srv):
    """(e) KTLS_HS_REKEY where it does not apply, or with a bad value."""
    s = Session(srv)
    results = []
    for val in (struct.pack("i", 2), struct.pack("i", -1),
                struct.pack("q", 0), b"\x00"):
        try:
            s.a.setsockopt(SOL_TLS, KTLS_HS_REKEY, val)
            results.append(0)
        except OSError as e:
            results.append(e.errno)
    try:
        s.a.getsockopt(SOL_TLS, KTLS_HS_REKEY, 4)
        results.append(0)
    except OSError as e:
        results.append(e.errno)
    for opt in (TLS_TX, TLS_RX):
        try:
            s.a.setsockopt(SOL_TLS, opt, user_keys())
            results.append(0)
        except OSError as e:
            results.append(e.errno)
    check("KTLS_HS_REKEY: bad value or length EINVAL, getsockopt ENOPROTOOPT;"
          " TLS_TX/TLS_RX from userspace EACCES",
          results == [errno.EINVAL] * 4 + [errno.ENOPROTOOPT] +
          [errno.EACCES] * 2, str(results))
    # The socket still works after all that.
    s.a.setsockopt(SOL_TLS, KTLS_HS_REKEY, struct.pack("i", 0))
    s.a.sendall(b"still fine")
    back, updates = s.read_data(10)
    check("KTLS_HS_REKEY: the socket works after refused calls",
          back == b"still fine" and updates == [NOT_REQUESTED])
    s.close()

    def rekey_errno(sock):
        try:
            sock.setsockopt(SOL_TLS, KTLS_HS_REKEY, struct.pack("i", 0))
            return 0
        except OSError as e:
            return e.errno

    got = {"listener": rekey_errno(srv.ls)}
    a, b = tcp_pair()
    a.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
    got["no keys"] = rekey_errno(a)
    a.setsockopt(SOL_TLS, TLS_TX, user_keys())
    got["userspace keys"] = rekey_errno(a)
    a.close()
    b.close()

    a, b = tcp_pair()
    a.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
    a.setsockopt(SOL_TLS, KTLS_HS_IDENTITY,
                 struct.pack("i", int(os.environ["KTLS_HS_KEY"])))
    a.setsockopt(SOL_TLS, KTLS_HS_START, None, 0)
    got["handshake running"] = rekey_errno(a)
    a.close()
    b.close()
    want = {"listener": errno.EOPNOTSUPP, "no keys": errno.EOPNOTSUPP,
            "userspace keys": errno.EOPNOTSUPP,
            "handshake running": errno.EINPROGRESS}
    check("KTLS_HS_REKEY: EOPNOTSUPP without kernel keys, EINPROGRESS early",
          got == want, str(got))


def user_keys():
    """struct tls12_crypto_info_aes_gcm_128 for TLS 1.3, all zero."""
    return struct.pack("HH", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128) + \
        bytes(8 + 16 + 4 + 8)


def tcp_pair():
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    b = socket.create_connection(ls.getsockname())
    a = ls.accept()[0]
    ls.close()
    return a, b


def test_s_client(srv):
    """openssl s_client's 'k' and 'K' commands against the armed listener."""
    st = tls_stat()
    p = subprocess.Popen(["openssl", "s_client", "-connect",
                          f"127.0.0.1:{srv.port}", "-tls1_3", "-quiet",
                          "-no_ign_eof"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    a = srv.accept(20)
    ok = a is not None
    lines = []
    if a:
        a.settimeout(20)

        def line():
            data = b""
            while not data.endswith(b"\n"):
                chunk = a.recv(100)
                if not chunk:
                    break
                data += chunk
            return data

        for cmd in (b"one\n", b"k\n", b"two\n", b"K\n", b"three\n"):
            p.stdin.write(cmd)
            p.stdin.flush()
            if cmd in (b"k\n", b"K\n"):
                # s_client takes a command only as a read of its own.
                time.sleep(0.5)
            else:
                lines.append(line())
        a.sendall(b"after K\n")
        r, _, _ = select.select([p.stdout], [], [], 20)
        reply = p.stdout.readline() if r else b""
        a.close()
    p.stdin.close()
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    check("openssl s_client 'k' and 'K': data both ways across its updates",
          ok and lines == [b"one\n", b"two\n", b"three\n"] and
          reply == b"after K\n" and
          stat_delta(st, "TlsRxRekeyOk") == 2 and
          stat_delta(st, "TlsTxRekeyOk") == 1,
          f"{lines} {reply!r} {tls_stat()}")


def main():
    srv = hh.Server(int(os.environ["KTLS_HS_KEY"]))
    print("TAP version 13")
    print("1..27")
    test_not_requested(srv)
    test_requested(srv)
    test_requested_open_record(srv)
    test_requested_flood(srv)
    test_split(srv, "2 + 3, the first piece taken alone", (2,), REQUESTED,
               pause=True)
    test_split(srv, "into five 1-byte records", (1, 2, 3, 4), NOT_REQUESTED)
    test_split(srv, "header and body apart", (4,), REQUESTED)
    test_sockopt(srv)
    bad = "malformed KeyUpdate, "
    test_malformed(srv, bad + "length 0", b"\x18\x00\x00\x00",
                   errno.EBADMSG, "decode_error")
    test_malformed(srv, bad + "length 2", b"\x18\x00\x00\x02\x00\x00",
                   errno.EBADMSG, "decode_error")
    test_malformed(srv, bad + "request_update 2", key_update(2),
                   errno.EBADMSG, "illegal_parameter")
    test_malformed(srv, bad + "two in one record",
                   key_update(0) + key_update(0), errno.EPROTO,
                   "unexpected_message")
    test_malformed(srv, bad + "behind another handshake message",
                   b"\x14\x00\x00\x00" + key_update(0), errno.EPROTO,
                   "unexpected_message")
    test_malformed(srv, bad + "application data between its pieces",
                   b"\x18\x00", errno.EPROTO, "unexpected_message",
                   more=((APPDATA, b"between"), (HANDSHAKE, b"\x00\x01\x00")))
    test_malformed(srv, bad + "split, its last piece goes on past it",
                   b"\x18\x00\x00", errno.EPROTO, "unexpected_message",
                   more=((HANDSHAKE, b"\x01\x00\x18"),))
    test_malformed(srv, "NewSessionTicket from the client",
                   b"\x04\x00\x00\x05" + bytes(5), errno.EPROTO,
                   "unexpected_message")
    test_malformed(srv, "a record that fails authentication",
                   b"tampered" * 100, errno.EBADMSG, "bad_record_mac",
                   typ=APPDATA, tamper=True)
    test_misuse(srv)
    test_s_client(srv)
    time.sleep(0.1)
    srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
