#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""TLS 1.3 session tickets and resumption by the kernel handshake.

A raw client (the helpers of hs_hostile.py) takes the NewSessionTicket
the kernel sends after the handshake, then resumes with it (psk_dhe_ke,
RFC 8446 4.2.11): no Certificate, KTLS_HS_SESSION says resumed, data
flows both ways with the record layer counting from the ticket's
record.  Tickets that must not resume get a full handshake: altered,
expired, of a rotated-out key, of another key group, under another
server_name, with a wrong age, or offered for psk_ke only.  A wrong
binder gets decrypt_error.  Every bad KTLS_HS_TICKETS argument gets its
errno, those of an operator's ticket keys (KTLS_HS_TICKETS_KEYRING)
too.  Then openssl s_client -sess_out/-sess_in, gnutls-cli --resume and
curl where installed.  KTLS_HS_KEY names the server's identity key and
KTLS_HS_CA the CA file.  Output is KTAP.
"""

import errno
import hashlib
import hmac
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey, X25519PublicKey)
from cryptography.hazmat.primitives.serialization import (
    Encoding, PublicFormat)

import hs_hostile as hh
from hs_hostile import (ALERTS, APPDATA, CCS, HANDSHAKE, SOL_TLS, Conn,
                        Keys, check, derive, expand_label, ext,
                        hkdf_extract, record, u16, vec8, vec16)

KTLS_HS_GROUPS = 102
KTLS_HS_GROUP_SECP256R1 = 2
KTLS_HS_SESSION = 106
KTLS_HS_TICKETS = 111
KTLS_HS_TICKET_ROTATE = 112
KEYRING = 1  # KTLS_HS_TICKETS_KEYRING
WEEK = 7 * 24 * 3600
SESSION_INFO_LEN = 2 + 2 + 2 + 1 + 1 + 256 + 256


def tickets(lifetime, group=0, rotate=0, flags=0):
    return struct.pack("IIII", lifetime, group, rotate, flags)


class Server(hh.Server):
    """An armed listener issuing tickets."""

    def __init__(self, key, lifetime=3600, group=0, port=0, reuseport=False,
                 groups=0):
        self.ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if reuseport:
            self.ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self.ls.bind(("127.0.0.1", port))
        self.ls.listen(64)
        self.ls.setsockopt(socket.IPPROTO_TCP, hh.TCP_ULP, b"ktls_hs")
        self.ls.setsockopt(SOL_TLS, hh.KTLS_HS_IDENTITY,
                           struct.pack("i", key))
        self.ls.setsockopt(SOL_TLS, hh.KTLS_HS_TIMEOUT,
                           struct.pack("I", 3000))
        if groups:
            self.ls.setsockopt(SOL_TLS, KTLS_HS_GROUPS,
                               struct.pack("I", groups))
        if lifetime:
            self.ls.setsockopt(SOL_TLS, KTLS_HS_TICKETS,
                               tickets(lifetime, group))
        self.port = self.ls.getsockname()[1]

    def rotate(self):
        self.ls.setsockopt(SOL_TLS, KTLS_HS_TICKET_ROTATE, b"")


def resumed(sock):
    info = sock.getsockopt(SOL_TLS, KTLS_HS_SESSION, SESSION_INFO_LEN)
    return info[6]


class Ticket:
    def __init__(self, lifetime, age_add, nonce, ticket, res_master):
        self.lifetime, self.age_add = lifetime, age_add
        self.ticket = ticket
        self.psk = expand_label(res_master, b"resumption", nonce, 32)
        self.received = time.monotonic()


def parse_nst(msg):
    lifetime, age_add = struct.unpack(">II", msg[4:12])
    n = msg[12]
    nonce = msg[13:13 + n]
    off = 13 + n
    tlen = struct.unpack(">H", msg[off:off + 2])[0]
    return lifetime, age_add, nonce, msg[off + 2:off + 2 + tlen]


def sh_extensions(sh):
    off = 4 + 2 + 32
    off += 1 + sh[off]
    off += 3
    end = off + 2 + struct.unpack(">H", sh[off:off + 2])[0]
    off += 2
    exts = {}
    while off + 4 <= end:
        typ, n = struct.unpack(">HH", sh[off:off + 4])
        exts[typ] = sh[off + 4:off + 4 + n]
        off += 4 + n
    return exts


class Client:
    """A 1-RTT client, resuming when given a ticket."""

    def __init__(self, port, sni=b"www.example.test"):
        self.c = Conn(port)
        self.priv = X25519PrivateKey.generate()
        self.pub = self.priv.public_key().public_bytes(Encoding.Raw,
                                                       PublicFormat.Raw)
        self.sni = sni
        self.psk = None
        self.types = []

    def hello(self, ticket=None, modes=b"\x01", age_skew=0, bad_binder=False,
              identity=None):
        exts = [
            ext(43, vec8(u16(0x0304))),
            ext(10, vec16(u16(0x001d))),
            ext(13, vec16(u16(0x0403))),
            ext(51, vec16(u16(0x001d) + vec16(self.pub))),
        ]
        if self.sni:
            exts.append(ext(0, vec16(b"\x00" + vec16(self.sni))))
        if ticket:
            exts.append(ext(45, vec8(modes)))
            age = int((time.monotonic() - ticket.received) * 1000)
            obf = (age + age_skew + ticket.age_add) & 0xffffffff
            ident = identity if identity is not None else ticket.ticket
            ids = vec16(vec16(ident) + struct.pack(">I", obf))
            # Binders: one of 32 bytes, filled in below.
            psk_ext = ext(41, ids + vec16(vec8(b"\x00" * 32)))
            exts.append(psk_ext)
        ch = hh.client_hello(exts)
        if ticket:
            self.psk = ticket.psk
            early = hkdf_extract(b"\x00" * 32, self.psk)
            bkey = expand_label(derive(early, b"res binder", b""),
                                b"finished", b"", 32)
            trunc = ch[:len(ch) - 2 - 1 - 32]
            binder = hmac.new(bkey, hashlib.sha256(trunc).digest(),
                              hashlib.sha256).digest()
            if bad_binder:
                binder = bytes([binder[0] ^ 1]) + binder[1:]
            ch = trunc + vec16(vec8(binder))
        self.transcript = ch
        self.c.s.sendall(record(HANDSHAKE, ch, 0x0301))

    def server_flight(self):
        """ServerHello .. Finished; returns the ServerHello's extensions."""
        r = self.c.read_record()
        if not r or r[0] != HANDSHAKE or r[2][0] != 2:
            return None
        sh = r[2]
        self.transcript += sh
        exts = sh_extensions(sh)
        self.psk_taken = 41 in exts
        peer = X25519PublicKey.from_public_bytes(exts[51][4:36])
        shared = self.priv.exchange(peer)
        psk = self.psk if self.psk_taken else b"\x00" * 32
        early = hkdf_extract(b"\x00" * 32, psk)
        hs = hkdf_extract(derive(early, b"derived", b""), shared)
        self.c_hs = derive(hs, b"c hs traffic", self.transcript)
        s_hs = derive(hs, b"s hs traffic", self.transcript)
        self.master = hkdf_extract(derive(hs, b"derived", b""), b"\x00" * 32)
        rx, self.tx = Keys(s_hs), Keys(self.c_hs)
        msgs = b""
        while True:
            r = self.c.read_record()
            if not r:
                return None
            if r[0] == CCS:
                continue
            typ, data = rx.open(r[1], r[2])
            msgs += data
            while len(msgs) >= 4:
                n = int.from_bytes(msgs[1:4], "big")
                if len(msgs) < 4 + n:
                    break
                self.types.append(msgs[0])
                self.transcript += msgs[:4 + n]
                t, msgs = msgs[0], msgs[4 + n:]
                if t == 20:
                    self.s_ap = derive(self.master, b"s ap traffic",
                                       self.transcript)
                    self.c_ap = derive(self.master, b"c ap traffic",
                                       self.transcript)
                    return exts

    def finish(self):
        key = expand_label(self.c_hs, b"finished", b"", 32)
        vd = hmac.new(key, hashlib.sha256(self.transcript).digest(),
                      hashlib.sha256).digest()
        fin = b"\x14" + (32).to_bytes(3, "big") + vd
        self.transcript += fin
        self.c.s.sendall(self.tx.seal(HANDSHAKE, fin))
        self.res_master = derive(self.master, b"res master", self.transcript)
        self.rx_ap = Keys(self.s_ap)
        self.tx_ap = Keys(self.c_ap)

    def ticket(self):
        """The NewSessionTicket that follows the handshake."""
        r = self.c.read_record()
        if not r or r[0] != APPDATA:
            return None
        typ, data = self.rx_ap.open(r[1], r[2])
        if typ != HANDSHAKE or data[0] != 4:
            return None
        return Ticket(*parse_nst(data), self.res_master)

    def close(self):
        self.c.close()


def handshake(srv, ticket=None, **kw):
    """A handshake to accept(); (client, accepted socket, SH extensions)."""
    cl = Client(srv.port, **{k: v for k, v in kw.items() if k == "sni"})
    cl.hello(ticket, **{k: v for k, v in kw.items() if k != "sni"})
    exts = cl.server_flight()
    if exts is None:
        cl.close()
        return None, None, None
    cl.finish()
    a = srv.accept(10)
    return cl, a, exts


def first_ticket(srv, **kw):
    cl, a, _ = handshake(srv, **kw)
    if not a:
        return None
    t = cl.ticket()
    a.close()
    cl.close()
    return t


def expect_full(srv, name, ticket, **kw):
    """The handshake with @ticket must be a full one, and succeed."""
    cl, a, exts = handshake(srv, ticket, **kw)
    ok = (a is not None and 41 not in exts and 11 in cl.types and
          resumed(a) == 0)
    check(f"{name}: full handshake", ok,
          f"accepted {a is not None}, types {cl.types if cl else None}")
    if a:
        a.close()
    if cl:
        cl.close()


def test_ticket_and_resume(key):
    srv = Server(key, lifetime=600)
    cl, a, exts = handshake(srv)
    if not a:
        check("full handshake with tickets on", False, "not accepted")
        return None
    t = cl.ticket()
    check("NewSessionTicket after the handshake, lifetime 600",
          t is not None and t.lifetime == 600 and resumed(a) == 0)
    # The record layer counts from the ticket's record on.
    a.sendall(b"after the ticket")
    r = cl.c.read_record()
    typ, data = cl.rx_ap.open(r[1], r[2]) if r else (None, None)
    cl.c.s.sendall(cl.tx_ap.seal(APPDATA, b"from the client"))
    got = a.recv(100)
    check("application data both ways after the ticket",
          typ == APPDATA and data == b"after the ticket" and
          got == b"from the client", f"{data!r} {got!r}")
    a.close()
    cl.close()
    if not t:
        return None

    cl, a, exts = handshake(srv, t)
    ok = (a is not None and exts.get(41) == b"\x00\x00" and
          11 not in cl.types and 15 not in cl.types and resumed(a) == 1)
    check("resumed: pre_shared_key 0, no Certificate, KTLS_HS_SESSION resumed",
          ok, f"types {cl.types}")
    if a:
        t2 = cl.ticket()
        a.sendall(b"resumed data")
        r = cl.c.read_record()
        typ, data = cl.rx_ap.open(r[1], r[2]) if r else (None, None)
        check("resumed session: a new ticket, then data",
              t2 is not None and data == b"resumed data", repr(data))
        a.close()
    cl.close()

    # Stateless: the same ticket again (no early data, so no replay harm).
    cl, a, exts = handshake(srv, t)
    check("a ticket resumes more than once", a is not None and
          41 in exts and resumed(a) == 1)
    if a:
        a.close()
    if cl:
        cl.close()

    # A wrong binder: decrypt_error, never accepted.
    before = srv.stats()
    cl = Client(srv.port)
    cl.hello(t, bad_binder=True)
    alert = cl.c.plain_alert()
    after = srv.stats()
    check("wrong binder: decrypt_error",
          alert == ALERTS["decrypt_error"] and
          after["failed"] == before["failed"] + 1 and srv.accept(0) is None,
          f"alert {alert}")
    cl.close()

    bad = bytearray(t.ticket)
    bad[len(bad) // 2] ^= 0x40
    expect_full(srv, "altered ticket", t, identity=bytes(bad))
    expect_full(srv, "truncated ticket", t, identity=t.ticket[:-1])
    expect_full(srv, "psk_ke only", t, modes=b"\x00")
    expect_full(srv, "another server_name", t, sni=b"other.example.test")
    expect_full(srv, "no server_name", t, sni=None)
    expect_full(srv, "ticket age 60 s ahead", t, age_skew=60000)
    expect_full(srv, "ticket age 60 s behind", t, age_skew=-60000)

    # One rotation keeps the previous key, two do not.
    srv.rotate()
    cl, a, exts = handshake(srv, t)
    check("after one rotation the ticket still resumes",
          a is not None and 41 in exts)
    if a:
        a.close()
    if cl:
        cl.close()
    srv.rotate()
    expect_full(srv, "ticket of a rotated-out key", t)
    st = struct.unpack("QQQQII", srv.ls.getsockopt(SOL_TLS, hh.KTLS_HS_STATS,
                                                   40))
    check("KTLS_HS_STATS: 3 resumed of 12 completed, 1 failed",
          st[5] == 3 and st[0] == 12 and st[1] == 1, str(st))
    srv.ls.close()
    return t


def test_expiry(key):
    srv = Server(key, lifetime=1)
    t = first_ticket(srv)
    time.sleep(1.5)
    expect_full(srv, "expired ticket", t)
    srv.ls.close()


def test_groups(key):
    group = 0x6b746c73
    a = Server(key, group=group)
    b = Server(key, group=group)
    c = Server(key, group=group + 1)
    d = Server(key)
    t = first_ticket(a)
    cl, s, exts = handshake(b, t)
    check("a listener of the same key group resumes the ticket",
          s is not None and 41 in exts and resumed(s) == 1)
    for x in (s, cl):
        if x:
            x.close()
    expect_full(c, "listener of another key group", t)
    expect_full(d, "listener with keys of its own", t)

    # SO_REUSEPORT listeners of one port in one group, as workers do.
    r1 = Server(key, group=group + 2, reuseport=True)
    r2 = Server(key, group=group + 2, port=r1.port, reuseport=True)
    t = first_ticket(r1) or first_ticket(r2)
    n = 0
    for _ in range(8):
        cl = Client(r1.port)
        cl.hello(t)
        exts = cl.server_flight()
        if exts is not None:
            cl.finish()
            n += 41 in exts
        got = r1.accept(0.5) or r2.accept(0.5)
        if got:
            got.close()
        cl.close()
    check("SO_REUSEPORT listeners of one group resume each other's", n == 8,
          f"{n}/8 resumed")
    for srv in (a, b, c, d, r1, r2):
        srv.ls.close()


def expect_errno(name, fn, err):
    try:
        fn()
        got = 0
    except OSError as e:
        got = e.errno
    check(f"{name}: {errno.errorcode.get(err, err)}", got == err,
          f"got {errno.errorcode.get(got, got)}")


def test_sockopt_keyring(key, srv, set_t):
    """KTLS_HS_TICKETS_KEYRING: key_group is a ktls_tickets key's serial."""
    s = srv.ls
    payload = b"current 7 " + b"ab" * 32 + b"\n"
    fleet = int(subprocess.run(
        ["keyctl", "padd", "ktls_tickets", "ktls-hs-test-resume", "@u"],
        input=payload, capture_output=True, check=True).stdout)
    try:
        expect_errno("operator keys: serial 0",
                     lambda: set_t(tickets(60, 0, flags=KEYRING)),
                     errno.EINVAL)
        expect_errno("operator keys: lifetime 0",
                     lambda: set_t(tickets(0, fleet, flags=KEYRING)),
                     errno.EINVAL)
        expect_errno("operator keys: a rotation period",
                     lambda: set_t(tickets(60, fleet, 60, KEYRING)),
                     errno.EINVAL)
        expect_errno("operator keys: a key of another type",
                     lambda: set_t(tickets(60, key, flags=KEYRING)),
                     errno.EINVAL)
        set_t(tickets(60, fleet, flags=KEYRING))
        check("operator keys: read back with the flag",
              s.getsockopt(SOL_TLS, KTLS_HS_TICKETS, 16) ==
              tickets(60, fleet, 0, KEYRING))
        expect_errno("KTLS_HS_TICKET_ROTATE on operator keys", srv.rotate,
                     errno.EOPNOTSUPP)
    finally:
        subprocess.run(["keyctl", "invalidate", str(fleet)], check=False)
    expect_errno("operator keys: a key that is gone",
                 lambda: set_t(tickets(60, fleet, flags=KEYRING)),
                 errno.ENOKEY)


def test_sockopt(key):
    srv = Server(key, lifetime=0)
    s = srv.ls
    got = s.getsockopt(SOL_TLS, KTLS_HS_TICKETS, 16)
    check("KTLS_HS_TICKETS default: off", got == tickets(0))
    expect_errno("KTLS_HS_TICKET_ROTATE without tickets",
                 srv.rotate, errno.ENOENT)
    set_t = lambda v: s.setsockopt(SOL_TLS, KTLS_HS_TICKETS, v)
    expect_errno("KTLS_HS_TICKETS short", lambda: set_t(b"\x00" * 12),
                 errno.EINVAL)
    expect_errno("KTLS_HS_TICKETS long", lambda: set_t(b"\x00" * 20),
                 errno.EINVAL)
    expect_errno("lifetime over 7 days", lambda: set_t(tickets(WEEK + 1)),
                 errno.EINVAL)
    expect_errno("rotation over 7 days",
                 lambda: set_t(tickets(60, rotate=WEEK + 1)), errno.EINVAL)
    expect_errno("an unknown flag", lambda: set_t(tickets(60, flags=2)),
                 errno.EINVAL)
    expect_errno("a group with lifetime 0", lambda: set_t(tickets(0, 5)),
                 errno.EINVAL)
    test_sockopt_keyring(key, srv, set_t)
    set_t(tickets(WEEK, 77, 3600))
    check("KTLS_HS_TICKETS reads back",
          s.getsockopt(SOL_TLS, KTLS_HS_TICKETS, 16) ==
          tickets(WEEK, 77, 3600))
    other = Server(key, lifetime=0)
    expect_errno("group 77 with another rotation period",
                 lambda: other.ls.setsockopt(SOL_TLS, KTLS_HS_TICKETS,
                                             tickets(60, 77, 60)),
                 errno.EBUSY)
    expect_errno("KTLS_HS_TICKET_ROTATE with an argument",
                 lambda: s.setsockopt(SOL_TLS, KTLS_HS_TICKET_ROTATE,
                                      b"\x00" * 4), errno.EINVAL)
    expect_errno("getsockopt KTLS_HS_TICKET_ROTATE",
                 lambda: s.getsockopt(SOL_TLS, KTLS_HS_TICKET_ROTATE, 4),
                 errno.ENOPROTOOPT)
    srv.rotate()
    set_t(tickets(0))
    check("lifetime 0 turns tickets off",
          s.getsockopt(SOL_TLS, KTLS_HS_TICKETS, 16) == tickets(0))
    other.ls.close()
    s.close()


def serve_one(srv, timeout=60):
    """Accept one connection, answer it, report whether it was resumed."""
    a = srv.accept(timeout)
    if not a:
        return None
    r = resumed(a)
    a.settimeout(5)
    try:
        a.recv(4096)
    except OSError:
        pass
    a.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 6\r\n\r\nhello\n")
    a.close()
    return r


def background(cmd, stdin=b""):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    p.stdin.write(stdin)
    p.stdin.close()
    return p


def finish(p):
    # stdin is closed already: wait, then read (the output is a few KB).
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    return p.stdout.read().decode(errors="replace")


def test_clients(key, ca):
    srv = Server(key)
    tmp = tempfile.mkdtemp()
    sess = os.path.join(tmp, "sess.pem")
    req = b"GET / HTTP/1.0\r\n\r\n"
    ossl = ["openssl", "s_client", "-connect", f"127.0.0.1:{srv.port}",
            "-tls1_3", "-CAfile", ca, "-servername", "www.example.test",
            "-ign_eof"]
    p = background(ossl + ["-sess_out", sess], req)
    r1 = serve_one(srv)
    out1 = finish(p)
    p = background(ossl + ["-sess_in", sess], req)
    r2 = serve_one(srv)
    out2 = finish(p)
    check("openssl s_client -sess_out then -sess_in: Reused",
          r1 == 0 and r2 == 1 and "New, TLSv1.3" in out1 and
          "Reused, TLSv1.3" in out2,
          f"resumed {r1} {r2}: " + out2[-300:].replace("\n", " | "))

    # After a HelloRetryRequest the binder covers it (RFC 8446 4.2.11.2):
    # a listener taking P-256 only, a client sending an X25519 share.
    hrr = Server(key, groups=KTLS_HS_GROUP_SECP256R1)
    ossl_hrr = [a if a != f"127.0.0.1:{srv.port}" else f"127.0.0.1:{hrr.port}"
                for a in ossl] + ["-groups", "X25519:P-256"]
    p = background(ossl_hrr + ["-sess_out", sess], req)
    r1 = serve_one(hrr)
    out1 = finish(p)
    p = background(ossl_hrr + ["-sess_in", sess], req)
    r2 = serve_one(hrr)
    out2 = finish(p)
    check("openssl s_client after a HelloRetryRequest: Reused",
          r1 == 0 and r2 == 1 and "Reused, TLSv1.3" in out2,
          f"resumed {r1} {r2}: " + out2[-300:].replace("\n", " | "))
    hrr.ls.close()

    # Two downloads on one handle: the second connection resumes.
    url = f"https://www.example.test:{srv.port}/"
    p = background(["curl", "-sS", "--cacert", ca, "--resolve",
                    f"www.example.test:{srv.port}:127.0.0.1", url, url])
    r1 = serve_one(srv)
    r2 = serve_one(srv)
    out = finish(p)
    check("curl, two requests on one handle: the second resumed",
          r1 == 0 and r2 == 1 and out.count("hello") == 2,
          f"resumed {r1} {r2}: " + out[-300:].replace("\n", " | "))

    # Without --waitresumption gnutls-cli waits for the NewSessionTicket
    # only its round-trip estimate plus 60 ms before it gives up on
    # resuming: a loaded host is slower than that, whatever the server.
    if shutil.which("gnutls-cli"):
        p = background(["gnutls-cli", "--x509cafile", ca, "--resume",
                        "--waitresumption",
                        "--priority", "NORMAL:-VERS-ALL:+VERS-TLS1.3",
                        "-p", str(srv.port),
                        "--sni-hostname", "www.example.test",
                        "--verify-hostname", "www.example.test",
                        "127.0.0.1"])
        r1 = serve_one(srv)
        r2 = serve_one(srv)
        out = finish(p)
        check("gnutls-cli --resume: resumed",
              r1 == 0 and r2 == 1 and "This is a resumed session" in out,
              f"resumed {r1} {r2}: " + out[-300:].replace("\n", " | "))
    shutil.rmtree(tmp)
    srv.ls.close()


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    ca = os.environ["KTLS_HS_CA"]
    print("TAP version 13")
    test_ticket_and_resume(key)
    test_expiry(key)
    test_groups(key)
    test_sockopt(key)
    test_clients(key, ca)
    print(f"1..{len(hh.RESULTS)}")
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
