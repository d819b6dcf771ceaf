#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A raw TLS 1.3 client against an armed listener.

It does a whole handshake itself (X25519, TLS_AES_128_GCM_SHA256), sends
application data in the same write as its Finished, and reads the
server's reply through the kTLS socket accept() returned: the bytes after
the Finished must survive the key install.  Then hostile clients, each of
which must get the alert RFC 8446 asks for, and must never be accepted.
KTLS_HS_KEY names the server's identity key.  Output is KTAP.
"""

import hashlib
import hmac
import os
import select
import socket
import struct
import sys
import threading

from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey)
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.serialization import (
    Encoding, PublicFormat)

SOL_TLS = 282
TCP_ULP = 31
KTLS_HS_IDENTITY = 100
KTLS_HS_TIMEOUT = 104
KTLS_HS_STATS = 107
KTLS_HS_VERSIONS = 109
KTLS_HS_VERSION_TLS13 = 2

HANDSHAKE, ALERT, CCS, APPDATA = 22, 21, 20, 23

ALERTS = {
    "unexpected_message": 10, "record_overflow": 22,
    "illegal_parameter": 47, "decode_error": 50, "decrypt_error": 51,
    "protocol_version": 70, "missing_extension": 109, "bad_record_mac": 20,
    "handshake_failure": 40, "inappropriate_fallback": 86,
}


def u16(v):
    return struct.pack(">H", v)


def vec8(b):
    return bytes([len(b)]) + b


def vec16(b):
    return u16(len(b)) + b


def record(typ, payload, version=0x0303):
    return bytes([typ]) + u16(version) + vec16(payload)


def ext(typ, data):
    return u16(typ) + vec16(data)


def client_hello(exts, suites=(0x1301,), sid=b"\x11" * 32, comp=b"\x00"):
    body = (u16(0x0303) + os.urandom(32) + vec8(sid) +
            vec16(b"".join(u16(s) for s in suites)) + vec8(comp) +
            vec16(b"".join(exts)))
    return bytes([1]) + len(body).to_bytes(3, "big") + body


def std_exts(pub, groups=(0x001d, 0x0017), share_group=0x001d):
    return [
        ext(43, vec8(u16(0x0304))),
        ext(10, vec16(b"".join(u16(g) for g in groups))),
        ext(13, vec16(u16(0x0403) + u16(0x0804))),
        ext(51, vec16(u16(share_group) + vec16(pub))),
        ext(0, vec16(b"\x00" + vec16(b"www.example.test"))),
    ]


def hkdf_extract(salt, ikm):
    return hmac.new(salt, ikm, hashlib.sha256).digest()


def expand_label(secret, label, ctx, length):
    info = u16(length) + vec8(b"tls13 " + label) + vec8(ctx)
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(secret, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    return out[:length]


def derive(secret, label, transcript):
    return expand_label(secret, label, hashlib.sha256(transcript).digest(),
                        32)


class Keys:
    """One direction's record protection."""

    def __init__(self, secret):
        self.aead = AESGCM(expand_label(secret, b"key", b"", 16))
        self.iv = expand_label(secret, b"iv", b"", 12)
        self.seq = 0

    def nonce(self):
        n = bytes(a ^ b for a, b in
                  zip(self.iv, self.seq.to_bytes(12, "big")))
        self.seq += 1
        return n

    def seal(self, typ, data, pad=0):
        inner = data + bytes([typ]) + bytes(pad)
        hdr = bytes([APPDATA]) + u16(0x0303) + u16(len(inner) + 16)
        return hdr + self.aead.encrypt(self.nonce(), inner, hdr)

    def open(self, hdr, body):
        inner = self.aead.decrypt(self.nonce(), body, hdr).rstrip(b"\x00")
        return inner[-1], inner[:-1]


def tamper(rec):
    """@rec with the last byte of its tag flipped: it does not open."""
    return rec[:-1] + bytes([rec[-1] ^ 1])


class Conn:
    def __init__(self, port, addr="127.0.0.1"):
        self.s = socket.create_connection((addr, port), timeout=10)
        self.buf = b""

    def read_record(self):
        """(type, header, body), or None on EOF."""
        while True:
            if len(self.buf) >= 5:
                n = struct.unpack(">H", self.buf[3:5])[0]
                if len(self.buf) >= 5 + n:
                    hdr, body = self.buf[:5], self.buf[5:5 + n]
                    self.buf = self.buf[5 + n:]
                    return hdr[0], hdr, body
            try:
                data = self.s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                return None
            if not data:
                return None
            self.buf += data

    def plain_alert(self):
        """The description of a plaintext alert, if that comes next."""
        r = self.read_record()
        if r and r[0] == ALERT and len(r[2]) == 2 and r[2][0] == 2:
            return r[2][1]
        return None

    def eof(self):
        return self.read_record() is None

    def close(self):
        self.s.close()


def server_share(sh):
    """The key_share of a ServerHello message, or None."""
    off = 4 + 2 + 32
    off += 1 + sh[off]          # legacy_session_id_echo
    off += 2 + 1                # cipher_suite, compression
    end = off + 2 + struct.unpack(">H", sh[off:off + 2])[0]
    off += 2
    while off + 4 <= end:
        typ, n = struct.unpack(">HH", sh[off:off + 4])
        if typ == 51 and n == 36:
            return sh[off + 8:off + 8 + 32]
        off += 4 + n
    return None


class Handshake:
    """The client side of a 1-RTT handshake, far enough to test with."""

    def __init__(self, conn):
        self.c = conn
        self.priv = X25519PrivateKey.generate()
        self.pub = self.priv.public_key().public_bytes(Encoding.Raw,
                                                       PublicFormat.Raw)
        self.transcript = b""

    def hello(self):
        ch = client_hello(std_exts(self.pub))
        self.transcript = ch
        self.c.s.sendall(record(HANDSHAKE, ch, 0x0301))

    def server_flight(self):
        """Read ServerHello .. Finished; False if the server did not."""
        r = self.c.read_record()
        if not r or r[0] != HANDSHAKE or r[2][0] != 2:
            return False
        sh = r[2]
        self.transcript += sh
        share = server_share(sh)
        if share is None:
            return False
        from cryptography.hazmat.primitives.asymmetric.x25519 import (
            X25519PublicKey)
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
                return False
            if r[0] == CCS:
                continue
            typ, data = self.rx.open(r[1], r[2])
            if typ != HANDSHAKE:
                return False
            msgs += data
            # Walk the messages; stop after the server's Finished.
            off = 0
            while off + 4 <= len(msgs):
                n = int.from_bytes(msgs[off + 1:off + 4], "big")
                if off + 4 + n > len(msgs):
                    break
                t = msgs[off]
                self.transcript += msgs[off:off + 4 + n]
                off += 4 + n
                if t == 20:
                    self.s_ap = derive(self.master, b"s ap traffic",
                                       self.transcript)
                    self.c_ap = derive(self.master, b"c ap traffic",
                                       self.transcript)
                    return True
            msgs = msgs[off:]

    def finished(self, corrupt=False, cut=0, pad=0):
        key = expand_label(self.c_hs, b"finished", b"", 32)
        vd = hmac.new(key, hashlib.sha256(self.transcript).digest(),
                      hashlib.sha256).digest()
        if corrupt:
            vd = bytes([vd[0] ^ 1]) + vd[1:]
        vd = vd[:len(vd) - cut]
        return self.tx.seal(HANDSHAKE,
                            b"\x14" + len(vd).to_bytes(3, "big") + vd, pad)

    def encrypted_alert(self):
        """
        An alert the server sent after its Finished: RFC 8446 4.4.4 and
        7.1 put it under the first server application key, at sequence
        number 0; under any other key the client could not read it.
        """
        r = self.c.read_record()
        if not r or r[0] != APPDATA:
            return None
        try:
            typ, data = Keys(self.s_ap).open(r[1], r[2])
        except Exception:
            return None
        if typ == ALERT and len(data) == 2:
            return data[1]
        return None


class Server:
    """An armed listener, on loopback unless told another address."""

    def __init__(self, key, addr="127.0.0.1"):
        self.ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.ls.bind((addr, 0))
        self.ls.listen(64)
        self.ls.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"ktls_hs")
        self.ls.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("i", key))
        self.ls.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT, struct.pack("I", 3000))
        # A TLS 1.3 server: a client that cannot speak it is refused.
        self.ls.setsockopt(SOL_TLS, KTLS_HS_VERSIONS,
                           struct.pack("I", KTLS_HS_VERSION_TLS13))
        self.port = self.ls.getsockname()[1]

    def connect(self):
        """A client connection to the listener."""
        return Conn(self.port, self.ls.getsockname()[0])

    def accept(self, timeout):
        r, _, _ = select.select([self.ls], [], [], timeout)
        if not r:
            return None
        return self.ls.accept()[0]

    def stats(self):
        raw = self.ls.getsockopt(SOL_TLS, KTLS_HS_STATS, 40)
        return dict(zip(("completed", "failed", "timed_out", "dropped",
                         "in_progress"), struct.unpack("QQQQI", raw[:36])))


RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append((name, ok))
    print(f"{'ok' if ok else 'not ok'} {len(RESULTS)} {name}"
          + (f" # {detail}" if detail and not ok else ""))
    sys.stdout.flush()


def test_full(srv):
    """A handshake to the end; data after Finished survives; both ways."""
    c = Conn(srv.port)
    h = Handshake(c)
    h.hello()
    if not h.server_flight():
        check("full handshake", False, "no server flight")
        return
    app = Keys(h.c_ap)
    c.s.sendall(h.finished() + app.seal(APPDATA, b"ping after finished"))
    a = srv.accept(10)
    if not a:
        check("full handshake", False, "accept() got nothing")
        return
    a.settimeout(10)
    got = a.recv(100)
    a.sendall(b"pong from the kernel")
    r = c.read_record()
    srx = Keys(h.s_ap)
    typ, data = srx.open(r[1], r[2]) if r else (None, None)
    check("full handshake, data after Finished read through kTLS",
          got == b"ping after finished", repr(got))
    check("server reply decrypts with the client's s_ap key",
          typ == APPDATA and data == b"pong from the kernel", repr(data))
    a.close()
    c.close()


def test_one_byte_records(srv):
    """A ClientHello split into one-byte records still works."""
    c = Conn(srv.port)
    h = Handshake(c)
    ch = client_hello(std_exts(h.pub))
    h.transcript = ch
    c.s.sendall(b"".join(record(HANDSHAKE, ch[i:i + 1])
                         for i in range(len(ch))))
    ok = h.server_flight()
    if ok:
        c.s.sendall(h.finished())
        a = srv.accept(10)
        ok = a is not None
        if a:
            a.close()
    check("ClientHello in one-byte records", ok)
    c.close()


def test_padded_finished(srv):
    """A Finished whose TLSInnerPlaintext is 2^14 + 1 bytes is fine."""
    c = Conn(srv.port)
    h = Handshake(c)
    h.hello()
    ok = h.server_flight()
    if ok:
        c.s.sendall(h.finished(pad=16384 - 36))
        a = srv.accept(10)
        ok = a is not None
        if a:
            a.close()
    check("Finished padded to 2^14 + 1 bytes", ok)
    c.close()


def check_plain_alert(srv, name, c, before, alert):
    """c got the plaintext alert and EOF, one more failed, nothing accepted."""
    got = c.plain_alert()
    closed = c.eof()
    c.close()
    after = srv.stats()
    check(f"{name}: {alert}",
          got == ALERTS[alert] and closed and
          after["failed"] == before["failed"] + 1 and
          srv.accept(0) is None,
          f"alert {got}, closed {closed}, stats {after}")


def expect_plain_alert(srv, name, payload, alert):
    before = srv.stats()
    c = Conn(srv.port)
    c.s.sendall(payload)
    check_plain_alert(srv, name, c, before, alert)


def hostile_cases(srv):
    pub = os.urandom(32)
    good = client_hello(std_exts(pub))

    # The extensions' length claims more than the message carries.
    body = bytearray(good)
    off = 4 + 2 + 32 + 1 + 32 + 2 + 2 + 2
    ext_len = struct.unpack(">H", body[off:off + 2])[0]
    body[off:off + 2] = u16(ext_len + 10)
    expect_plain_alert(srv, "truncated ClientHello",
                       record(HANDSHAKE, bytes(body)), "decode_error")

    expect_plain_alert(srv, "record over 2^14 bytes",
                       record(HANDSHAKE, b"\x01" + b"\x00" * 16384),
                       "record_overflow")

    dup = std_exts(pub)
    dup.append(ext(10, vec16(u16(0x001d))))
    expect_plain_alert(srv, "duplicate extension",
                       record(HANDSHAKE, client_hello(dup)),
                       "illegal_parameter")

    expect_plain_alert(srv, "X25519 share of 31 bytes",
                       record(HANDSHAKE, client_hello(std_exts(pub[:31]))),
                       "illegal_parameter")

    bad_point = b"\x04" + b"\x01" * 64
    expect_plain_alert(srv, "P-256 share not on the curve",
                       record(HANDSHAKE, client_hello(
                           std_exts(bad_point, groups=(0x0017,),
                                    share_group=0x0017))),
                       "illegal_parameter")

    no_versions = [e for e in std_exts(pub) if e[:2] != u16(43)]
    expect_plain_alert(srv, "no supported_versions (TLS 1.2 client)",
                       record(HANDSHAKE, client_hello(no_versions)),
                       "protocol_version")

    no_share = [e for e in std_exts(pub) if e[:2] not in (u16(51), u16(10))]
    expect_plain_alert(srv, "no key_share nor supported_groups",
                       record(HANDSHAKE, client_hello(no_share)),
                       "missing_extension")

    expect_plain_alert(srv, "empty alert record", record(ALERT, b""),
                       "decode_error")
    expect_plain_alert(srv, "ClientHello longer than RFC 8446 allows",
                       record(HANDSHAKE, b"\x01\x03\x00\x00"),
                       "decode_error")
    expect_plain_alert(srv, "ClientHello longer than the server holds",
                       record(HANDSHAKE, b"\x01\x00\x80\x00"),
                       "illegal_parameter")
    expect_plain_alert(srv, "application data instead of a ClientHello",
                       record(APPDATA, b"GET / HTTP/1.1\r\n\r\n"),
                       "unexpected_message")


# ------------------------------------------------- ClientHellos by RFC clause

HRR_RANDOM = bytes.fromhex(
    "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c")


def records(payload, typ=HANDSHAKE):
    """@payload in as many records of at most 2^14 bytes as it takes."""
    return b"".join(record(typ, payload[i:i + 16384])
                    for i in range(0, len(payload), 16384))


def hello_exts(pub, groups, shares, sni=b"www.example.test"):
    """std_exts() with @groups listed and @shares [(group, bytes)] sent."""
    exts = [
        ext(43, vec8(u16(0x0304))),
        ext(10, vec16(b"".join(u16(g) for g in groups))),
        ext(13, vec16(u16(0x0403) + u16(0x0804))),
        ext(51, vec16(b"".join(u16(g) + vec16(k) for g, k in shares))),
    ]
    if sni is not None:
        exts.append(ext(0, vec16(b"\x00" + vec16(sni))))
    return exts


def finish(srv, c, h, name):
    """Send the client's Finished; the child must come out of accept()."""
    if not h.server_flight():
        check(name, False, "no server flight")
        c.close()
        return
    c.s.sendall(h.finished())
    a = srv.accept(10)
    check(name, a is not None, "accept() got nothing")
    if a:
        a.close()
    c.close()


def expect_served(srv, name, groups, extra_shares):
    """A hello with our X25519 share among others is answered with it."""
    c = Conn(srv.port)
    h = Handshake(c)
    ch = client_hello(hello_exts(h.pub, groups,
                                 extra_shares + [(0x001d, h.pub)]))
    h.transcript = ch
    c.s.sendall(records(ch))
    finish(srv, c, h, name)


def read_hrr(c):
    """The HelloRetryRequest message, past the CCS behind it, or None."""
    r = c.read_record()
    if not r or r[0] != HANDSHAKE or r[2][0] != 2 or \
            r[2][6:38] != HRR_RANDOM:
        return None
    nxt = c.read_record()
    if not nxt or nxt[0] != CCS:
        return None
    return r[2]


def retry(srv, name, groups, shares, second=None):
    """
    A hello without a share we take: a HelloRetryRequest for X25519, then
    the second hello @second(ch1 exts) builds (default: the same with our
    share), which must complete; or, if @second returns (exts, random,
    alert), get that alert.
    """
    c = Conn(srv.port)
    h = Handshake(c)
    rnd = os.urandom(32)
    sid = os.urandom(32)
    ch1 = hello_with_random(hello_exts(h.pub, groups, shares), rnd, sid)
    c.s.sendall(records(ch1))
    hrr = read_hrr(c)
    if hrr is None:
        check(name, False, "no HelloRetryRequest")
        c.close()
        return
    exts, rnd2, alert = (second or (lambda h: (
        hello_exts(h.pub, groups, [(0x001d, h.pub)]), rnd, None)))(h)
    ch2 = hello_with_random(exts, rnd2, sid)
    h.transcript = (b"\xfe\x00\x00\x20" + hashlib.sha256(ch1).digest() +
                    hrr + ch2)
    before = srv.stats()
    c.s.sendall(record(CCS, b"\x01") + records(ch2))
    if alert is None:
        finish(srv, c, h, name)
    else:
        check_plain_alert(srv, name, c, before, alert)


def hello_with_random(exts, rnd, sid, suites=(0x1301,)):
    ch = bytearray(client_hello(exts, suites=suites, sid=sid))
    ch[6:38] = rnd
    return bytes(ch)


def unknown_groups_cases(srv):
    """RFC 8446 4.2.7, 4.2.8: what we do not know is ignored."""
    ec = list(range(34, 255))
    ffdhe = [0x0100, 0x0101, 0x0102, 0x0103, 0x0104] + \
        list(range(0x0105, 0x0140))
    grease = [0x0a0a + 0x1010 * i for i in range(16)]
    expect_served(srv, "4.2.8: 221 unknown EC-range groups, 64-byte shares",
                  ec + [0x001d], [(g, b"\xab" * 64) for g in ec])
    expect_served(srv, "4.2.8: FFDHE groups with 256-byte shares",
                  ffdhe[:40] + [0x001d],
                  [(g, b"\xab" * 256) for g in ffdhe[:40]])
    expect_served(srv, "4.2.8: GREASE groups and shares",
                  grease + [0x001d], [(g, b"\x00") for g in grease])
    expect_served(srv, "4.2.8: x448, secp384r1, secp521r1 shares",
                  [0x001e, 0x0018, 0x0019, 0x001d],
                  [(0x001e, os.urandom(56)), (0x0018, b"\x04" * 97),
                   (0x0019, b"\x04" * 133)])
    retry(srv, "4.2.8: unknown shares, X25519 listed: HelloRetryRequest",
          ec + [0x001d], [(g, b"\xab" * 64) for g in ec])
    retry(srv, "4.2.8: ffdhe2048 share, X25519 listed: HelloRetryRequest",
          [0x0100, 0x001d], [(0x0100, b"\xab" * 256)])
    for name, groups in (("FFDHE range", ffdhe[:40]), ("EC range", ec),
                         ("x448, secp384r1, secp521r1",
                          [0x001e, 0x0018, 0x0019]),
                         ("GREASE", grease)):
        ch = client_hello(hello_exts(os.urandom(32), groups,
                                     [(g, b"\xab" * 64) for g in groups]))
        expect_plain_alert(srv, f"4.2.8: only unknown groups ({name})",
                           records(ch), "handshake_failure")


def rfc_clause_cases(srv):
    pub = os.urandom(32)

    # D.5: legacy_version of SSL 3.0 or below.
    for v in (0x0000, 0x0200, 0x0300):
        ch = bytearray(client_hello(std_exts(pub)))
        ch[4:6] = u16(v)
        expect_plain_alert(srv, f"D.5: legacy_version {v:#06x}",
                           record(HANDSHAKE, bytes(ch)), "protocol_version")

    # 4.2.8.1-2, 7.4.2: shares of our groups that are no key.
    for name, group, share in (
            ("empty X25519 share", 0x001d, b""),
            ("all-zero X25519 share", 0x001d, b"\x00" * 32),
            ("P-256 share of one zero byte", 0x0017, b"\x00"),
            ("all-zero P-256 share", 0x0017, b"\x00" * 65),
            ("P-256 share of 64 bytes", 0x0017, b"\x04" + b"\x01" * 63)):
        ch = client_hello(hello_exts(pub, [0x001d, 0x0017],
                                     [(group, share)]))
        expect_plain_alert(srv, f"4.2.8: {name}", record(HANDSHAKE, ch),
                           "illegal_parameter")

    # 9.2: supported_groups and key_share come together.
    only_groups = [e for e in std_exts(pub) if e[:2] != u16(51)]
    expect_plain_alert(srv, "9.2: supported_groups without key_share",
                       record(HANDSHAKE, client_hello(only_groups)),
                       "missing_extension")
    only_share = [e for e in std_exts(pub) if e[:2] != u16(10)]
    expect_plain_alert(srv, "9.2: key_share without supported_groups",
                       record(HANDSHAKE, client_hello(only_share)),
                       "missing_extension")
    no_sigs = [e for e in std_exts(pub) if e[:2] != u16(13)]
    expect_plain_alert(srv, "9.2: no signature_algorithms",
                       record(HANDSHAKE, client_hello(no_sigs)),
                       "missing_extension")

    # 4.1.2: legacy_compression_methods is exactly one zero byte.
    for comp in (b"\x00\x01", b"\x01\x00", b"\x00\x00"):
        expect_plain_alert(srv, f"4.1.2: compression methods {comp.hex()}",
                           record(HANDSHAKE, client_hello(std_exts(pub),
                                                          comp=comp)),
                           "illegal_parameter")

    # RFC 6066 3: a server_name that is not a DNS host name.
    for name in (b"a.example.", b"a..example", b"bad\x00name",
                 b"a\x1b[31m.example", b"a b.example", b"a_b.example"):
        ch = client_hello(hello_exts(pub, [0x001d], [(0x001d, pub)],
                                     sni=name))
        expect_plain_alert(srv, f"RFC 6066 3: server_name {name!r}",
                           record(HANDSHAKE, ch), "illegal_parameter")

    # 4.1.2: the second ClientHello repeats the first.
    groups = [0x0100, 0x001d]
    first = [(0x0100, b"\xab" * 64)]

    def changed(what):
        def build(h):
            exts = hello_exts(h.pub, groups, [(0x001d, h.pub)])
            rnd = os.urandom(32) if what == "random" else None
            if what == "server_name":
                exts = hello_exts(h.pub, groups, [(0x001d, h.pub)],
                                  sni=b"other.example.test")
            if what == "extension added":
                exts.append(ext(0x4469, b"\x01"))
            return exts, rnd, "illegal_parameter"
        return build
    for what in ("random", "server_name", "extension added"):
        retry_changed(srv, f"4.1.2: second ClientHello, {what} changed",
                      groups, first, changed(what))


def retry_changed(srv, name, groups, shares, build):
    """retry() whose second hello keeps the first random unless told."""
    def second(h):
        exts, rnd, alert = build(h)
        return exts, rnd, alert
    c = Conn(srv.port)
    h = Handshake(c)
    rnd = os.urandom(32)
    sid = os.urandom(32)
    ch1 = hello_with_random(hello_exts(h.pub, groups, shares), rnd, sid)
    c.s.sendall(records(ch1))
    if read_hrr(c) is None:
        check(name, False, "no HelloRetryRequest")
        c.close()
        return
    exts, rnd2, alert = second(h)
    ch2 = hello_with_random(exts, rnd2 or rnd, sid)
    before = srv.stats()
    c.s.sendall(record(CCS, b"\x01") + records(ch2))
    check_plain_alert(srv, name, c, before, alert)


def expect_encrypted_alert(srv, name, after_flight, alert):
    before = srv.stats()
    c = Conn(srv.port)
    h = Handshake(c)
    h.hello()
    if not h.server_flight():
        check(name, False, "no server flight")
        return
    c.s.sendall(after_flight(h))
    got = h.encrypted_alert()
    closed = c.eof()
    c.close()
    after = srv.stats()
    check(f"{name}: {alert}",
          got == ALERTS[alert] and closed and
          after["failed"] == before["failed"] + 1 and
          srv.accept(0) is None,
          f"alert {got}, closed {closed}, stats {after}")


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    srv = Server(key)
    print("TAP version 13")
    print("1..59")
    test_full(srv)
    test_one_byte_records(srv)
    hostile_cases(srv)
    unknown_groups_cases(srv)
    rfc_clause_cases(srv)
    expect_encrypted_alert(srv, "wrong client Finished",
                           lambda h: h.finished(corrupt=True),
                           "decrypt_error")
    # After the server's flight, records are under the client's handshake
    # key: unprotected bytes fail authentication.
    expect_encrypted_alert(srv, "unprotected data after the server flight",
                           lambda h: record(APPDATA, b"garbage" * 4),
                           "bad_record_mac")
    expect_encrypted_alert(srv, "ChangeCipherSpec with a wrong byte",
                           lambda h: record(CCS, b"\x02"),
                           "unexpected_message")
    expect_encrypted_alert(srv, "Finished with a truncated verify_data",
                           lambda h: h.finished(cut=1), "decode_error")
    expect_encrypted_alert(srv, "Finished claiming 64 KB",
                           lambda h: h.tx.seal(HANDSHAKE,
                                               b"\x14\x01\x00\x00"),
                           "decode_error")
    expect_encrypted_alert(srv, "Finished record with a flipped tag bit",
                           lambda h: tamper(h.finished()), "bad_record_mac")
    expect_encrypted_alert(srv, "empty protected alert",
                           lambda h: h.tx.seal(ALERT, b""), "decode_error")
    expect_encrypted_alert(srv, "unencrypted Finished",
                           lambda h: record(HANDSHAKE,
                                            b"\x14\x00\x00\x20" +
                                            bytes(32)),
                           "unexpected_message")
    expect_encrypted_alert(srv, "zero-length application data",
                           lambda h: h.tx.seal(APPDATA, b""),
                           "unexpected_message")
    # RFC 8446 5.4: TLSInnerPlaintext up to 2^14 + 1 bytes, no more.
    expect_encrypted_alert(srv, "Finished padded to 2^14 + 2 bytes",
                           lambda h: h.finished(pad=16384 - 36 + 1),
                           "record_overflow")
    test_padded_finished(srv)
    st = srv.stats()
    check("no handshake left in progress", st["in_progress"] == 0, str(st))
    srv.ls.close()
    return 0 if all(ok for _, ok in RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
