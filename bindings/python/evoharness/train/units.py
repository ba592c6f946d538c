"""The rollout side, in units: how a set of environments is split into units (each its own
environments and random draws), and the pool that runs them in this process.
:class:`evoharness.train.distributed.RayPool` runs the same units on Ray workers; the same
split gives the same policy either way.

A unit is run by a function ``f(source, net, state, *args)``: validation's
(:func:`evoharness.train.sources.valid_unit`), DAgger's
(:func:`evoharness.train.imitation.dagger_unit`) or GRPO's
(:func:`evoharness.train.grpo.grpo_unit`); a pool is given the function and the units'
arguments."""

from __future__ import annotations


def unit_slices(n: int, group: int, size: int) -> list[tuple[int, int]]:
    """How a set of ``n`` environments in groups of ``group`` runs in units: ``(first, count)``
    pairs of at most ``size`` environments each, in whole groups (at least one); ``size`` 0
    (or at least ``n``): one unit of all.

    A unit is a set of environments of its own (:meth:`VecEnv` seeds ``seed + first / group``
    .., organisations from group ``first / group`` on), stepped as one batch with its own
    random draws: the split is part of what a training run is, and the same split gives the
    same policy whether the units run in this process or on any number of workers."""
    if size <= 0 or size >= n:
        return [(0, n)]
    per = max(group, size // group * group)
    return [(lo, min(per, n - lo)) for lo in range(0, n, per)]


class LocalPool:
    """The rollout side in this process: the units of a job run one after another, with the
    learner's own network. ``unit_envs`` is :func:`unit_slices`' size (0: one unit per kind;
    validation then runs 64 environments at a time). :class:`evoharness.train.distributed.RayPool`
    runs the same units on Ray workers."""

    workers = 0

    def __init__(self, source, unit_envs: int = 0):
        self.source, self.unit_envs, self.state = source, int(unit_envs), {}

    def run(self, job, net, jobs: list) -> list:
        """Each of ``jobs`` (a tuple of arguments) as a unit run by the function ``job``: the
        results, in order."""
        return [job(self.source, net, self.state, *a) for a in jobs]

    def close_units(self) -> None:
        """Closes the environments units keep (DAgger's) between calls."""
        for env in self.state.values():
            env.close()
        self.state.clear()

    close = close_units


__all__ = ["LocalPool", "unit_slices"]
