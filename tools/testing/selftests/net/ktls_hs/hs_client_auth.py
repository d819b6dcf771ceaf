#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Client certificates (RFC 8446 4.3.2, 4.4.2, 4.4.3) against an armed
listener, with a raw TLS 1.3 client: the CertificateRequest in the
server's flight, a client's Certificate, CertificateVerify and Finished
in one record and in three, the peer seen through KTLS_HS_PEER; then
clients that break the rules, each of which must get its alert and never
reach accept(); and KTLS_HS_CLIENT_AUTH's argument checks.  The same
for TLS 1.2 (RFC 5246 7.4.4, 7.4.6, 7.4.8) with the raw client of
hs_tls12_hostile.py: Certificate, ClientKeyExchange and
CertificateVerify in one record and in three, and the hostile ones,
whose alerts come in the clear before the client's ChangeCipherSpec.

KTLS_HS_KEY names the server's identity key, KTLS_TRUST a "ktls_trust"
key holding the client CA, KTLS_PKI the directory of the client
certificates (leaf1.pem/.key under that CA, unknown.pem/.key under
another).  Output is KTAP.
"""

import ctypes
import errno
import hashlib
import hmac
import os
import socket
import struct
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography import x509

import hs_hostile as hh
import hs_tls12_hostile as h12
from hs_hostile import (ALERTS, HANDSHAKE, SOL_TLS, Conn, Handshake, check,
                        client_hello, ext, expand_label, record, u16, vec16)

KTLS_HS_CLIENT_AUTH = 116
KTLS_HS_PEER = 117
NONE, OPTIONAL, REQUIRED = 0, 1, 2
F_CA_NAMES = 1
PEER_INFO = struct.Struct("32sqII256s256s1024s")

ALERTS.update({"bad_certificate": 42, "unsupported_certificate": 43,
               "certificate_expired": 45, "unknown_ca": 48,
               "unsupported_extension": 110, "certificate_required": 116})


def auth_opt(mode, trust, flags=0, reserved=0):
    return struct.pack("IiII", mode, trust, flags, reserved)


class AuthServer(hh.Server):
    """An armed TLS 1.3 listener asking for client certificates."""

    def __init__(self, key, trust, mode=REQUIRED, flags=0):
        super().__init__(key)
        if mode != NONE:
            self.ls.setsockopt(SOL_TLS, KTLS_HS_CLIENT_AUTH,
                               auth_opt(mode, trust, flags))


def load(name):
    d = os.environ["KTLS_PKI"]
    with open(f"{d}/{name}.pem", "rb") as f:
        cert = x509.load_pem_x509_certificate(f.read())
    with open(f"{d}/{name}.key", "rb") as f:
        key = serialization.load_pem_private_key(f.read(), None)
    return cert.public_bytes(serialization.Encoding.DER), key


def msg(typ, body):
    return bytes([typ]) + len(body).to_bytes(3, "big") + body


def certificate(ders, ctx=b"", entry_ext=b""):
    entries = b"".join(len(d).to_bytes(3, "big") + d + vec16(entry_ext)
                       for d in ders)
    return msg(11, bytes([len(ctx)]) + ctx +
               len(entries).to_bytes(3, "big") + entries)


def cert_verify(h, key, scheme=0x0403, content=None, sig=None):
    """CertificateVerify over the transcript so far (RFC 8446 4.4.3)."""
    if content is None:
        content = (b" " * 64 + b"TLS 1.3, client CertificateVerify\x00" +
                   hashlib.sha256(h.transcript).digest())
    if sig is None:
        sig = key.sign(content, ec.ECDSA(hashes.SHA256()))
    return msg(15, u16(scheme) + vec16(sig))


def finished_msg(h):
    k = expand_label(h.c_hs, b"finished", b"", 32)
    return msg(20, hmac.new(k, hashlib.sha256(h.transcript).digest(),
                            hashlib.sha256).digest())


def saw_request(h):
    """Whether the server's flight held a CertificateRequest, walking the
    transcript's messages after the ServerHello."""
    t = h.transcript
    off = 0
    while off + 4 <= len(t):
        if t[off] == 13:
            return True
        off += 4 + int.from_bytes(t[off + 1:off + 4], "big")
    return False


def flight(h, ders, key, split=False):
    """Certificate, CertificateVerify (if certificates), Finished: the
    records that carry them, in one record or one each."""
    parts = [certificate(ders)]
    h.transcript += parts[0]
    if ders:
        parts.append(cert_verify(h, key))
        h.transcript += parts[1]
    parts.append(finished_msg(h))
    h.transcript += parts[-1]
    if split:
        return b"".join(h.tx.seal(HANDSHAKE, p) for p in parts)
    return h.tx.seal(HANDSHAKE, b"".join(parts))


LIBC = ctypes.CDLL(None, use_errno=True)


def getsockopt(sock, level, opt, size):
    """getsockopt() of up to @size bytes: Python's stops at 1024."""
    buf = ctypes.create_string_buffer(size)
    n = ctypes.c_uint32(size)
    if LIBC.getsockopt(sock.fileno(), level, opt, buf, ctypes.byref(n)) < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return buf.raw[:n.value]


def peer(sock):
    raw = getsockopt(sock, SOL_TLS, KTLS_HS_PEER, PEER_INFO.size)
    sha, not_after, depth, flags, subj, iss, sans = PEER_INFO.unpack(raw)
    z = lambda b: b.split(b"\0", 1)[0].decode()
    return {"sha256": sha, "not_after": not_after, "depth": depth,
            "flags": flags, "subject": z(subj), "issuer": z(iss),
            "sans": z(sans)}


def test_accepted(srv, name, ders, key, split=False, want_peer=True):
    c = Conn(srv.port)
    h = Handshake(c)
    h.hello()
    if not h.server_flight():
        check(name, False, "no server flight")
        return
    requested = saw_request(h)
    c.s.sendall(flight(h, ders, key, split))
    a = srv.accept(10)
    ok = a is not None and requested
    detail = f"accept {a is not None}, CertificateRequest {requested}"
    if a:
        good, seen = peer_is(a, ders, want_peer)
        ok, detail = ok and good, detail + seen
        a.close()
    c.close()
    check(name, ok, detail)


def peer_is(a, ders, want_peer):
    """Whether accepted socket @a reports the client of @ders (leaf1's
    subject and SPIFFE ID, the depth), or none if not @want_peer; and
    what it reported."""
    try:
        p = peer(a)
    except OSError as e:
        return not want_peer and e.errno == errno.ENOENT, f", KTLS_HS_PEER {e}"
    return (want_peer and p["sha256"] == hashlib.sha256(ders[0]).digest() and
            p["subject"] == "CN=client one, O=ktls-hs" and
            "URI:spiffe://example.test/ns/default/sa/client\n" in p["sans"] and
            p["depth"] == len(ders)), f", peer {p}"


def expect_alert(srv, name, build, alert):
    """@build(h) gives what the client sends after the server's flight."""
    hh.expect_encrypted_alert(srv, name, build, alert)


def hostile_cases(srv, leaf, key, unknown, unknown_key, rsa):
    def cert_then(ders, k, tweak):
        def build(h):
            m = certificate(ders)
            h.transcript += m
            rest = tweak(h, k)
            return h.tx.seal(HANDSHAKE, m + rest)
        return build

    # A CertificateVerify signed over something else.
    expect_alert(srv, "CertificateVerify over the wrong transcript",
                 cert_then([leaf], key, lambda h, k: cert_verify(
                     h, k, content=b" " * 64 + b"TLS 1.3, server "
                     b"CertificateVerify\x00" +
                     hashlib.sha256(h.transcript).digest())),
                 "decrypt_error")
    expect_alert(srv, "CertificateVerify by another key",
                 cert_then([leaf], unknown_key,
                           lambda h, k: cert_verify(h, k)),
                 "decrypt_error")
    expect_alert(srv, "CertificateVerify with a scheme not offered",
                 cert_then([leaf], key,
                           lambda h, k: cert_verify(h, k, scheme=0x0804)),
                 "illegal_parameter")
    expect_alert(srv, "CertificateVerify with a signature that is no DER",
                 cert_then([leaf], key,
                           lambda h, k: cert_verify(h, k, sig=b"\x30\x01")),
                 "decrypt_error")
    expect_alert(srv, "CertificateVerify cut short",
                 cert_then([leaf], key,
                           lambda h, k: msg(15, b"\x04\x03\x00\x48")),
                 "decode_error")
    expect_alert(srv, "a chain to an unknown CA",
                 cert_then([unknown], unknown_key,
                           lambda h, k: cert_verify(h, k)),
                 "unknown_ca")
    expect_alert(srv, "an RSA certificate under the CA",
                 lambda h: h.tx.seal(HANDSHAKE, certificate([rsa])),
                 "unsupported_certificate")
    expect_alert(srv, "a certificate that is not DER",
                 lambda h: h.tx.seal(HANDSHAKE, certificate([b"\x30\x03abc"])),
                 "bad_certificate")
    # Small ones: a list of eleven leaves would pass what a message may
    # hold, and be refused for that first.
    expect_alert(srv, "eleven certificates",
                 lambda h: h.tx.seal(HANDSHAKE,
                                     certificate([b"\x30\x00"] * 11)),
                 "bad_certificate")
    expect_alert(srv, "a certificate_request_context we did not send",
                 lambda h: h.tx.seal(HANDSHAKE,
                                     certificate([leaf], ctx=b"\x01")),
                 "illegal_parameter")
    expect_alert(srv, "an extension in a CertificateEntry",
                 lambda h: h.tx.seal(HANDSHAKE, certificate(
                     [leaf], entry_ext=u16(5) + vec16(b"\x01\x00\x00\x00\x00"))),
                 "unsupported_extension")
    expect_alert(srv, "a Certificate whose list overruns the message",
                 lambda h: h.tx.seal(HANDSHAKE,
                                     msg(11, b"\x00\x00\x10\x00" + leaf[:8])),
                 "decode_error")
    expect_alert(srv, "no certificate where one is required",
                 lambda h: h.tx.seal(HANDSHAKE, certificate([])),
                 "certificate_required")
    expect_alert(srv, "Finished without the Certificate asked for",
                 lambda h: h.finished(), "unexpected_message")
    expect_alert(srv, "CertificateVerify without a Certificate",
                 lambda h: h.tx.seal(HANDSHAKE, cert_verify(h, key)),
                 "unexpected_message")
    expect_alert(srv, "a second Certificate after the first",
                 cert_then([leaf], key, lambda h, k: certificate([leaf])),
                 "unexpected_message")


class AuthServer12(AuthServer):
    """The same, allowing TLS 1.2 too."""

    def __init__(self, key, trust, mode=REQUIRED):
        super().__init__(key, trust, mode)
        self.ls.setsockopt(SOL_TLS, hh.KTLS_HS_VERSIONS, struct.pack("I", 3))


def certificate12(ders):
    """RFC 5246 7.4.2: certificate_list<0..2^24-1> of ASN.1Cert<1..>."""
    entries = b"".join(len(d).to_bytes(3, "big") + d for d in ders)
    return msg(11, len(entries).to_bytes(3, "big") + entries)


def cert_verify12(h, key, scheme=0x0403, sig=None):
    """RFC 5246 7.4.8: a signature over every handshake message so far."""
    if sig is None:
        sig = key.sign(h.transcript, ec.ECDSA(hashes.SHA256()))
    return msg(15, u16(scheme) + vec16(sig))


def flight12(h, ders, key, cv=None, one_record=False, finish=True):
    """Certificate, ClientKeyExchange, CertificateVerify (with
    certificates, or @cv(h) instead), and with @finish ChangeCipherSpec
    and Finished: a hostile flight stops where the alert is due, so that
    nothing the server no longer reads can reset the connection before
    its alert is read."""
    cert = certificate12(ders)
    h.transcript += cert
    cke = h.key_exchange()[5:]
    msgs = [cert, cke]
    if ders or cv:
        m = cv(h) if cv else cert_verify12(h, key)
        h.transcript += m
        msgs.append(m)
    if one_record:
        hs = record(HANDSHAKE, b"".join(msgs))
    else:
        hs = b"".join(record(HANDSHAKE, m) for m in msgs)
    if not finish:
        return hs
    return hs + record(hh.CCS, b"\x01") + h.finished()


def test_accepted12(srv, name, ders, key, one_record=False, want_peer=True):
    c = Conn(srv.port)
    h = h12.Handshake12(c)
    h.hello()
    if not h.server_flight():
        check(name, False, "no server flight")
        c.close()
        return
    c.s.sendall(flight12(h, ders, key, one_record=one_record))
    done = h.server_finished()
    a = srv.accept(10)
    ok = done and a is not None and h.cert_request is not None
    detail = f"server Finished {done}, accept {a is not None}"
    if a:
        good, seen = peer_is(a, ders, want_peer)
        ok, detail = ok and good, detail + seen
        a.close()
    c.close()
    check(name, ok, detail)


def expect_alert12(srv, name, build, alert):
    """@build(h) after the server's flight draws the plaintext @alert."""
    h12.expect_alert(srv, f"TLS 1.2: {name}", None, alert, after_flight=build)


def tls12_cases(key, trust, leaf, leaf_key, unknown, unknown_key, rsa):
    req = AuthServer12(key, trust, REQUIRED)
    test_accepted12(req, "TLS 1.2 required: Certificate, ClientKeyExchange "
                    "and CertificateVerify in one record", [leaf], leaf_key,
                    one_record=True)
    test_accepted12(req, "TLS 1.2 required: the same, one record each",
                    [leaf], leaf_key)

    def cert_only(ders):
        return lambda h: record(HANDSHAKE, certificate12(ders))

    def with_cv(k, **kw):
        return lambda h: flight12(h, [leaf], k, finish=False,
                                  cv=lambda h: cert_verify12(h, k, **kw))

    expect_alert12(req, "no certificate where one is required",
                   cert_only([]), "handshake_failure")
    expect_alert12(req, "ClientKeyExchange without the Certificate asked for",
                   lambda h: h.key_exchange(), "unexpected_message")
    expect_alert12(req, "a chain to an unknown CA", cert_only([unknown]),
                   "unknown_ca")
    expect_alert12(req, "an RSA certificate under the CA", cert_only([rsa]),
                   "unsupported_certificate")
    expect_alert12(req, "a certificate that is not DER",
                   cert_only([b"\x30\x03abc"]), "bad_certificate")
    expect_alert12(req, "a Certificate whose list overruns the message",
                   lambda h: record(HANDSHAKE,
                                    msg(11, b"\x00\x10\x00" + leaf[:8])),
                   "decode_error")
    expect_alert12(req, "CertificateVerify by another key",
                   with_cv(unknown_key), "decrypt_error")
    expect_alert12(req, "CertificateVerify with a scheme not offered",
                   with_cv(leaf_key, scheme=0x0804), "illegal_parameter")
    expect_alert12(req, "CertificateVerify with a signature that is no DER",
                   with_cv(leaf_key, sig=b"\x30\x01"), "decrypt_error")
    expect_alert12(req, "CertificateVerify cut short",
                   lambda h: flight12(h, [leaf], leaf_key, finish=False,
                                      cv=lambda h:
                                      msg(15, b"\x04\x03\x00\x48")),
                   "decode_error")

    def no_cv(h):
        cert = certificate12([leaf])
        h.transcript += cert
        return record(HANDSHAKE, cert) + h.key_exchange() + \
            record(hh.CCS, b"\x01")
    expect_alert12(req, "ChangeCipherSpec without the CertificateVerify",
                   no_cv, "unexpected_message")
    st = req.stats()
    check("TLS 1.2 required: no handshake left in progress",
          st["in_progress"] == 0, str(st))
    req.ls.close()

    opt = AuthServer12(key, trust, OPTIONAL)
    test_accepted12(opt, "TLS 1.2 optional: no certificate, accepted, no "
                    "peer", [], None, want_peer=False)
    test_accepted12(opt, "TLS 1.2 optional: a certificate, verified", [leaf],
                    leaf_key)
    expect_alert12(opt, "optional: CertificateVerify after no certificate",
                   lambda h: flight12(h, [], None, finish=False,
                                      cv=lambda h:
                                      cert_verify12(h, leaf_key)),
                   "unexpected_message")
    opt.ls.close()

    plain = AuthServer12(key, trust, NONE)
    expect_alert12(plain, "a Certificate where none was requested",
                   cert_only([leaf]), "unexpected_message")
    plain.ls.close()


def sockopt_cases(key, trust):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    s.setsockopt(socket.IPPROTO_TCP, hh.TCP_ULP, b"ktls_hs")
    user = int(os.environ["KTLS_HS_USER_KEY"])

    def errno_of(val, length=None):
        try:
            if length is None:
                s.setsockopt(SOL_TLS, KTLS_HS_CLIENT_AUTH, val)
            else:
                s.setsockopt(SOL_TLS, KTLS_HS_CLIENT_AUTH, None, length)
            return 0
        except OSError as e:
            return e.errno

    cases = [
        ("an unknown mode", auth_opt(3, trust), errno.EINVAL),
        ("required without a trust store", auth_opt(REQUIRED, 0), errno.EINVAL),
        ("a trust store with mode none", auth_opt(NONE, trust), errno.EINVAL),
        ("an unknown flag", auth_opt(REQUIRED, trust, 2), errno.EINVAL),
        ("reserved not 0", auth_opt(REQUIRED, trust, 0, 1), errno.EINVAL),
        ("a short optlen", auth_opt(REQUIRED, trust)[:12], errno.EINVAL),
        ("a key of another type", auth_opt(REQUIRED, user), errno.EINVAL),
        ("no such key", auth_opt(REQUIRED, 0x7ffffff0), errno.ENOKEY),
    ]
    for name, val, want in cases:
        got = errno_of(val)
        check(f"KTLS_HS_CLIENT_AUTH refuses {name}", got == want,
              f"errno {got}")
    got = errno_of(None, 16)
    check("KTLS_HS_CLIENT_AUTH refuses a NULL value", got == errno.EINVAL,
          f"errno {got}")
    ok = errno_of(auth_opt(OPTIONAL, trust, F_CA_NAMES)) == 0
    back = s.getsockopt(SOL_TLS, KTLS_HS_CLIENT_AUTH, 16)
    check("KTLS_HS_CLIENT_AUTH reads back what was set",
          ok and back == auth_opt(OPTIONAL, trust, F_CA_NAMES), repr(back))
    ok = errno_of(auth_opt(NONE, 0)) == 0
    back = s.getsockopt(SOL_TLS, KTLS_HS_CLIENT_AUTH, 16)
    check("KTLS_HS_CLIENT_AUTH none turns it off",
          ok and back == auth_opt(NONE, 0), repr(back))
    try:
        getsockopt(s, SOL_TLS, KTLS_HS_PEER, PEER_INFO.size)
        got = 0
    except OSError as e:
        got = e.errno
    check("KTLS_HS_PEER of a listener: ENOENT", got == errno.ENOENT,
          f"errno {got}")
    s.close()


def test_tls12_request(srv):
    """A TLS 1.2 hello to a listener that allows TLS 1.2: its flight
    carries the TLS 1.2 CertificateRequest (RFC 5246 7.4.4) before the
    ServerHelloDone: ecdsa_sign, ecdsa_secp256r1_sha256."""
    srv.ls.setsockopt(SOL_TLS, hh.KTLS_HS_VERSIONS, struct.pack("I", 3))
    c = Conn(srv.port)
    h = h12.Handshake12(c)
    h.hello()
    types, cr = [], b""
    while not types or types[-1] != 14:
        m = h.next_msg()
        if not m:
            break
        types.append(m[0])
        if m[0] == 13:
            cr = m[4:]
    c.close()
    srv.ls.setsockopt(SOL_TLS, hh.KTLS_HS_VERSIONS,
                      struct.pack("I", hh.KTLS_HS_VERSION_TLS13))
    check("TLS 1.2: the flight asks for a certificate before "
          "ServerHelloDone", types[-2:] == [13, 14] and
          cr[:6] == b"\x01\x40\x00\x02\x04\x03", f"messages {types}")


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    trust = int(os.environ["KTLS_TRUST"])
    leaf, leaf_key = load("leaf1")
    unknown, unknown_key = load("unknown")
    print("TAP version 13")
    print("1..54")
    req = AuthServer(key, trust, REQUIRED)
    test_accepted(req, "required: Certificate, CertificateVerify and "
                  "Finished in one record", [leaf], leaf_key)
    test_accepted(req, "required: the same, one record each", [leaf],
                  leaf_key, split=True)
    hostile_cases(req, leaf, leaf_key, unknown, unknown_key, load("rsa")[0])
    test_tls12_request(req)
    st = req.stats()
    check("required: no handshake left in progress",
          st["in_progress"] == 0, str(st))
    req.ls.close()

    opt = AuthServer(key, trust, OPTIONAL, F_CA_NAMES)
    test_accepted(opt, "optional: no certificate, accepted, no peer",
                  [], None, want_peer=False)
    test_accepted(opt, "optional: a certificate, verified", [leaf], leaf_key)
    expect_alert(opt, "optional: a bad certificate is still refused",
                 lambda h: h.tx.seal(HANDSHAKE, certificate([b"\x30\x00"])),
                 "bad_certificate")
    opt.ls.close()

    plain = AuthServer(key, trust, NONE)
    expect_alert(plain, "a Certificate where none was requested",
                 lambda h: h.tx.seal(HANDSHAKE, certificate([leaf])),
                 "unexpected_message")
    plain.ls.close()
    tls12_cases(key, trust, leaf, leaf_key, unknown, unknown_key,
                load("rsa")[0])
    sockopt_cases(key, trust)
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
