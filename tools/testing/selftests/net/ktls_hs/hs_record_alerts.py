#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fatal alerts the record layer sends itself, after a kernel handshake.

On a socket whose TLS 1.3 handshake the kernel ran there is no TLS
library in userspace to answer a protocol error, so the record layer
sends the alert RFC 8446 asks for, under the current server application
key, and then fails the socket with the errno upstream kTLS gives (or
EPROTO for an unexpected record).  Errors the framer sees on a record's
header are answered while the application does not read at all; errors
found by decrypting are answered when the record is read.  Then records
at the size limits of RFC 8446 5.1, 5.2 and 5.4.  The raw client of
hs_hostile.py does the handshake.  KTLS_HS_KEY names the server's
identity key.  Output is KTAP.
"""

import errno
import os
import select
import sys
import time

import hs_hostile as hh
from hs_hostile import (ALERT, APPDATA, CCS, HANDSHAKE, Keys, check, record,
                        u16)
from hs_keyupdate import Session, key_update, next_secret

# Upstream's framer (tls_strp.c / tls_sw.c): over the limit, shorter than
# a tag, a legacy_record_version other than 0x0303.
OVERFLOW = bytes([APPDATA]) + u16(0x0303) + u16(16384 + 1 + 16 + 1)


def socket_error(sock):
    """The errno a read of @sock gives, without blocking."""
    try:
        sock.setblocking(False)
        data = sock.recv(100)
        return f"data {data!r}"
    except BlockingIOError:
        return "EAGAIN"
    except OSError as e:
        return e.errno


def test_unread(srv, name, raw, err, alert):
    """@raw(s) after the handshake: the alert comes while the application
    does not read, under the current key, and the socket then fails with
    @err."""
    s = Session(srv)
    s.c.s.sendall(raw(s))
    typ, data = s.read()
    got = data[1] if typ == ALERT and len(data) == 2 else None
    # The alert went out before the socket failed: the error is there.
    select.select([s.a], [], [], 5)
    e1 = socket_error(s.a)
    e2 = socket_error(s.a)
    check(f"unread, {name}: {alert}, then {errno.errorcode[err]}",
          got == hh.ALERTS[alert] and e1 == err and e2 == err,
          f"client got {typ} {data!r}, recv {e1} then {e2}")
    s.close()


def test_read(srv, name, recs, err, alert):
    """@recs(s) after the handshake, while the application reads."""
    s = Session(srv)
    s.send(APPDATA, b"fine")
    first = s.server_recv(4)
    s.c.s.sendall(b"".join(recs(s)))
    e1 = hh_recv_error(s.a)
    e2 = hh_recv_error(s.a)
    typ, data = s.read()
    got = data[1] if typ == ALERT and len(data) == 2 else None
    check(f"{name}: {alert}, then {errno.errorcode[err]}",
          first == b"fine" and got == hh.ALERTS[alert] and e1 == err and
          e2 == err,
          f"client got {typ} {data!r}, recv {e1} then {e2}")
    s.close()


def hh_recv_error(sock):
    sock.setblocking(True)
    sock.settimeout(10)
    try:
        data = sock.recv(100)
        return f"data {data!r}"
    except OSError as e:
        return e.errno


def sealed_raw(s, inner):
    """A record under the client's key whose TLSInnerPlaintext is @inner."""
    k = s.tx
    hdr = bytes([APPDATA]) + u16(0x0303) + u16(len(inner) + 16)
    return hdr + k.aead.encrypt(k.nonce(), inner, hdr)


def test_several_updates(srv):
    """KeyUpdates in a row, each followed, with nobody reading: the data
    behind them is read under the fifth key."""
    s = Session(srv)
    s.c.s.sendall(b"".join(s.client_update(0) for _ in range(4)) +
                  s.tx.seal(APPDATA, b"after four"))
    got = s.server_recv(10)
    s.c.s.sendall(s.client_update(1) + s.tx.seal(APPDATA, b"one more"))
    got += s.server_recv(8)
    s.a.sendall(b"reply")
    data, updates = s.read_data(5)
    check("five KeyUpdates in a row, the last update_requested",
          got == b"after fourone more" and data == b"reply" and
          updates == [0], f"{got!r} {data!r} {updates}")
    s.close()


def test_split_unread(srv):
    """A KeyUpdate in three records with nobody reading: the kernel puts
    it together and follows it, and the data behind it is read under the
    new key."""
    s = Session(srv)
    m = key_update(1)
    recs = [s.tx.seal(HANDSHAKE, p) for p in (m[:1], m[1:3], m[3:])]
    s.c_secret = next_secret(s.c_secret)
    s.tx = Keys(s.c_secret)
    s.c.s.sendall(recs[0])
    time.sleep(0.5)
    s.c.s.sendall(b"".join(recs[1:]) + s.tx.seal(APPDATA, b"behind it"))
    time.sleep(0.5)
    got = s.server_recv(9)
    s.a.sendall(b"reply")
    data, updates = s.read_data(5)
    check("unread, a KeyUpdate in three records: followed, data behind it",
          got == b"behind it" and data == b"reply" and updates == [0],
          f"{got!r} {data!r} {updates}")
    s.close()


def raw_after_close(s):
    """Everything the client reads, and how the stream ended."""
    got, end = b"", "eof"
    s.c.s.settimeout(5)
    while True:
        try:
            data = s.c.s.recv(4096)
        except OSError as e:
            end = errno.errorcode.get(e.errno, str(e))
            break
        if not data:
            break
        got += data
    return got, end


def test_close_first(srv):
    """close() as soon as the header is in: whether the work item or
    close() sends the alert, it goes out before the connection ends.
    (Bytes that arrive after close() get a reset, and nothing to say.)"""
    s = Session(srv)
    s.c.s.sendall(OVERFLOW)
    time.sleep(0.05)
    s.a.close()
    got, end = raw_after_close(s)
    typ, data = None, None
    if len(got) >= 5 and got[0] == APPDATA:
        try:
            typ, data = s.rx.open(got[:5], got[5:])
        except Exception as e:
            data = repr(e)
    check("close() right after an overflowing header: record_overflow",
          typ == ALERT and data == bytes([2, hh.ALERTS["record_overflow"]]),
          f"client got {got.hex()} then {end}, opened {data!r}")
    s.c.close()


def test_sizes(srv):
    """RFC 8446 5.1, 5.4: content of 2^14 bytes, and TLSInnerPlaintext of
    2^14 + 1 with padding, are read whole; 2^14 + 2 is record_overflow."""
    s = Session(srv)
    big = os.urandom(16384)
    s.send(APPDATA, big)
    s.c.s.sendall(s.tx.seal(APPDATA, b"x" * 100, 16384 - 100))
    got = s.server_recv(16384 + 100)
    check("content of 2^14 bytes, then 2^14 + 1 inner bytes with padding",
          got == big + b"x" * 100, f"{len(got)} bytes")
    s.close()
    test_read(srv, "TLSInnerPlaintext of 2^14 + 2 bytes",
              lambda s: [s.tx.seal(APPDATA, b"x" * 100, 16384 - 99)],
              errno.EMSGSIZE, "record_overflow")


def main():
    srv = hh.Server(int(os.environ["KTLS_HS_KEY"]))
    print("TAP version 13")
    print("1..24")
    # Found by the framer on the header.
    test_unread(srv, "ciphertext of 2^14 + 18 bytes", lambda s: OVERFLOW,
                errno.EMSGSIZE, "record_overflow")
    test_unread(srv, "record shorter than a tag",
                lambda s: record(APPDATA, b"short"), errno.EBADMSG,
                "bad_record_mac")
    test_unread(srv, "legacy_record_version 0x0301",
                lambda s: record(APPDATA, bytes(32), 0x0301), errno.EINVAL,
                "decode_error")
    test_unread(srv, "ChangeCipherSpec after Finished",
                lambda s: record(CCS, b"\x01"), errno.EPROTO,
                "unexpected_message")
    test_unread(srv, "two-byte ChangeCipherSpec after Finished",
                lambda s: record(CCS, b"\x01\x01"), errno.EPROTO,
                "unexpected_message")
    test_unread(srv, "unencrypted Finished after Finished",
                lambda s: record(HANDSHAKE, b"\x14\x00\x00\x20" +
                                 bytes(32)),
                errno.EPROTO, "unexpected_message")
    test_unread(srv, "plaintext alert", lambda s: record(ALERT, b"\x02\x28"),
                errno.EPROTO, "unexpected_message")
    # Found by decrypting: the record layer opens what nobody reads.
    test_unread(srv, "a record with a broken tag",
                lambda s: hh.tamper(s.tx.seal(APPDATA, b"x" * 100)),
                errno.EBADMSG, "bad_record_mac")
    test_unread(srv, "TLSInnerPlaintext of zeros only",
                lambda s: sealed_raw(s, bytes(20)), errno.EBADMSG,
                "unexpected_message")
    test_unread(srv, "empty protected alert",
                lambda s: s.tx.seal(ALERT, b""), errno.EBADMSG,
                "decode_error")
    test_unread(srv, "KeyUpdate of length 2",
                lambda s: s.tx.seal(HANDSHAKE, b"\x18\x00\x00\x02\x00\x00"),
                errno.EBADMSG, "decode_error")
    test_unread(srv, "KeyUpdate request_update 2",
                lambda s: s.tx.seal(HANDSHAKE, key_update(2)),
                errno.EBADMSG, "illegal_parameter")
    test_unread(srv, "application data between a KeyUpdate's pieces",
                lambda s: s.tx.seal(HANDSHAKE, key_update(0)[:3]) +
                s.tx.seal(APPDATA, b"between"),
                errno.EPROTO, "unexpected_message")
    test_unread(srv, "broken tag behind a KeyUpdate, under the new key",
                lambda s: s.client_update(0) +
                hh.tamper(s.tx.seal(APPDATA, b"x" * 100)),
                errno.EBADMSG, "bad_record_mac")
    # And where the application reads.
    test_read(srv, "protected ChangeCipherSpec",
              lambda s: [s.tx.seal(CCS, b"\x01")], errno.EPROTO,
              "unexpected_message")
    test_read(srv, "unknown handshake message type",
              lambda s: [s.tx.seal(HANDSHAKE, b"\xfe\x00\x00\x00")],
              errno.EPROTO, "unexpected_message")
    test_read(srv, "KeyUpdate piece straddling the key change",
              lambda s: [s.tx.seal(HANDSHAKE, key_update(0)[:2]),
                         s.tx.seal(HANDSHAKE, key_update(0)[2:] + b"\x17")],
              errno.EPROTO, "unexpected_message")
    test_read(srv, "empty alert behind data",
              lambda s: [s.tx.seal(APPDATA, b""), s.tx.seal(ALERT, b"")],
              errno.EBADMSG, "decode_error")
    test_several_updates(srv)
    test_split_unread(srv)
    test_sizes(srv)
    test_close_first(srv)
    st = srv.stats()
    check("no handshake failed", st["failed"] == 0, str(st))
    srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
