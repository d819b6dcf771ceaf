#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""TLS 1.3 key updates of sockets the in-kernel handshake keyed and the
device carries both ways.

  sim_offload_hs_rekey.py DEV CLIENT_NETNS ADDR

Run in the server's network namespace, whose DEV is the simulated offload
NIC with address ADDR; the raw TLS 1.3 client of hs_hostile.py connects
from CLIENT_NETNS.  Each case waits until the accepted socket is on the
device both ways, updates keys (the client's KeyUpdate, or the server's
through KTLS_HS_REKEY), then echoes data in 4000-byte records until both
directions are back on the device (up to 4 MB): its tx/rx_tls_keys_used
counters show a new key each way.  The listener's small receive buffer
bounds the window RX waits for.  KTLS_HS_KEY names the server's identity
key.
Output is KTAP.
"""

import os
import socket
import struct
import sys

import hs_hostile as hh
from hs_hostile import APPDATA, SOL_TLS, check
from hs_keyupdate import KTLS_HS_REKEY, NOT_REQUESTED, REQUESTED, tls_stat
from sim_offload_alert import Server, device_counters, device_session

CHUNK = 4000
# Rounds of echo after an update, in batches until both directions are
# back: RX comes back after one receive window (~10 rounds), TX once the
# old key's records were acked and the driver has the new key, which on
# a busy emulated guest may take longer; at most MAX_ROUNDS.
BATCH = 20
MAX_ROUNDS = 1000


def echo(s, rounds):
    """Client to server and back, record by record; the server's
    KeyUpdates followed.  Returns (intact, the server's updates)."""
    updates = []
    for _ in range(rounds):
        blob = os.urandom(CHUNK)
        s.send(APPDATA, blob)
        if s.server_recv(CHUNK) != blob:
            return False, updates
        s.a.sendall(blob)
        back, upd = s.read_data(CHUNK)
        updates += upd
        if back != blob:
            return False, updates
    return True, updates


def keys_back(srv, dev, name, update, want_updates, want_tx, want_rx):
    """@want_tx, @want_rx: new keys the device did crypto with, at least.
    Updates in a row need not each come back before the next."""
    s = device_session(srv, name)
    if not s:
        return
    before = device_counters(dev)
    st = tls_stat()
    update(s)
    updates, rounds = [], 0
    while True:
        intact, upd = echo(s, BATCH)
        updates += upd
        rounds += BATCH
        after = device_counters(dev)
        txk, rxk = (after[n] - before[n] for n in ("tx_tls_keys_used",
                                                   "rx_tls_keys_used"))
        if not intact or (txk >= want_tx and rxk >= want_rx) or \
           rounds >= MAX_ROUNDS:
            break
    now = tls_stat()
    moves = [now[n] - st[n] for n in ("TlsTxDevice", "TlsRxDevice")]
    curr = [now[n] - st[n] for n in ("TlsCurrTxDevice", "TlsCurrRxDevice")]
    why = None
    if not intact:
        why = "the echo was not intact"
    elif updates != want_updates:
        why = f"the server sent KeyUpdates {updates}, not {want_updates}"
    elif txk < want_tx or rxk < want_rx:
        why = f"new keys on the device after {rounds} rounds: TX {txk}, RX {rxk}"
    elif moves != [0, 0] or curr != [0, 0]:
        why = f"tls_stat Device moved {moves}, Curr*Device {curr}"
    check(f"offloaded both ways, {name}: back on the device with the new"
          " keys", why is None, f"{why}; {now}")
    s.close()


def client_requested(s):
    s.c.s.sendall(s.client_update(REQUESTED) + s.tx.seal(APPDATA, b"x"))
    s.server_recv(1)


def server_three(s):
    for _ in range(3):
        s.a.setsockopt(SOL_TLS, KTLS_HS_REKEY, struct.pack("i", 0))
        s.a.sendall(b"y")
        s.read_data(1)


def main():
    dev, netns, addr = sys.argv[1:4]
    srv = Server(int(os.environ["KTLS_HS_KEY"]), addr, netns)
    # Accepted sockets take it: their window stays small.
    srv.ls.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32768)
    print("TAP version 13")
    print("1..2")
    keys_back(srv, dev, "client KeyUpdate(update_requested), answered",
              client_requested, [NOT_REQUESTED], 1, 1)
    keys_back(srv, dev, "three server KeyUpdates (KTLS_HS_REKEY)",
              server_three, [], 1, 0)
    srv.ls.close()
    return 0 if all(ok for _, ok in hh.RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
