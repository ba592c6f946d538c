"""The model-upgrade table of a v3 policy (examples/train/README.md, "v3: one policy for every
deployment"): the same held-out organisations with their acting model at the weak and at the
strong tier (`evoharness eval --model weak|strong`: every other draw of each deployment kept,
the card showing the new tier), for the rule tuned for weak models, the rule tuned for strong
ones, fixed-best, the regional rule and the policy; each agent's success, mean reward,
harness actions by verb and paired gain over fixed-best.

    python examples/train/v3/upgrade.py --policy P.onnx --out UPGRADE.json [--ort-lib LIB]

The two tier rules are the settings of suite/src/tune.rs's SEARCH_SPACE with the most reward
over the training organisations (0-599, `scripts/v3-search-space.py`'s first range) whose
model has that tier (`scripts/v3-search-space.py --regional` prints them): what an engineer
who tuned the harness for one model ships.
EVOHARNESS_BIN is the tool (default target/release/evoharness).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

#: The settings tuned for each tier (see the module's docs).
TUNED_FOR = {"weak": "tuned:recall:guess-unknown:commit-6",
             "strong": "tuned:plain:guess-unknown:no-note"}
VERBS = ("track", "commit", "recall", "note")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", required=True)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--organisations", default="3000..3100")
    ap.add_argument("--seeds", default="3000000..3000800")
    ap.add_argument("--horizon", type=int, default=100)
    ap.add_argument("--ort-lib")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    binary = os.environ.get("EVOHARNESS_BIN", "target/release/evoharness")
    agents = {"tuned for weak": TUNED_FOR["weak"], "tuned for strong": TUNED_FOR["strong"],
              "fixed-best": "fixed-best", "regional": "regional",
              f"policy `{pathlib.Path(args.policy).name}`": f"policy:{args.policy}"}
    result = {"policy": args.policy, "organisations": args.organisations, "seeds": args.seeds,
              "horizon": args.horizon, "tiers": {}}
    for tier in ("weak", "strong"):
        rows = {}
        for label, agent in agents.items():
            cmd = [binary, "eval", "--scenario", "v3", "--task", "migration", "--model", tier,
                   "--agent", agent, "--against", "fixed-best", "--horizon", str(args.horizon),
                   "--organisations", args.organisations, "--seeds", args.seeds,
                   "--threads", str(args.threads), "--json"]
            if args.ort_lib:
                cmd += ["--ort-lib", args.ort_lib]
            r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            rows[label] = {k: r[k] for k in ("agent", "success_rate", "mean_reward",
                                             "mean_harness_actions", "harness_actions_by_verb",
                                             "paired")}
        result["tiers"][tier] = rows
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nEvery deployment's model at one tier (organisations {args.organisations}, "
          f"seeds {args.seeds}, horizon {args.horizon}):\n")
    print("| model | agent | success | mean reward | harness actions (track / commit / recall / "
          "note) | gain over fixed-best (95%) |")
    print("| --- | --- | ---: | ---: | --- | ---: |")
    for tier, rows in result["tiers"].items():
        for label, r in rows.items():
            v = r["harness_actions_by_verb"]
            p = r["paired"]
            print(f"| {tier} | {label} | {r['success_rate']:.1%} | {r['mean_reward']:.4f} | "
                  f"{r['mean_harness_actions']:.1f} ({' / '.join(f'{v[k]:.1f}' for k in VERBS)}) "
                  f"| {p['mean_reward_gain']:+.4f} ± {1.96 * p['gain_se']:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
