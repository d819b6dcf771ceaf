# SPDX-License-Identifier: GPL-2.0-only
"""The figure of tools/bench/http_run: per mode, requests per busy vCPU
second against the file size, one line per server, both axes log.

  python3 http_plot.py ROWS.json OUT.png

Runs under a Python that has matplotlib; http_run finds one."""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

STYLE = {"userspace": ("o-", "tab:gray"), "ktls-ours": ("s-", "tab:blue"),
         "ktls-tls": ("^--", "tab:green"), "armed": ("D-", "tab:red")}


def main():
    data = json.loads(open(sys.argv[1]).read())
    rows, sizes, modes = data["rows"], data["sizes"], data["modes"]
    shown = [m for m in modes if any(r["mode"] == m for r in rows)]
    fig, axes = plt.subplots(1, len(shown), figsize=(5.2 * len(shown), 4), squeeze=False)
    for ax, mode in zip(axes[0], shown):
        for key, (marker, color) in STYLE.items():
            pts = sorted((sizes[r["size"]], r["cost"]) for r in rows
                         if r["mode"] == mode and r["server"] == key and r["cost"])
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker, color=color,
                        label=data["labels"][key], markersize=4)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ticks = sorted({sizes[r["size"]] for r in rows})
        ax.set_xticks(ticks)
        ax.set_xticklabels([r for n in ticks for r, v in sizes.items() if v == n])
        ax.set_xlabel("file size")
        ax.set_ylabel("requests per busy vCPU second")
        ax.set_title(modes[mode])
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("nginx over HTTPS, TLS 1.3 AES-128-GCM, one vCPU under TCG", fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
