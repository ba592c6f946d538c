"""Prints the README's v3 tables from what `evaluate.py` wrote:

    python examples/train/v3/table.py examples/train/v3/v3-ppo.eval.json

1. Per horizon: the policy's paired gain over each rule (± 1.96 standard errors, from
   `evoharness eval --against`), and each agent's success, mean reward and harness actions by
   verb; with the two-thirds bar of the retuning gain.
2. Per region of the deployment family (horizons with a per-region part): the policy's, the
   regional rule's and the retuned rule's gains over fixed-best, their success and harness actions by verb.
   A region's gain is the mean over its organisations' episodes; its standard error combines
   each organisation's own (`sqrt(sum((n_i * se_i)^2)) / sum(n_i)`: organisations held fixed).
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict

VERBS = ("track", "commit", "recall", "note")


def verbs(r: dict) -> str:
    v = r["harness_actions_by_verb"]
    return f"{r['mean_harness_actions']:.1f} ({' / '.join(f'{v[k]:.1f}' for k in VERBS)})"


def gain(p: dict) -> str:
    return f"{p['mean_reward_gain']:+.4f} ± {1.96 * p['gain_se']:.4f}"


def main(path: str) -> int:
    res = json.load(open(path))
    name = res["policy"].rsplit("/", 1)[-1]
    for h, cell in res["horizons"].items():
        pa, agents = cell["policy_against"], cell["agents"]
        print(f"\nHorizon {h} ({pa['fixed-best']['paired']['episodes']} episodes):\n")
        print("| agent | success | mean reward | harness actions (track / commit / recall / note) "
              f"| `{name}`'s paired gain over it (95%) |")
        print("| --- | ---: | ---: | --- | ---: |")
        first = next(iter(pa.values()))
        print(f"| policy `{name}` | {first['success_rate']:.1%} | {first['mean_reward']:.4f} | "
              f"{verbs(first)} | |")
        for x, r in pa.items():
            own = agents.get(x)
            label = f"imitation checkpoint `{x.rsplit('/', 1)[-1]}`" if x.startswith("policy:") else x
            if own is None:
                print(f"| {label} | | | | {gain(r['paired'])} |")
                continue
            print(f"| {label} | {own['success_rate']:.1%} | {own['mean_reward']:.4f} | "
                  f"{verbs(own)} | {gain(r['paired'])} |")
        rt = agents["retuned"]["paired"]["mean_reward_gain"]
        pf = pa["fixed-best"]["paired"]["mean_reward_gain"]
        print(f"\nRetuned over fixed-best: {gain(agents['retuned']['paired'])}; the policy "
              f"over fixed-best {pf:+.4f}, {pf / rt:.2f} of the retuning gain (bar: 0.67).")
        if "regional" in agents:
            rg = agents["regional"]["paired"]["mean_reward_gain"]
            print(f"Regional over fixed-best: {gain(agents['regional']['paired'])} "
                  f"({rg / rt:.2f} of the retuning gain).")
    for h, part in res.get("regions", {}).items():
        rows = defaultdict(list)
        for o in part["organisations"]:
            rows[o["region"]].append(o)
        print(f"\nPer region, horizon {h} (each organisation on 8 episodes of its own):\n")
        has_regional = all("regional" in o for o in part["organisations"])
        keys = ("policy", "fixed_best") + (("regional",) if has_regional else ()) + ("retuned",)
        gains = [k for k in keys if k != "fixed_best"]
        print("| region | orgs | " + " | ".join(f"{k} − fixed-best" for k in gains)
              + " | success " + " / ".join(k.replace("_", "-") for k in keys) + " | "
              + " | ".join(f"harness: {k.replace('_', '-')}" for k in keys) + " |")
        print("| " + " | ".join(["---", "---:"] + ["---:"] * len(gains) + ["---"] * (1 + len(keys)))
              + " |")
        for region in sorted(rows) + ["all"]:
            os_ = [o for r in sorted(rows) for o in rows[r]] if region == "all" else rows[region]

            def pooled(key: str) -> str:
                ps = [o[key]["paired"] for o in os_]
                n = sum(p["episodes"] for p in ps)
                m = sum(p["mean_reward_gain"] * p["episodes"] for p in ps) / n
                se = math.sqrt(sum((p["episodes"] * p["gain_se"]) ** 2 for p in ps)) / n
                return f"{m:+.4f} ± {1.96 * se:.4f}"

            def mean(key: str, f) -> float:
                return sum(f(o[key]) for o in os_) / len(os_)

            def verbs_of(key: str) -> str:
                v = {k: mean(key, lambda r, k=k: r["harness_actions_by_verb"][k]) for k in VERBS}
                return f"{sum(v.values()):.1f} ({' / '.join(f'{v[k]:.1f}' for k in VERBS)})"

            succ = " / ".join(f"{mean(k, lambda r: r['success_rate']):.1%}" for k in keys)
            print(f"| {region} | {len(os_)} | " + " | ".join(pooled(k) for k in gains)
                  + f" | {succ} | " + " | ".join(verbs_of(k) for k in keys) + " |")
        # Every agent's mean reward per region, where the part ran the fixed rules too.
        agents = [k for k in ("static-harness", "lean-harness", "tuned", "fixed_best",
                              "regional", "retuned", "policy", "oracle")
                  if all(k in o for o in part["organisations"])]
        if "oracle" not in agents:
            continue
        print(f"\nMean reward per region, horizon {h} (the same episodes; the oracle reads the "
              "hidden remedies):\n")
        print("| region | orgs | " + " | ".join(k.replace("_", "-") for k in agents) + " |")
        print("| " + " | ".join(["---"] + ["---:"] * (1 + len(agents))) + " |")
        for region in sorted(rows) + ["all"]:
            os_ = [o for r in sorted(rows) for o in rows[r]] if region == "all" else rows[region]
            cells = [sum(o[k]["mean_reward"] for o in os_) / len(os_) for k in agents]
            print(f"| {region} | {len(os_)} | " + " | ".join(f"{c:.4f}" for c in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
