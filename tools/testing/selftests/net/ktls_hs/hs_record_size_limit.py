#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The record_size_limit extension (RFC 8449) in the kernel's handshake.

A raw client offers a limit and reads every record the server sends it:
in TLS 1.3 the limit bounds the server's protected handshake records
(EncryptedExtensions .. Finished, the inner content type counted) and
the application data the accepted kTLS socket sends, whose
TLS_TX_MAX_PAYLOAD_LEN reads back the limit less the type byte; the
EncryptedExtensions carry the server's own limit, 2^14 + 1.  A limit
under 64 gets illegal_parameter; a max_fragment_length beside it is
ignored (RFC 8449 5).  In TLS 1.2 the ServerHello carries 2^14, the
server's Finished and application data respect the limit, and the cap
is the limit itself.  An identity whose chain of some 30 KB fits its
handshake buffer in records of 2^14 bytes but not in records of 64 gets
that limit declined: no record_size_limit in EncryptedExtensions,
records of the usual size, no cap, and TlsHsRecordLimitDeclined counts
it; a limit of 256 still fits, and TLS 1.2 takes 64.  The raw clients
of hs_hostile.py and hs_tls12_hostile.py do the handshakes, and
gnutls-cli --recordsize where installed.  KTLS_HS_KEY names the server's identity key, KTLS_HS_CA its
CA, KTLS_HS_BIG_KEY the identity with the long chain.  Output is KTAP.
"""

import os
import shutil
import struct
import subprocess
import sys
import time

from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PublicKey)

import hs_hostile as hh
import hs_resume as hr
import hs_tls12_hostile as h12
from hs_hostile import (APPDATA, CCS, HANDSHAKE, Conn, Keys, check,
                        derive, ext, hkdf_extract, record, u16)

HS_STAT = "/proc/net/ktls_hs_stat"
TLS_TX_MAX_PAYLOAD_LEN = 5
EXT_MAX_FRAGMENT_LENGTH = 1
EXT_RECORD_SIZE_LIMIT = 28


def rsl(limit):
    return ext(EXT_RECORD_SIZE_LIMIT, u16(limit))


def parse_exts(block):
    out, off = {}, 0
    while off + 4 <= len(block):
        typ, n = struct.unpack(">HH", block[off:off + 4])
        out[typ] = block[off + 4:off + 4 + n]
        off += 4 + n
    return out


def cap_of(sock):
    return struct.unpack("H", sock.getsockopt(hh.SOL_TLS,
                                              TLS_TX_MAX_PAYLOAD_LEN, 2))[0]


class Client13(hh.Handshake):
    """hs_hostile's client, which also notes the size of every protected
    record and the EncryptedExtensions."""

    def hello_with(self, extra):
        ch = hh.client_hello(hh.std_exts(self.pub) + extra)
        self.transcript = ch
        self.c.s.sendall(record(HANDSHAKE, ch, 0x0301))

    def flight(self):
        """ServerHello .. Finished: (True, [inner lengths], EE extensions)
        or (False, ...)."""
        inner, ee = [], None
        r = self.c.read_record()
        if not r or r[0] != HANDSHAKE or r[2][0] != 2:
            return False, inner, ee
        sh = r[2]
        self.transcript += sh
        share = hh.server_share(sh)
        shared = self.priv.exchange(X25519PublicKey.from_public_bytes(share))
        early = hkdf_extract(b"\x00" * 32, b"\x00" * 32)
        hs = hkdf_extract(derive(early, b"derived", b""), shared)
        self.c_hs = derive(hs, b"c hs traffic", self.transcript)
        self.s_hs = derive(hs, b"s hs traffic", self.transcript)
        self.master = hkdf_extract(derive(hs, b"derived", b""), b"\x00" * 32)
        self.rx = Keys(self.s_hs)
        self.tx = Keys(self.c_hs)
        msgs = b""
        while True:
            r = self.c.read_record()
            if not r:
                return False, inner, ee
            if r[0] == CCS:
                continue
            inner.append(len(r[2]) - 16)
            typ, data = self.rx.open(r[1], r[2])
            if typ != HANDSHAKE:
                return False, inner, ee
            msgs += data
            off = 0
            while off + 4 <= len(msgs):
                n = int.from_bytes(msgs[off + 1:off + 4], "big")
                if off + 4 + n > len(msgs):
                    break
                m = msgs[off:off + 4 + n]
                self.transcript += m
                off += 4 + n
                if m[0] == 8:
                    ee = parse_exts(m[6:])
                if m[0] == 20:
                    self.s_ap = derive(self.master, b"s ap traffic",
                                       self.transcript)
                    self.c_ap = derive(self.master, b"c ap traffic",
                                       self.transcript)
                    return True, inner, ee
            msgs = msgs[off:]


def app_records(c, keys, n):
    """Inner lengths of the records carrying @n bytes of data, and the
    data."""
    inner, got = [], b""
    while len(got) < n:
        r = c.read_record()
        if not r:
            break
        inner.append(len(r[2]) - 16)
        typ, data = keys.open(r[1], r[2])
        if typ != APPDATA:
            break
        got += data
    return inner, got


def tls13(srv, name, extra, limit, ee_want, cap_want):
    """A handshake offering @extra; every protected record of the server
    at most @limit bytes of TLSInnerPlaintext."""
    c = Conn(srv.port)
    h = Client13(c)
    h.hello_with(extra)
    ok, inner, ee = h.flight()
    a = None
    if ok:
        c.s.sendall(h.finished())
        a = srv.accept(5)
    if not a:
        check(name, False, f"flight {ok}, accepted {bool(a)}")
        c.close()
        return
    a.settimeout(10)
    cap = cap_of(a)
    blob = os.urandom(20000)
    a.sendall(blob)
    app, got = app_records(c, Keys(h.s_ap), len(blob))
    got_ee = ee.get(EXT_RECORD_SIZE_LIMIT) if ee is not None else None
    check(f"{name}: EncryptedExtensions record_size_limit {ee_want}",
          got_ee == (u16(ee_want) if ee_want else None) and
          EXT_MAX_FRAGMENT_LENGTH not in ee, f"{ee}")
    check(f"{name}: handshake records at most {limit} bytes",
          max(inner) <= limit, f"{inner}")
    check(f"{name}: TLS_TX_MAX_PAYLOAD_LEN {cap_want}, data records at "
          f"most {limit} bytes",
          cap == cap_want and got == blob and max(app) <= limit and
          (limit > 16385 or max(app) == limit),
          f"cap {cap}, {len(got)} bytes in records of {sorted(set(app))}")
    a.close()
    c.close()


def refused(srv, name, hello):
    before = srv.stats()
    c = Conn(srv.port)
    c.s.sendall(record(HANDSHAKE, hello, 0x0301))
    hh.check_plain_alert(srv, name, c, before, "illegal_parameter")


def tls12(srv, name, extra, limit, sh_want, cap_want):
    """A TLS 1.2 handshake offering @extra; the server's Finished and its
    data records at most @limit bytes of plaintext."""
    c = Conn(srv.port)
    h = Client12(c)
    h.hello(h12.std_exts() + extra)
    ok = h.server_flight()
    fin = None
    if ok:
        c.s.sendall(h.key_exchange() + record(CCS, b"\x01") + h.finished())
        r = c.read_record()
        ok = r is not None and r[0] == CCS
        r = c.read_record() if ok else None
        ok = r is not None and r[0] == HANDSHAKE
        if ok:
            fin = len(r[2]) - 8 - 16
            h.rx.open(HANDSHAKE, r[2])
    a = srv.accept(5) if ok else None
    if not a:
        check(name, False, f"handshake {ok}, accepted {bool(a)}")
        c.close()
        return
    a.settimeout(10)
    cap = cap_of(a)
    blob = os.urandom(20000)
    a.sendall(blob)
    sizes, got = [], b""
    while len(got) < len(blob):
        r = c.read_record()
        if not r or r[0] != APPDATA:
            break
        sizes.append(len(r[2]) - 8 - 16)
        got += h.rx.open(APPDATA, r[2])
    sh_rsl = h.sh_exts.get(EXT_RECORD_SIZE_LIMIT)
    check(f"{name}: ServerHello record_size_limit {sh_want}",
          sh_rsl == (u16(sh_want) if sh_want else None) and
          EXT_MAX_FRAGMENT_LENGTH not in h.sh_exts, f"{h.sh_exts}")
    check(f"{name}: TLS_TX_MAX_PAYLOAD_LEN {cap_want}, Finished and data "
          f"records at most {limit} bytes",
          cap == cap_want and got == blob and fin <= limit and
          max(sizes) == limit,
          f"cap {cap}, Finished {fin}, records {sorted(set(sizes))}")
    a.close()
    c.close()


class Client12(h12.Handshake12):
    """The TLS 1.2 client, which keeps the ServerHello's extensions."""

    def server_flight(self):
        self.sh_exts = {}
        sh = self.next_msg()
        if not sh or sh[0] != 2:
            return False
        off = 4 + 2 + 32
        off += 1 + sh[off] + 2 + 1
        if off + 2 <= len(sh):
            self.sh_exts = parse_exts(sh[off + 2:])
        self.msgs = sh + self.msgs
        return super().server_flight()


def with_limit(limit):
    """A client_hello() for hs_resume's client that also offers @limit,
    before a pre_shared_key, which must stay last."""
    plain = hh.client_hello

    def build(exts, **kw):
        exts = list(exts)
        at = len(exts) - 1 if exts and exts[-1][:2] == u16(41) else len(exts)
        if limit:
            exts.insert(at, rsl(limit))
        return plain(exts, **kw)
    return build


def resumption(key):
    """RFC 8449 4: the limit is renegotiated by each handshake, a resumed
    one too; the ticket carries none."""
    srv = hr.Server(key, lifetime=600)
    plain = hh.client_hello
    results = []
    for limit, ticket in ((512, None), (100, True), (0, True)):
        hh.client_hello = with_limit(limit)
        sizes = []
        try:
            cl = hr.Client(srv.port)
            read = cl.c.read_record

            def logged(read=read):
                r = read()
                if r and r[0] == APPDATA:
                    sizes.append(len(r[2]) - 16)
                return r
            cl.c.read_record = logged
            cl.hello(results[0][1] if ticket else None)
            exts = cl.server_flight()
            a = None
            if exts is not None:
                cl.finish()
                a = srv.accept(10)
        finally:
            hh.client_hello = plain
        t = None
        if a and not ticket:
            t = cl.ticket()
        elif a:
            # The session's ticket, in as many records as the limit takes.
            cl.c.s.settimeout(1)
            while cl.c.read_record():
                pass
        cap = cap_of(a) if a else None
        res = hr.resumed(a) if a else None
        results.append((limit, t, cap, res, sizes))
        if a:
            a.close()
        cl.close()
    srv.ls.close()
    (_, t1, cap1, res1, s1), (_, _, cap2, res2, s2), (_, _, cap3, res3, s3) = \
        results
    check("1.3, limit 512: ticket within it, cap 511",
          t1 is not None and cap1 == 511 and res1 == 0 and max(s1) <= 512,
          f"ticket {t1 is not None}, cap {cap1}, records {s1}")
    check("1.3, resumed with limit 100: resumed, cap 99, records within it",
          res2 == 1 and cap2 == 99 and s2 and max(s2) <= 100,
          f"resumed {res2}, cap {cap2}, records {s2}")
    check("1.3, resumed without a limit: no cap from the session",
          res3 == 1 and cap3 == 16384, f"resumed {res3}, cap {cap3}")


def declined_count():
    with open(HS_STAT) as f:
        for line in f:
            k, v = line.split()
            if k == "TlsHsRecordLimitDeclined":
                return int(v)
    return None


def declined(key):
    """RFC 8449 4: a server that does not acknowledge the limit may send
    records of any size the protocol permits.  The long chain's flight
    does not fit its buffer at 64, which is declined and counted; at 256
    it fits, and is taken.  TLS 1.2 protects only the Finished of that
    flight, and takes 64 with the same chain."""
    name = "1.3, limit 64, 30 KB chain: declined"
    if key is None:
        check(f"{name} # no identity with a long chain", False)
        return
    before = declined_count()
    srv = hh.Server(key)
    tls13(srv, name, [rsl(64)], 16385, 0, 16384)
    tls13(srv, "1.3, limit 256, 30 KB chain", [rsl(256)], 256, 16385, 255)
    srv.ls.close()
    srv = h12.Server12(key, versions=1)
    tls12(srv, "1.2, limit 64, 30 KB chain", [rsl(64)], 64, 16384, 64)
    srv.ls.close()
    # Counted as the handshake ends, which may trail the accept.
    for _ in range(50):
        got = declined_count()
        if before is not None and got == before + 1:
            break
        time.sleep(0.1)
    check("TlsHsRecordLimitDeclined counts the declined limit only",
          before is not None and got == before + 1,
          f"before {before}, after {got}")


def gnutls(key, ca):
    """gnutls-cli --recordsize, a client that enforces its own limit on
    what it receives, reads 20 KB from the accepted socket.  It takes
    512 at least, which it also sends as a max_fragment_length (RFC 8449
    5: ignored beside the limit)."""
    # Whether GnuTLS counts the inner type in the limit it sends for 1.3
    # is its business: either cap is right for what it sent.
    for name, versions, prio, caps in (
            ("1.3", 2, "+VERS-TLS1.3", (511, 512)),
            ("1.2", 1, "+VERS-TLS1.2", (512,))):
        title = f"gnutls-cli --recordsize=512, TLS {name}"
        if not shutil.which("gnutls-cli"):
            check(f"{title} # SKIP gnutls-cli not installed", True)
            continue
        srv = h12.Server12(key, versions=versions)
        p = subprocess.Popen(
            ["gnutls-cli", "--x509cafile", ca, "--recordsize=512",
             "--priority", "NORMAL:-VERS-ALL:" + prio, "-p", str(srv.port),
             "--sni-hostname", "www.example.test",
             "--verify-hostname", "www.example.test", "127.0.0.1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT)
        p.stdin.write(b"hello\n")
        p.stdin.flush()
        a = srv.accept(30)
        cap = None
        if a:
            a.settimeout(10)
            cap = cap_of(a)
            try:
                a.recv(100)
            except OSError:
                pass
            a.sendall(b"x" * 20000 + b"\nthe end\n")
            a.close()
        try:
            out, _ = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        out = out.decode(errors="replace")
        check(title, cap in caps and "the end" in out,
              f"cap {cap}: " + out[-300:].replace("\n", " | "))
        srv.ls.close()


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    print("TAP version 13")
    print("1..36")
    srv = hh.Server(key)
    tls13(srv, "1.3, limit 64", [rsl(64)], 64, 16385, 63)
    tls13(srv, "1.3, limit 256 and max_fragment_length",
          [ext(EXT_MAX_FRAGMENT_LENGTH, b"\x01"), rsl(256)], 256, 16385, 255)
    tls13(srv, "1.3, limit 65535", [rsl(65535)], 16385, 16385, 16384)
    tls13(srv, "1.3, no limit", [], 16385, 0, 16384)
    pub = os.urandom(32)
    refused(srv, "1.3, limit 63",
            hh.client_hello(hh.std_exts(pub) + [rsl(63)]))
    refused(srv, "1.3, limit 0",
            hh.client_hello(hh.std_exts(pub) + [rsl(0)]))
    srv.ls.close()
    big = os.environ.get("KTLS_HS_BIG_KEY")
    declined(int(big) if big else None)

    srv = h12.Server12(key, versions=1)
    tls12(srv, "1.2, limit 100", [rsl(100)], 100, 16384, 100)
    tls12(srv, "1.2, limit 64 and max_fragment_length",
          [ext(EXT_MAX_FRAGMENT_LENGTH, b"\x02"), rsl(64)], 64, 16384, 64)
    tls12(srv, "1.2, no limit", [], 16384, 0, 16384)
    refused(srv, "1.2, limit 63", h12.client_hello(h12.std_exts() +
                                                    [rsl(63)]))
    st = srv.stats()
    check("no handshake left in progress", st["in_progress"] == 0, str(st))
    srv.ls.close()
    resumption(key)
    gnutls(key, os.environ["KTLS_HS_CA"])
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
