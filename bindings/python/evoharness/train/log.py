"""The training record: the JSON lines of every round and iteration (echoed to stdout), and
their plot."""

from __future__ import annotations

import json
import pathlib
import time


class Log:
    """JSON lines, echoed to stdout (``quiet`` echoes nothing)."""

    def __init__(self, path, quiet: bool = False):
        self.f = open(path, "w")
        self.t0 = time.time()
        self.rows: list[dict] = []
        self.quiet = quiet

    def __call__(self, **row):
        row["elapsed_s"] = round(time.time() - self.t0, 1)
        self.rows.append(row)
        self.f.write(json.dumps(row) + "\n")
        self.f.flush()
        if not self.quiet:
            print(" ".join(f"{k}={v}" for k, v in row.items() if k != "args"), flush=True)

    def close(self):
        self.f.close()


def plot(rows: list[dict], path, title: str = "training") -> None:
    """Validation success rate, mean reward and harness actions per episode over training, as
    a small SVG (one panel each; the dashed line marks where RL starts)."""
    pts = [r for r in rows if "stage" in r and "valid_success" in r]
    if not pts:
        return
    panels = [("valid_success", "success rate", "#1b9e77")]
    if all("valid_reward" in r for r in pts):
        panels.append(("valid_reward", "mean reward", "#7570b3"))
    panels.append(("valid_harness", "harness actions / episode", "#d95f02"))
    W, L, T, P = 640, 60, 30, 130
    H = T + len(panels) * (P + 10) + 40
    xs = list(range(len(pts)))
    x = lambda i: L + (W - 2 * L) * (i / max(1, len(xs) - 1))  # noqa: E731
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         'font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{L}" y="20" font-size="14">{title}: validation per round / iteration</text>']
    for k, (key, label, colour) in enumerate(panels):
        top = T + k * (P + 10)
        vals = [float(r[key]) for r in pts]
        lo = min(0.0, min(vals))
        hi = 1.0 if key == "valid_success" else max(1e-6, max(vals))
        y = lambda v, lo=lo, hi=hi, top=top: top + P * (1 - (v - lo) / max(1e-9, hi - lo))  # noqa: E731
        s.append(f'<rect x="{L}" y="{top}" width="{W - 2 * L}" height="{P}" fill="none" stroke="#ccc"/>')
        s.append(f'<text x="{L + 4}" y="{top + 14}">{label} (from {lo:.2f} to {hi:.2f})</text>')
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in zip(xs, vals))
        s.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        for i, r in zip(xs, pts):
            if r.get("stage") == 2 and (i == 0 or pts[i - 1].get("stage") != 2):
                s.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{top}" y2="{top + P}" '
                         'stroke="#999" stroke-dasharray="4"/>')
    s.append(f'<text x="{L}" y="{H - 10}">DAgger rounds, then RL iterations after the dashed '
             'line</text>')
    s.append("</svg>")
    pathlib.Path(path).write_text("\n".join(s) + "\n")


__all__ = ["Log", "plot"]
