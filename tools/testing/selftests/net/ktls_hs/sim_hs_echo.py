#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The two ends of sim_offload_hs.sh: a kernel handshake across the
simulated offload NIC, then bulk data both ways.

  sim_hs_echo.py serve ADDR PORT KEY 12|13 BYTES
      an armed listener on ADDR (TCP_ULP "ktls_hs", identity KEY, the
      one TLS version, AES-GCM suites only, which the device offloads);
      echoes BYTES bytes of one accepted connection through its kTLS
      socket, then closes.  Prints "listening" once it is.
  sim_hs_echo.py connect ADDR PORT CAFILE 12|13 BYTES [GOFILE]
      an OpenSSL client (Python's ssl) of that version that verifies the
      chain, sends BYTES random bytes in records of changing sizes and
      checks that the echo is the same bytes in the same order.  With
      GOFILE it prints "connected" after the handshake and sends nothing
      before GOFILE exists.

Exit status 0 when everything matched; the last line says what was done.
"""

import os
import select
import socket
import ssl
import struct
import sys
import time

SOL_TLS = 282
TCP_ULP = 31
KTLS_HS_IDENTITY = 100
KTLS_HS_SUITES = 101
KTLS_HS_TIMEOUT = 104
KTLS_HS_VERSIONS = 109
VERSIONS = {"12": 0x1, "13": 0x2}
# AES-128/256-GCM of TLS 1.3 and of ECDHE-ECDSA in TLS 1.2: the device's.
AES_GCM_SUITES = 0x1 | 0x2 | 0x100 | 0x200
# Records that fit in a jumbo frame (so the device decrypts them whole)
# and full 16 KB ones that span frames.
CHUNKS = (1000, 4000, 6000, 16384, 300, 8000)
TIMEOUT = 60
WINDOW = 65536


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def serve(addr, port, key, version, nbytes):
    ls = socket.socket(family(addr), socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(8)
    ls.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"ktls_hs")
    ls.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("i", key))
    ls.setsockopt(SOL_TLS, KTLS_HS_VERSIONS, struct.pack("I", VERSIONS[version]))
    ls.setsockopt(SOL_TLS, KTLS_HS_SUITES, struct.pack("I", AES_GCM_SUITES))
    ls.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT, struct.pack("I", 10000))
    print("listening", flush=True)
    if not select.select([ls], [], [], TIMEOUT)[0]:
        print("no connection came")
        return 1
    s, _ = ls.accept()
    s.settimeout(TIMEOUT)
    done = 0
    while done < nbytes:
        data = s.recv(65536)
        if not data:
            break
        s.sendall(data)
        done += len(data)
    s.close()
    print(f"echoed {done} of {nbytes} bytes")
    return 0 if done == nbytes else 1


def wait_for(path):
    deadline = time.monotonic() + TIMEOUT
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def connect(addr, port, cafile, version, nbytes, gofile=None):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.load_verify_locations(cafile)
    v = ssl.TLSVersion.TLSv1_2 if version == "12" else ssl.TLSVersion.TLSv1_3
    ctx.minimum_version = ctx.maximum_version = v
    raw = socket.create_connection((addr, port), timeout=TIMEOUT)
    # One record a segment, so that records start frames the device sees.
    raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s = ctx.wrap_socket(raw, server_hostname="www.example.test")
    if gofile:
        print("connected", flush=True)
        if not wait_for(gofile):
            print(f"{gofile} did not come")
            return 1
    data = os.urandom(nbytes)
    got = bytearray()
    off = i = 0
    # One thread, at most WINDOW bytes unanswered: neither end can fill
    # both directions' buffers and wait on the other for good.
    while len(got) < nbytes:
        if off < nbytes and off - len(got) < WINDOW:
            n = min(CHUNKS[i % len(CHUNKS)], nbytes - off)
            s.sendall(data[off:off + n])
            off += n
            i += 1
            continue
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    ok = bytes(got) == data
    print(f"{s.version()} {s.cipher()[0]}: sent {off},"
          f" echo of {len(got)} bytes {'identical' if ok else 'DIFFERS'}")
    s.close()
    return 0 if ok else 1


def main():
    argc = len(sys.argv)
    if argc not in (7, 8) or sys.argv[1] not in ("serve", "connect") \
            or (argc == 8 and sys.argv[1] != "connect") \
            or sys.argv[5] not in VERSIONS:
        print(__doc__, file=sys.stderr)
        return 2
    role, addr, port, who, version, nbytes = sys.argv[1:7]
    if role == "serve":
        return serve(addr, int(port), int(who), version, int(nbytes))
    return connect(addr, int(port), who, version, int(nbytes),
                   sys.argv[7] if argc == 8 else None)


if __name__ == "__main__":
    sys.exit(main())
