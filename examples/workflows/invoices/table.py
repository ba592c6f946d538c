#!/usr/bin/env python3
"""The invoices example's table: its policy (through the embedded agent) against the lean
teacher it learned from, a track-everything teacher and random legal actions, on seeds no
training used (1,000,000 and up). ``--check`` exits 1 when the policy misses the bar: at least
95% success and fewer harness actions per episode than the track-everything teacher; with
``--imitation PATH`` (the annealed policy's imitation checkpoint, ``run.sh train-anneal``) that
checkpoint is a row too, and the bar is at most a fifth of its harness actions per episode.

    examples/workflows/invoices/run.sh table [--seeds A..B] [--policy PATH] [--imitation PATH]
                                             [--check] [--json]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from evoharness.evaluate import evaluate, parse_seeds

HERE = pathlib.Path(__file__).resolve().parent
WORLD = f"{HERE / 'world.py'}:Invoices"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1000000..1000500")
    ap.add_argument("--policy", default=str(HERE / "policy.onnx"))
    ap.add_argument("--imitation", help="an imitation checkpoint the policy must use at most a "
                    "fifth of the harness actions of (with --check)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seeds = parse_seeds(args.seeds)
    rows = {
        "policy (embedded agent)": evaluate(WORLD, f"policy:{args.policy}", seeds),
        "lean teacher": evaluate(WORLD, f"teacher:{HERE / 'teacher.py'}:lean", seeds),
        "track-everything teacher": evaluate(WORLD, f"teacher:{HERE / 'teacher.py'}:track_everything", seeds),
        "random legal actions": evaluate(WORLD, "random", seeds),
    }
    if args.imitation:
        rows["imitation checkpoint"] = evaluate(WORLD, f"policy:{args.imitation}", seeds)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"seeds {args.seeds} ({len(seeds)} episodes), horizon {rows['lean teacher']['horizon']}\n")
        print("| agent | success | mean reward ± SE | harness actions / episode | world actions / episode | steps / episode | violations |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, r in rows.items():
            print(f"| {name} | {100 * r['success_rate']:.1f}% | {r['mean_reward']:.3f} ± {r['reward_se']:.3f} "
                  f"| {r['mean_harness_actions']:.2f} | {r['mean_world_actions']:.2f} | {r['mean_steps']:.2f} "
                  f"| {r['integrity_violations']} |")
    if args.check:
        p, t = rows["policy (embedded agent)"], rows["track-everything teacher"]
        bad = []
        if p["success_rate"] < 0.95:
            bad.append(f"success {p['success_rate']:.3f} < 0.95")
        if not p["mean_harness_actions"] < t["mean_harness_actions"]:
            bad.append(f"harness actions {p['mean_harness_actions']:.2f} not below the "
                       f"track-everything teacher's {t['mean_harness_actions']:.2f}")
        if args.imitation:
            i = rows["imitation checkpoint"]
            if not p["mean_harness_actions"] <= i["mean_harness_actions"] / 5:
                bad.append(f"harness actions {p['mean_harness_actions']:.2f} above a fifth of the "
                           f"imitation checkpoint's {i['mean_harness_actions']:.2f}")
        if bad:
            print("below the bar: " + "; ".join(bad), file=sys.stderr)
            return 1
        print("the policy meets the bar")
    return 0


if __name__ == "__main__":
    sys.exit(main())
