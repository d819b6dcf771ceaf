# SPDX-License-Identifier: GPL-2.0-only
"""A raw TLS 1.3 and 1.2 client for conformance tests.

Every byte it sends can be bent by a test: hellos are lists of
extensions, records are built by hand, and the key schedules (RFC 8446 7,
RFC 5246 5/6.3 with RFC 7627) are here so that the client can follow the
server under its handshake and application keys, check its
CertificateVerify, ServerKeyExchange signature and Finished, and open the
alerts it sends under whatever keys it had when it sent them.

What the server answers is raised as an exception (ServerAlert,
ServerClosed, ServerSilent) from the read that met it, so a test reads as
the happy path and the runner turns the exception into the outcome.  The
AEADs, X25519 and P-256 are cryptography's; nothing here is hand-rolled
crypto beyond HKDF/PRF glue.
"""

import hashlib
import hmac
import os
import socket
import struct
import time

from cryptography import x509
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey, X25519PublicKey)
from cryptography.hazmat.primitives.ciphers.aead import (
    AESCCM, AESGCM, ChaCha20Poly1305)
from cryptography.hazmat.primitives.serialization import (
    Encoding, PublicFormat)

CCS, ALERT, HANDSHAKE, APPDATA = 20, 21, 22, 23

# Handshake message types.
CLIENT_HELLO, SERVER_HELLO, NEW_SESSION_TICKET = 1, 2, 4
END_OF_EARLY_DATA, ENCRYPTED_EXTENSIONS = 5, 8
CERTIFICATE, SERVER_KEY_EXCHANGE, CERTIFICATE_REQUEST = 11, 12, 13
SERVER_HELLO_DONE, CERTIFICATE_VERIFY, CLIENT_KEY_EXCHANGE = 14, 15, 16
FINISHED, KEY_UPDATE, MESSAGE_HASH = 20, 24, 254

# Extensions.
EXT_SERVER_NAME, EXT_STATUS_REQUEST, EXT_SUPPORTED_GROUPS = 0, 5, 10
EXT_EC_POINT_FORMATS, EXT_SIGNATURE_ALGORITHMS, EXT_ALPN = 11, 13, 16
EXT_PADDING, EXT_EMS, EXT_RECORD_SIZE_LIMIT = 21, 23, 28
EXT_SESSION_TICKET, EXT_PRE_SHARED_KEY, EXT_EARLY_DATA = 35, 41, 42
EXT_SUPPORTED_VERSIONS, EXT_COOKIE, EXT_PSK_MODES = 43, 44, 45
EXT_SIG_ALGS_CERT, EXT_KEY_SHARE, EXT_RENEGOTIATION_INFO = 50, 51, 0xff01
EXT_POST_HANDSHAKE_AUTH = 49

X25519, SECP256R1 = 0x001d, 0x0017
ECDSA_SECP256R1_SHA256 = 0x0403

ALERTS = {
    "close_notify": 0, "unexpected_message": 10, "bad_record_mac": 20,
    "record_overflow": 22, "handshake_failure": 40, "bad_certificate": 42,
    "illegal_parameter": 47, "decode_error": 50, "decrypt_error": 51,
    "protocol_version": 70, "insufficient_security": 71,
    "internal_error": 80, "inappropriate_fallback": 86,
    "user_canceled": 90, "no_renegotiation": 100, "missing_extension": 109,
    "unsupported_extension": 110, "unrecognized_name": 112,
    "no_application_protocol": 120,
}
ALERT_NAMES = {v: k for k, v in ALERTS.items()}

HRR_RANDOM = bytes.fromhex(
    "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c")
DOWNGRADE_12 = bytes.fromhex("444f574e47524401")
GREASE = [0x0a0a + 0x1010 * i for i in range(16)]

# TLS 1.3 suites: AEAD, key length, tag length, hash.
SUITES13 = {
    0x1301: (AESGCM, 16, 16, hashlib.sha256),
    0x1302: (AESGCM, 32, 16, hashlib.sha384),
    0x1303: (ChaCha20Poly1305, 32, 16, hashlib.sha256),
    0x1304: (AESCCM, 16, 16, hashlib.sha256),
    0x1305: (AESCCM, 16, 8, hashlib.sha256),
}
# TLS 1.2 ECDHE-ECDSA AEAD suites: AEAD, key length, fixed IV length,
# PRF hash.  A 4-byte fixed IV means an explicit nonce (RFC 5288); a
# 12-byte one the RFC 7905 XOR nonce.
SUITES12 = {
    0xc02b: (AESGCM, 16, 4, hashlib.sha256),
    0xc02c: (AESGCM, 32, 4, hashlib.sha384),
    0xcca9: (ChaCha20Poly1305, 32, 12, hashlib.sha256),
}


class ServerAlert(Exception):
    """The server sent an alert; @prot says under which keys."""

    def __init__(self, desc, prot, level=2):
        super().__init__(f"{ALERT_NAMES.get(desc, desc)} ({prot})")
        self.desc, self.prot, self.level = desc, prot, level


class ServerClosed(Exception):
    """EOF or reset, without an alert first."""


class ServerSilent(Exception):
    """Nothing within the time limit."""


class Broken(Exception):
    """The server sent something a conformant server never sends."""


def u8(v):
    return bytes([v])


def u16(v):
    return struct.pack(">H", v)


def u24(v):
    return v.to_bytes(3, "big")


def vec8(b):
    return u8(len(b)) + b


def vec16(b):
    return u16(len(b)) + b


def vec24(b):
    return u24(len(b)) + b


def record(typ, payload, version=0x0303):
    return u8(typ) + u16(version) + vec16(payload)


def hs_msg(typ, body):
    return u8(typ) + vec24(body)


def ext(typ, data):
    return u16(typ) + vec16(data)


def u16list(vals):
    return b"".join(u16(v) for v in vals)


def hello_body(exts, suites, version=0x0303, sid=b"", comp=b"\x00",
               random=None):
    """The body of a ClientHello; @exts a list of (type, data) or raw
    bytes; None for no extensions block at all."""
    random = os.urandom(32) if random is None else random
    body = (u16(version) + random + vec8(sid) + vec16(u16list(suites)) +
            vec8(comp))
    if exts is not None:
        body += vec16(b"".join(e if isinstance(e, bytes) else ext(*e)
                               for e in exts))
    return body


def parse_exts(data):
    """{type: data} of an extension block (without its length)."""
    out, off = {}, 0
    while off + 4 <= len(data):
        typ, n = struct.unpack(">HH", data[off:off + 4])
        out[typ] = data[off + 4:off + 4 + n]
        off += 4 + n
    if off != len(data):
        raise Broken("bad extension block")
    return out


def parse_server_hello(msg):
    """(random, session_id, suite, compression, extensions)."""
    b = msg[4:]
    random = b[2:34]
    n = b[34]
    sid = b[35:35 + n]
    off = 35 + n
    suite = struct.unpack(">H", b[off:off + 2])[0]
    comp = b[off + 2]
    off += 3
    exts = {}
    if off < len(b):
        elen = struct.unpack(">H", b[off:off + 2])[0]
        exts = parse_exts(b[off + 2:off + 2 + elen])
    if struct.unpack(">H", b[:2])[0] != 0x0303:
        raise Broken("ServerHello.legacy_version is not 0x0303")
    return random, sid, suite, comp, exts


# --- key exchange ----------------------------------------------------

class KeyShare:
    """An ephemeral X25519 or P-256 key of the client."""

    def __init__(self, group):
        self.group = group
        if group == X25519:
            self.priv = X25519PrivateKey.generate()
            self.pub = self.priv.public_key().public_bytes(
                Encoding.Raw, PublicFormat.Raw)
        elif group == SECP256R1:
            self.priv = ec.generate_private_key(ec.SECP256R1())
            self.pub = self.priv.public_key().public_bytes(
                Encoding.X962, PublicFormat.UncompressedPoint)
        else:
            raise ValueError(group)

    def shared(self, peer):
        try:
            if self.group == X25519:
                return self.priv.exchange(
                    X25519PublicKey.from_public_bytes(peer))
            pk = ec.EllipticCurvePublicKey.from_encoded_point(
                ec.SECP256R1(), peer)
            return self.priv.exchange(ec.ECDH(), pk)
        except ValueError:
            raise Broken("server key share is not a valid point")


def verify_ecdsa(cert_der, scheme, sig, data):
    if scheme not in (0x0403, 0x0503, 0x0603):
        raise Broken(f"signature scheme {scheme:#06x} not ECDSA")
    h = {0x0403: hashes.SHA256, 0x0503: hashes.SHA384,
         0x0603: hashes.SHA512}[scheme]()
    key = x509.load_der_x509_certificate(cert_der).public_key()
    try:
        key.verify(sig, data, ec.ECDSA(h))
    except InvalidSignature:
        raise Broken("server signature does not verify")


# --- TLS 1.3 key schedule ---------------------------------------------

def hkdf_extract(h, salt, ikm):
    return hmac.new(salt or bytes(h().digest_size), ikm, h).digest()


def expand_label(h, secret, label, ctx, length):
    info = u16(length) + vec8(b"tls13 " + label) + vec8(ctx)
    out, t, i = b"", b"", 1
    while len(out) < length:
        t = hmac.new(secret, t + info + u8(i), h).digest()
        out += t
        i += 1
    return out[:length]


def derive_secret(h, secret, label, transcript):
    return expand_label(h, secret, label, h(transcript).digest(),
                        h().digest_size)


class Keys13:
    """One direction's TLS 1.3 record protection (RFC 8446 5.2, 5.3)."""

    def __init__(self, suite, secret):
        aead, klen, self.tag, self.h = SUITES13[suite]
        self.suite, self.secret = suite, secret
        key = expand_label(self.h, secret, b"key", b"", klen)
        self.aead = aead(key, tag_length=self.tag) if aead is AESCCM \
            else aead(key)
        self.iv = expand_label(self.h, secret, b"iv", b"", 12)
        self.seq = 0

    def nonce(self):
        n = bytes(a ^ b for a, b in zip(self.iv, self.seq.to_bytes(12, "big")))
        self.seq += 1
        return n

    def seal_inner(self, inner, outer=APPDATA, version=0x0303, length=None):
        """A record of @inner (TLSInnerPlaintext); @length forges the
        header's length (the AAD says the same)."""
        n = len(inner) + self.tag if length is None else length
        hdr = u8(outer) + u16(version) + u16(n)
        return hdr + self.aead.encrypt(self.nonce(), inner, hdr)

    def seal(self, typ, data, pad=0):
        return self.seal_inner(data + u8(typ) + bytes(pad))

    def open(self, hdr, body):
        inner = self.aead.decrypt(self.nonce(), body, hdr).rstrip(b"\x00")
        if not inner:
            raise Broken("server record without a content type")
        return inner[-1], inner[:-1]

    def updated(self):
        return Keys13(self.suite, expand_label(
            self.h, self.secret, b"traffic upd", b"", self.h().digest_size))


# --- the connection ---------------------------------------------------

# How long a read waits for the server: KTLS_CONF_TIMEOUT seconds (a
# slow kernel, KASAN under emulation, needs more than the default).
READ_TIMEOUT = float(os.environ.get("KTLS_CONF_TIMEOUT", "4"))


class Conn:
    """A TCP connection that reads records; the server's alerts become
    exceptions, opened under the keys set as rx (None: plaintext)."""

    def __init__(self, port, addr="127.0.0.1", timeout=READ_TIMEOUT):
        self.s = socket.create_connection((addr, port), timeout=timeout)
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.rx = None          # Keys13/Keys12 the server now writes with
        self.prot = "plain"     # its name, for the alerts it opens
        self.alt = []           # (keys, prot): what else an alert may be under
        self.version = 0x0304

    def send(self, data):
        try:
            self.s.sendall(data)
        except OSError:
            # The server may have closed already: what it said is in the
            # receive queue, and the next read reports it.
            pass

    def raw_record(self):
        """(header, body); ServerClosed/ServerSilent otherwise."""
        while True:
            if len(self.buf) >= 5:
                n = struct.unpack(">H", self.buf[3:5])[0]
                if len(self.buf) >= 5 + n:
                    hdr, body = self.buf[:5], self.buf[5:5 + n]
                    self.buf = self.buf[5 + n:]
                    return hdr, body
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                raise ServerSilent()
            except OSError:
                data = b""
            if not data:
                if self.buf:
                    raise Broken("EOF inside a record")
                raise ServerClosed()
            self.buf += data

    def read(self):
        """(content type, plaintext) of the next record; an alert raises."""
        hdr, body = self.raw_record()
        typ = hdr[0]
        if self.rx is None:
            if typ == ALERT:
                self._alert(body, "plain")
            return typ, body
        if self.version == 0x0304:
            if typ == ALERT:
                # A plaintext alert where the keys are in use.
                self._alert(body, "plain")
            if typ == CCS:
                return typ, body
            if typ != APPDATA:
                raise Broken(f"unprotected record of type {typ}")
            seq = self.rx.seq
            try:
                typ, data = self.rx.open(hdr, body)
            except InvalidTag:
                self.rx.seq = seq
                self._try_alt(hdr, body)
                raise Broken("server record does not open")
            if typ == ALERT:
                self._alert(data, self.prot)
            return typ, data
        if typ in (ALERT, HANDSHAKE, APPDATA):
            try:
                data = self.rx.open(typ, body)
            except (InvalidTag, ValueError):
                if typ == ALERT:
                    self._alert(body, "plain")
                raise Broken("server record does not open")
            if typ == ALERT:
                self._alert(data, self.prot)
            return typ, data
        return typ, body

    def _try_alt(self, hdr, body):
        for keys, prot in self.alt:
            k = Keys13(keys.suite, keys.secret)
            for seq in range(0, 8):
                k.seq = seq
                try:
                    typ, data = k.open(hdr, body)
                except InvalidTag:
                    continue
                if typ == ALERT:
                    self._alert(data, prot)
                raise Broken(f"server record under {prot} keys")

    @staticmethod
    def _alert(body, prot):
        if len(body) != 2:
            raise Broken(f"alert of {len(body)} bytes")
        raise ServerAlert(body[1], prot, body[0])

    def closes(self, limit=READ_TIMEOUT):
        """True if the server closes (after at most a close_notify)."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            self.s.settimeout(max(0.05, end - time.monotonic()))
            try:
                self.read()
            except ServerAlert as a:
                if a.desc != 0:
                    return False
            except ServerClosed:
                return True
            except (ServerSilent, Broken):
                return False
        return False

    def close(self):
        self.s.close()


class LazyShares(dict):
    """Ephemeral keys per group, made on first use (P-256 keys are slow
    to make under emulation, and most tests need only X25519)."""

    def __missing__(self, group):
        self[group] = KeyShare(group)
        return self[group]

    def __contains__(self, group):
        return group in (X25519, SECP256R1)


# --- TLS 1.3 client ----------------------------------------------------

def std_exts13(shares, groups=(X25519, SECP256R1),
               sigalgs=(0x0403, 0x0804, 0x0401), sni=b"www.example.test",
               versions=(0x0304,)):
    """The extensions of a plain TLS 1.3 ClientHello, in order; @shares
    are (group, bytes)."""
    exts = []
    if sni is not None:
        exts.append((EXT_SERVER_NAME, vec16(b"\x00" + vec16(sni))))
    if groups is not None:
        exts.append((EXT_SUPPORTED_GROUPS, vec16(u16list(groups))))
    if sigalgs is not None:
        exts.append((EXT_SIGNATURE_ALGORITHMS, vec16(u16list(sigalgs))))
    if versions is not None:
        exts.append((EXT_SUPPORTED_VERSIONS, vec8(u16list(versions))))
    if shares is not None:
        exts.append((EXT_KEY_SHARE, vec16(b"".join(
            u16(g) + vec16(p) for g, p in shares))))
    return exts


class Ticket13:
    def __init__(self, suite, lifetime, age_add, nonce, ticket, psk):
        self.suite, self.lifetime, self.age_add = suite, lifetime, age_add
        self.nonce, self.ticket, self.psk = nonce, ticket, psk
        self.received = time.monotonic()


class Client13:
    """The client side of a TLS 1.3 handshake, step by step."""

    def __init__(self, conn, suites=(0x1301, 0x1302, 0x1303),
                 share_groups=(X25519,)):
        self.c = conn
        self.suites = suites
        self.keys = LazyShares()
        self.share_groups = share_groups
        self.transcript = b""
        self.msgs = b""
        self.psk = None
        self.tickets = []
        self.hrr = None
        self.sid = os.urandom(32)
        self.ch = None

    # The ClientHello.

    def default_exts(self, share_groups=None, **kw):
        groups = self.share_groups if share_groups is None else share_groups
        return std_exts13([(g, self.keys[g].pub) for g in groups], **kw)

    def hello(self, exts=None, suites=None, version=0x0303, sid=None,
              comp=b"\x00", rec_version=0x0301, ticket=None, binder=None,
              psk_modes=b"\x01", split=None, random=None, extra=b""):
        """Sends the ClientHello; @ticket appends psk_key_exchange_modes
        and pre_shared_key, @binder forges its binder; @split cuts the
        message into records of that many bytes; @extra follows the
        message in its last record."""
        exts = list(self.default_exts() if exts is None else exts)
        self.sid = self.sid if sid is None else sid
        self.random = os.urandom(32) if random is None else random
        suites = self.suites if suites is None else suites
        if ticket is not None:
            exts.append((EXT_PSK_MODES, vec8(psk_modes)))
            age = int((time.monotonic() - ticket.received) * 1000)
            ident = vec16(ticket.ticket) + struct.pack(
                ">I", (age + ticket.age_add) & 0xffffffff)
            h = SUITES13[ticket.suite][3]
            hlen = h().digest_size
            blen = hlen if binder is None else len(binder)
            exts.append((EXT_PRE_SHARED_KEY, vec16(ident) +
                         vec16(vec8(bytes(blen)))))
            body = hello_body(exts, suites, version, self.sid, comp,
                              self.random)
            msg = hs_msg(CLIENT_HELLO, body)
            partial = msg[:-(2 + 1 + blen)]
            early = hkdf_extract(h, None, ticket.psk)
            bkey = expand_label(h, derive_secret(h, early, b"res binder", b""),
                                b"finished", b"", hlen)
            real = hmac.new(bkey, h(self.transcript + partial).digest(),
                            h).digest()
            self.psk = ticket.psk
            msg = partial + vec16(vec8(binder if binder is not None
                                       else real))
        else:
            msg = hs_msg(CLIENT_HELLO, hello_body(exts, suites, version,
                                                  self.sid, comp,
                                                  self.random))
        self.ch = msg
        self.transcript += msg
        self.send_hs(msg, split, rec_version, extra)
        return msg

    def send_hs(self, msg, split=None, rec_version=0x0301, extra=b""):
        data = msg + extra
        if split:
            recs = [record(HANDSHAKE, data[i:i + split], rec_version)
                    for i in range(0, len(data), split)]
        else:
            recs = [record(HANDSHAKE, data, rec_version)]
        self.c.send(b"".join(recs))

    # The server's flight.

    def next_msg(self):
        """The next handshake message (under the current rx keys)."""
        while True:
            if len(self.msgs) >= 4:
                n = int.from_bytes(self.msgs[1:4], "big")
                if len(self.msgs) >= 4 + n:
                    m, self.msgs = self.msgs[:4 + n], self.msgs[4 + n:]
                    return m
            typ, data = self.c.read()
            if typ == CCS:
                if data != b"\x01":
                    raise Broken("bad ChangeCipherSpec from the server")
                continue
            if typ != HANDSHAKE:
                raise Broken(f"record of type {typ} in the handshake")
            self.msgs += data

    def server_hello(self):
        """Reads ServerHello or HelloRetryRequest; True for an HRR."""
        sh = self.next_msg()
        if sh[0] != SERVER_HELLO:
            raise Broken(f"message {sh[0]} instead of ServerHello")
        random, sid, suite, comp, exts = parse_server_hello(sh)
        if sid != self.sid:
            raise Broken("legacy_session_id_echo differs (RFC 8446 4.1.3)")
        if comp != 0 or suite not in self.suites_sent():
            raise Broken(f"suite {suite:#x} / compression {comp} not offered")
        if exts.get(EXT_SUPPORTED_VERSIONS) != u16(0x0304):
            if random[24:] == DOWNGRADE_12:
                raise Broken("server negotiated TLS 1.2")
            raise Broken("ServerHello without supported_versions 1.3")
        self.suite = suite
        self.h = SUITES13[suite][3]
        self.hlen = self.h().digest_size
        if random == HRR_RANDOM:
            if self.hrr is not None:
                raise Broken("a second HelloRetryRequest")
            self.hrr = exts
            self.hrr_suite = suite
            ks = exts.get(EXT_KEY_SHARE)
            self.hrr_group = struct.unpack(">H", ks)[0] if ks else None
            self.cookie = exts.get(EXT_COOKIE)
            # RFC 8446 4.4.1: the first ClientHello becomes message_hash.
            ch1 = self.h(self.transcript).digest()
            self.transcript = hs_msg(MESSAGE_HASH, ch1) + sh
            return True
        if set(exts) - {EXT_SUPPORTED_VERSIONS, EXT_KEY_SHARE,
                        EXT_PRE_SHARED_KEY}:
            raise Broken(f"ServerHello extensions {sorted(exts)}")
        self.transcript += sh
        if self.hrr is not None and suite != self.hrr_suite:
            raise Broken("suite changed after HRR (RFC 8446 4.1.4)")
        self.resumed = EXT_PRE_SHARED_KEY in exts
        ks = exts.get(EXT_KEY_SHARE)
        if ks is None and not self.resumed:
            raise Broken("ServerHello without key_share")
        if ks is None:
            # psk_ke: no (EC)DHE input (RFC 8446 7.1).
            shared, self.group = bytes(self.hlen), None
        else:
            group = struct.unpack(">H", ks[:2])[0]
            if group not in self.keys:
                raise Broken(f"server chose group {group:#x}")
            shared = self.keys[group].shared(ks[4:])
            self.group = group
        self.keys_after_hello(shared)
        return False

    def suites_sent(self):
        body = self.ch[4:]
        off = 2 + 32 + 1 + body[34]
        n = struct.unpack(">H", body[off:off + 2])[0]
        return [struct.unpack(">H", body[off + 2 + i:off + 4 + i])[0]
                for i in range(0, n, 2)]

    def keys_after_hello(self, shared):
        h, hl = self.h, self.hlen
        psk = self.psk if self.psk is not None and self.resumed \
            else bytes(hl)
        early = hkdf_extract(h, None, psk)
        hs = hkdf_extract(h, derive_secret(h, early, b"derived", b""), shared)
        self.c_hs = derive_secret(h, hs, b"c hs traffic", self.transcript)
        self.s_hs = derive_secret(h, hs, b"s hs traffic", self.transcript)
        self.master = hkdf_extract(h, derive_secret(h, hs, b"derived", b""),
                                   bytes(hl))
        self.c.rx = Keys13(self.suite, self.s_hs)
        self.c.prot = "handshake"
        self.tx = Keys13(self.suite, self.c_hs)

    def flight(self):
        """EncryptedExtensions .. Finished, each checked."""
        ee = self.next_msg()
        if ee[0] != ENCRYPTED_EXTENSIONS:
            raise Broken(f"message {ee[0]} instead of EncryptedExtensions")
        self.ee = parse_exts(ee[6:])
        self.transcript += ee
        if not self.resumed:
            cert = self.next_msg()
            if cert[0] != CERTIFICATE:
                raise Broken(f"message {cert[0]} instead of Certificate")
            self.transcript += cert
            # certificate_request_context<0>, certificate_list<3>
            ctx = cert[4]
            off = 5 + ctx + 3
            n = int.from_bytes(cert[off:off + 3], "big")
            leaf = cert[off + 3:off + 3 + n]
            cv = self.next_msg()
            if cv[0] != CERTIFICATE_VERIFY:
                raise Broken(f"message {cv[0]} instead of CertificateVerify")
            scheme, slen = struct.unpack(">HH", cv[4:8])
            content = (b" " * 64 + b"TLS 1.3, server CertificateVerify\x00" +
                       self.h(self.transcript).digest())
            verify_ecdsa(leaf, scheme, cv[8:8 + slen], content)
            self.transcript += cv
        fin = self.next_msg()
        if fin[0] != FINISHED:
            raise Broken(f"message {fin[0]} instead of Finished")
        key = expand_label(self.h, self.s_hs, b"finished", b"", self.hlen)
        want = hmac.new(key, self.h(self.transcript).digest(),
                        self.h).digest()
        if fin[4:] != want:
            raise Broken("server Finished does not verify")
        self.transcript += fin
        self.c_ap = derive_secret(self.h, self.master, b"c ap traffic",
                                  self.transcript)
        self.s_ap = derive_secret(self.h, self.master, b"s ap traffic",
                                  self.transcript)
        self.app_tx = Keys13(self.suite, self.c_ap)
        # RFC 8446 2, 4.4.4: once its Finished is out, the server writes
        # under its application keys, alerts included (6).
        self.c.alt = [(self.c.rx, "handshake")]
        self.c.rx = Keys13(self.suite, self.s_ap)
        self.c.prot = "application"

    def finished_msg(self, corrupt=False, length=None):
        key = expand_label(self.h, self.c_hs, b"finished", b"", self.hlen)
        vd = hmac.new(key, self.h(self.transcript).digest(), self.h).digest()
        if corrupt:
            vd = bytes([vd[0] ^ 1]) + vd[1:]
        if length is not None:
            vd = (vd * 2)[:length]
        return hs_msg(FINISHED, vd)

    def finish(self, extra=b"", records=None):
        """Client Finished (and @extra records after it, under the
        application keys); @records: the Finished as the caller sealed
        it."""
        fin = self.finished_msg()
        self.c.send((records or self.tx.seal(HANDSHAKE, fin)) + extra)
        self.transcript += fin
        self.res_master = derive_secret(self.h, self.master, b"res master",
                                        self.transcript)

    def handshake(self, **hello):
        """A whole handshake, HRR included; the HRR answer keeps the
        extensions but the key share."""
        exts = hello.pop("exts", None)
        self.hello(exts=exts, **hello)
        if self.server_hello():
            self.retry(exts)
            if self.server_hello():
                raise Broken("second HRR")
        self.flight()
        self.finish()

    def retry(self, exts=None, share_group=None, mutate=None, ccs=False):
        """The second ClientHello after an HRR: the same one with a share
        for the group the server asked for (and its cookie)."""
        group = self.hrr_group if share_group is None else share_group
        base = list(self.default_exts() if exts is None else exts)
        new = []
        for e in base:
            if e[0] == EXT_KEY_SHARE:
                e = (EXT_KEY_SHARE, vec16(u16(group) + vec16(
                    self.keys[group].pub if group in self.keys
                    else os.urandom(32))))
            new.append(e)
        if self.cookie is not None:
            new.append((EXT_COOKIE, self.cookie))
        kw = {"random": self.random}
        if mutate:
            new, kw = mutate(new, kw)
        if ccs:
            self.c.send(record(CCS, b"\x01"))
        self.hello(exts=new, rec_version=0x0303, **kw)

    # After the handshake.

    def app_send(self, data):
        self.c.send(self.app_tx.seal(APPDATA, data))

    def app_read(self):
        """The next application data; tickets are kept, KeyUpdates
        followed (and answered when asked)."""
        while True:
            typ, data = self.c.read()
            if typ == APPDATA:
                return data
            if typ != HANDSHAKE:
                raise Broken(f"record of type {typ} after the handshake")
            self.msgs += data
            while len(self.msgs) >= 4:
                n = int.from_bytes(self.msgs[1:4], "big")
                if len(self.msgs) < 4 + n:
                    break
                m, self.msgs = self.msgs[:4 + n], self.msgs[4 + n:]
                self.post_handshake(m)

    def post_handshake(self, m):
        if m[0] == NEW_SESSION_TICKET:
            b = m[4:]
            lifetime, age_add = struct.unpack(">II", b[:8])
            nonce = b[9:9 + b[8]]
            off = 9 + b[8]
            tlen = struct.unpack(">H", b[off:off + 2])[0]
            ticket = b[off + 2:off + 2 + tlen]
            psk = expand_label(self.h, self.res_master, b"resumption",
                               nonce, self.hlen)
            self.tickets.append(Ticket13(self.suite, lifetime, age_add,
                                         nonce, ticket, psk))
        elif m[0] == KEY_UPDATE:
            self.c.rx = self.c.rx.updated()
        else:
            raise Broken(f"post-handshake message {m[0]}")

    def echo(self, line=None):
        """Application data one way and back: the server reverses a line."""
        line = line or b"ping-" + os.urandom(6).hex().encode()
        self.app_send(line + b"\n")
        return self.read_line() == line[::-1]

    def read_line(self):
        got = b""
        while not got.endswith(b"\n"):
            got += self.app_read()
        return got[:-1]


# --- TLS 1.2 ----------------------------------------------------------

def prf(h, secret, label, seed, n):
    """RFC 5246 5, P_hash."""
    seed = label + seed
    a, out = seed, b""
    while len(out) < n:
        a = hmac.new(secret, a, h).digest()
        out += hmac.new(secret, a + seed, h).digest()
    return out[:n]


class Keys12:
    """One direction's TLS 1.2 AEAD protection (RFC 5246 6.2.3.3)."""

    def __init__(self, suite, key, iv):
        aead, _, ivlen, _ = SUITES12[suite]
        self.aead = aead(key)
        self.iv = iv
        self.explicit = ivlen == 4
        self.seq = 0

    def nonce(self, explicit=None):
        if self.explicit:
            return self.iv + explicit
        return bytes(a ^ b for a, b in
                     zip(self.iv, self.seq.to_bytes(12, "big")))

    def seal(self, typ, data, length=None):
        aad = self.seq.to_bytes(8, "big") + u8(typ) + u16(0x0303) + \
            u16(len(data))
        explicit = self.seq.to_bytes(8, "big")
        ct = self.aead.encrypt(self.nonce(explicit), data, aad)
        self.seq += 1
        body = (explicit if self.explicit else b"") + ct
        if length is not None:
            return u8(typ) + u16(0x0303) + u16(length) + body
        return record(typ, body)

    def open(self, typ, body):
        ex = 8 if self.explicit else 0
        n = len(body) - ex - 16
        if n < 0:
            raise ValueError("short record")
        aad = self.seq.to_bytes(8, "big") + u8(typ) + u16(0x0303) + u16(n)
        pt = self.aead.decrypt(self.nonce(body[:ex]), body[ex:], aad)
        self.seq += 1
        return pt


def std_exts12(groups=(X25519, SECP256R1), sigalgs=(0x0403, 0x0804),
               sni=b"www.example.test", formats=b"\x00", ems=True,
               reneg=b"\x00", ticket=None):
    exts = []
    if sni is not None:
        exts.append((EXT_SERVER_NAME, vec16(b"\x00" + vec16(sni))))
    if groups is not None:
        exts.append((EXT_SUPPORTED_GROUPS, vec16(u16list(groups))))
    if formats is not None:
        exts.append((EXT_EC_POINT_FORMATS, vec8(formats)))
    if sigalgs is not None:
        exts.append((EXT_SIGNATURE_ALGORITHMS, vec16(u16list(sigalgs))))
    if ems:
        exts.append((EXT_EMS, b""))
    if reneg is not None:
        exts.append((EXT_RENEGOTIATION_INFO, reneg))
    if ticket is not None:
        exts.append((EXT_SESSION_TICKET, ticket))
    return exts


class Session12:
    def __init__(self, suite, master, ticket, ems):
        self.suite, self.master, self.ticket, self.ems = \
            suite, master, ticket, ems


class Client12:
    """The client side of a TLS 1.2 ECDHE-ECDSA handshake, step by step."""

    def __init__(self, conn, suites=(0xc02b, 0xc02c, 0xcca9)):
        self.c = conn
        conn.version = 0x0303
        self.suites = suites
        self.transcript = b""
        self.msgs = b""
        self.ems = True
        self.ticket = None
        self.session = None
        self.sid = b""

    def hello(self, exts=None, suites=None, version=0x0303, sid=b"",
              comp=b"\x00", rec_version=0x0301, split=None, extra=b""):
        self.exts = list(std_exts12() if exts is None else exts)
        self.ems = any(e[0] == EXT_EMS for e in self.exts
                       if not isinstance(e, bytes))
        self.offered_ticket = any(e[0] == EXT_SESSION_TICKET
                                  for e in self.exts
                                  if not isinstance(e, bytes))
        self.sid = sid
        self.random = os.urandom(32)
        msg = hs_msg(CLIENT_HELLO, hello_body(
            self.exts, self.suites if suites is None else suites, version,
            sid, comp, self.random))
        self.ch = msg
        self.transcript = msg
        data = msg + extra
        step = split or len(data)
        self.c.send(b"".join(record(HANDSHAKE, data[i:i + step], rec_version)
                             for i in range(0, len(data), step)))
        return msg

    def next_msg(self):
        while True:
            if len(self.msgs) >= 4:
                n = int.from_bytes(self.msgs[1:4], "big")
                if len(self.msgs) >= 4 + n:
                    m, self.msgs = self.msgs[:4 + n], self.msgs[4 + n:]
                    return m
            typ, data = self.c.read()
            if typ != HANDSHAKE:
                raise Broken(f"record of type {typ} in the handshake")
            self.msgs += data

    def signals_reneg(self):
        """RFC 5746 3.6: the extension or the SCSV."""
        body = self.ch[4:]
        off = 2 + 32 + 1 + body[34]
        n = struct.unpack(">H", body[off:off + 2])[0]
        scsv = any(body[off + 2 + i:off + 4 + i] == b"\x00\xff"
                   for i in range(0, n, 2))
        return scsv or any(not isinstance(e, bytes) and
                           e[0] == EXT_RENEGOTIATION_INFO for e in self.exts)

    def server_hello(self):
        sh = self.next_msg()
        if sh[0] != SERVER_HELLO:
            raise Broken(f"message {sh[0]} instead of ServerHello")
        random, sid, suite, comp, exts = parse_server_hello(sh)
        self.server_random = random
        if EXT_SUPPORTED_VERSIONS in exts:
            raise Broken("TLS 1.2 ServerHello with supported_versions")
        if random[24:] != DOWNGRADE_12:
            raise Broken("no TLS 1.2 downgrade sentinel (RFC 8446 4.1.3)")
        if comp != 0 or suite not in self.suites:
            raise Broken(f"suite {suite:#x} / compression {comp} not offered")
        if self.ems and EXT_EMS not in exts:
            raise Broken("extended_master_secret not echoed (RFC 7627 5.2)")
        if not self.ems and EXT_EMS in exts:
            raise Broken("extended_master_secret not offered, yet echoed")
        ri = exts.get(EXT_RENEGOTIATION_INFO)
        if self.signals_reneg() and ri != b"\x00":
            raise Broken("no empty renegotiation_info (RFC 5746 3.6)")
        self.suite = suite
        self.h = SUITES12[suite][3]
        self.sh_exts = exts
        self.server_sid = sid
        self.transcript += sh
        # A resumed session: the server echoes our session id.
        self.resumed = self.session is not None and sid == self.sid and \
            len(sid) > 0
        return self.resumed

    def flight(self):
        """Certificate .. ServerHelloDone, the signature checked."""
        cert = self.next_msg()
        if cert[0] != CERTIFICATE:
            raise Broken(f"message {cert[0]} instead of Certificate")
        self.transcript += cert
        n = int.from_bytes(cert[7:10], "big")
        leaf = cert[10:10 + n]
        ske = self.next_msg()
        if ske[0] != SERVER_KEY_EXCHANGE:
            raise Broken(f"message {ske[0]} instead of ServerKeyExchange")
        self.transcript += ske
        b = ske[4:]
        if b[0] != 3:
            raise Broken("ServerKeyExchange not named_curve")
        group = struct.unpack(">H", b[1:3])[0]
        plen = b[3]
        params = b[:4 + plen]
        point = b[4:4 + plen]
        scheme, slen = struct.unpack(">HH", b[4 + plen:8 + plen])
        verify_ecdsa(leaf, scheme, b[8 + plen:8 + plen + slen],
                     self.random + self.server_random + params)
        if group not in (X25519, SECP256R1):
            raise Broken(f"server chose group {group:#x}")
        self.group, self.server_point = group, point
        done = self.next_msg()
        if done != hs_msg(SERVER_HELLO_DONE, b""):
            raise Broken("no ServerHelloDone")
        self.transcript += done

    def cke(self, point=None, body=None):
        """ClientKeyExchange; the keys are derived unless the point is
        forged."""
        share = KeyShare(self.group)
        if body is None:
            body = vec8(share.pub if point is None else point)
        msg = hs_msg(CLIENT_KEY_EXCHANGE, body)
        self.transcript += msg
        if point is None:
            pms = share.shared(self.server_point)
            if self.ems:
                self.master = prf(self.h, pms, b"extended master secret",
                                  self.h(self.transcript).digest(), 48)
            else:
                self.master = prf(self.h, pms, b"master secret",
                                  self.random + self.server_random, 48)
            self.derive_keys()
        return record(HANDSHAKE, msg)

    def derive_keys(self):
        _, klen, ivlen, _ = SUITES12[self.suite]
        kb = prf(self.h, self.master, b"key expansion",
                 self.server_random + self.random, 2 * klen + 2 * ivlen)
        self.tx = Keys12(self.suite, kb[:klen], kb[2 * klen:2 * klen + ivlen])
        self.rx = Keys12(self.suite, kb[klen:2 * klen],
                         kb[2 * klen + ivlen:2 * klen + 2 * ivlen])

    def finished_msg(self, corrupt=False, length=12):
        vd = prf(self.h, self.master, b"client finished",
                 self.h(self.transcript).digest(), 12)
        if corrupt:
            vd = bytes([vd[0] ^ 1]) + vd[1:]
        return hs_msg(FINISHED, (vd * 2)[:length])

    def finished(self):
        fin = self.finished_msg()
        self.transcript += fin
        return record(CCS, b"\x01") + self.tx.seal(HANDSHAKE, fin)

    def server_finished(self):
        """[NewSessionTicket], ChangeCipherSpec, Finished (checked)."""
        while True:
            typ, data = self.c.read()
            if typ == CCS:
                break
            if typ != HANDSHAKE:
                raise Broken(f"record {typ} before the server's CCS")
            self.msgs += data
            m = self.next_msg()
            if m[0] != NEW_SESSION_TICKET or not self.offered_ticket:
                raise Broken(f"message {m[0]} before the server's CCS")
            tlen = struct.unpack(">H", m[8:10])[0]
            self.ticket = m[10:10 + tlen]
            self.transcript += m
        if data != b"\x01" or self.msgs:
            raise Broken("bad ChangeCipherSpec from the server")
        self.c.rx = self.rx
        self.c.prot = "after-ccs"
        typ, fin = self.c.read()
        if typ != HANDSHAKE:
            raise Broken("no Finished after the server's CCS")
        vd = prf(self.h, self.master, b"server finished",
                 self.h(self.transcript).digest(), 12)
        if fin != hs_msg(FINISHED, vd):
            raise Broken("server Finished does not verify")
        self.transcript += fin
        if self.ticket is not None:
            self.session = Session12(self.suite, self.master, self.ticket,
                                     self.ems)

    def handshake(self, extra=b"", **hello):
        self.hello(**hello)
        self.server_hello()
        self.flight()
        self.c.send(self.cke() + self.finished() + extra)
        self.server_finished()

    def resume(self, session, **hello):
        """An abbreviated handshake with @session's ticket."""
        self.session = session
        exts = hello.pop("exts", None) or std_exts12(ticket=session.ticket)
        self.hello(exts=exts, sid=os.urandom(32), **hello)
        if not self.server_hello():
            raise Broken("server did not resume")
        if self.suite != session.suite:
            raise Broken("resumed with another suite")
        self.master = session.master
        self.derive_keys()
        self.server_finished()
        fin = self.finished_msg()
        self.transcript += fin
        self.c.send(record(CCS, b"\x01") + self.tx.seal(HANDSHAKE, fin))

    def app_send(self, data):
        self.c.send(self.tx.seal(APPDATA, data))

    def read_line(self):
        got = b""
        while not got.endswith(b"\n"):
            typ, data = self.c.read()
            if typ != APPDATA:
                raise Broken(f"record {typ} after the handshake")
            got += data
        return got[:-1]

    def echo(self, line=None):
        line = line or b"ping-" + os.urandom(6).hex().encode()
        self.app_send(line + b"\n")
        return self.read_line() == line[::-1]
