#!/usr/bin/env python3
"""Sizes and transfer: the shipped policy's pipeline at three policy sizes, and with one task
family held out of training.

    python examples/train/sizes.py --out target/sizes [--only NAME...] [--test-episodes 100]

Every run is `examples/train/train.py` (the generalist's training: DAgger from the lean
harness, then GRPO, at horizon 250 and 1,000), evaluated by `evoharness eval` on
organisations 10000..10016 and seeds from 1,000,000, which no training or validation run uses,
at horizon 250 and 1,000, on all three families:

- `h16`, `h128`, `h720`: hidden width 16, 128 (the shipped policy's) and 720, about 15 k,
  134 k and 1.1 M parameters, trained on all three families;
- `no-migration`, `no-records`, `no-orchestration`: width 128, trained on the other two
  families; the left-out family's rows are the transfer.

Writes OUT/NAME.onnx with its training record (OUT/NAME.json) for each run, OUT/sizes.json
(every evaluation row, with parameters and file size) and prints the Markdown table of
examples/train/README.md. Run it with examples/train/run.sh's environment (EVOHARNESS_LIB and
EVOHARNESS_BIN set, the pinned requirements installed).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TASKS = ("migration", "records", "orchestration")
RUNS = {
    "h16": {"hidden": 16, "tasks": TASKS},
    "h128": {"hidden": 128, "tasks": TASKS},
    "h720": {"hidden": 720, "tasks": TASKS},
    **{f"no-{t}": {"hidden": 128, "tasks": tuple(x for x in TASKS if x != t)} for t in TASKS},
}


def train(name: str, run: dict, out: pathlib.Path, episodes: int) -> dict:
    onnx = out / f"{name}.onnx"
    cmd = [sys.executable, str(ROOT / "examples/train/train.py"), "--out", str(onnx),
           "--hidden", str(run["hidden"]), "--tasks", ",".join(run["tasks"]),
           "--test-episodes", str(episodes)]
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)
    return json.loads(onnx.with_suffix(".json").read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--only", nargs="*", choices=sorted(RUNS), help="these runs only")
    ap.add_argument("--test-episodes", type=int, default=100)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = args.out / "sizes.json"
    rows = json.loads(results.read_text()) if results.exists() else {}
    for name in args.only or RUNS:
        rec = train(name, RUNS[name], args.out, args.test_episodes)
        rows[name] = {"hidden": RUNS[name]["hidden"], "trained_on": list(RUNS[name]["tasks"]),
                      "parameters": rec["parameters"], "bytes": rec["bytes"],
                      "train_s": round(rec["stage1_s"] + rec["stage2_s"], 1), "eval": rec["eval"]}
        results.write_text(json.dumps(rows, indent=2) + "\n")
    print("| run | parameters | file | family | horizon | success | mean reward (95% CI) | harness actions |")
    print("| --- | ---: | ---: | --- | ---: | ---: | --- | ---: |")
    for name, r in rows.items():
        for e in r["eval"]:
            held = "" if e["task"] in r["trained_on"] else " (held out)"
            ci = 1.96 * e["reward_se"]
            print(f"| {name} | {r['parameters']:,} | {r['bytes'] / 1024:.0f} KB | {e['task']}{held} | "
                  f"{e['horizon']:,} | {100 * e['success_rate']:.1f}% | "
                  f"{e['mean_reward']:.3f} ± {ci:.3f} | {e['mean_harness_actions']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
