#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""TLS 1.2 session tickets (RFC 5077) and resumption by the kernel handshake.

A raw TLS 1.2 client (the helpers of hs_tls12_hostile.py) asks for a
ticket with an empty session_ticket extension: the ServerHello
acknowledges it and a NewSessionTicket comes before the server's
ChangeCipherSpec, inside the Finished transcript.  It then resumes:
the ServerHello echoes its session id, no Certificate, the server's
ChangeCipherSpec and Finished at once, keys from the ticket's master
secret and the new randoms, data both ways through the kTLS socket, and
KTLS_HS_SESSION and KTLS_HS_STATS count it as resumed.  Tickets that
must not resume get a full handshake: altered, truncated, expired, of a
rotated-out key, of another key group, of another identity, under
another server_name, for a suite the client no longer offers, a TLS 1.3
ticket, on a listener without tickets.  A session with the extended
master secret offered without it gets handshake_failure (RFC 7627 5.3),
a wrong resumed Finished decrypt_error.  Then openssl s_client
-sess_out/-sess_in for each suite and gnutls-cli --resume over TLS 1.2;
curl, which offers no ticket in TLS 1.2, gets full handshakes.  KTLS_HS_KEY, KTLS_HS_KEY2 (another identity for the same name) and
KTLS_HS_CA come from hs_tls12_resume.sh.  Output is KTAP.
"""

import os
import shutil
import struct
import sys
import tempfile
import time

import hs_hostile as hh
import hs_resume as hr
from hs_hostile import ALERT, APPDATA, CCS, HANDSHAKE, Conn, check
from hs_hostile import record
from hs_tls12_hostile import (SUITE, Gcm12, Handshake12, client_hello, prf,
                               std_exts)

KTLS_HS_VERSIONS = 109
KTLS_HS_EMS_OPTIONAL = 110
EXT_SESSION_TICKET = 35
SNI = b"www.example.test"
ALERTS = hh.ALERTS


class Server(hr.Server):
    """A listener speaking TLS 1.2 and 1.3, issuing tickets."""

    def __init__(self, key, ems_optional=False, **kw):
        super().__init__(key, **kw)
        self.ls.setsockopt(hh.SOL_TLS, KTLS_HS_VERSIONS, struct.pack("I", 3))
        if ems_optional:
            self.ls.setsockopt(hh.SOL_TLS, KTLS_HS_EMS_OPTIONAL,
                               struct.pack("i", 1))

    def resumed_count(self):
        raw = self.ls.getsockopt(hh.SOL_TLS, hh.KTLS_HS_STATS, 40)
        return struct.unpack("QQQQII", raw)[5]


def sh_fields(sh):
    """(session id, suite, extensions) of a TLS 1.2 ServerHello."""
    n = sh[38]
    sid = sh[39:39 + n]
    off = 39 + n
    suite = struct.unpack(">H", sh[off:off + 2])[0]
    off += 3
    exts = {}
    if off + 2 <= len(sh):
        end = off + 2 + struct.unpack(">H", sh[off:off + 2])[0]
        off += 2
        while off + 4 <= end:
            typ, m = struct.unpack(">HH", sh[off:off + 4])
            exts[typ] = sh[off + 4:off + 4 + m]
            off += 4 + m
    return sid, suite, exts


class Client12(Handshake12):
    """A TLS 1.2 client that takes tickets and resumes with them."""

    def __init__(self, port, ems=True):
        super().__init__(Conn(port), ems=ems)
        self.types = []

    def hello12(self, ticket=None, sid=b"", sni=SNI, ems=True,
                suites=(SUITE,)):
        ch = client_hello(std_exts(ems=ems, sni=sni, ticket=ticket),
                          suites, sid)
        self.client_random = ch[6:38]
        self.transcript = ch
        self.sid = sid
        self.c.s.sendall(record(HANDSHAKE, ch, 0x0301))

    def server_hello(self):
        sh = self.next_msg()
        if not sh or sh[0] != 2:
            return None
        self.server_random = sh[6:38]
        self.transcript += sh
        self.sh = sh_fields(sh)
        return self.sh

    def server_flight_rest(self):
        """Certificate, ServerKeyExchange, ServerHelloDone after the hello."""
        msgs = [self.next_msg() for _ in range(3)]
        if None in msgs or [m[0] for m in msgs] != [11, 12, 14]:
            return False
        self.types += [11, 12, 14]
        self.transcript += b"".join(msgs)
        body = msgs[1][4:]
        self.server_point = body[4:4 + body[3]]
        return True

    def keys(self, master):
        self.master = master
        kb = prf(master, b"key expansion",
                 self.server_random + self.client_random, 40)
        self.tx = Gcm12(kb[0:16], kb[32:36])
        self.rx = Gcm12(kb[16:32], kb[36:40])

    def resumed_finished(self, corrupt=False):
        return record(CCS, b"\x01") + self.finished(corrupt)

    def close(self):
        self.c.close()


def full12(srv, name):
    """A full handshake asking for a ticket, which must come."""
    cl = Client12(srv.port)
    cl.hello12(ticket=b"")
    sh = cl.server_hello()
    ok = sh is not None and cl.server_flight_rest()
    if ok:
        cl.c.s.sendall(cl.key_exchange() + record(CCS, b"\x01") +
                       cl.finished())
        ok = cl.server_finished()
    a = srv.accept(5) if ok else None
    check(name, ok and a is not None and hr.resumed(a) == 0 and
          sh[0] == b"" and sh[2].get(EXT_SESSION_TICKET) == b"" and
          cl.ticket is not None and cl.hint == 600,
          f"flight {ok}, accepted {a is not None}, sh {sh}, "
          f"hint {cl.hint}")
    if a:
        a.close()
    cl.close()


def resume12(srv, master, ticket, sid=b"\x5a" * 32, **kw):
    """A resumption; (client, accepted socket) or (client, None)."""
    cl = Client12(srv.port)
    cl.hello12(ticket=ticket, sid=sid, **kw)
    sh = cl.server_hello()
    if sh is None or sh[0] != sid or 11 in cl.types:
        return cl, None
    cl.keys(master)
    if not cl.server_finished():
        return cl, None
    cl.c.s.sendall(cl.resumed_finished())
    return cl, srv.accept(5)


def take_session(srv, **kw):
    """A full handshake that leaves (master secret, ticket)."""
    cl = Client12(srv.port)
    cl.hello12(ticket=b"", **kw)
    if cl.server_hello() is None or not cl.server_flight_rest():
        return None, None
    cl.c.s.sendall(cl.key_exchange() + record(CCS, b"\x01") + cl.finished())
    ok = cl.server_finished()
    a = srv.accept(5)
    if a:
        a.close()
    cl.close()
    return (cl.master, cl.ticket) if ok else (None, None)


def expect_full(srv, name, master, ticket, **kw):
    """The hello with @ticket gets a full handshake, which completes."""
    cl = Client12(srv.port)
    sid = b"\x5a" * 32
    cl.hello12(ticket=ticket, sid=sid, **kw)
    sh = cl.server_hello()
    ok = (sh is not None and sh[0] != sid and cl.server_flight_rest())
    a = None
    if ok:
        cl.c.s.sendall(cl.key_exchange() + record(CCS, b"\x01") +
                       cl.finished())
        ok = cl.server_finished()
        a = srv.accept(5) if ok else None
    check(f"{name}: full handshake", ok and a is not None and
          hr.resumed(a) == 0, f"sh {sh}, types {cl.types}")
    if a:
        a.close()
    cl.close()


def expect_alert(srv, name, ticket, alert, **kw):
    before = srv.stats()
    cl = Client12(srv.port)
    cl.hello12(ticket=ticket, sid=b"\x5a" * 32, **kw)
    hh.check_plain_alert(srv, name, cl.c, before, alert)


def test_raw(key, key2):
    srv = Server(key, lifetime=600)
    full12(srv, "full handshake: session_ticket acknowledged, "
           "NewSessionTicket before ChangeCipherSpec, hint 600")
    cl = Client12(srv.port)
    cl.hello12()
    sh = cl.server_hello()
    check("no session_ticket extension: none acknowledged",
          sh is not None and EXT_SESSION_TICKET not in sh[2])
    cl.close()
    master, ticket = take_session(srv)
    if not ticket:
        check("a ticket to resume with", False)
        return

    before = srv.resumed_count()
    cl, a = resume12(srv, master, ticket)
    ok = a is not None and hr.resumed(a) == 1 and cl.types == []
    if a:
        a.sendall(b"resumed, from the server")
        got = cl.read_data(24)
        cl.c.s.sendall(cl.tx.seal(APPDATA, b"resumed, from the client"))
        back = a.recv(100)
        ok = ok and got == b"resumed, from the server" and \
            back == b"resumed, from the client"
        version = struct.unpack("HHH", a.getsockopt(hh.SOL_TLS, 106, 520)[:6])
        ok = ok and version == (0x0303, SUITE, 0)
        a.close()
    check("resumed: session id echoed, no Certificate, no new ticket, "
          "data both ways, KTLS_HS_SESSION resumed",
          ok and cl.ticket is None and
          srv.resumed_count() == before + 1, f"types {cl.types}")
    cl.close()
    cl, a = resume12(srv, master, ticket, sid=b"")
    check("resumed with an empty session id", a is not None and
          hr.resumed(a) == 1)
    if a:
        a.close()
    cl.close()

    # A wrong Finished in the abbreviated handshake.
    before = srv.stats()
    cl = Client12(srv.port)
    cl.hello12(ticket=ticket, sid=b"\x01" * 32)
    ok = cl.server_hello() is not None
    cl.keys(master)
    ok = ok and cl.server_finished()
    cl.c.s.sendall(cl.resumed_finished(corrupt=True))
    r = cl.c.read_record()
    alert = cl.rx.open(ALERT, r[2]) if r and r[0] == ALERT else None
    after = srv.stats()
    check("resumed, wrong client Finished: decrypt_error",
          ok and alert == bytes([2, ALERTS["decrypt_error"]]) and
          after["failed"] == before["failed"] + 1 and srv.accept(0) is None,
          f"alert {alert}")
    cl.close()

    bad = bytearray(ticket)
    bad[len(bad) // 2] ^= 0x10
    expect_full(srv, "altered ticket", master, bytes(bad))
    expect_full(srv, "truncated ticket", master, ticket[:-1])
    expect_full(srv, "key id altered", master,
                ticket[:1] + bytes([ticket[1] ^ 1]) + ticket[2:])
    expect_full(srv, "another server_name", master, ticket,
                sni=b"other.example.test")
    expect_full(srv, "no server_name", master, ticket, sni=None)
    # Our client speaks AES-128-GCM only: the other suite's flight is enough.
    cl = Client12(srv.port)
    cl.hello12(ticket=ticket, sid=b"\x5a" * 32, suites=(0xcca9,))
    sh = cl.server_hello()
    check("suite no longer offered: full handshake with the offered one",
          sh is not None and sh[0] == b"" and sh[1] == 0xcca9 and
          cl.server_flight_rest(), f"sh {sh}")
    cl.close()

    # RFC 7627 5.3, on a listener that takes hellos without EMS at all.
    opt = Server(key, lifetime=600, ems_optional=True)
    m2, t2 = take_session(opt)
    expect_alert(opt, "EMS session offered without EMS", t2,
                 "handshake_failure", ems=False)
    cl = Client12(opt.port)
    cl.hello12(ticket=b"", ems=False)
    sh = cl.server_hello()
    ok = sh is not None and cl.server_flight_rest()
    check("a session without EMS gets no ticket",
          ok and EXT_SESSION_TICKET not in sh[2])
    cl.close()
    expect_alert(srv, "EMS session offered without EMS, EMS required",
                 ticket, "handshake_failure", ems=False)

    # Tickets of the listener's key group, and of its identity, only.
    other = Server(key, lifetime=600)
    expect_full(other, "listener with keys of its own", master, ticket)
    group = 0x746b3132
    g1 = Server(key, lifetime=600, group=group)
    g2 = Server(key, lifetime=600, group=group)
    idn = Server(key2, lifetime=600, group=group)
    m4, t4 = take_session(g1)
    cl, a = resume12(g2, m4, t4)
    check("a listener of the same key group resumes the ticket",
          a is not None and hr.resumed(a) == 1)
    if a:
        a.close()
    cl.close()
    expect_full(idn, "same key group, another identity for the name",
                m4, t4)
    off = Server(key, lifetime=0)
    expect_full(off, "listener without tickets", master, ticket)
    cl = hr.Client(srv.port)
    cl.hello()
    cl.server_flight()
    cl.finish()
    a = srv.accept(5)
    t13 = cl.ticket()
    if a:
        a.close()
    cl.close()
    expect_full(srv, "a TLS 1.3 ticket", master, t13.ticket if t13 else b"x")
    cl, a, exts = hr.handshake(srv, hr.Ticket(600, 0, b"\x00", ticket,
                                              master))
    check("a TLS 1.2 ticket offered to TLS 1.3: full handshake",
          a is not None and 41 not in exts and hr.resumed(a) == 0)
    for x in (a, cl):
        if x:
            x.close()

    srv.rotate()
    cl, a = resume12(srv, master, ticket)
    check("after one rotation the ticket still resumes", a is not None)
    if a:
        a.close()
    cl.close()
    srv.rotate()
    expect_full(srv, "ticket of a rotated-out key", master, ticket)

    short = Server(key, lifetime=1)
    m3, t3 = take_session(short)
    time.sleep(1.5)
    expect_full(short, "expired ticket", m3, t3)
    st = srv.stats()
    check("no handshake left in progress", st["in_progress"] == 0, str(st))
    for s in (srv, opt, other, g1, g2, idn, off, short):
        s.ls.close()


SUITES = (("ECDHE-ECDSA-AES128-GCM-SHA256", 0xc02b),
          ("ECDHE-ECDSA-AES256-GCM-SHA384", 0xc02c),
          ("ECDHE-ECDSA-CHACHA20-POLY1305", 0xcca9))


def test_clients(key, ca):
    srv = Server(key, lifetime=600)
    tmp = tempfile.mkdtemp()
    sess = os.path.join(tmp, "sess.pem")
    req = b"GET / HTTP/1.0\r\n\r\n"
    for name, _ in SUITES:
        ossl = ["openssl", "s_client", "-connect", f"127.0.0.1:{srv.port}",
                "-tls1_2", "-cipher", name, "-CAfile", ca,
                "-servername", "www.example.test", "-ign_eof"]
        p = hr.background(ossl + ["-sess_out", sess], req)
        r1 = hr.serve_one(srv)
        out1 = hr.finish(p)
        p = hr.background(ossl + ["-sess_in", sess], req)
        r2 = hr.serve_one(srv)
        out2 = hr.finish(p)
        check(f"openssl s_client -tls1_2 {name}: Reused",
              r1 == 0 and r2 == 1 and "New, TLSv1.2" in out1 and
              f"Reused, TLSv1.2, Cipher is {name}" in out2,
              f"resumed {r1} {r2}: " + out2[-300:].replace("\n", " | "))

    url = f"https://www.example.test:{srv.port}/"
    p = hr.background(["curl", "-sS", "--tlsv1.2", "--tls-max", "1.2",
                       "--cacert", ca, "--resolve",
                       f"www.example.test:{srv.port}:127.0.0.1", url, url])
    r1 = hr.serve_one(srv)
    r2 = hr.serve_one(srv)
    out = hr.finish(p)
    # curl sets SSL_OP_NO_TICKET: its 1.2 hellos never carry a ticket,
    # so both requests take full handshakes from a ticket listener.
    check("curl over TLS 1.2, two requests on one handle: both served, "
          "full handshakes (curl offers no ticket in 1.2)",
          r1 == 0 and r2 == 0 and out.count("hello") == 2,
          f"resumed {r1} {r2}: " + out[-300:].replace("\n", " | "))

    if shutil.which("gnutls-cli"):
        p = hr.background(["gnutls-cli", "--x509cafile", ca, "--resume",
                           "--priority", "NORMAL:-VERS-ALL:+VERS-TLS1.2",
                           "-p", str(srv.port),
                           "--sni-hostname", "www.example.test",
                           "--verify-hostname", "www.example.test",
                           "127.0.0.1"])
        r1 = hr.serve_one(srv)
        r2 = hr.serve_one(srv)
        out = hr.finish(p)
        check("gnutls-cli --resume over TLS 1.2: resumed",
              r1 == 0 and r2 == 1 and "This is a resumed session" in out,
              f"resumed {r1} {r2}: " + out[-300:].replace("\n", " | "))
    else:
        check("gnutls-cli installed", False, "the runner installs gnutls-bin")
    shutil.rmtree(tmp)
    srv.ls.close()


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    key2 = int(os.environ["KTLS_HS_KEY2"])
    ca = os.environ["KTLS_HS_CA"]
    print("TAP version 13")
    test_raw(key, key2)
    test_clients(key, ca)
    print(f"1..{len(hh.RESULTS)}")
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
