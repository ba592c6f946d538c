"""Gymnasium vector environments over :class:`evoharness.VecEnv` (the suite's tasks) and
:meth:`evoharness.VecEnv.from_worlds` (worlds written in Python); needs ``gymnasium`` 1.x.

Observations are dicts: ``observation`` (the structured-v1 floats) and ``action_mask`` (1 =
legal template). The observation's box is the bounds of its features
(:func:`observation_bounds`): [-1, 1] for the four features that encode a value's magnitude,
[0, 1] for every other. Actions are template indices. An episode that ends is reset in the same
step (Gymnasium's ``SAME_STEP`` autoreset mode): the returned observation is then the next
episode's first, and ``infos["episode"]`` holds the ended episode's stats (with the usual
``infos["_episode"]`` mask). ``terminated`` means the agent finished; ``truncated`` that its
budget ran out.
"""

from __future__ import annotations

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


__all__ = ["HarnessVectorEnv", "SIGNED_FEATURES", "SuiteVectorEnv", "gymnasium",
           "observation_bounds"]
