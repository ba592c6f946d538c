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


#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964

#: Two episodes' rewards this close count as the same in :func:`paired_gain`: the embedded
#: agent and an environment compute a reward along different paths, a few ulps apart.
SAME = 1e-9


def paired_gain(mine: list[dict], theirs: list[dict]) -> dict:
    """One agent's episode rows against another's on the same episodes, in order: the mean of
    the per-episode differences in reward, its standard error, the 95% interval, and how many
    episodes the first did better, worse and the same in (within 1e-9). Two agents on the same
    seeds meet the same world, so the paired interval is far tighter than their own."""
    if len(mine) != len(theirs) or not mine:
        raise ValueError(f"a paired comparison needs the same episodes on both sides: "
                         f"{len(mine)} against {len(theirs)}")
    d = np.array([a["reward"] - b["reward"] for a, b in zip(mine, theirs)], np.float64)
    # Within SAME of each other counts as the same: an interval of ulps all below zero must
    # not read as "worse".
    d[np.abs(d) <= SAME] = 0.0
    se = standard_error(d)
    mean = float(d.mean())
    return {"episodes": len(d), "gain": mean, "gain_se": se,
            "low": mean - Z95 * se, "high": mean + Z95 * se,
            "better": int((d > 0).sum()), "worse": int((d < 0).sum()),
            "same": int((d == 0).sum())}


def verdict(p: dict) -> str:
    """What a :func:`paired_gain` of a policy over its teacher says: ``better`` (the 95%
    interval lies above zero), ``worse`` (below) or ``same`` (it holds zero: nothing better
    was found, nothing worse either)."""
    if p["low"] > 0:
        return "better"
    if p["high"] < 0:
        return "worse"
    return "same"


def side_by_side(teacher: dict, policy: dict, p: dict, title: str) -> str:
    """The teacher's and the policy's :func:`summary` figures in two columns, with the policy's
    :func:`paired_gain` over the teacher and what it means, as a few lines of text."""
    rows = [("success", "success_rate", "{:.3f}"), ("reward", "mean_reward", "{:.4f}"),
            ("harness actions", "mean_harness_actions", "{:.2f}"),
            ("world actions", "mean_world_actions", "{:.2f}")]
    out = [f"{title} ({p['episodes']} episodes, the same for both):",
           f"  {'':<16}{'teacher':>10}{'policy':>10}"]
    for name, key, fmt in rows:
        out.append(f"  {name:<16}{fmt.format(teacher[key]):>10}{fmt.format(policy[key]):>10}")
    out.append(f"  paired reward gain of the policy: {p['gain']:+.4f}, 95% interval "
               f"[{p['low']:+.4f}, {p['high']:+.4f}]; better in {p['better']}, worse in "
               f"{p['worse']}, the same in {p['same']} episodes")
    v = verdict(p)
    out.append("  " + {"better": "the policy is better than its teacher",
                       "worse": "the policy is WORSE than its teacher",
                       "same": "found nothing better than the teacher: within the interval, "
                               "the policy does as well as it"}[v])
    return "\n".join(out)


__all__ = ["SAME", "Z95", "episode_row", "paired_gain", "side_by_side", "standard_error", "summary",
           "verdict"]
