#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A plain TCP server for ktls_close_notify.sh that knows nothing of TLS
and logs what read() returned at the end of each connection.

usage: ktls_close_notify_srv.py PORT

One connection at a time, on 127.0.0.1:PORT.  The first line says what
to do:
  "GET ..."    an HTTP/1.0 request: answer 200 with 100000 bytes and no
               Content-Length, then close (the client knows the body is
               whole only by the end of the stream);
  "close"      write "bye\\n", then close;
  anything else: read to the end, then close.
Each connection logs one line: "conn N: <first line>: <end>", where
<end> is "EOF after B bytes" or "read() failed: ERRNO after B bytes"
(nothing when the server closed first).
"""

import errno
import os
import socket
import sys

BODY = bytes(range(256)) * 390 + bytes(160)


def read_line(fd):
    """The first line (or what came before the end); the error, if any."""
    data = b""
    while b"\n" not in data:
        try:
            chunk = os.read(fd, 4096)
        except OSError as e:
            return data, e
        if not chunk:
            return data, None
        data += chunk
    return data, None


def read_to_end(fd, have):
    """Reads until read() returns 0 or fails; says which."""
    n = len(have)
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError as e:
            return f"read() failed: {errno.errorcode.get(e.errno, e.errno)} after {n} bytes"
        if not chunk:
            return f"EOF after {n} bytes"
        n += len(chunk)


def serve(conn, n):
    fd = conn.fileno()
    data, err = read_line(fd)
    first = data.split(b"\n")[0].strip().decode(errors="replace")
    if err:
        end = f"read() failed: {errno.errorcode.get(err.errno, err.errno)} after {len(data)} bytes"
    elif first.startswith("GET "):
        while b"\r\n\r\n" not in data:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
        conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n" + BODY)
        end = "closed by the server"
    elif first == "close":
        conn.sendall(b"bye\n")
        end = "closed by the server"
    elif b"\n" not in data:
        end = f"EOF after {len(data)} bytes"
    else:
        end = read_to_end(fd, data)
    conn.close()
    print(f"conn {n}: {first}: {end}", flush=True)


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", int(sys.argv[1])))
    srv.listen(8)
    print("listening", flush=True)
    n = 0
    while True:
        conn, _ = srv.accept()
        n += 1
        serve(conn, n)


if __name__ == "__main__":
    main()
