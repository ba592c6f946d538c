"""The Gymnasium wrapper: spaces, reset, step, same-step autoreset with episode infos."""

import numpy as np
import pytest

gym_mod = pytest.importorskip("evoharness.gym")


def test_a_gymnasium_vector_env():
    env = gym_mod.SuiteVectorEnv("migration", 40, 3, seed=1)
    obs, info = env.reset(seed=5)
    assert obs["observation"].shape == (3, 564) and obs["action_mask"].shape == (3, 348)
    assert env.single_action_space.n == 348
    assert env.observation_space.contains(obs)
    seen = None
    rng = np.random.default_rng(0)
    for _ in range(1_000):  # the budget (4 × 40 + 256) ends an episode before this
        legal = [np.flatnonzero(m) for m in obs["action_mask"]]
        # Prefer anything but finishing, so that episodes run until their budget or finish.
        acts = [rng.choice(l[l >= 2]) if (l >= 2).any() else l[0] for l in legal]
        obs, rew, term, trunc, info = env.step(acts)
        assert rew.shape == (3,) and term.dtype == bool
        if "episode" in info:
            i = int(np.flatnonzero(info["_episode"])[0])
            seen = info["episode"][i]
            assert term[i] or trunc[i]
            break
    assert seen is not None and "success" in seen
    env.close()
