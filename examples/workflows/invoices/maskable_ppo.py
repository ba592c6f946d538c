"""sb3-contrib's MaskablePPO from scratch on the invoices world, through the Gymnasium
environment (`evoharness.gym.WorldEnv`), then its greedy policy on held-out seeds: what a user
who reaches for the usual RL libraries gets, to set beside `python -m evoharness.train`
(README of bindings/python, "Which tool").

    examples/workflows/invoices/run.sh python examples/workflows/invoices/maskable_ppo.py \
        --steps 150000 --eval-seeds 1000000..1000500

Prints the mean return and success of the last 100 training episodes every `--log-every`
steps (stderr), then one JSON object: steps, training wall time, and the held-out episodes'
success rate, mean reward with its standard error, harness and world actions, violations.
Evaluation steps `WorldEnv` over `VecEnv.from_worlds` (the library's reward, as
`python -m evoharness.evaluate --via env` counts it); the k-th episode runs seed A + k.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from collections import deque

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from evoharness.gym import WorldEnv  # noqa: E402
from world import Invoices  # noqa: E402


def make(seed: int) -> WorldEnv:
    # The world's own budget and capacities, as python -m evoharness.train takes them.
    return WorldEnv(Invoices, seed=seed)


def seeds(text: str) -> range:
    a, sep, b = text.partition("..")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r}: give A..B (seeds A to B-1)")
    return range(int(a), int(b))


def evaluate(model, seed_range: range) -> dict:
    env = make(seed_range.start)
    obs, _ = env.reset()
    episodes = []
    while len(episodes) < len(seed_range):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, _, term, trunc, info = env.step(int(action))
        if trunc:  # masked-out actions in a row: cannot happen with the mask, counted if it did
            episodes.append({"success": False, "reward": float("nan"), "harness_actions": 0,
                             "world_actions": 0, "violations": 0})
            obs, _ = env.reset()
        elif term:
            episodes.append(info["episode_stats"])
    env.close()
    reward = np.array([e["reward"] for e in episodes])
    return {
        "episodes": len(episodes),
        "seeds": f"{seed_range.start}..{seed_range.stop}",
        "success_rate": float(np.mean([e["success"] for e in episodes])),
        "mean_reward": float(reward.mean()),
        "reward_se": float(reward.std(ddof=1) / np.sqrt(len(reward))) if len(reward) > 1 else 0.0,
        "mean_harness_actions": float(np.mean([e["harness_actions"] for e in episodes])),
        "mean_world_actions": float(np.mean([e["world_actions"] for e in episodes])),
        "violations": int(sum(e["violations"] for e in episodes)),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=150_000)
    p.add_argument("--seed", type=int, default=0, help="training seeds start here; also sb3's")
    p.add_argument("--eval-seeds", type=seeds, default=seeds("1000000..1000500"))
    p.add_argument("--log-every", type=int, default=10_000)
    p.add_argument("--ent-coef", type=float, default=0.0, help="MaskablePPO's (default 0)")
    p.add_argument("--threads", type=int, default=1,
                   help="torch's threads (1, as evoharness.train: on a busy 2-core machine a "
                   "second one makes small products far slower)")
    args = p.parse_args(argv)

    import torch

    torch.set_num_threads(args.threads)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class Log(BaseCallback):
        def __init__(self):
            super().__init__()
            self.returns, self.successes, self.ret = deque(maxlen=100), deque(maxlen=100), 0.0

        def _on_step(self):
            info = self.locals["infos"][0]
            self.ret += float(self.locals["rewards"][0])
            if "episode_stats" in info or self.locals["dones"][0]:
                self.returns.append(self.ret)
                self.successes.append(bool(info.get("is_success", False)))
                self.ret = 0.0
            if self.num_timesteps % args.log_every == 0 and self.returns:
                print(f"{self.num_timesteps:>8} steps  {time.perf_counter() - t0:6.0f} s  "
                      f"last {len(self.returns)} episodes: return {np.mean(self.returns):.3f}, "
                      f"success {np.mean(self.successes):.0%}", file=sys.stderr, flush=True)
            return True

    model = MaskablePPO("MultiInputPolicy", make(args.seed), ent_coef=args.ent_coef,
                        seed=args.seed, device="cpu")
    t0 = time.perf_counter()
    model.learn(args.steps, callback=Log())
    train_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    held_out = evaluate(model, args.eval_seeds)
    print(json.dumps({"agent": "MaskablePPO (sb3-contrib, MultiInputPolicy; sb3's defaults "
                               "but ent_coef)",
                      "steps": args.steps, "seed": args.seed, "ent_coef": args.ent_coef,
                      "threads": args.threads,
                      "train_s": round(train_s, 1),
                      "eval_s": round(time.perf_counter() - t1, 1),
                      "parameters": sum(x.numel() for x in model.policy.parameters()),
                      "held_out": held_out}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
