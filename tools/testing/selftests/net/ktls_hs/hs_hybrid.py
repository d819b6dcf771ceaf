#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Raw TLS 1.3 ClientHellos with post-quantum hybrid key shares.

The raw client of hs_hostile.py, with shares of X25519MLKEM768 (0x11ec,
an ML-KEM-768 encapsulation key then an X25519 share: 1216 bytes) and
SecP256r1MLKEM768 (0x11eb, a P-256 point then the key: 1249 bytes).  It
cannot decapsulate, so it checks the server's answer up to the
ServerHello: the group, and a share of 1120 or 1153 bytes.  The ~1.8 KB
hello cut across records and TCP segments is served; with only an
X25519 share it gets X25519 at once, or a HelloRetryRequest for the
hybrid from a listener that insists (KTLS_HS_GROUP_HYBRID_RETRY).
Hostile hybrid shares each get illegal_parameter: wrong lengths, a key
with a coefficient not below q (FIPS 203 7.2), an all-zero X25519 part.
KTLS_HS_KEY names the server's identity key.  Output is KTAP.
"""

import os
import random
import socket
import struct
import sys
import time

import hs_hostile as hh
from hs_hostile import (HANDSHAKE, SOL_TLS, check, client_hello, ext,
                        record, u16, vec8, vec16)

KTLS_HS_GROUPS = 102
GROUP_X25519MLKEM768 = 0x11ec
GROUP_SECP256R1MLKEM768 = 0x11eb
GROUP_X25519 = 0x001d
GROUP_SECP256R1 = 0x0017
KTLS_HS_GROUPS_DEFAULT = 0xf
KTLS_HS_GROUP_HYBRID_RETRY = 0x80000000
HRR_RANDOM = bytes.fromhex("cf21ad74e59a6111be1d8c021e65b891"
                           "c2a211167abb8c5e079e09e2c8a8339c")
Q = 3329


def mlkem_ek(bad=False):
    """An ML-KEM-768 encapsulation key: 768 coefficients below q in
    12 bits each, then rho; @bad makes the first one 0xfff."""
    c = [random.randrange(Q) for _ in range(768)]
    if bad:
        c[0] = 0xfff
    out = bytearray()
    for a, b in zip(c[0::2], c[1::2]):
        out += bytes([a & 0xff, (a >> 8) | ((b & 0xf) << 4), b >> 4])
    return bytes(out) + os.urandom(32)


def x25519_pub():
    from cryptography.hazmat.primitives.asymmetric.x25519 import (
        X25519PrivateKey)
    from cryptography.hazmat.primitives.serialization import (
        Encoding, PublicFormat)
    return X25519PrivateKey.generate().public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)


def p256_pub():
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import (
        Encoding, PublicFormat)
    return ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)


def share(group, bad_ek=False, zero_x=False):
    if group == GROUP_X25519MLKEM768:
        return mlkem_ek(bad_ek) + (bytes(32) if zero_x else x25519_pub())
    if group == GROUP_SECP256R1MLKEM768:
        return p256_pub() + mlkem_ek(bad_ek)
    if group == GROUP_X25519:
        return x25519_pub()
    return p256_pub()


def hello(groups, shares):
    """A ClientHello listing @groups, with the (group, key) @shares."""
    ks = b"".join(u16(g) + vec16(k) for g, k in shares)
    return client_hello([
        ext(43, vec8(u16(0x0304))),
        ext(10, vec16(b"".join(u16(g) for g in groups))),
        ext(13, vec16(u16(0x0403) + u16(0x0804))),
        ext(51, vec16(ks)),
        ext(0, vec16(b"\x00" + vec16(b"www.example.test"))),
    ])


def send_split(c, payload, seg):
    """@payload in TCP segments of @seg bytes, a little apart."""
    c.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for i in range(0, len(payload), seg):
        c.s.sendall(payload[i:i + seg])
        time.sleep(0.005)


def records(msg, size):
    return b"".join(record(HANDSHAKE, msg[i:i + size], 0x0301)
                    for i in range(0, len(msg), size))


def server_hello(c):
    """(is a HelloRetryRequest, group, share length) of the answer."""
    r = c.read_record()
    if not r or r[0] != HANDSHAKE or r[2][0] != 2:
        return None
    sh = r[2]
    hrr = sh[6:38] == HRR_RANDOM
    off = 38
    off += 1 + sh[off]
    off += 3
    end = off + 2 + struct.unpack(">H", sh[off:off + 2])[0]
    off += 2
    while off + 4 <= end:
        typ, n = struct.unpack(">HH", sh[off:off + 4])
        if typ == 51:
            group = struct.unpack(">H", sh[off + 4:off + 6])[0]
            klen = (struct.unpack(">H", sh[off + 6:off + 8])[0]
                    if not hrr else 0)
            return hrr, group, klen
        off += 4 + n
    return None


def expect_answer(srv, name, payload, want, seg=0):
    c = srv.connect()
    if seg:
        send_split(c, payload, seg)
    else:
        c.s.sendall(payload)
    got = server_hello(c)
    c.close()
    check(name, got == want, f"got {got}, want {want}")


def served_cases(srv):
    full = [GROUP_X25519MLKEM768, GROUP_X25519, GROUP_SECP256R1]
    ch = hello(full, [(GROUP_X25519MLKEM768, share(GROUP_X25519MLKEM768)),
                      (GROUP_X25519, share(GROUP_X25519))])
    check("the hybrid hello is ~1.8 KB", 1200 < len(ch) < 2048, len(ch))
    want = (False, GROUP_X25519MLKEM768, 1088 + 32)
    expect_answer(srv, "X25519MLKEM768: ServerHello with a 1120-byte share",
                  record(HANDSHAKE, ch, 0x0301), want)
    expect_answer(srv, "X25519MLKEM768 hello in 50-byte TCP segments",
                  record(HANDSHAKE, ch, 0x0301), want, seg=50)
    expect_answer(srv, "X25519MLKEM768 hello in 500-byte records",
                  records(ch, 500), want)
    expect_answer(srv, "X25519MLKEM768 hello in 300-byte records, "
                  "77-byte segments", records(ch, 300), want, seg=77)
    ch = hello([GROUP_SECP256R1MLKEM768, GROUP_SECP256R1],
               [(GROUP_SECP256R1MLKEM768, share(GROUP_SECP256R1MLKEM768))])
    expect_answer(srv, "SecP256r1MLKEM768: ServerHello with a 1153-byte "
                  "share", records(ch, 1000),
                  (False, GROUP_SECP256R1MLKEM768, 65 + 1088))
    ch = hello(full, [(GROUP_X25519, share(GROUP_X25519))])
    expect_answer(srv, "X25519MLKEM768 listed, an X25519 share: X25519",
                  record(HANDSHAKE, ch, 0x0301), (False, GROUP_X25519, 32))
    srv.ls.setsockopt(SOL_TLS, KTLS_HS_GROUPS, struct.pack(
        "I", KTLS_HS_GROUPS_DEFAULT | KTLS_HS_GROUP_HYBRID_RETRY))
    expect_answer(srv, "hybrid-retry: a HelloRetryRequest for "
                  "X25519MLKEM768", record(HANDSHAKE, ch, 0x0301),
                  (True, GROUP_X25519MLKEM768, 0))
    srv.ls.setsockopt(SOL_TLS, KTLS_HS_GROUPS,
                      struct.pack("I", KTLS_HS_GROUPS_DEFAULT))


def hostile_cases(srv):
    full = [GROUP_X25519MLKEM768, GROUP_SECP256R1MLKEM768, GROUP_X25519]
    good = share(GROUP_X25519MLKEM768)
    for name, key in [("empty", b""), ("1215 bytes", good[:-1]),
                      ("1217 bytes", good + b"\x00"),
                      ("the key alone", good[:1184])]:
        hh.expect_plain_alert(
            srv, f"X25519MLKEM768 share {name}",
            record(HANDSHAKE, hello(full, [(GROUP_X25519MLKEM768, key)]),
                   0x0301), "illegal_parameter")
    for g in (GROUP_X25519MLKEM768, GROUP_SECP256R1MLKEM768):
        hh.expect_plain_alert(
            srv, f"{g:#06x} key failing the modulus check",
            record(HANDSHAKE, hello(full, [(g, share(g, bad_ek=True)),
                                           (GROUP_X25519,
                                            share(GROUP_X25519))]),
                   0x0301), "illegal_parameter")
    hh.expect_plain_alert(
        srv, "X25519MLKEM768 with an all-zero X25519 part",
        record(HANDSHAKE, hello(full, [(GROUP_X25519MLKEM768,
                                        share(GROUP_X25519MLKEM768,
                                              zero_x=True))]), 0x0301),
        "illegal_parameter")
    hh.expect_plain_alert(
        srv, "SecP256r1MLKEM768 share 1248 bytes",
        record(HANDSHAKE, hello(full, [(GROUP_SECP256R1MLKEM768,
                                        share(GROUP_SECP256R1MLKEM768)[1:])]),
               0x0301), "illegal_parameter")


def wait_idle(srv):
    """The handshakes our closed clients left end (their FIN)."""
    for _ in range(50):
        if srv.stats()["in_progress"] == 0:
            break
        time.sleep(0.1)


def main():
    key = int(os.environ["KTLS_HS_KEY"])
    srv = hh.Server(key)
    print("TAP version 13")
    print("1..17")
    served_cases(srv)
    # The alert checks count failures: none of the above may still end.
    wait_idle(srv)
    hostile_cases(srv)
    wait_idle(srv)
    st = srv.stats()
    check("nothing accepted, no handshake left in progress",
          srv.accept(0) is None and st["in_progress"] == 0, str(st))
    srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
