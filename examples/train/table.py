#!/usr/bin/env python3
"""The evaluation table of the book's results (docs/src/results.md), in one command: the shipped policy against the baselines on
organisations and seeds never seen in training, at the training horizon and at 4x it, plus
the append-only ablation (from its training summary), as a Markdown table.

    python examples/train/table.py [--policy examples/policies/generalist.onnx]
        [--ablation examples/policies/ablation-append-only.json] [--episodes 200]
        [--seed 1000000] [--organisations 10000..10016] [--check] [--backend tract|onnxruntime]

With --check it exits non-zero when the policy misses the bar: success below 95% at the
training horizon or 90% at 4x it, an integrity violation in a successful episode, or more than
a third of the static harness's harness actions per episode.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TASKS = ("migration", "records", "orchestration")
TEST_ORGANISATIONS = "10000..10016"
TEST_SEED = 1_000_000


def evoharness() -> list[str]:
    if os.environ.get("EVOHARNESS_BIN"):
        return [os.environ["EVOHARNESS_BIN"]]
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    for profile in ("release", "debug"):
        if (target / profile / "evoharness").is_file():
            return [str(target / profile / "evoharness")]
    return ["cargo", "run", "-q", "--release", "-p", "evoharness-cli", "--bin", "evoharness", "--"]


def run(task, agent, horizon, episodes, backend, seed=TEST_SEED, organisations=TEST_ORGANISATIONS):
    cmd = evoharness() + ["eval", "--task", task, "--agent", agent, "--seeds",
                          f"{seed}..{seed + episodes}", "--organisations", organisations,
                          "--horizon", str(horizon), "--json"]
    if agent.startswith("policy:"):
        cmd += ["--backend", backend]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="examples/policies/generalist.onnx")
    ap.add_argument("--ablation", default="examples/policies/ablation-append-only.json")
    ap.add_argument("--horizon", type=int, help="the training horizon (default: from the policy's summary)")
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=TEST_SEED)
    ap.add_argument("--organisations", "--families", dest="organisations", default=TEST_ORGANISATIONS,
                    help="organisations A..B (--families: the old name)")
    ap.add_argument("--backend", default="tract")
    ap.add_argument("--check", action="store_true", help="fail if the policy misses the bar")
    ap.add_argument("--policy-only", action="store_true", help="only the policy and the static harness")
    args = ap.parse_args()
    policy = pathlib.Path(args.policy)
    summary = policy.with_suffix(".json")
    horizon = args.horizon or (json.loads(summary.read_text())["horizon"] if summary.exists() else 250)
    agents = ["policy:" + str(policy), "static-harness"]
    if not args.policy_only:
        agents += ["lean-harness", "append-only", "oracle", "random"]
    rows = []
    for task in TASKS:
        for h in (horizon, 4 * horizon):
            for agent in agents:
                rows.append(run(task, agent, h, args.episodes, args.backend, args.seed, args.organisations))
    ablation = pathlib.Path(args.ablation)
    if ablation.exists() and not args.policy_only:
        rows += json.loads(ablation.read_text())["ablation"]
    print(f"| family | horizon | agent | success | violations | world actions | harness actions | cost |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    order = {t: i for i, t in enumerate(TASKS)}
    for r in sorted(rows, key=lambda r: (order[r["task"]], r["horizon"])):
        name = "trained policy" if r["agent"].startswith("policy:") else r["agent"]
        print(f"| {r['task']} | {r['horizon']} | {name} | {100 * r['success_rate']:.1f}% | "
              f"{r['integrity_violations']} | {r['mean_world_actions']:.0f} | "
              f"{r['mean_harness_actions']:.1f} | {r['mean_cost']:.0f} |")
    if args.check:
        bad = []
        for task in TASKS:
            for h, bar in ((horizon, 0.95), (4 * horizon, 0.90)):
                p = next(r for r in rows if r["task"] == task and r["horizon"] == h and r["agent"].startswith("policy:"))
                s = next(r for r in rows if r["task"] == task and r["horizon"] == h and r["agent"] == "static-harness")
                if p["success_rate"] < bar:
                    bad.append(f"{task} h={h}: success {p['success_rate']:.3f} < {bar}")
                if p.get("violations_in_successes", 0):
                    bad.append(f"{task} h={h}: violations in successful episodes")
                if 3 * p["mean_harness_actions"] > s["mean_harness_actions"]:
                    bad.append(f"{task} h={h}: {p['mean_harness_actions']:.1f} harness actions, over a third of "
                               f"the static harness's {s['mean_harness_actions']:.1f}")
        if bad:
            sys.exit("the policy misses the bar: " + "; ".join(bad))
        print("\nthe policy meets the bar on every family and horizon")


if __name__ == "__main__":
    main()
