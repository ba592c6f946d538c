#!/usr/bin/env python3
"""Where the best rule loses reward to the oracle on v2 tasks: actions and budget per episode,
by kind, for each agent given, from the agents' own step traces (`evoharness eval --trace`).

    scripts/v2-gap.py [--task migration] [--horizon 100] [AGENT ...]

Agents default to `oracle tuned lean-harness`; any `evoharness eval --agent` works
(`policy:PATH` too). Seeds 20000-20199 in organisations 2000-2015, as `scripts/v2-sweep.sh`
(none that training or tests use). Needs a release build of the CLI
(`cargo build --release -p evoharness-cli`). Prints a Markdown table: per episode, the
world calls of each kind, the harness actions of each verb, the budget spent and the mean
reward, what a unit of budget is worth (0.6 / budget: the step penalty and the efficiency
bonus together), so that each row's extra spending reads as reward, and each agent's gain in
reward over the first agent, paired episode by episode on the same organisations and seeds
(`evoharness eval --against`), with its 95% confidence interval: far tighter than the two
agents' own intervals, which mostly measure how the episodes differ. The tuned rule's hints
(`tuned:hint-usual` ...) bound what better remedy choices could gain:

    scripts/v2-gap.py tuned tuned:hint-usual tuned:hint-all
"""
import argparse
import collections
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The suite's world tools (suite/src/lib.rs): 0 fetch, 1-2 land, 3 wait, 4-6 remedies, 7 special.
KIND = {0: "fetch", 1: "land", 2: "land", 3: "wait", 4: "remedy", 5: "remedy", 6: "remedy", 7: "special"}
COLUMNS = ["fetch", "land", "wait", "remedy", "special", "track", "recall hit", "recall miss", "note",
           "commit"]


def per_episode(trace: pathlib.Path) -> tuple[int, collections.Counter]:
    """Episodes, and actions by kind over all of them."""
    episodes, total = 0, collections.Counter()
    with trace.open() as f:
        for line in f:
            r = json.loads(line)
            if r["step"] == 1:
                episodes += 1
            a = r["action"]
            verb = next(iter(a)) if isinstance(a, dict) else a
            if verb == "Act":
                total[KIND[a["Act"]["tool"]]] += 1
            elif verb == "Recall":
                total["recall hit" if r["outcome"]["Recalled"] else "recall miss"] += 1
            elif verb in ("Track", "Note", "Commit"):
                total[verb.lower()] += 1
    return episodes, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", default="migration")
    ap.add_argument("--horizon", type=int, default=100)
    ap.add_argument("agents", nargs="*", default=["oracle", "tuned", "lean-harness"])
    args = ap.parse_args()
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    cli = target / "release" / "evoharness"
    if not cli.exists():
        print(f"{cli} is missing: cargo build --release -p evoharness-cli", file=sys.stderr)
        return 2
    print(f"{args.task}, horizon {args.horizon}, per episode:\n")
    print("| agent | " + " | ".join(COLUMNS) +
          f" | budget spent | mean reward | reward per unit | gain over {args.agents[0]}, paired |")
    print("| --- |" + " ---: |" * (len(COLUMNS) + 4))
    with tempfile.TemporaryDirectory() as tmp:
        for agent in args.agents:
            trace = pathlib.Path(tmp) / "trace.jsonl"
            # `--against` the first agent: the paired gain (`evoharness eval`'s own arithmetic).
            out = subprocess.run(
                [str(cli), "eval", "--scenario", "v2", "--task", args.task, "--agent", agent,
                 "--against", args.agents[0], "--horizon", str(args.horizon), "--seeds",
                 "20000..20200", "--organisations", "2000..2016", "--trace", str(trace),
                 "--json"],
                check=True, capture_output=True, text=True).stdout
            r = json.loads(out)
            n, total = per_episode(trace)
            p = r["paired"]
            gain = f"{p['mean_reward_gain']:+.4f} ± {1.96 * p['gain_se']:.4f}"
            cells = [f"{total[c] / n:.1f}" for c in COLUMNS]
            print(f"| {agent} | " + " | ".join(cells) +
                  f" | {r['mean_cost']:.1f} | {r['mean_reward']:.4f} | {0.6 / r['budget']:.6f}"
                  f" | {gain} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
