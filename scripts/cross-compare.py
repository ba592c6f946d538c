#!/usr/bin/env python3
"""Compares two folders of run outputs file by file: what one machine wrote must be what the
other wrote, except for what measures the machine rather than the agent.

    scripts/cross-compare.py HOST_DIR TARGET_DIR

Both folders must hold the same file names, none of them empty. Files ending in `.json` or
`.jsonl` are compared as JSON values, line by line, after dropping the keys in VARYING wherever
they occur (trace lines, summaries, eval reports); every other file is compared byte for byte
(program output, checkpoint files). Prints one line per file; exits 1 on the first difference,
after showing it.
"""

import json
import sys
from pathlib import Path

# Keys whose values differ between machines for reasons that are not the agent's behaviour:
# timings, memory, and the output paths the two sides were given.
VARYING = {
    "latency_ns",  # trace lines: time of one step
    "p50_step_us",  # eval report
    "p99_step_us",
    "wall_s",
    "peak_rss_kib",
    "load_ms",  # run summary
    "ms_per_step",
    "trace",  # run summary: where the trace was written
}


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in VARYING}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def json_lines(path):
    lines = path.read_text().splitlines()
    return [strip(json.loads(line)) for line in lines if line.strip()]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip())
    a, b = Path(argv[1]), Path(argv[2])
    names_a = sorted(p.name for p in a.iterdir() if p.is_file())
    names_b = sorted(p.name for p in b.iterdir() if p.is_file())
    if names_a != names_b:
        print(f"different files: {a}: {names_a}; {b}: {names_b}")
        return 1
    if not names_a:
        print(f"nothing to compare in {a}")
        return 1
    for name in names_a:
        fa, fb = a / name, b / name
        if fa.stat().st_size == 0 or fb.stat().st_size == 0:
            print(f"{name}: empty ({fa.stat().st_size} and {fb.stat().st_size} bytes)")
            return 1
        if name.endswith((".json", ".jsonl")):
            la, lb = json_lines(fa), json_lines(fb)
            for i, (x, y) in enumerate(zip(la, lb)):
                if x != y:
                    print(f"{name}: line {i + 1} differs\n  {a.name}: {json.dumps(x)}\n  {b.name}: {json.dumps(y)}")
                    return 1
            if len(la) != len(lb):
                print(f"{name}: {len(la)} lines against {len(lb)}")
                return 1
            print(f"same: {name} ({len(la)} JSON values, timings left out)")
        else:
            da, db = fa.read_bytes(), fb.read_bytes()
            if da != db:
                at = next(i for i, (x, y) in enumerate(zip(da + b"\0", db + b"\1")) if x != y)
                line = da[:at].count(b"\n") + 1
                print(f"{name}: differs from byte {at} (line {line})")
                for side, data in ((a.name, da), (b.name, db)):
                    text = data.decode(errors="replace").splitlines()
                    print(f"  {side}: {text[line - 1] if line <= len(text) else '<end>'}")
                return 1
            print(f"same: {name} ({len(da)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
