#!/usr/bin/env python3
"""What one different choice would change, state by state, for a policy on a suite task: the
branch points of `python -m evoharness.train --rl rollouts`, measured without learning.

    scripts/branch-points.py POLICY.onnx [--task migration] [--scenario v2] [--horizon 100]
                             [--states 1024] [--branches 4] [--hidden 128]

POLICY.onnx is one `python -m evoharness.train` exported (`--hidden` its width). Groups of
`--branches`+1 environments on training organisations walk on greedily, copy their first
environment at a random step (`VecEnv.copy`), try the policy's choice and the likeliest
template of each other kind there (`train.rollouts.alternatives`) and finish the episode greedily,
all under the same fault draws (rollout seeds, 200,000 and up). Prints the share of states
where some alternative did better on its draw, the median gain there, and for each pair (the
policy's kind of action, the alternative's kind) tried at least 10 times its mean advantage
(return less the policy's: unbiased per pair, where the best of four on one draw is not) and
how often it did better. `examples/train/README.md` quotes it for the v2 static and tuned
imitations. Needs torch and onnx (`examples/train/requirements.txt`) and the suite library
(`EVOHARNESS_LIB`, as the Python package finds it).
"""
import argparse
import collections
import types

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("policy")
    ap.add_argument("--task", default="migration")
    ap.add_argument("--scenario", default="v2", choices=["v1", "v2"])
    ap.add_argument("--horizon", type=int, default=100)
    ap.add_argument("--states", type=int, default=1024)
    ap.add_argument("--branches", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=128)
    a = ap.parse_args()

    from evoharness.train.rollouts import rollouts
    from evoharness.train.sources import suite_policy

    src, net = suite_policy(a.policy, a.task, a.horizon, a.scenario, a.hidden)
    lay = src.layout
    names = [f"{v}:{tool}" if v == "act" else v for v, tool in lay["templates"]]
    kept = {}

    def keep(net, opt, ring, args, rng, anchors=None):  # no learning: keep the branch points
        kept["ring"] = ring

    args = types.SimpleNamespace(branches=a.branches, groups=64, rl_states=a.states, rl_iters=1,
                                 rl_lr=1e-4, rollout_episodes=1, valid_episodes=4)
    rollouts(net, src, args, lambda **row: None, float("inf"), None,
             np.random.default_rng(0), update=keep)
    ring = kept["ring"]
    n = ring.size
    tried = ring.tried[:n]
    adv = np.where(tried, ring.ret[:n] - ring.ret[:n, :1], -np.inf)
    best = adv[:, 1:].max(1)
    wins = best > 1e-6
    print(f"{n} states; an alternative did better on its draw in {wins.mean():.1%}"
          + (f" (median gain {np.median(best[wins]):.4f})" if wins.any() else ""))
    pairs = collections.defaultdict(list)
    for i in range(n):
        for j in np.flatnonzero(tried[i, 1:]) + 1:
            pairs[(names[ring.act[i, 0]], names[ring.act[i, j]])].append(adv[i, j])
    rows = sorted(((k, np.array(v)) for k, v in pairs.items() if len(v) >= 10),
                  key=lambda kv: -kv[1].mean())
    print("| policy's action | alternative | states | mean advantage | better on |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (mine, other), v in rows:
        print(f"| {mine} | {other} | {len(v)} | {v.mean():+.4f} | {(v > 1e-6).mean():.0%} |")


if __name__ == "__main__":
    main()
