# SPDX-License-Identifier: GPL-2.0-only
"""What the benchmarks that load a guest from the host share: free ports
for QEMU's forwards, the guest's vCPU time read through its probe port,
ratios with their range, and plain-text tables."""

import socket
import statistics


def free_ports(n):
    """@n distinct free ports on the host: all bound at once, so that the
    kernel cannot hand out the same one twice."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def ask(port, line=None, timeout=5):
    """What the guest's probe on @port answers, as lines of text; @line,
    if given, is sent first (the probes that take a command)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        if line is not None:
            s.sendall(line.encode() + b"\n")
        return s.makefile("rb").read().decode(errors="replace").splitlines()


def cpu_jiffies(stat_line):
    """(all, idle) jiffies in the "cpu" line of /proc/stat: user nice
    system idle iowait irq softirq steal; guest time is in user already."""
    f = [int(v) for v in stat_line.split()[1:]]
    return sum(f[:8]), f[3] + f[4]


def busy_share(a, b):
    """How busy the vCPU was between two cpu_jiffies() readings, or None
    if no time passed."""
    if b[0] <= a[0]:
        return None
    return 1 - (b[1] - a[1]) / (b[0] - a[0])


def pairs(line):
    """A line of "name value" pairs (a /proc/net/*_stat flattened) as a
    dict of ints."""
    f = line.split()
    return {k: int(v) for k, v in zip(f[::2], f[1::2])}


def ratio_text(ratios):
    """The median of @ratios with their range, or "-" for none."""
    if not ratios:
        return "-"
    r = statistics.median(ratios)
    return f"{r:.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def aligned(rows):
    """@rows (tuples of strings, the first the header) as lines: the first
    column left-aligned, the others right-aligned, a rule under the
    header."""
    n = len(rows[0])
    w = [max(len(r[i]) for r in rows) for i in range(n)]
    lines = [" | ".join(r[i].ljust(w[i]) if i == 0 else r[i].rjust(w[i]) for i in range(n))
             for r in rows]
    lines.insert(1, "-+-".join("-" * k for k in w))
    return lines
