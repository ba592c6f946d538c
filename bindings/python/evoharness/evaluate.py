"""Evaluate an agent on a world written in Python, over a range of seeds.

    python -m evoharness.evaluate --world MODULE:FACTORY
        --agent policy:PATH | teacher:MODULE:CALLABLE | random [--seeds A..B] [--horizon H] [--json]

- ``policy:PATH`` runs the ONNX policy through the **embedded agent**: the library's
  ``evoharness_agent_*`` loop (what a C or C++ product runs), greedy, with the Python world
  serving the tools as a callback world. ONNX Runtime comes from the ``onnxruntime`` package
  (or ``$EVOHARNESS_ORT_LIB``). ``--via env`` runs it instead on the library's vectorised
  environment (observations and masks from ``VecEnv.from_worlds``, the network in ONNX Runtime's
  Python API): the same episodes, a cross-check. (One agent runs the seeds in order and keeps
  its Experience from task to task, as each environment of ``VecEnv.from_worlds`` does with its own
  seeds; a policy that notes lessons can therefore differ a little between the two.)
- ``teacher:MODULE:CALLABLE`` runs a teacher's high-level actions, mapped by the library.
- ``random`` picks a legal template uniformly (seeded by ``--rng-seed``).

Prints success rate, mean reward with its standard error, harness and world actions and steps
per episode, integrity violations; ``--json`` prints them as one JSON object. Seeds ``A..B``
are A to B-1; training never uses seeds from 1,000,000 (``evoharness.train.seeds.TEST_SEED``).
Needs no torch: the base install runs it.
``--min-success`` (and ``--max-harness``) make the exit status 1 when the agent misses the bar.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from .figures import SAME, paired_gain, summary
from .spec import load_object
from .world import world_settings


def parse_seeds(s: str) -> range:
    try:
        a, b = s.split("..")
        r = range(int(a), int(b))
    except ValueError:
        raise ValueError(f"--seeds {s!r}: give A..B (seeds A to B-1), e.g. 1000000..1000200") from None
    if len(r) == 0 or r.start < 0:
        raise ValueError(f"--seeds {s!r}: an empty or negative range")
    return r


def _summary(rows: list[dict]) -> dict:
    return summary([{"success": r["success"], "reward": r["reward"], "harness": r["harness_actions"],
                     "world": r["world_actions"], "steps": r["steps"], "cost": r["cost"],
                     "violations": r["violations"]} for r in rows])


def policy_agent(path, factory, settings, seeds) -> list[dict]:
    """Episodes of the embedded agent (C ABI) with the policy at ``path``."""
    from .agent import Agent

    with Agent(path, factory, budget=settings["budget"], costs=settings["costs"],
               seed=seeds[0]) as agent:
        return [agent.run_task(s) for s in seeds]


def _env_rows(factory, settings, seeds, choose) -> list[dict]:
    """Episodes on VecEnv.from_worlds, one environment per seed (so any range of seeds works)."""
    from .vec_env import VecEnv

    rows = []
    n = 16
    for start in range(0, len(seeds), n):
        chunk = seeds[start: start + n]
        # VecEnv.from_worlds runs seed `seed + i` in environment i (group 1) for the first episode.
        env = VecEnv.from_worlds(factory, len(chunk), seed=chunk[0], **settings)
        try:
            got: dict[int, dict] = {}
            while len(got) < len(chunk):
                done = env.step(choose(env))[3]
                for i in np.flatnonzero(done):
                    if int(i) not in got:
                        got[int(i)] = env.last_episode(int(i))
            rows += [got[i] for i in range(len(chunk))]
        finally:
            env.close()
    return rows


def policy_env(path, factory, settings, seeds) -> list[dict]:
    """Episodes on VecEnv.from_worlds with the ONNX network run by ONNX Runtime's Python API."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])

    # A dynamic batch dimension (what the exporter writes) runs every environment in one call;
    # a batch-1 file one call each.
    batched = not isinstance(sess.get_inputs()[0].shape[0], int)

    def choose(env):
        mask = env.mask.astype(np.float32)
        if batched:
            logits = sess.run(["logits"], {"obs": env.obs, "mask": mask})[0]
        else:
            logits = np.concatenate([
                sess.run(["logits"], {"obs": env.obs[i:i + 1], "mask": mask[i:i + 1]})[0]
                for i in range(env.n)])
        logits = np.where(env.mask > 0, logits, -np.inf)
        return np.argmax(logits, axis=1).astype(np.uint32)

    return _env_rows(factory, settings, seeds, choose)


def teacher_env(teacher, factory, settings, seeds) -> list[dict]:
    return _env_rows(factory, settings, seeds, lambda env: env.teacher_actions(teacher))


def random_env(factory, settings, seeds, rng_seed: int) -> list[dict]:
    rng = np.random.default_rng(rng_seed)

    def choose(env):
        return np.array([rng.choice(np.flatnonzero(m)) for m in env.mask], np.uint32)

    return _env_rows(factory, settings, seeds, choose)


SAME_REWARD = SAME
"""Two episodes' rewards this close count as the same in :func:`paired`."""


def paired(mine: list[dict], theirs: list[dict], against: str) -> dict:
    """One agent's episodes against another's on the same seeds, in order (the fields of
    `evoharness eval --against`'s ``paired``): :func:`~evoharness.figures.paired_gain` (the
    mean of the per-episode differences in reward, rewards within :data:`SAME_REWARD` the same,
    its standard error and 95% interval ``low``..``high``, the episodes the first did better,
    worse and the same in) under ``mean_reward_gain``, with the other agent's name. Two agents
    on the same seeds meet the same world, so the paired interval is far tighter than their
    own."""
    p = paired_gain(mine, theirs)
    return {"against": against, "episodes": p["episodes"], "mean_reward_gain": p["gain"],
            "gain_se": p["gain_se"], "low": p["low"], "high": p["high"],
            "better": p["better"], "worse": p["worse"], "same": p["same"]}


def evaluate(world: str, agent: str, seeds: range, horizon: int | None = None, via: str = "agent",
             rng_seed: int = 0, against: str | None = None) -> dict:
    """The figures for ``agent`` (``policy:PATH``, ``teacher:MODULE:CALLABLE``, ``random``) on
    ``world`` (``MODULE:FACTORY``) over ``seeds``; with ``against`` (another such agent), also
    ``paired``: :func:`paired` over the same seeds."""
    t0 = time.time()
    rows, settings, via = _episodes(world, agent, seeds, horizon, via, rng_seed)
    s = _summary(rows)
    by_verb = None  # the embedded agent's summary counts harness actions, not their verbs
    if all("harness_by_verb" in r for r in rows):
        by_verb = {k: float(np.mean([r["harness_by_verb"][k] for r in rows]))
                   for k in rows[0]["harness_by_verb"]}
    # The fields of `evoharness eval --json` that a world of any kind has, plus the reward's
    # standard error and how the policy ran.
    out = {"world": world, "agent": agent, "via": via,
           "seeds": f"{seeds.start}..{seeds.stop}", "horizon": settings["budget"],
           "budget": settings["budget"], "episodes": s["episodes"],
           "success_rate": s["success_rate"], "integrity_violations": s["violations"],
           "violations_in_successes": int(sum(r["violations"] for r in rows if r["success"])),
           "mean_steps": s["mean_steps"], "mean_world_actions": s["mean_world_actions"],
           "mean_harness_actions": s["mean_harness_actions"],
           "harness_actions_by_verb": by_verb,
           "mean_cost": s["mean_cost"],
           "mean_reward": s["mean_reward"], "reward_se": s["reward_se"]}
    if against is not None:
        theirs, _, _ = _episodes(world, against, seeds, horizon, via, rng_seed)
        out["paired"] = paired(rows, theirs, against)
        # The other agent's own figures on those episodes (a caller need not run it again).
        out["against_figures"] = _summary(theirs)
    out["wall_s"] = round(time.time() - t0, 2)
    return out


def _episodes(world: str, agent: str, seeds: range, horizon: int | None, via: str,
              rng_seed: int) -> tuple[list[dict], dict, str]:
    """``agent``'s episodes on ``world`` over ``seeds``, the world's settings, and how it ran
    (``via``, or ``env`` for agents that are no policy)."""
    factory = load_object(world, "--world")
    settings = world_settings(factory, horizon)
    if agent.startswith("policy:"):
        from .agent import check_policy

        path = agent[len("policy:"):]
        # The workspace the policy was made for (the embedded agent takes it from the file).
        caps = check_policy(path)["capacities"]
        settings = {**settings, "capacities": {k: caps[k] for k in ("facts", "steps", "lessons")}}
        if via == "agent":
            rows = policy_agent(path, factory, settings, seeds)
        else:
            rows = policy_env(path, factory, settings, seeds)
    elif agent.startswith("teacher:"):
        teacher = load_object(agent[len("teacher:"):], "--agent teacher")
        rows = teacher_env(teacher, factory, settings, seeds)
    elif agent == "random":
        rows = random_env(factory, settings, seeds, rng_seed)
    else:
        raise ValueError(f"--agent {agent!r}: policy:PATH, teacher:MODULE:CALLABLE or random")
    return rows, settings, via if agent.startswith("policy:") else "env"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evoharness.evaluate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--world", required=True, help="MODULE:FACTORY")
    ap.add_argument("--agent", required=True, help="policy:PATH, teacher:MODULE:CALLABLE or random")
    ap.add_argument("--against", help="another agent, run on the same seeds: the mean gain in "
                    "reward over it, episode by episode, with its standard error")
    ap.add_argument("--seeds", default="1000000..1000200", help="A..B (default 1000000..1000200)")
    ap.add_argument("--horizon", type=int, help="the step budget (default: the world's `budget`)")
    ap.add_argument("--via", choices=("agent", "env"), default="agent",
                    help="a policy through the embedded agent (default) or on VecEnv.from_worlds")
    ap.add_argument("--rng-seed", type=int, default=0, help="the random agent's generator")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    ap.add_argument("--min-success", type=float, help="exit 1 below this success rate")
    ap.add_argument("--max-harness", type=float, help="exit 1 above this many harness actions")
    args = ap.parse_args(argv)
    from ._native import EvoharnessError

    try:
        r = evaluate(args.world, args.agent, parse_seeds(args.seeds), args.horizon, args.via,
                     args.rng_seed, args.against)
    except (ValueError, EvoharnessError) as e:
        print(f"evoharness.evaluate: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # NoBackend
        print(f"evoharness.evaluate: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r))
    else:
        print(f"{r['agent']} on {r['world']}, seeds {r['seeds']}, horizon {r['horizon']} "
              f"({r['via']}):\n"
              f"  success {100 * r['success_rate']:.1f}% of {r['episodes']}, mean reward "
              f"{r['mean_reward']:.4f} ± {r['reward_se']:.4f} (SE), harness actions "
              f"{r['mean_harness_actions']:.2f}/episode, world actions "
              f"{r['mean_world_actions']:.2f}, steps {r['mean_steps']:.2f}, violations "
              f"{r['integrity_violations']}")
        if "paired" in r:
            p = r["paired"]
            print(f"  against {p['against']}: {p['mean_reward_gain']:+.4f} ± {p['gain_se']:.4f} "
                  f"(SE) mean reward, paired over {p['episodes']} episodes (better in "
                  f"{p['better']}, worse in {p['worse']}, the same in {p['same']})")
    bad = []
    if args.min_success is not None and r["success_rate"] < args.min_success:
        bad.append(f"success {r['success_rate']:.4f} < {args.min_success}")
    if args.max_harness is not None and r["mean_harness_actions"] > args.max_harness:
        bad.append(f"harness actions {r['mean_harness_actions']:.3f} > {args.max_harness}")
    if bad:
        print("evoharness.evaluate: below the bar: " + "; ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
