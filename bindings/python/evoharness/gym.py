"""Gymnasium environments over :class:`evoharness.VecEnv`: the suite's tasks and worlds written
in Python, one at a time (:class:`SuiteEnv`, :class:`WorldEnv`: ``gymnasium.Env``) or many
stepped together (:class:`SuiteVectorEnv`, :class:`HarnessVectorEnv`: ``VectorEnv``); needs
``gymnasium`` 1.x.

Observations are dicts: ``observation`` (the structured-v1 floats) and ``action_mask`` (1 =
legal template). The observation's box is the bounds of its features
(:func:`observation_bounds`): [-1, 1] for the four features that encode a value's magnitude,
[0, 1] for every other. Actions are template indices, ``Discrete(actions)``; most are illegal
in any one state, so learn with the mask: sb3-contrib's ``MaskablePPO`` reads it from a single
environment's :meth:`~SuiteEnv.action_masks`, and ``action_space.sample(mask=...)`` takes it as
int8.

**A masked-out action.** The library refuses a template its mask forbids and changes nothing.
A single environment turns that into a *penalised no-op*: the state stays as it was (no budget
spent, no tool called), the reward is ``-illegal_penalty`` (default :data:`ILLEGAL_PENALTY`,
0.01: a tenth of what spending a whole budget costs in the library's reward, small against
a success, which earns at least 1), ``info["illegal_action"]`` is true (it is false after a
legal step), and after ``max_illegal`` (default 100) masked-out actions in a row the episode is
truncated, so that a policy that keeps choosing one cannot loop forever. An action outside the
action space (not an int in ``[0, actions)``) is a ``ValueError``. The vector environments step
every environment in one call of the library, which has no per-environment no-op, so they keep
its refusal: a masked-out action raises :class:`~evoharness.EvoharnessError` and no environment
steps.

**Episodes.** The library starts an environment's next episode in the step that ends one.
A single environment reports that step as ``terminated`` whether the agent finished or spent
its budget (the budget is in the observation and its end is part of the task), with the
episode's stats in ``info["episode_stats"]`` (:meth:`evoharness.VecEnv.last_episode`'s dict;
not ``info["episode"]``, which Gymnasium's and Stable-Baselines3's episode recorders write) and
``info["is_success"]`` (what Stable-Baselines3's evaluation counts); the observation it returns
is already the next episode's first, which :meth:`~SuiteEnv.reset` then returns without
stepping. A ``reset`` in the middle of an episode abandons it and starts the next one. The
``k``-th episode after ``reset(seed=s)`` (or construction with ``seed=s``) runs seed ``s + k``;
an abandoned episode's seed is skipped. The vector environments reset an ended episode in the
same step (Gymnasium's ``SAME_STEP`` autoreset mode), ``infos["episode"]`` holding the ended
episode's stats (with the usual ``infos["_episode"]`` mask); ``terminated`` there means the
agent finished, ``truncated`` that its budget ran out.

``gymnasium.make("evoharness/Suite-v0", task=..., horizon=...)`` and
``gymnasium.make("evoharness/World-v0", factory=...)`` make the single environments.
"""

from __future__ import annotations

import math
import operator

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("evoharness.gym needs gymnasium (pip install gymnasium)") from e

from ._native import EvoharnessError
from .vec_env import VecEnv, suite_layout

#: A single environment's reward for a masked-out action (negated), unless given.
ILLEGAL_PENALTY = 0.01
#: Masked-out actions in a row after which a single environment truncates its episode.
MAX_ILLEGAL = 100

#: The structured-v1 features written by ``scalar`` (``core/PROTOCOL.md`` §8.1: an int's signed
#: log magnitude over 64, a float's x / (1 + |x|), ±1 for infinities, a text's length over 32),
#: by segment: in [-1, 1]. Every other feature is a flag, a one-hot, a ratio of a part to its
#: whole, a hash over 2^24, x / (x + k), a confidence, a staleness or a usefulness: in [0, 1].
SIGNED_FEATURES = frozenset({("fields", "scalar"), ("facts", "scalar"), ("steps", "cursor"),
                             ("lessons", "remedy_scalar")})


def observation_bounds(layout: dict) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of every float of a structured-v1 observation of ``layout`` (the library's
    layout, as :func:`evoharness.layout` gives it): ``(low, high)``, float32."""
    n = layout["obs_len"]
    low, high = np.zeros(n, np.float32), np.ones(n, np.float32)
    found = set()
    for seg in layout["segments"]:
        at = 0
        for name, width in seg["features"]:
            if (seg["name"], name) in SIGNED_FEATURES:
                found.add((seg["name"], name))
                for row in range(seg["rows"]):
                    start = seg["offset"] + row * seg["width"] + at
                    low[start:start + width] = -1.0
            at += width
        if at != seg["width"]:
            raise EvoharnessError(0, f"the library's layout has a {seg['name']} row of "
                                  f"{seg['width']} floats and features of {at}")
    if found != SIGNED_FEATURES or n != sum(s["rows"] * s["width"] for s in layout["segments"]):
        raise EvoharnessError(0, "the library's layout is not the one this package knows "
                              f"(signed features found: {sorted(found)})")
    return low, high


def _observation_space(layout: dict, actions: int) -> spaces.Dict:
    low, high = observation_bounds(layout)
    return spaces.Dict({
        "observation": spaces.Box(low, high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (actions,), np.int8),
    })


# --- One environment -----------------------------------------------------------------------

class _Single(gymnasium.Env):
    """One environment of a :class:`~evoharness.VecEnv` of one (``harness``), as a
    ``gymnasium.Env``; subclasses say how to make it for a seed (``_make``)."""

    metadata = {"render_modes": []}

    def __init__(self, seed: int, illegal_penalty: float, max_illegal: int):
        penalty = float(illegal_penalty)
        if not math.isfinite(penalty) or penalty < 0:
            raise ValueError(f"illegal_penalty is {illegal_penalty!r}: a finite number from 0 "
                             "(the reward of a masked-out action is its negation)")
        if isinstance(max_illegal, bool) or not isinstance(max_illegal, (int, np.integer)) \
                or max_illegal < 1:
            raise ValueError(f"max_illegal is {max_illegal!r}: a count of masked-out actions "
                             "in a row, at least 1")
        self.illegal_penalty, self.max_illegal = penalty, int(max_illegal)
        self.harness = self._make(int(seed))
        self._seed = int(seed)
        self._fresh = True  # the current episode has had no step: reset() may keep it
        self._illegal = 0
        self.action_space = spaces.Discrete(self.harness.actions)
        self.observation_space = _observation_space(self._layout(), self.harness.actions)

    def _make(self, seed: int) -> VecEnv:
        raise NotImplementedError

    def _layout(self) -> dict:
        raise NotImplementedError

    def _restart(self, seed: int) -> None:
        self.harness.close()
        self.harness = self._make(seed)
        self._seed = seed

    def _obs(self):
        return {"observation": self.harness.obs[0].copy(),
                "action_mask": self.harness.mask[0].astype(np.int8)}

    def action_masks(self) -> np.ndarray:
        """Which templates are legal now (bool): what sb3-contrib's ``MaskablePPO`` asks."""
        return self.harness.mask[0].astype(bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """The first observation of an episode: the one the last step started, else the next
        one (see the module docs); ``seed`` restarts the seeds at ``seed``."""
        super().reset(seed=seed)
        if options:
            raise ValueError(f"reset takes no options, not {options!r}")
        if seed is not None:
            self._restart(int(seed))
        elif not self._fresh:
            self._restart(self._seed + self.harness.episodes(0) + 1)
        self._fresh, self._illegal = True, 0
        self.harness.observe()
        return self._obs(), {}

    def step(self, action):
        try:
            a = operator.index(action)
        except TypeError:
            raise ValueError(f"action {action!r}: a template index (an int), not "
                             f"{type(action).__name__}") from None
        if not 0 <= a < self.action_space.n:
            raise ValueError(f"action {a}: the templates are 0 to {self.action_space.n - 1}")
        if not self.harness.mask[0, a]:
            self._illegal += 1
            self._fresh = False
            truncated = self._illegal >= self.max_illegal
            return (self._obs(), -self.illegal_penalty, False, truncated,
                    {"illegal_action": True})
        self._illegal = 0
        _, _, reward, done = self.harness.step(np.array([a], np.uint32))
        info = {"illegal_action": False}
        ended = bool(done[0])
        if ended:
            stats = self.harness.last_episode(0)
            info["episode_stats"], info["is_success"] = stats, bool(stats["success"])
        self._fresh = ended
        return self._obs(), float(reward[0]), ended, False, info

    def close(self):
        self.harness.close()


class SuiteEnv(_Single):
    """One environment of a suite task, as a ``gymnasium.Env`` (see the module docs for
    masked-out actions, episodes and seeds). ``organisations``, ``scenario`` and ``lifetime``
    are :class:`~evoharness.VecEnv`'s for one environment: it runs ``organisations[0]``, and
    with a ``lifetime`` a new agent on the next organisation every ``lifetime`` episodes.
    :attr:`harness` is the :class:`~evoharness.VecEnv` (of one environment) it steps; a
    ``reset`` with a seed or in the middle of an episode makes a new one, so its agent starts
    over (with ``scenario="v2"``, from an empty experience store)."""

    def __init__(self, task: str, horizon: int, organisations=range(1), seed: int = 0, *,
                 scenario: str = "v1", lifetime: int = 0,
                 illegal_penalty: float = ILLEGAL_PENALTY, max_illegal: int = MAX_ILLEGAL):
        self._args = dict(task=task, horizon=horizon, n=1, organisations=organisations,
                          scenario=scenario, lifetime=lifetime)
        super().__init__(seed, illegal_penalty, max_illegal)

    def _make(self, seed: int) -> VecEnv:
        return VecEnv(**self._args, seed=seed)

    def _layout(self) -> dict:
        return suite_layout()


class WorldEnv(_Single):
    """One environment over a world written in Python, as a ``gymnasium.Env`` (the single
    counterpart of :class:`HarnessVectorEnv`; see the module docs for masked-out actions,
    episodes and seeds). ``factory``, ``capacities``, ``costs`` and ``budget`` (or
    ``horizon``) are :meth:`evoharness.VecEnv.from_worlds`'s. :attr:`harness` is the
    :class:`~evoharness.VecEnv` (of one environment) it steps: its ``worlds[0]``,
    ``templates`` and ``layout``."""

    def __init__(self, factory, seed: int = 0, *, capacities: dict | None = None,
                 costs: dict | None = None, budget: int | None = None,
                 horizon: int | None = None, illegal_penalty: float = ILLEGAL_PENALTY,
                 max_illegal: int = MAX_ILLEGAL):
        self._factory = factory
        self._kwargs = dict(capacities=capacities, costs=costs, budget=budget, horizon=horizon)
        super().__init__(seed, illegal_penalty, max_illegal)

    def _make(self, seed: int) -> VecEnv:
        return VecEnv.from_worlds(self._factory, 1, **self._kwargs, seed=seed)

    def _layout(self) -> dict:
        return self.harness.layout


# --- Many environments ---------------------------------------------------------------------

def _step(wrapper, env, actions):
    """One Gymnasium step of `env` (a VecEnv, of the suite or of Python worlds): same-step
    autoreset, an episode that ended without `finish` is truncated, episode stats in
    ``infos["episode"]``."""
    env.step(np.asarray(actions, dtype=np.uint32))
    done = env.done.astype(bool)
    terminated = np.zeros(wrapper.num_envs, bool)
    truncated = np.zeros(wrapper.num_envs, bool)
    infos = {}
    episodes = [None] * wrapper.num_envs
    for i in np.nonzero(done)[0]:
        e = env.last_episode(int(i))
        episodes[i] = e
        if e["finished"] is None:
            truncated[i] = True
        else:
            terminated[i] = True
    if done.any():
        infos["episode"] = np.array(episodes, dtype=object)
        infos["_episode"] = done
    return wrapper._obs(), env.reward.copy(), terminated, truncated, infos

class SuiteVectorEnv(VectorEnv):
    """``num_envs`` environments of one suite task, as a Gymnasium ``VectorEnv``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, task: str, horizon: int, num_envs: int, organisations=range(0, 4),
                 seed: int = 0, *, families=None):
        organisations = organisations if families is None else families
        self._args = (task, horizon, num_envs, organisations)
        self._env = VecEnv(task, horizon, num_envs, organisations, seed)
        self.num_envs = num_envs
        self.single_observation_space = _observation_space(suite_layout(), self._env.actions)
        self.single_action_space = spaces.Discrete(self._env.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _obs(self):
        return {"observation": self._env.obs.copy(), "action_mask": self._env.mask.astype(np.int8)}

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            task, horizon, n, organisations = self._args
            self._env.close()
            self._env = VecEnv(task, horizon, n, organisations, int(seed))
        self._env.observe()
        return self._obs(), {}

    def step(self, actions):
        return _step(self, self._env, actions)

    def close_extras(self, **kwargs):
        self._env.close()


class HarnessVectorEnv(VectorEnv):
    """``num_envs`` environments over worlds written in Python (``factory`` and the keyword
    arguments as :meth:`evoharness.VecEnv.from_worlds`), as a Gymnasium ``VectorEnv``. The
    :class:`~evoharness.VecEnv` is :attr:`harness` (its worlds, layout and templates);
    ``infos["episode"]`` holds :meth:`~evoharness.VecEnv.last_episode`'s dicts."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, factory, num_envs: int, **kwargs):
        self._factory, self._kwargs = factory, kwargs
        self.harness = VecEnv.from_worlds(factory, num_envs, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = _observation_space(self.harness.layout,
                                                           self.harness.actions)
        self.single_action_space = spaces.Discrete(self.harness.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _obs(self):
        return {"observation": self.harness.obs.copy(),
                "action_mask": self.harness.mask.astype(np.int8)}

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.harness.close()
            self.harness = VecEnv.from_worlds(self._factory, self.num_envs,
                                      **{**self._kwargs, "seed": int(seed)})
        self.harness.observe()
        return self._obs(), {}

    def step(self, actions):
        return _step(self, self.harness, actions)

    def close_extras(self, **kwargs):
        self.harness.close()


for _id, _entry in (("evoharness/Suite-v0", "SuiteEnv"), ("evoharness/World-v0", "WorldEnv")):
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=f"{__name__}:{_entry}")

__all__ = ["HarnessVectorEnv", "ILLEGAL_PENALTY", "MAX_ILLEGAL", "SIGNED_FEATURES",
           "SuiteEnv", "SuiteVectorEnv", "WorldEnv", "gymnasium", "observation_bounds"]
