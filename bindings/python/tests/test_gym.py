"""The Gymnasium environments: spaces and the observation's bounds, reset, step, a masked-out
action as a penalised no-op (single environments) or a refusal (vector ones), episode ends and
their infos, Gymnasium's own checker, and sb3-contrib's MaskablePPO on a suite task and a
Python world."""

import copy
import pathlib
import sys
import warnings

import numpy as np
import pytest

gym_mod = pytest.importorskip("evoharness.gym")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from evoharness import Event, EvoharnessError, suite_layout  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from worlds.tickets import Tickets, teacher as tickets_teacher  # noqa: E402

SuiteEnv, WorldEnv = gym_mod.SuiteEnv, gym_mod.WorldEnv


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


def test_the_vector_envs_keep_refusing_a_masked_out_action():
    env = gym_mod.HarnessVectorEnv(Tickets, 2, budget=30, seed=3)
    obs, _ = env.reset()
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    legal = int(np.flatnonzero(obs["action_mask"][0])[-1])
    with pytest.raises(EvoharnessError, match="not legal now"):
        env.step([legal, illegal])
    env.harness.observe()
    np.testing.assert_array_equal(env.harness.obs, obs["observation"])  # neither env stepped
    env.close()


# --- Single environments -------------------------------------------------------------------

SINGLES = {
    "suite-migration": lambda **kw: SuiteEnv("migration", 40, seed=1, **kw),
    "suite-records-v3": lambda **kw: SuiteEnv("records", 30, range(5, 9), seed=2,
                                              scenario="v3", lifetime=3, **kw),
    "world-tickets": lambda **kw: WorldEnv(Tickets, seed=4, budget=30, **kw),
}


@pytest.mark.parametrize("make", SINGLES.values(), ids=SINGLES.keys())
def test_gymnasium_check_env_passes_without_a_warning(make):
    env = make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)  # no render modes; with a spec, below
    assert [str(w.message) for w in caught] == []
    env.close()


@pytest.mark.parametrize("env_id,kwargs", [
    ("evoharness/Suite-v0", {"task": "orchestration", "horizon": 30}),
    ("evoharness/World-v0", {"factory": Tickets, "budget": 30}),
])
def test_the_registered_ids_make_environments_that_pass_check_env(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)  # with a spec: render modes, and close called twice
    assert [str(w.message) for w in caught] == []
    obs, _ = env.reset(seed=0)  # through make's wrappers (order enforcing, passive checker)
    assert env.observation_space.contains(obs)
    env.close()


def test_a_masked_out_action_is_a_penalised_no_op():
    env = WorldEnv(Tickets, seed=7, budget=30)
    obs, _ = env.reset()
    legal_return = illegal_steps = legal_steps = 0
    info = {}
    while "episode_stats" not in info:
        mask = env.action_masks()
        assert mask.dtype == bool and (mask == obs["action_mask"].astype(bool)).all()
        illegal = int(np.flatnonzero(~mask)[illegal_steps % (~mask).sum()])
        after, reward, term, trunc, info = env.step(illegal)
        assert info == {"illegal_action": True} and not term and not trunc
        assert reward == -gym_mod.ILLEGAL_PENALTY
        np.testing.assert_array_equal(after["observation"], obs["observation"])
        np.testing.assert_array_equal(after["action_mask"], obs["action_mask"])
        illegal_steps += 1
        action = int(env.harness.teacher_actions(tickets_teacher)[0])
        obs, reward, term, trunc, info = env.step(action)
        assert info["illegal_action"] is False
        legal_return += reward
        legal_steps += 1
    stats = info["episode_stats"]
    # The no-ops cost only their penalty: the library saw the teacher's episode, no more.
    assert stats["success"] and info["is_success"] and term and not trunc
    assert stats["steps"] == legal_steps and illegal_steps == legal_steps
    assert legal_return == pytest.approx(stats["reward"], abs=1e-5)
    env.close()

    dear = WorldEnv(Tickets, budget=30, illegal_penalty=0.25)
    dear.reset()
    assert dear.step(int(np.flatnonzero(~dear.action_masks())[0]))[1] == -0.25
    dear.close()


def test_masked_out_actions_in_a_row_truncate_and_reset_moves_to_the_next_seed():
    env = WorldEnv(Tickets, seed=10, budget=30, max_illegal=3)
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    assert not env.step(illegal)[3] and not env.step(illegal)[3]
    legal = int(env.harness.teacher_actions(tickets_teacher)[0])
    assert env.step(legal)[4] == {"illegal_action": False}  # the count starts again
    truncs = [env.step(illegal)[3] for _ in range(3)]
    assert truncs == [False, False, True]
    obs, _ = env.reset()  # the abandoned episode ran seed 10; the next one runs 11
    first = {s: WorldEnv(Tickets, seed=s, budget=30).reset()[0]["observation"] for s in (10, 11)}
    assert not np.array_equal(first[10], first[11])
    np.testing.assert_array_equal(obs["observation"], first[11])
    env.close()


def test_an_episode_ends_terminated_and_reset_returns_the_next_one():
    env = SuiteEnv("migration", 40, seed=5)
    obs, _ = env.reset()
    for _ in range(2_000):
        obs, reward, term, trunc, info = env.step(int(env.harness.teacher_actions("lean")[0]))
        if term:
            break
    assert term and not trunc and info["episode_stats"]["finished"] is True
    assert info["is_success"] == info["episode_stats"]["success"]
    again, _ = env.reset()  # the library already started the next episode: seed 6
    np.testing.assert_array_equal(again["observation"], obs["observation"])
    np.testing.assert_array_equal(again["observation"],
                                  SuiteEnv("migration", 40, seed=6).reset()[0]["observation"])

    # Spending the budget ends the episode too: terminated, not finished.
    rng = np.random.default_rng(1)
    for _ in range(2_000):
        legal = np.flatnonzero(env.action_masks())
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal[legal >= 2])))
        if term:
            break
    assert term and not trunc and info["episode_stats"]["finished"] is None
    assert info["is_success"] is False
    env.close()


def test_bad_input_is_refused_with_a_clear_error():
    env = SuiteEnv("records", 30)
    env.reset()
    for bad, msg in [(348, "templates are 0 to 347"), (-1, "templates are 0 to 347"),
                     (1.5, "a template index"), ("3", "a template index"),
                     (np.array([1, 2]), "a template index")]:
        with pytest.raises(ValueError, match=msg):
            env.step(bad)
    assert env.step(np.int64(np.flatnonzero(env.action_masks())[0]))[4]["illegal_action"] is False
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"difficulty": 3})
    env.close()
    for kwargs, msg in [({"illegal_penalty": -0.1}, "illegal_penalty"),
                        ({"illegal_penalty": float("nan")}, "illegal_penalty"),
                        ({"max_illegal": 0}, "max_illegal"), ({"max_illegal": 2.5}, "max_illegal")]:
        with pytest.raises(ValueError, match=msg):
            SuiteEnv("records", 30, **kwargs)
    with pytest.raises(ValueError, match="unknown task"):
        SuiteEnv("payroll", 30)


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


@pytest.mark.parametrize("scenario", ["v1", "v2", "v3"])
def test_suite_observations_stay_within_their_bounds(scenario):
    rng = np.random.default_rng(0)
    for task in ("migration", "records", "orchestration"):
        env = SuiteEnv(task, 30, range(0, 4), seed=11, scenario=scenario, lifetime=2)
        obs, _ = env.reset()
        for _ in range(300):
            legal = np.flatnonzero(env.action_masks())
            obs, *_ = env.step(int(rng.choice(legal)))
            assert env.observation_space.contains(obs)
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



def test_a_world_env_reads_the_layout_a_policy_trained_on_its_world_reads():
    """A world's own ``budget`` and ``capacities`` (class attributes) are its environment's, as
    ``python -m evoharness.train`` and ``evaluate`` take them (``world_settings``): a
    Gymnasium user's observations are the ones a policy trained for that world reads, not the
    default capacities'. What is given still wins, key by key."""
    from evoharness import VecEnv
    from evoharness.world import world_settings

    with VecEnv.from_worlds(Tickets, 1, **world_settings(Tickets)) as trained:
        want = trained.layout
    assert want["facts"] == Tickets.capacities["facts"]  # not the default 16
    env = WorldEnv(Tickets)
    assert env.harness.layout == want and env.harness.budget == Tickets.budget
    assert env.harness.capacities == {**Tickets.capacities, "tools": len(Tickets.tools)}
    assert env.observation_space["observation"].shape == (want["obs_len"],)
    assert env.action_space.n == want["actions"]
    env.close()
    vec = gym_mod.HarnessVectorEnv(Tickets, 2)
    assert vec.single_observation_space["observation"].shape == (want["obs_len"],)
    vec.close()
    mine = WorldEnv(Tickets, capacities={"facts": 8}, budget=50)
    assert mine.harness.capacities == {"facts": 8, "steps": 2, "lessons": 1, "tools": 4}
    assert mine.harness.budget == 50
    mine.close()
    # A world without the attributes keeps the library's defaults.
    plain = type("Plain", (Tickets,), {"budget": None, "capacities": None})
    with VecEnv.from_worlds(plain, 1) as env:
        assert env.capacities == {"facts": 16, "steps": 8, "lessons": 4, "tools": 4}


# --- sb3-contrib ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["suite-migration", "world-tickets"])
def test_maskable_ppo_trains_on_it_and_never_takes_a_masked_out_action(name):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.callbacks import BaseCallback

    class Count(BaseCallback):
        def __init__(self):
            super().__init__()
            self.steps = self.illegal = self.episodes = 0

        def _on_step(self):
            for info in self.locals["infos"]:
                self.steps += 1
                self.illegal += info["illegal_action"]
                self.episodes += "episode_stats" in info
            return True

    env = SINGLES[name]()
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=64,
                                    n_epochs=2, seed=0, device="cpu")
    count = Count()
    model.learn(256, callback=count)
    assert count.steps == 256 and count.illegal == 0
    # Episode ends reach sb3's Monitor, which writes info["episode"] for its log.
    assert len(model.ep_info_buffer) == count.episodes > 0
    obs, _ = env.reset(seed=0)
    for _ in range(50):
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        assert env.action_masks()[int(action)]
        obs, _, _, _, info = env.step(int(action))
        assert not info["illegal_action"]
    env.close()
