"""The bench of worlds for learning (examples/learning/): each new world resets and steps, its
teacher and its hand rule reach their success bars on a few held-out seeds, and the hand rule
earns more than the teacher there. Needs no torch."""

import pathlib

import pytest

import evoharness
from evoharness.evaluate import evaluate
from evoharness.spec import load_object

BENCH = pathlib.Path(__file__).resolve().parents[3] / "examples" / "learning"
WORLDS = [("catalog", "Catalog", "track_everything"), ("incidents", "Incidents", "runbook"),
          ("rollout", "Rollout", "check_every_host"), ("consumer", "Consumer", "never_commit")]
SEEDS = range(1_000_000, 1_000_048)


@pytest.mark.parametrize("name,cls,teacher", WORLDS)
def test_world_steps(name, cls, teacher):
    factory = load_object(f"{BENCH / name}.py:{cls}", "--world")
    env = evoharness.VecEnv.from_worlds(factory, 4, seed=0)
    try:
        obs, mask = env.observe()
        assert obs.shape[0] == 4 and mask.any(axis=1).all()
        for _ in range(20):
            env.step(env.teacher_actions(load_object(f"{BENCH / name}.py:{teacher}", "teacher")))
    finally:
        env.close()


@pytest.mark.parametrize("name,cls,teacher", WORLDS)
def test_hand_rule_beats_teacher(name, cls, teacher):
    world = f"{BENCH / name}.py:{cls}"
    t = evaluate(world, f"teacher:{BENCH / name}.py:{teacher}", SEEDS)
    h = evaluate(world, f"teacher:{BENCH / name}.py:hand_rule", SEEDS,
                 against=f"teacher:{BENCH / name}.py:{teacher}")
    assert t["success_rate"] >= 0.9, t
    assert h["success_rate"] >= 0.95, h
    p = h["paired"]
    assert p["mean_reward_gain"] > 2 * p["gain_se"], p
