#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Record the first flight of real TLS clients, for the engine's seeds.

For each client command, listen on 127.0.0.1, run the command with
{port} replaced, keep the first complete TLS record it sends (its
ClientHello) and hang up.  The client then fails, as expected.

    capture.py OUTDIR NAME 'COMMAND' [NAME 'COMMAND' ...]

A client missing from the machine is skipped with a note.
"""
import os
import shlex
import shutil
import socket
import subprocess
import sys


def first_record(conn):
    buf = b""
    conn.settimeout(5)
    while True:
        if len(buf) >= 5 and len(buf) >= 5 + int.from_bytes(buf[3:5], "big"):
            return buf[:5 + int.from_bytes(buf[3:5], "big")]
        chunk = conn.recv(65536)
        if not chunk:
            return None
        buf += chunk


def capture(outdir, name, command):
    argv0 = shlex.split(command)[0]
    if not shutil.which(argv0):
        print(f"capture: {name}: no {argv0}, skipped")
        return True
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        srv.settimeout(10)
        port = srv.getsockname()[1]
        cmd = shlex.split(command.replace("{port}", str(port)))
        client = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            conn, _ = srv.accept()
            with conn:
                rec = first_record(conn)
        except OSError:
            rec = None
        finally:
            client.kill()
            client.wait()
    if not rec or rec[0] != 22:
        print(f"capture: {name}: no ClientHello record", file=sys.stderr)
        return False
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(rec)
    print(f"capture: {name}: {len(rec)} bytes")
    return True


def main():
    outdir, pairs = sys.argv[1], sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    ok = True
    for name, command in zip(pairs[::2], pairs[1::2]):
        ok &= capture(outdir, name, command)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
