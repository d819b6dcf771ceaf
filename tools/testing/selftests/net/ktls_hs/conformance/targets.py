# SPDX-License-Identifier: GPL-2.0-only
"""The servers the suite runs against.

Both serve the same protocol after the handshake: a line of application
data comes back reversed (what `openssl s_server -rev` does), so one
client checks both.  Ours is an armed listener of ktls_hs.ko in this
process; every connection accept() returns gets an echo thread, and a
connection whose handshake must fail is checked never to be queued for
accept() (what hs_hostile.py checks with a non-blocking accept).  The
other is `openssl s_server`, started here with the same certificate.
"""

import os
import select
import socket
import struct
import subprocess
import threading
import time

SOL_TLS = 282
TCP_ULP = 31
KTLS_HS_IDENTITY = 100
KTLS_HS_TIMEOUT = 104
KTLS_HS_VERSIONS = 109
KTLS_HS_TICKETS = 111
KTLS_HS_SUITES = 101
# Every suite both servers implement, as OPENSSL_SUITES13/12 offer them:
# the three TLS 1.3 defaults, TLS_AES_128_CCM_SHA256 and the three 1.2 ones.
KTLS_HS_SUITES_ALL = 0x0000000f | 0x00000700

# TLS 1.3 suites both servers enable; OpenSSL's default list lacks CCM.
OPENSSL_SUITES13 = ("TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:"
                    "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_CCM_SHA256")
OPENSSL_SUITES12 = ("ECDHE-ECDSA-AES128-GCM-SHA256:"
                    "ECDHE-ECDSA-AES256-GCM-SHA384:"
                    "ECDHE-ECDSA-CHACHA20-POLY1305")


def echo(sock):
    """Reverse each line, as s_server -rev does, until EOF or an error."""
    buf = b""
    sock.settimeout(10)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                sock.sendall(line.rstrip(b"\r")[::-1] + b"\n")
    except OSError:
        pass
    finally:
        sock.close()


class Ours:
    """An armed listener with tickets on, both versions, a 3 s handshake
    limit."""

    name = "ours"

    def __init__(self, key):
        self.ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(128)
        self.ls.setsockopt(socket.IPPROTO_TCP, TCP_ULP, b"ktls_hs")
        self.ls.setsockopt(SOL_TLS, KTLS_HS_IDENTITY, struct.pack("i", key))
        self.ls.setsockopt(SOL_TLS, KTLS_HS_TIMEOUT, struct.pack("I", 3000))
        self.ls.setsockopt(SOL_TLS, KTLS_HS_VERSIONS, struct.pack("I", 3))
        self.ls.setsockopt(SOL_TLS, KTLS_HS_SUITES,
                           struct.pack("I", KTLS_HS_SUITES_ALL))
        # lifetime, key group, rotation, flags (hs_resume.py)
        self.ls.setsockopt(SOL_TLS, KTLS_HS_TICKETS,
                           struct.pack("IIII", 3600, 0, 0, 0))
        self.addr, self.port = self.ls.getsockname()
        self.strays = []

    def _accept(self, timeout):
        r, _, _ = select.select([self.ls], [], [], timeout)
        if not r:
            return None
        return self.ls.accept()

    def serve(self, conn):
        """The connection of @conn is established: it must come out of
        accept() (within 5 s); echo on it."""
        want = conn.s.getsockname()[1]
        end = time.monotonic() + 5
        while time.monotonic() < end:
            got = self._accept(end - time.monotonic())
            if got is None:
                break
            sock, peer = got
            if peer[1] == want:
                threading.Thread(target=echo, args=(sock,),
                                 daemon=True).start()
                return True
            self.strays.append(peer[1])
            sock.close()
        return False

    def reset(self):
        pass

    def accepted(self, conn):
        """Whether a connection that must have failed reached accept()."""
        port = conn.s.getsockname()[1]
        while True:
            got = self._accept(0)
            if got is None:
                break
            self.strays.append(got[1][1])
            got[0].close()
        return port in self.strays

    def close(self):
        self.ls.close()


class OpenSSL:
    """openssl s_server -rev with the same certificate, TLS 1.2 and 1.3,
    X25519 and P-256, tickets on (its default)."""

    name = "openssl"

    def __init__(self, certdir):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.addr, self.port = s.getsockname()
        s.close()
        cmd = ["openssl", "s_server", "-quiet", "-rev",
               "-accept", f"127.0.0.1:{self.port}",
               "-cert", os.path.join(certdir, "srv.leaf"),
               "-cert_chain", os.path.join(certdir, "ca.pem"),
               "-key", os.path.join(certdir, "srv.key"),
               "-groups", "X25519:P-256",
               "-ciphersuites", OPENSSL_SUITES13,
               "-cipher", OPENSSL_SUITES12]
        self.cmd = cmd
        self.log = open(os.path.join(certdir, "s_server.log"), "w")
        self.start()

    def start(self):
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        for _ in range(100):
            try:
                socket.create_connection((self.addr, self.port), 1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("openssl s_server did not start")

    def serve(self, conn):
        return True

    def accepted(self, conn):
        return False

    def reset(self):
        """s_server serves one connection at a time: one it is stuck on
        would silence the cases after it."""
        self.proc.terminate()
        self.proc.wait()
        self.start()

    def close(self):
        self.proc.terminate()
        self.proc.wait()
        self.log.close()

    @staticmethod
    def version():
        return subprocess.run(["openssl", "version"], capture_output=True,
                              text=True).stdout.strip()
