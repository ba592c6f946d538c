"""The Gymnasium wrappers: spaces and the observation's bounds, reset, step, same-step autoreset
with episode infos."""

import copy

import numpy as np
import pytest

gym_mod = pytest.importorskip("evoharness.gym")

from evoharness import Event, EvoharnessError, suite_layout  # noqa: E402


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
        assert env.observation_space.contains(obs)
        if "episode" in info:
            i = int(np.flatnonzero(info["_episode"])[0])
            seen = info["episode"][i]
            assert term[i] or trunc[i]
            break
    assert seen is not None and "success" in seen
    env.close()


# --- The observation's bounds --------------------------------------------------------------

class Extremes:
    """A world whose events carry the values that reach the observation's bounds."""

    tools = ["low", "high", "odd"]
    budget = 60

    def reset(self, seed):
        return Event.notice(n=-(1 << 63), x=float("-inf"), t="x" * 32)

    def call(self, tool, args):
        if tool == "low":
            return Event.result(n=-(1 << 63), x=-1e300, y=float("-inf"), b=b"\xff" * 32)
        if tool == "high":
            return Event.result(n=(1 << 63) - 1, x=1e300, y=float("inf"), t="y" * 32)
        return Event.error(x=float("nan"), n=-1, f=False)

    def judge(self, finished):
        return {"success": finished is True}


def _random_legal(env, steps, seed):
    """Observations of random legal steps of a vector env."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    seen = [obs["observation"]]
    for _ in range(steps):
        acts = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
        obs, *_ = env.step(acts)
        assert env.observation_space.contains(obs)
        seen.append(obs["observation"])
    return np.concatenate(seen)


def test_observations_stay_within_their_bounds_and_reach_the_signed_ones():
    env = gym_mod.HarnessVectorEnv(Extremes, 4, budget=60, capacities={"facts": 8})
    low = env.single_observation_space["observation"].low
    seen = _random_legal(env, 500, 3)
    signed = low < 0
    assert signed.any() and (low[signed] == -1).all()
    # The signed features are needed: values of the events above reach -1 and +1 there.
    assert seen[:, signed].min() == -1 and seen[:, signed].max() == 1
    env.close()


def test_the_bounds_follow_the_layout_and_refuse_one_they_do_not_know():
    lay = suite_layout()
    low, high = gym_mod.observation_bounds(lay)
    assert low.shape == high.shape == (lay["obs_len"],) and (high == 1).all()
    rows = {s["name"]: s["rows"] for s in lay["segments"]}
    assert (low == -1).sum() == sum(rows[seg] for seg, _ in gym_mod.SIGNED_FEATURES)
    renamed = copy.deepcopy(lay)
    steps = next(s for s in renamed["segments"] if s["name"] == "steps")
    steps["features"] = [["cursor_v2" if f == "cursor" else f, w] for f, w in steps["features"]]
    with pytest.raises(EvoharnessError, match="not the one this package knows"):
        gym_mod.observation_bounds(renamed)
