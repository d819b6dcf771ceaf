#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A raw TLS 1.2 client against an armed listener.

It does a whole ECDHE-ECDSA handshake itself (X25519, AES-128-GCM, the
extended master secret), checks the server's signature and Finished,
sends application data in the same write as its Finished, and exchanges
64 KB both ways through the kTLS socket accept() returned, echoed byte
for byte.  The same without the extended master secret against a
listener that allows it.  A renegotiation attempt on the established
connection ends it.  Then hostile clients, each of which must get the
alert RFC 5246, 8422, 7627 or 5746 asks for, and must never be accepted.
KTLS_HS_KEY names the server's identity key.  Output is KTAP.
"""

import errno
import hashlib
import hmac
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey, X25519PublicKey)
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import (
    Encoding, PublicFormat)

import hs_hostile as hh
from hs_hostile import (ALERT, APPDATA, CCS, HANDSHAKE, Conn, check, ext,
                        record, u16, vec8, vec16)

KTLS_HS_VERSIONS = 109
KTLS_HS_EMS_OPTIONAL = 110

SUITE = 0xc02b          # TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
ALERTS = hh.ALERTS
DOWNGRADE = bytes.fromhex("444f574e47524401")


def prf(secret, label, seed, n):
    """RFC 5246 5, P_SHA256."""
    seed = label + seed
    a, out = seed, b""
    while len(out) < n:
        a = hmac.new(secret, a, hashlib.sha256).digest()
        out += hmac.new(secret, a + seed, hashlib.sha256).digest()
    return out[:n]


def hs_msg(typ, body):
    return bytes([typ]) + len(body).to_bytes(3, "big") + body


def client_hello(exts, suites=(SUITE,), sid=b""):
    body = (u16(0x0303) + os.urandom(32) + vec8(sid) +
            vec16(b"".join(u16(s) for s in suites)) + vec8(b"\x00") +
            vec16(b"".join(exts)))
    return hs_msg(1, body)


def std_exts(groups=(0x001d, 0x0017), ems=True, reneg=b"\x00",
             formats=b"\x00", sni=b"www.example.test", ticket=None):
    """@sni empty or None: no server_name; @ticket: a session_ticket."""
    exts = [
        ext(10, vec16(b"".join(u16(g) for g in groups))),
        ext(13, vec16(u16(0x0403))),
    ]
    if sni:
        exts.append(ext(0, vec16(b"\x00" + vec16(sni))))
    if formats is not None:
        exts.append(ext(11, vec8(formats)))
    if ems:
        exts.append(ext(23, b""))
    if reneg is not None:
        exts.append(ext(0xff01, reneg))
    if ticket is not None:
        exts.append(ext(35, ticket))
    return exts


class Gcm12:
    """One direction's TLS 1.2 AES-GCM protection (RFC 5288)."""

    def __init__(self, key, salt):
        self.aead = AESGCM(key)
        self.salt = salt
        self.seq = 0

    def seal(self, typ, data):
        explicit = self.seq.to_bytes(8, "big")
        aad = self.seq.to_bytes(8, "big") + bytes([typ]) + u16(0x0303) + \
            u16(len(data))
        self.seq += 1
        ct = self.aead.encrypt(self.salt + explicit, data, aad)
        return record(typ, explicit + ct)

    def open(self, typ, body):
        n = len(body) - 8 - 16
        aad = self.seq.to_bytes(8, "big") + bytes([typ]) + u16(0x0303) + \
            u16(n)
        self.seq += 1
        return self.aead.decrypt(self.salt + body[:8], body[8:], aad)


class Handshake12:
    """The client side of a TLS 1.2 full handshake."""

    def __init__(self, conn, ems=True):
        self.c = conn
        self.ems = ems
        self.transcript = b""
        self.msgs = b""
        self.ticket = self.hint = None
        self.cert_request = None

    def hello(self, exts=None, suites=(SUITE,)):
        ch = client_hello(exts or std_exts(ems=self.ems), suites)
        self.client_random = ch[6:38]
        self.transcript = ch
        self.c.s.sendall(record(HANDSHAKE, ch, 0x0301))

    def next_msg(self):
        while True:
            if len(self.msgs) >= 4:
                n = int.from_bytes(self.msgs[1:4], "big")
                if len(self.msgs) >= 4 + n:
                    m, self.msgs = self.msgs[:4 + n], self.msgs[4 + n:]
                    return m
            r = self.c.read_record()
            if not r or r[0] != HANDSHAKE:
                return None
            self.msgs += r[2]

    def server_flight(self):
        """ServerHello .. ServerHelloDone, the signature checked; a
        CertificateRequest before the ServerHelloDone is kept in
        self.cert_request."""
        sh = self.next_msg()
        if not sh or sh[0] != 2:
            return False
        self.server_random = sh[6:38]
        cert = self.next_msg()
        ske = self.next_msg()
        done = self.next_msg()
        self.cert_request = None
        if done and done[0] == 13:
            self.cert_request, done = done, self.next_msg()
        if not cert or not ske or not done or cert[0] != 11 or \
           ske[0] != 12 or done != b"\x0e\x00\x00\x00":
            return False
        self.transcript += sh + cert + ske + (self.cert_request or b"") + \
            done
        # The leaf: certificate_list<3> of cert<3>.
        leaf_len = int.from_bytes(cert[7:10], "big")
        leaf = x509.load_der_x509_certificate(cert[10:10 + leaf_len])
        body = ske[4:]
        if body[0] != 3:
            return False
        group = struct.unpack(">H", body[1:3])[0]
        plen = body[3]
        params = body[:4 + plen]
        point = body[4:4 + plen]
        scheme, slen = struct.unpack(">HH", body[4 + plen:8 + plen])
        sig = body[8 + plen:8 + plen + slen]
        if scheme != 0x0403 or group != 0x001d:
            return False
        leaf.public_key().verify(sig, self.client_random +
                                 self.server_random + params,
                                 ec.ECDSA(hashes.SHA256()))
        self.server_point = point
        return True

    def key_exchange(self, point=None):
        """ClientKeyExchange; keys derived unless @point is hostile."""
        priv = X25519PrivateKey.generate()
        pub = priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        cke = hs_msg(16, vec8(point if point is not None else pub))
        self.transcript += cke
        if point is None:
            pms = priv.exchange(
                X25519PublicKey.from_public_bytes(self.server_point))
            if self.ems:
                self.master = prf(pms, b"extended master secret",
                                  hashlib.sha256(self.transcript).digest(),
                                  48)
            else:
                self.master = prf(pms, b"master secret", self.client_random +
                                  self.server_random, 48)
            kb = prf(self.master, b"key expansion",
                     self.server_random + self.client_random, 40)
            self.tx = Gcm12(kb[0:16], kb[32:36])
            self.rx = Gcm12(kb[16:32], kb[36:40])
        return record(HANDSHAKE, cke)

    def finished(self, corrupt=False):
        vd = prf(self.master, b"client finished",
                 hashlib.sha256(self.transcript).digest(), 12)
        if corrupt:
            vd = bytes([vd[0] ^ 1]) + vd[1:]
        fin = hs_msg(20, vd)
        self.transcript += fin
        return self.tx.seal(HANDSHAKE, fin)

    def server_finished(self):
        """[NewSessionTicket], ChangeCipherSpec, Finished (checked)."""
        r = self.c.read_record()
        while r and r[0] == HANDSHAKE:
            # RFC 5077 3.3: a ticket, in the transcript, before the CCS.
            self.msgs += r[2]
            m = self.next_msg()
            if not m or m[0] != 4:
                return False
            self.hint = struct.unpack(">I", m[4:8])[0]
            self.ticket = m[10:10 + struct.unpack(">H", m[8:10])[0]]
            self.transcript += m
            r = self.c.read_record()
        if not r or r[0] != CCS or r[2] != b"\x01":
            return False
        r = self.c.read_record()
        if not r or r[0] != HANDSHAKE:
            return False
        fin = self.rx.open(HANDSHAKE, r[2])
        vd = prf(self.master, b"server finished",
                 hashlib.sha256(self.transcript).digest(), 12)
        self.transcript += fin
        return fin == hs_msg(20, vd)

    def read_data(self, n):
        got = b""
        while len(got) < n:
            r = self.c.read_record()
            if not r or r[0] != APPDATA:
                return got
            got += self.rx.open(APPDATA, r[2])
        return got


class Server12(hh.Server):
    def __init__(self, key, ems_optional=False, versions=3):
        super().__init__(key)
        self.ls.setsockopt(hh.SOL_TLS, KTLS_HS_VERSIONS,
                           struct.pack("I", versions))
        if ems_optional:
            self.ls.setsockopt(hh.SOL_TLS, KTLS_HS_EMS_OPTIONAL,
                               struct.pack("i", 1))


def session_version(s):
    raw = s.getsockopt(hh.SOL_TLS, 106, 520)
    return struct.unpack("HHH", raw[:6])


def full(srv, name, ems=True):
    """Handshake, 64 KB each way through the kTLS socket, echoed."""
    c = Conn(srv.port)
    h = Handshake12(c, ems=ems)
    h.hello()
    ok = h.server_flight()
    sentinel = ok and h.server_random[24:] == DOWNGRADE
    if ok:
        first = os.urandom(100)
        c.s.sendall(h.key_exchange() + record(CCS, b"\x01") + h.finished() +
                    h.tx.seal(APPDATA, first))
        ok = h.server_finished()
    a = srv.accept(5) if ok else None
    good = False
    if a:
        a.settimeout(10)
        version = session_version(a)
        got = b""
        while len(got) < len(first):
            got += a.recv(65536)
        blob = os.urandom(65536)
        for i in range(0, len(blob), 16384):
            c.s.sendall(h.tx.seal(APPDATA, blob[i:i + 16384]))
        back = b""
        while len(back) < len(blob):
            back += a.recv(65536)
        a.sendall(back)
        echoed = h.read_data(len(blob))
        good = (got == first and back == blob and echoed == blob and
                version == (0x0303, SUITE, 0x001d))
    check(name, ok and good and sentinel,
          f"flight/finished {ok}, sentinel {sentinel}, accepted {bool(a)}")
    return c, h, a


def after_handshake(srv, name, rec, err, alert):
    """@rec(h), sent on the established connection, ends it."""
    c, h, a = full(srv, f"TLS 1.2 handshake before {name}")
    what = f"{name}: {errno.errorcode[err]}, {alert}"
    if not a:
        check(what, False, "no conn")
        return
    c.s.sendall(rec(h))
    # The record layer meets the record when the application reads.
    got = 0
    try:
        a.recv(100)
    except OSError as e:
        got = e.errno
    r = c.read_record()
    sent = None
    if r and r[0] == ALERT:
        sent = h.rx.open(ALERT, r[2])
    check(what, sent == bytes([2, ALERTS[alert]]) and got == err and c.eof(),
          f"alert {sent}, recv errno {got}")
    a.close()
    c.close()


def tampered(h):
    """A record whose tag does not match."""
    return hh.tamper(h.tx.seal(APPDATA, b"tampered" * 100))


def expect_alert(srv, name, payload, alert, after_flight=None):
    """@payload as the first flight, or @after_flight(h) after ours."""
    before = srv.stats()
    c = Conn(srv.port)
    if after_flight:
        h = Handshake12(c)
        h.hello()
        if not h.server_flight():
            check(name, False, "no server flight")
            return
        c.s.sendall(after_flight(h))
    else:
        c.s.sendall(payload)
    hh.check_plain_alert(srv, name, c, before, alert)


def hostile_cases(srv):
    def hello(**kw):
        suites = kw.pop("suites", (SUITE,))
        return record(HANDSHAKE, client_hello(std_exts(**kw), suites))

    expect_alert(srv, "no extended master secret", hello(ems=False),
                 "handshake_failure")
    expect_alert(srv, "CBC suites only",
                 hello(suites=(0xc023, 0xc009)), "handshake_failure")
    expect_alert(srv, "RSA key exchange only",
                 hello(suites=(0x009c, 0x002f)), "handshake_failure")
    expect_alert(srv, "renegotiation_info not empty",
                 hello(reneg=vec8(b"\x01" * 12)), "handshake_failure")
    expect_alert(srv, "no P-256 for the certificate",
                 hello(groups=(0x001d,)), "handshake_failure")
    expect_alert(srv, "compressed points only",
                 hello(formats=b"\x01\x02"), "illegal_parameter")
    expect_alert(srv, "TLS_FALLBACK_SCSV to a 1.3 server",
                 hello(suites=(SUITE, 0x5600)), "inappropriate_fallback")
    expect_alert(srv, "X25519 point of 31 bytes", None, "illegal_parameter",
                 lambda h: h.key_exchange(os.urandom(31)))
    expect_alert(srv, "X25519 point of low order", None,
                 "illegal_parameter", lambda h: h.key_exchange(bytes(32)))
    expect_alert(srv, "ClientKeyExchange with bytes after the point", None,
                 "decode_error",
                 lambda h: record(HANDSHAKE, hs_msg(16, vec8(os.urandom(32)) +
                                                    b"\x00")))
    expect_alert(srv, "wrong client Finished", None, "decrypt_error",
                 lambda h: h.key_exchange() + record(CCS, b"\x01") +
                 h.finished(corrupt=True))
    expect_alert(srv, "Finished without ChangeCipherSpec", None,
                 "unexpected_message",
                 lambda h: h.key_exchange() +
                 record(HANDSHAKE, hs_msg(20, bytes(12))))
    expect_alert(srv, "application data before Finished", None,
                 "unexpected_message",
                 lambda h: h.key_exchange() + record(CCS, b"\x01") +
                 h.tx.seal(APPDATA, b"early"))
    expect_alert(srv, "Finished before ClientKeyExchange", None,
                 "unexpected_message",
                 lambda h: record(HANDSHAKE, hs_msg(20, bytes(12))))

    # RFC 5246 6.2.3: protected records up to 2^14 + 2048 bytes are
    # opened (a forged one is bad_record_mac); one that authenticates but
    # holds more than 2^14 bytes, or a longer one, is record_overflow.
    for extra in (24, 2048):
        expect_alert(srv, f"forged protected record of 2^14 + {extra}",
                     None, "bad_record_mac",
                     lambda h, extra=extra: h.key_exchange() +
                     record(CCS, b"\x01") +
                     record(HANDSHAKE, os.urandom(16384 + extra)))
    expect_alert(srv, "protected record of 2^14 + 2049", None,
                 "record_overflow",
                 lambda h: h.key_exchange() + record(CCS, b"\x01") +
                 record(HANDSHAKE, os.urandom(16384 + 2049)))
    expect_alert(srv, "protected record of 2^14 + 1 plaintext bytes", None,
                 "record_overflow",
                 lambda h: h.key_exchange() + record(CCS, b"\x01") +
                 h.tx.seal(HANDSHAKE, b"\x14" + bytes(16384)))

    # RFC 8446 D.5 / RFC 7568: SSL 3.0 or below, with and without
    # supported_versions naming 1.2.
    for v in (0x0000, 0x0200, 0x0300):
        for listed in (False, True):
            exts = std_exts()
            if listed:
                exts.append(ext(43, vec8(u16(0x0303))))
            ch = bytearray(client_hello(exts))
            ch[4:6] = u16(v)
            expect_alert(srv, f"legacy_version {v:#06x}" +
                         (", supported_versions 1.2" if listed else ""),
                         record(HANDSHAKE, bytes(ch)), "protocol_version")
    # RFC 6066 3: a server_name that is no DNS host name.
    for name in (b"a.example.", b"bad\x00name", b"a b.example"):
        expect_alert(srv, f"server_name {name!r}", hello(sni=name),
                     "illegal_parameter")


def test_p256_point(srv12):
    """A P-256 exchange with a point off the curve."""
    before = srv12.stats()
    c = Conn(srv12.port)
    c.s.sendall(record(HANDSHAKE, client_hello(std_exts(groups=(0x0017,)))))
    h = Handshake12(c)
    sh = h.next_msg()
    for _ in range(3):
        h.next_msg()
    c.s.sendall(record(HANDSHAKE, hs_msg(16, vec8(b"\x04" + b"\x01" * 64))))
    got = c.plain_alert()
    closed = c.eof()
    c.close()
    after = srv12.stats()
    check("P-256 point off the curve: illegal_parameter",
          sh is not None and got == ALERTS["illegal_parameter"] and closed and
          after["failed"] == before["failed"] + 1,
          f"alert {got}, stats {after}")


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    srv = Server12(key)
    print("TAP version 13")
    print("1..44")
    c, _, a = full(srv, "TLS 1.2 handshake, data after Finished, 64 KB "
                   "echoed both ways")
    c.close()
    if a:
        a.close()
    # The kernel's 1.2 handshake never renegotiates.
    after_handshake(srv, "renegotiation",
                    lambda h: h.tx.seal(HANDSHAKE, client_hello(std_exts())),
                    errno.EPROTO, "unexpected_message")
    after_handshake(srv, "a record that fails authentication", tampered,
                    errno.EBADMSG, "bad_record_mac")
    # Refused by the framer, on the header (RFC 5246 6.2).
    after_handshake(srv, "a ChangeCipherSpec after the handshake",
                    lambda h: record(CCS, b"\x01"), errno.EPROTO,
                    "unexpected_message")
    after_handshake(srv, "a record body of 2^14 + 25 bytes",
                    lambda h: bytes([APPDATA]) + u16(0x0303) +
                    u16(16384 + 8 + 16 + 1), errno.EMSGSIZE,
                    "record_overflow")
    after_handshake(srv, "a record of version 0x0301",
                    lambda h: record(APPDATA, bytes(40), 0x0301),
                    errno.EINVAL, "protocol_version")
    after_handshake(srv, "an empty alert",
                    lambda h: h.tx.seal(ALERT, b""), errno.EBADMSG,
                    "decode_error")
    opt = Server12(key, ems_optional=True)
    c, _, a = full(opt, "no extended master secret, listener opted out")
    c.close()
    if a:
        a.close()
    hostile_cases(srv)
    test_p256_point(srv)
    only13 = Server12(key, versions=2)
    expect_alert(only13, "TLS 1.2 client, 1.3-only listener",
                 record(HANDSHAKE, client_hello(std_exts())),
                 "protocol_version")
    st = srv.stats()
    check("no handshake left in progress", st["in_progress"] == 0, str(st))
    for s in (srv, opt, only13):
        s.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
