"""What training runs on, and its episodes. A *source* is either a :class:`WorldSource`
(worlds written in Python, a Python teacher) or a :class:`SuiteSource` (the task suite's
simulations, a library teacher; the shipped generalist policy, ``examples/train/train.py``);
each has ``kinds``, ``layout``, ``tools``, ``settings``, ``envs(kind, n, seed, group,
split)`` and ``labels(env)``. Then the greedy episodes validation counts
(:func:`validate`, in units of a pool), and a source's warm-up (:func:`warm_up`)."""

from __future__ import annotations

import numpy as np
import torch

from ..figures import episode_row, summary
from ..vec_env import VecEnv
from ..world import TeacherError, teacher_arity
from .export import load_weights
from .net import Net, greedy
from .units import LocalPool


class WorldSource:
    """Worlds written in Python (any ``factory`` :meth:`VecEnv.from_worlds` takes): one kind of
    environment, labelled by a Python ``teacher`` (see :meth:`VecEnv.teacher_action`)."""

    kinds = ("world",)

    def __init__(self, factory, settings: dict, teacher=None, layout_version: int = 1,
                 copyable: bool = False):
        self.factory, self.settings, self.teacher = factory, settings, teacher
        self.layout_version = int(layout_version)
        #: Environments whose worlds are saved and restored by pickling, so that branching
        #: rollouts can copy them (:meth:`VecEnv.copy`).
        self.copyable = bool(copyable)
        #: How long an episode can be: where branching rollouts walk before they branch.
        self.horizon = int(settings.get("budget") or 100)
        probe = VecEnv.from_worlds(factory, 1, layout_version=self.layout_version, **settings)
        self.layout, self.tools = probe.layout, probe.tools
        probe.close()

    def envs(self, kind: str, n: int, seed: int, group: int = 1, split: str = "train",
             offset: int = 0):
        """``n`` environments of ``kind``; ``offset`` (the first group's index in a larger set,
        see :func:`unit_slices`) changes nothing for a Python world: its seeds say it all."""
        return VecEnv.from_worlds(self.factory, n, seed=seed, group=group,
                                  layout_version=self.layout_version, copyable=self.copyable,
                                  **self.settings)

    def labels(self, env) -> tuple[np.ndarray, int]:
        return teacher_labels(env, self.teacher)

    #: DAgger's ``--skip-harness`` and ``--skip-label`` apply at any state (a host world has
    #: no plan a skipped harness action could leave without steps).
    skip_in_plan_only = False

    def skip_labels(self, env) -> np.ndarray:
        """What the teacher does instead of the tracks it wants on the current event, for
        DAgger's ``--skip-harness`` and ``--skip-label``: where its action is a ``track``, it
        is asked again with ``tracked`` faked as if that track had happened, until it answers
        something other than a track; that answer's template. Executed, it leaves Belief
        without those fields, and the teacher labels the states that follow as it labels any.
        -1 where the teacher does not track, a teacher of two parameters (it cannot be told
        what was tracked), or no legal answer."""
        out = np.full(env.n, -1, np.int64)
        if self.teacher is None or teacher_arity(self.teacher) < 3:
            return out
        for i in range(env.n):
            ev = env.last_event(i)
            if ev is None:
                continue
            tracked = dict(env.tracked[i])
            try:
                a = env.teacher_action(self.teacher, i)
                if track_key(a) is None:
                    continue
                for _ in range(len(ev.fields)):
                    key = track_key(a)
                    if key is None or key not in ev.fields:
                        break
                    tracked[key] = ev.fields[key]
                    a = self.teacher(env.worlds[i], ev, dict(tracked))
                if track_key(a) is None:
                    out[i] = env.intent_template(i, a)
            except TeacherError:
                pass
        return out


def track_key(action) -> str | None:
    """The key a teacher's high-level ``track`` action names (``("track", key)`` or
    ``{"track": key}``), else None."""
    if isinstance(action, dict):
        key = action.get("track") if len(action) == 1 else None
    elif isinstance(action, (tuple, list)) and len(action) == 2 and action[0] == "track":
        key = action[1]
    else:
        key = None
    return key if isinstance(key, str) else None


def teacher_labels(env: VecEnv, teacher) -> tuple[np.ndarray, int]:
    """The teacher's template in every environment, -1 where its action is not legal there
    (a state only the learner's own mistakes reach): those states get no label."""
    labels = np.full(env.n, -1, np.int64)
    refused = 0
    for i in range(env.n):
        try:
            labels[i] = env.intent_template(i, env.teacher_action(teacher, i))
        except TeacherError:
            refused += 1
    return labels, refused


class SuiteSource:
    """The task suite's simulations, one kind per task, through its :class:`VecEnv`, labelled
    by one of the library's rule-based teachers (``lean``, ``oracle``, ``static``,
    ``tuned``, ``fixed-best``, ``retuned`` or ``regional``), in the suite's version ``scenario`` (``v1``,
    ``v2`` or ``v3``).
    Training and validation
    run on organisations that never overlap (:data:`ORGANISATIONS`); the held-out evaluation
    uses others again (``evoharness eval``, ``examples/train``)."""

    ORGANISATIONS = {"train": range(0, 64), "valid": range(5_000, 5_016)}
    #: v3: what a policy must learn is the mapping from a deployment's card to its behaviour,
    #: so training sees many deployments: each environment set (:meth:`envs`) takes its own
    #: window of these, moved on by its seed, and DAgger makes a new set every round
    #: (``rotate``); validation runs each environment in an organisation of its own.
    ORGANISATIONS_V3 = {"train": range(0, 2_000), "valid": range(5_000, 5_064)}

    def __init__(self, tasks, horizon: int, teacher: str = "lean", also_horizons=(),
                 scenario: str = "v1", layout_version: int = 1):
        from ..vec_env import SCENARIOS, TASKS, TEACHERS, suite_layout

        tasks = tuple(tasks)
        bad = [t for t in tasks if t not in TASKS]
        if not tasks or bad:
            raise ValueError(f"unknown suite task(s) {bad or tasks}: expected some of "
                             f"{', '.join(TASKS)}")
        if teacher not in TEACHERS:
            raise ValueError(f"the suite's teachers are {', '.join(TEACHERS)}, not {teacher!r}")
        if scenario not in SCENARIOS:
            raise ValueError(f"the suite's scenarios are {', '.join(SCENARIOS)}, not {scenario!r}")
        self.horizon, self.teacher, self.scenario = int(horizon), teacher, scenario
        # Behaviour cloning and validation may also run each task at other horizons (kinds
        # `TASK@H`); GRPO runs at the training horizon only (`rl_kinds`: its episodes are
        # whole, and at 4x the horizon one would cost 4x).
        self.rl_kinds = tasks
        self.kinds = tasks + tuple(f"{t}@{int(h)}" for h in also_horizons for t in tasks)
        self.layout_version = int(layout_version)
        self.layout, self.tools = suite_layout(self.layout_version), None
        self.settings = {"budget": self.horizon, "tasks": list(tasks)}
        # v2 agents keep an experience store across episodes: validation counts each
        # environment's fourth episode, so that model selection sees a store at work; and a
        # training environment's agent lives for 12 episodes, then a new one starts on the
        # next organisation (`VecEnv(lifetime=)`), as `evoharness eval` runs 12-13 episodes of
        # an organisation on one agent. Agents that live forever come to know every code of
        # their organisation, and imitation then never sees what a new agent meets (recalls
        # that find nothing, unknown codes).
        # v3 agents are renewed after their deployment's own store lifetime (the library
        # does it), in the same organisation, so no lifetime of ours; the warm-up still lets
        # the store work before the episode learned from.
        self.warmup = 3 if scenario in ("v2", "v3") else 0
        self.rotate = scenario == "v3"
        self.lifetime = 12 if scenario == "v2" else 0
        if scenario != "v1":
            self.settings["scenario"] = scenario
        if also_horizons:
            self.settings["also_horizons"] = [int(h) for h in also_horizons]

    def envs(self, kind: str, n: int, seed: int, group: int = 1, split: str = "train",
             offset: int = 0):
        """``n`` environments of ``kind`` on the ``split``'s organisations. ``offset`` is the
        index of the first group in a larger set that is run in units (:func:`unit_slices`):
        group ``g`` then runs the organisation group ``offset + g`` of the set would, except
        that past the end of the range it goes on instead of wrapping (0: as one set)."""
        task, _, h = kind.partition("@")
        orgs = (self.ORGANISATIONS_V3 if self.rotate else self.ORGANISATIONS)[split]
        if self.rotate and split == "train" and len(orgs) > n:
            # A window of n organisations (one per environment), moved on by the seed.
            at = orgs.start + seed % (len(orgs) - n + 1)
            orgs = range(at, at + n)
        elif offset % len(orgs):
            at = orgs.start + offset % len(orgs)
            orgs = range(at, at + len(orgs))
        return VecEnv(task, int(h or self.horizon), n, orgs, seed, group,
                      scenario=self.scenario, lifetime=self.lifetime,
                      layout_version=self.layout_version)

    def labels(self, env) -> tuple[np.ndarray, int]:
        labels = env.teacher_actions(self.teacher)
        return labels, int((labels < 0).sum())

    def skip_labels(self, env) -> np.ndarray:
        """What to do instead of a harness action that DAgger skips (``--skip-harness``): the
        lean teacher's choice, a rule that uses the workspace only for what must outlive the
        event (its own harness action where it needs one)."""
        return env.teacher_actions("lean")


def warm_up(source, env, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``actions`` with the source's teacher choosing instead in every environment whose agent
    has finished fewer than ``source.warmup`` episodes (where it has a label), and which those
    are. An environment with a ``lifetime`` starts a new agent every ``lifetime`` episodes,
    which warms up again (PPO's environments live across iterations)."""
    warmup = int(getattr(source, "warmup", 0))
    if warmup == 0:  # v1 and host worlds: no per-environment calls on every RL step
        return actions, np.zeros(env.n, bool)
    life = int(getattr(env, "lifetime", 0) or 0)
    warming = np.array([(env.episodes(i) % life if life else env.episodes(i)) < warmup
                        for i in range(env.n)], bool)
    if warming.any():
        labels = source.labels(env)[0]
        drive = warming & (labels >= 0)
        actions = actions.copy()
        actions[drive] = labels[drive].astype(np.uint32)
    return actions, warming


def first_episodes(source, kind: str, choose, seed: int, episodes: int, split: str = "valid",
                   chunk: int = 64) -> list[dict]:
    """One episode from a fresh reset in each of ``episodes`` environments of ``kind`` (seeds
    ``seed`` ..), ``choose(env) -> templates`` acting: their :func:`episode_row`, in seed
    order. Environments whose episode ended keep stepping (auto-reset) until all have ended;
    what they do then is not counted. They run ``chunk`` at a time (each chunk its own
    environments, seeds ``seed + at`` .., organisations from group ``at`` on).

    A source with ``warmup`` > 0 (v2 suite tasks, whose agents keep an experience store across
    episodes) counts each environment's episode after that many: the states of an agent that
    has been at work for a while, which first episodes never reach."""
    out = []
    for at in range(0, episodes, chunk):
        out += episodes_unit(source, kind, choose, min(chunk, episodes - at), seed + at, split, at)
    return out


def episodes_unit(source, kind: str, choose, n: int, seed: int, split: str, offset: int) -> list:
    """:func:`first_episodes` of one chunk: ``n`` environments, seeds ``seed`` .., the first
    group ``offset`` of the whole set."""
    warmup = int(getattr(source, "warmup", 0))
    env = source.envs(kind, n, seed, split=split, **({"offset": offset} if offset else {}))
    try:
        rows: list[dict | None] = [None] * env.n
        while any(r is None for r in rows):
            done = env.step(choose(env))[3]
            for i in np.flatnonzero(done):
                if rows[i] is None and env.episodes(int(i)) > warmup:
                    rows[i] = episode_row(env.last_episode(int(i)))
    finally:
        env.close()
    return rows


def valid_unit(source, net, state, kind: str, n: int, seed: int, offset: int) -> list:
    """A validation unit: :func:`episodes_unit` with the greedy policy."""
    return episodes_unit(source, kind, lambda env: greedy(net, env.obs, env.mask), n, seed, "valid",
                         offset)


def teacher_choice(source):
    """A ``choose(env)`` that acts as the source's teacher: its label in every environment, and
    where it has none (its action is not legal there), the first legal template."""
    def choose(env):
        labels = source.labels(env)[0].astype(np.int64)
        for i in np.flatnonzero(labels < 0):
            labels[i] = int(np.flatnonzero(env.mask[i])[0])
        return labels.astype(np.uint32)

    return choose


def teacher_unit(source, net, state, kind: str, n: int, seed: int, offset: int) -> list:
    """A validation unit of the teacher itself (``net`` unused): :func:`episodes_unit` with
    :func:`teacher_choice`, so that the policy's episodes can be compared with the teacher's on
    the same seeds."""
    return episodes_unit(source, kind, teacher_choice(source), n, seed, "valid", offset)


def validate(net, source, seed: int, episodes: int, pool=None, unit=valid_unit) -> dict:
    """Greedy episodes of every kind on validation seeds: the :func:`summary` of all of them,
    with each kind's success rate under ``by_kind`` when there are several, and every episode's
    row under ``rows`` (kinds in order, seeds in order: the same episodes for every policy,
    which paired comparisons rely on). They run in the units of ``pool`` (:class:`LocalPool` if
    none: chunks of 64 environments, or of its ``unit_envs``), in this process or on its
    workers; the rows are the same either way. ``unit`` :func:`teacher_unit` runs the teacher
    on the same episodes instead."""
    pool = pool or LocalPool(source)
    chunk = pool.unit_envs or 64
    kinds = source.kinds
    jobs = [(kind, min(chunk, episodes - at), seed + at, at) for kind in kinds
            for at in range(0, episodes, chunk)]
    done = pool.run(unit, net, jobs)
    rows, by_kind = [], {}
    for kind in kinds:
        r = [row for (k, *_), part in zip(jobs, done) if k == kind for row in part]
        by_kind[kind] = round(float(np.mean([x["success"] for x in r])), 4)
        rows += r
    out = summary(rows)
    if len(kinds) > 1:
        out["by_kind"] = by_kind
    out["rows"] = rows
    return out


def valid_fields(v: dict) -> dict:
    """A validation's figures as log fields."""
    out = {"valid_success": round(v["success_rate"], 4), "valid_reward": round(v["mean_reward"], 4),
           "valid_harness": round(v["mean_harness_actions"], 3)}
    out.update({f"valid_{k}": s for k, s in v.get("by_kind", {}).items()})
    return out


def suite_policy(path, task: str, horizon: int, scenario: str = "v1", hidden: int = 128):
    """For the measurement scripts (``scripts/branch-points.py``, ``scripts/logit-offsets.py``):
    a :class:`SuiteSource` of one ``task`` (its teacher unused) and the policy at ``path`` (one
    this module exported, of width ``hidden``) loaded into a :class:`Net`, single-threaded."""
    torch.set_num_threads(1)
    src = SuiteSource([task], horizon, "lean", scenario=scenario)
    net = Net(src.layout["obs_len"], src.layout["actions"], hidden)
    load_weights(net, path)
    return src, net


__all__ = ["SuiteSource", "WorldSource", "episodes_unit", "first_episodes", "suite_policy",
           "teacher_choice", "teacher_labels", "teacher_unit", "track_key", "valid_fields",
           "valid_unit", "validate", "warm_up"]
