#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kernel_sendpage_locked() on a socket of ours must never put plaintext
beside records.

The test module's control file (argv[1]) takes a socket's descriptor and
sends "ktls-plaintext" through the socket's sendpage_locked() op with
the socket locked, as skb_send_sock_locked() does; the write fails with
the op's error.  A socket with TX keys refuses it (EOPNOTSUPP) and its
peer reads nothing; a socket without TX keys, with the ULP alone or with
RX keys alone, is plain TCP that way and the bytes arrive as they are.
Output is KTAP.
"""

import errno
import os
import select
import socket
import sys

from hs_hostile import RESULTS, SOL_TLS, TCP_ULP, check
from hs_keyupdate import tcp_pair, user_keys

TLS_TX = 1
TLS_RX = 2
TEXT = b"ktls-plaintext"


def send_locked(ctl, sock):
    """The op's errno for @sock, or 0 once it took the bytes."""
    fd = os.open(ctl, os.O_WRONLY)
    try:
        os.write(fd, str(sock.fileno()).encode())
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def peer_reads(sock, want):
    """What @sock reads within a second, up to @want bytes."""
    got = b""
    while len(got) < want and select.select([sock], [], [], 1)[0]:
        chunk = sock.recv(want - len(got))
        if not chunk:
            break
        got += chunk
    return got


def case(ctl, name, keys, refused):
    a, b = tcp_pair()
    a.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"tls")
    for opt in keys:
        a.setsockopt(SOL_TLS, opt, user_keys())
    err = send_locked(ctl, a)
    got = peer_reads(b, len(TEXT))
    if refused:
        check(f"{name}: refused", err == errno.EOPNOTSUPP and got == b"",
              f"errno {err}, peer read {got!r}")
    else:
        check(f"{name}: TCP's", err == 0 and got == TEXT,
              f"errno {err}, peer read {got!r}")
    a.close()
    b.close()


def main():
    ctl = sys.argv[1]
    print("TAP version 13")
    print("1..4")
    case(ctl, "TX keys", [TLS_TX], True)
    case(ctl, "TX and RX keys", [TLS_TX, TLS_RX], True)
    case(ctl, "the ULP without keys", [], False)
    case(ctl, "RX keys alone", [TLS_RX], False)
    sys.exit(0 if all(ok for _, ok in RESULTS) else 1)


if __name__ == "__main__":
    main()
