"""Gymnasium vector environments over :class:`evoharness.VecEnv` (the suite's tasks) and
:meth:`evoharness.VecEnv.from_worlds` (worlds written in Python); needs ``gymnasium`` 1.x.

Observations are dicts: ``observation`` (the structured-v1 floats) and ``action_mask`` (1 =
legal template). Actions are template indices. An episode that ends is reset in the same
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

from .vec_env import VecEnv


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
        n_obs, n_act = self._env.obs_len, self._env.actions
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        })
        self.single_action_space = spaces.Discrete(n_act)
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
        n_obs, n_act = self.harness.obs_len, self.harness.actions
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        })
        self.single_action_space = spaces.Discrete(n_act)
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


__all__ = ["HarnessVectorEnv", "SuiteVectorEnv", "gymnasium"]
