"""The figures of a set of episodes: an episode's row, and a set's success rate, mean reward
with its standard error, actions, steps, cost and violations. What training's validation and
``python -m evoharness.evaluate`` both report; needs numpy only."""

from __future__ import annotations

import numpy as np


def episode_row(e: dict) -> dict:
    """An episode's figures (a :meth:`~evoharness.VecEnv.last_episode` dict, from the suite or
    a Python world) under the names :func:`summary` reads."""
    violations = e["violations"] if "violations" in e else e["integrity_violations"]
    return {"success": bool(e["success"]), "reward": float(e["reward"]),
            "harness": int(e["harness_actions"]), "world": int(e["world_actions"]),
            "steps": int(e["steps"]), "cost": int(e["cost"]), "violations": int(violations)}


def standard_error(x) -> float:
    """The standard error of the mean of ``x``: sample standard deviation over the square root
    of the count; 0 for fewer than two."""
    x = np.asarray(x, np.float64)
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0


def summary(rows: list[dict]) -> dict:
    """The figures of a set of :func:`episode_row` rows."""
    r = np.array([x["reward"] for x in rows], float)
    return {"episodes": len(rows),
            "success_rate": float(np.mean([x["success"] for x in rows])),
            "mean_reward": float(r.mean()),
            "reward_se": standard_error(r),
            "mean_harness_actions": float(np.mean([x["harness"] for x in rows])),
            "mean_world_actions": float(np.mean([x["world"] for x in rows])),
            "mean_steps": float(np.mean([x["steps"] for x in rows])),
            "mean_cost": float(np.mean([x["cost"] for x in rows])),
            "violations": int(sum(x["violations"] for x in rows))}


__all__ = ["episode_row", "standard_error", "summary"]
