"""The rollout side of training on Ray workers (``python -m evoharness.train --ray``).

:class:`RayPool` runs the units of :mod:`evoharness.train.units` (DAgger rounds, GRPO episodes,
validation episodes: :func:`~evoharness.train.units.unit_slices`) on ``workers`` Ray actors, one
CPU each; the learner (fitting, updates, model selection, export) stays in the process that
runs the command. Each actor rebuilds the training source from a *recipe* (the world and
teacher as ``MODULE:NAME`` specs, or the suite's settings) and runs a copy of the network with
the weights the learner sends for each job (one thread, as the learner). Unit ``j`` of a job
always goes to actor ``j % workers``, so DAgger's environments, which live from round to
round, stay where they are. A unit's result does not depend on where it runs, so a run with
the same seeds and ``--unit-envs`` gives the same policy on any number of workers as in one
process (:class:`~evoharness.train.units.LocalPool`).

A world given as a ``.py`` file is loaded by its absolute path on each worker: on a cluster of
several machines the file must be there too (or its module importable, e.g. shipped with Ray's
``runtime_env``), as must this package and its native library.
"""

from __future__ import annotations

import os
import pathlib

import torch

from ..spec import load_object
from ..world import world_settings
from .net import Net
from .sources import SuiteSource, WorldSource
from .units import LocalPool


def absolute_spec(spec: str | None) -> str | None:
    """``MODULE:NAME`` with a ``.py`` file's path made absolute (workers may start elsewhere)."""
    if not spec or ":" not in spec:
        return spec
    module, _, name = spec.rpartition(":")
    if module.endswith(".py") and pathlib.Path(module).is_file():
        module = str(pathlib.Path(module).resolve())
    return f"{module}:{name}"


def build_source(recipe: tuple):
    """The training source a recipe names: ``("world", WORLD_SPEC, TEACHER_SPEC | None,
    HORIZON | None, LAYOUT_VERSION)`` or ``("suite", TASKS, HORIZON, TEACHER, ALSO_HORIZONS,
    SCENARIO, LAYOUT_VERSION)``."""
    if recipe[0] == "world":
        _, world, teacher, horizon, version = recipe
        factory = load_object(world, "--world")
        teacher = load_object(teacher, "--teacher") if teacher else None
        return WorldSource(factory, world_settings(factory, horizon), teacher,
                           layout_version=version)
    _, tasks, horizon, teacher, also, scenario, version = recipe
    return SuiteSource(tasks, horizon, teacher, also, scenario, layout_version=version)


class Worker:
    """What a Ray actor holds: the source, a network of the learner's shape, and the state
    units keep between calls."""

    def __init__(self, recipe: tuple, shape: tuple):
        torch.set_num_threads(1)
        self.source = build_source(recipe)
        obs_len, actions, hidden, scale = shape
        self.net = Net(obs_len, actions, hidden, scale)
        self.net.eval()
        self.state: dict = {}

    def run(self, job, weights: dict, *args):
        """One unit: ``job`` (a unit function, :mod:`evoharness.train.units`) with the
        learner's ``weights``."""
        self.net.load_state_dict({k: torch.tensor(v) for k, v in weights.items()})
        return job(self.source, self.net, self.state, *args)

    def close_units(self) -> None:
        for env in self.state.values():
            env.close()
        self.state.clear()


class RayPool:
    """:class:`~evoharness.train.units.LocalPool`'s interface over ``workers`` Ray actors.

    ``address`` is what ``ray.init`` takes: ``auto`` (a cluster started with ``ray start``),
    ``HOST:PORT`` or ``ray://HOST:PORT``; ``local`` starts a cluster for this process alone.
    The variables the package needs (``EVOHARNESS_LIB``, ``PYTHONPATH``) are passed on to the
    workers."""

    def __init__(self, address: str, workers: int, recipe: tuple, shape: tuple, unit_envs: int):
        try:
            import ray
        except ImportError:
            raise ValueError("--ray needs Ray: pip install \"evoharness[ray]\"") from None
        if workers < 1:
            raise ValueError(f"--workers is {workers}: at least 1")
        self.ray, self.unit_envs, self.workers = ray, int(unit_envs), int(workers)
        # As absolute paths: workers do not start in this process's folder.
        env = {k: os.pathsep.join(str(pathlib.Path(x).resolve()) for x in os.environ[k].split(os.pathsep) if x)
               for k in ("EVOHARNESS_LIB", "PYTHONPATH") if os.environ.get(k)}
        options = {"runtime_env": {"env_vars": env}} if env else {}
        options["address"] = address  # "local": a new cluster, whatever else runs here
        if address == "local":
            options.update(num_cpus=workers, include_dashboard=False)
        self.started = not ray.is_initialized()
        if self.started:
            ray.init(logging_level="ERROR", **options)
        actor = ray.remote(num_cpus=1)(Worker)
        self.actors = [actor.remote(recipe, shape) for _ in range(workers)]
        # An actor that cannot build the source fails here, with its error, not mid-training.
        ray.get([a.close_units.remote() for a in self.actors])

    def run(self, job, net, jobs: list) -> list:
        weights = self.ray.put({k: v.detach().cpu().numpy() for k, v in net.state_dict().items()})
        refs = [self.actors[j % self.workers].run.remote(job, weights, *a)
                for j, a in enumerate(jobs)]
        return self.ray.get(refs)

    def close_units(self) -> None:
        self.ray.get([a.close_units.remote() for a in self.actors])

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
        if self.started:
            self.ray.shutdown()


def pool(args, source, shape: tuple):
    """The pool ``python -m evoharness.train`` runs its rollouts in: a :class:`RayPool` with
    ``--ray``, else a :class:`~evoharness.train.units.LocalPool`. ``--unit-envs`` defaults to 16
    with ``--ray`` (units to spread), else to one unit per kind."""
    unit_envs = args.unit_envs if args.unit_envs is not None else (16 if args.ray else 0)
    if not args.ray:
        return LocalPool(source, unit_envs)
    if args.suite:
        recipe = ("suite", tuple(args.suite.split(",")), source.horizon, source.teacher,
                  tuple(int(h) for h in args.also_horizons.split(",") if h), source.scenario,
                  source.layout_version)
    else:
        recipe = ("world", absolute_spec(args.world), absolute_spec(args.teacher), args.horizon,
                  source.layout_version)
    return RayPool(args.ray, args.workers, recipe, shape, unit_envs)


__all__ = ["RayPool", "Worker", "absolute_spec", "build_source", "pool"]
