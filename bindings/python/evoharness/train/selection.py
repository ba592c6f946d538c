"""Model selection: the checkpoints every stage offers (their weights and validation figures),
the few kept, and the one chosen."""

from __future__ import annotations


def select(best, v: dict, net, tag):
    """Keeps a checkpoint (its weights and validation figures) for :func:`choose`.

    Only checkpoints :func:`choose` could still pick are kept: one whose validation success
    and reward are both at most a later one's never will be (whatever success the best turns
    out to be, the later one passes the constraint whenever it does, with a reward at least
    as high, and ties go to the later one), so its weights are dropped. A long run keeps the
    few checkpoints on the success/reward front instead of one copy of the network per
    iteration."""
    cand = {"success": v["success_rate"], "reward": v["mean_reward"],
            "harness": v["mean_harness_actions"], "world": v.get("mean_world_actions"),
            "summary": {k: x for k, x in v.items() if k != "rows"}, "rows": v.get("rows"),
            "tag": tag,
            "state": {k: t.clone() for k, t in net.state_dict().items()}}
    if best is None:
        return {"all": [cand]}
    best["all"] = [c for c in best["all"]
                   if c["success"] > cand["success"] or c["reward"] > cand["reward"]]
    best["all"].append(cand)
    return best


def choose(best) -> dict:
    """Model selection: the highest validation mean reward among the checkpoints whose
    validation success is within a point of the best success seen (success is the
    constraint, reward the objective)."""
    top = max(c["success"] for c in best["all"])
    ok = [c for c in best["all"] if c["success"] >= top - 0.01]
    # Ties go to the latest checkpoint: it has seen the most data.
    return max(reversed(ok), key=lambda c: (c["reward"], c["success"]))


__all__ = ["choose", "select"]
