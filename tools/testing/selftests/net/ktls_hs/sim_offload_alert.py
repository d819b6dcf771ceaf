#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fatal errors on sockets the in-kernel handshake keyed and the device
carries both ways.

  sim_offload_alert.py DEV CLIENT_NETNS ADDR

Run in the server's network namespace, whose DEV is the simulated offload
NIC with address ADDR; the raw TLS 1.3 client of hs_hostile.py connects
from CLIENT_NETNS (a name under /run/netns).  Each case waits until the
accepted socket is on the device in both directions (tls_stat), has the
device decrypt a record of the client, then sends what must break the
stream: the socket must fail with the errno Documentation/handshake.rst
gives, and where an alert is due the client must be able to open it
under the server's key, which the device sealed.  KTLS_HS_KEY names the
server's identity key.  Output is KTAP.
"""

import ctypes
import errno
import os
import socket
import subprocess
import sys
import time

import hs_hostile as hh
from hs_hostile import ALERT, APPDATA, HANDSHAKE, check
from hs_keyupdate import Session, break_stream, key_update, tls_stat

CLONE_NEWNET = 0x40000000
LIBC = ctypes.CDLL(None, use_errno=True)


class Server(hh.Server):
    """The armed listener of hs_hostile.py on the device's address, its
    clients' sockets made in the other namespace."""

    def __init__(self, key, addr, netns):
        super().__init__(key, addr)
        self.netns = netns

    def connect(self):
        own = os.open("/proc/self/ns/net", os.O_RDONLY)
        other = os.open(f"/run/netns/{self.netns}", os.O_RDONLY)
        try:
            if LIBC.setns(other, CLONE_NEWNET):
                raise OSError(ctypes.get_errno(), "setns")
            try:
                return super().connect()
            finally:
                if LIBC.setns(own, CLONE_NEWNET):
                    raise OSError(ctypes.get_errno(), "setns back")
        finally:
            os.close(own)
            os.close(other)


def device_counters(dev):
    out = subprocess.run(["ethtool", "-S", dev], capture_output=True,
                         text=True, check=True).stdout
    ctr = {}
    for line in out.splitlines():
        k, _, v = line.strip().partition(":")
        if v.strip().isdigit():
            ctr[k] = int(v)
    return ctr


def on_device(s, st):
    """Ping until the accepted socket is on the device both ways.

    RX moves once the driver has the keys; TX at the first record after
    that, so the server sends records until it has moved.  @st: tls_stat
    from before the session's handshake.
    """
    for _ in range(200):
        now = tls_stat()
        if now["TlsTxDevice"] > st["TlsTxDevice"] and \
                now["TlsRxDevice"] > st["TlsRxDevice"]:
            return True
        s.a.sendall(b"ping")
        got, _ = s.read_data(4)
        if got != b"ping":
            return False
        time.sleep(0.05)
    return False


def device_session(srv, name):
    """A Session whose accepted socket is on the device both ways; else
    None, and the case named @name failed."""
    st = tls_stat()
    s = Session(srv)
    if on_device(s, st):
        return s
    check(f"{name}: the socket never moved to the device", False,
          str(tls_stat()))
    s.close()
    return None


def case(srv, dev, name, records, err, alert, auth_fail=False):
    s = device_session(srv, name)
    if not s:
        return
    before = device_counters(dev)
    st = tls_stat()
    first, e1, e2, e3, typ, data = break_stream(s, records)
    after = device_counters(dev)
    dec, enc, bad = (after[n] - before[n] for n in (
        "rx_tls_records_decrypted", "tx_tls_records_encrypted",
        "rx_tls_auth_fail"))
    decerr = tls_stat()["TlsDecryptError"] - st["TlsDecryptError"]
    why = None
    if first != b"fine":
        why = f"the record before got {first!r}"
    elif (e1, e2, e3) != (err, err, err):
        why = f"recv {e1} then {e2}, send {e3}"
    elif dec < 1:
        why = "the device decrypted nothing"
    elif typ != ALERT or data != bytes([2, hh.ALERTS[alert]]):
        why = f"no {alert} alert the client could open: {typ} {data!r}"
    elif enc < 1:
        why = "the device did not seal the alert"
    elif (bad > 0, decerr) != (auth_fail, int(auth_fail)):
        why = f"rx_tls_auth_fail +{bad}, TlsDecryptError +{decerr}"
    check(f"offloaded both ways, {name}: {errno.errorcode[err]}, {alert}"
          " sealed by the device",
          why is None, f"{why}; device decrypted {dec}, encrypted {enc}")
    s.close()


def counting(srv):
    """tls_stat as Documentation/offload.rst (Counters) has it."""
    names = ("TlsTxSw", "TlsRxSw", "TlsTxDevice", "TlsRxDevice",
             "TlsCurrTxSw", "TlsCurrRxSw", "TlsCurrTxDevice",
             "TlsCurrRxDevice")
    st = tls_stat()
    s = Session(srv)
    moved = on_device(s, st)
    now = tls_stat()
    on = [now[n] - st[n] for n in names]
    s.a.close()
    # The close is counted by the time the client sees its FIN.
    s.c.read_record()
    s.c.close()
    now = tls_stat()
    off = [now[n] - st[n] for n in names]
    check("tls_stat: a session on the device counts once in Sw and once in"
          " Device each way, Curr once where it is, none after close",
          moved and on == [1, 1, 1, 1, 0, 0, 1, 1] and
          off == [1, 1, 1, 1, 0, 0, 0, 0],
          f"while on the device {on}, after close {off} ({names})")


def tampered(s):
    return [hh.tamper(s.tx.seal(APPDATA, b"tampered" * 100))]


def main():
    dev, netns, addr = sys.argv[1:4]
    srv = Server(int(os.environ["KTLS_HS_KEY"]), addr, netns)
    print("TAP version 13")
    print("1..6")
    counting(srv)
    case(srv, dev, "KeyUpdate of length 0",
         lambda s: [s.tx.seal(HANDSHAKE, b"\x18\x00\x00\x00")],
         errno.EBADMSG, "decode_error")
    case(srv, dev, "KeyUpdate with request_update 2",
         lambda s: [s.tx.seal(HANDSHAKE, key_update(2))],
         errno.EBADMSG, "illegal_parameter")
    case(srv, dev, "two KeyUpdates in one record",
         lambda s: [s.tx.seal(HANDSHAKE, key_update(0) + key_update(0))],
         errno.EPROTO, "unexpected_message")
    case(srv, dev, "another handshake message",
         lambda s: [s.tx.seal(HANDSHAKE, b"\x14\x00\x00\x00")],
         errno.EPROTO, "unexpected_message")
    case(srv, dev, "a record that fails authentication", tampered,
         errno.EBADMSG, "bad_record_mac", auth_fail=True)
    srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
