"""Held-out evaluation of a v3 policy (examples/train/README.md, "v3: one policy for every
deployment"): paired gains over the fixed rules, fixed-best, regional, retuned and the imitation
checkpoint, at the training horizon and at 4x, then per region of the deployment family.

    python examples/train/v3/evaluate.py --policy P.onnx --sft SFT.onnx --out RESULTS.json

Every comparison is one `evoharness eval --scenario v3 --task migration --agent policy:P
--against X --json` on organisations 3000-3099 and seeds 3,000,000-3,000,799 (eight episodes
an organisation; no training, tuning or validation uses them). `regional` and `retuned` are also
run against `fixed-best` (what retuning gains out of sample, for the two-thirds bar). The
per-region part runs the policy, regional and retuned against fixed-best, and the static, lean
and tuned rules and the oracle for their own figures, in each organisation alone
(organisation K on seeds 3,100,000 + 8 (K - 3000) onward: other episodes than the main
table's), and reads each organisation's region from `evoharness tune --json`.

EVOHARNESS_BIN is the tool (default target/release/evoharness); --ort-lib, if given, runs the
policy on ONNX Runtime (a tool built without tract).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

AGAINST = ["static-harness", "lean-harness", "tuned", "fixed-best", "regional", "retuned"]


#: What the per-region part also runs in each organisation, for its own figures.
RULES = ("static-harness", "lean-harness", "tuned", "oracle")

KEEP = ("agent", "horizon", "episodes", "organisations", "success_rate", "mean_reward",
        "reward_se", "mean_harness_actions", "harness_actions_by_verb", "mean_world_actions",
        "mean_steps", "violations_in_successes", "paired", "wall_s")


def run(cmd: list[str]) -> dict:
    """One `evoharness` command's JSON, without the fields the tables do not use."""
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {k: out[k] for k in KEEP if k in out} if "success_rate" in out else out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", required=True)
    ap.add_argument("--sft", help="the imitation checkpoint (RL's paired gain over it)")
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--task", default="migration")
    ap.add_argument("--organisations", default="3000..3100")
    ap.add_argument("--seeds", default="3000000..3000800")
    ap.add_argument("--horizons", default="100,400")
    ap.add_argument("--region-horizons", default="100",
                    help="horizons of the per-region part (empty: none)")
    ap.add_argument("--ort-lib", help="run the policy on this ONNX Runtime library")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--regions-only", action="store_true",
                    help="keep the horizons' part of an existing --out and run the per-region "
                         "part again")
    args = ap.parse_args()
    binary = os.environ.get("EVOHARNESS_BIN", "target/release/evoharness")
    extra = ["--threads", str(args.threads)]
    if args.ort_lib:
        extra += ["--ort-lib", args.ort_lib]

    def ev(agent: str, against: str | None, h: int, orgs: str, seeds: str, threads=None) -> dict:
        cmd = [binary, "eval", "--scenario", "v3", "--task", args.task, "--agent", agent,
               "--horizon", str(h), "--organisations", orgs, "--seeds", seeds, "--json"]
        cmd += extra if threads is None else ["--threads", str(threads)] + extra[2:]
        if against:
            cmd += ["--against", against]
        return run(cmd)

    policy = f"policy:{args.policy}"
    result = {"policy": args.policy, "sft": args.sft, "task": args.task,
              "organisations": args.organisations, "seeds": args.seeds,
              "horizons": {}, "regions": {}}
    if args.regions_only:
        result = {**json.loads(args.out.read_text()), "regions": {}}
    for h in [int(x) for x in args.horizons.split(",") if x and not args.regions_only]:
        t0 = time.time()
        cell = {}
        for x in AGAINST + ([f"policy:{args.sft}"] if args.sft else []):
            r = ev(policy, x, h, args.organisations, args.seeds)
            cell[x] = r
            p = r["paired"]
            print(f"h{h} policy vs {x}: {p['mean_reward_gain']:+.4f} ± {1.96 * p['gain_se']:.4f} "
                  f"(success {r['success_rate']:.3f}, harness {r['mean_harness_actions']:.1f})",
                  flush=True)
        # Each rule's own figures, and retuning's gain over fixed-best out of sample.
        rules = {}
        for x in AGAINST[:-1]:
            rules[x] = ev(x, "fixed-best" if x == "regional" else None, h, args.organisations,
                          args.seeds)
        rules["retuned"] = ev("retuned", "fixed-best", h, args.organisations, args.seeds)
        if args.sft:
            rules[f"policy:{args.sft}"] = ev(f"policy:{args.sft}", "fixed-best", h,
                                             args.organisations, args.seeds)
        p = rules["retuned"]["paired"]
        print(f"h{h} retuned vs fixed-best: {p['mean_reward_gain']:+.4f} ± "
              f"{1.96 * p['gain_se']:.4f}", flush=True)
        result["horizons"][str(h)] = {"policy_against": cell, "agents": rules,
                                      "wall_s": round(time.time() - t0, 1)}
        args.out.write_text(json.dumps(result, indent=1) + "\n")

    a, b = (int(x) for x in args.organisations.split(".."))
    for h in [int(x) for x in args.region_horizons.split(",") if x]:
        t0 = time.time()
        tune = run([binary, "tune", "--scenario", "v3", "--task", args.task, "--horizon", str(h),
                    "--organisations", args.organisations, "--seeds",
                    f"3100000..{3100000 + (b - a)}", "--json"] + extra[:2])
        region = {o["organisation"]: o["region"] for o in tune["organisations"]}

        def one(k: int) -> dict:
            seeds = f"{3100000 + 8 * (k - a)}..{3100000 + 8 * (k - a) + 8}"
            return {"organisation": k, "region": region[k],
                    "policy": ev(policy, "fixed-best", h, f"{k}..{k + 1}", seeds, 1),
                    "fixed_best": ev("fixed-best", None, h, f"{k}..{k + 1}", seeds, 1),
                    "regional": ev("regional", "fixed-best", h, f"{k}..{k + 1}", seeds, 1),
                    "retuned": ev("retuned", "fixed-best", h, f"{k}..{k + 1}", seeds, 1),
                    # The fixed rules and the oracle (it reads the hidden remedies: a bound).
                    **{x: ev(x, None, h, f"{k}..{k + 1}", seeds, 1) for x in RULES}}

        with ThreadPoolExecutor(args.threads) as pool:
            rows = list(pool.map(one, range(a, b)))
        result["regions"][str(h)] = {"organisations": rows, "wall_s": round(time.time() - t0, 1)}
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
