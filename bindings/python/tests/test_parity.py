"""Python and Rust see the same environments: the same observations, masks, rewards, done
flags and episode stats, step by step, for the same seeds and actions. The Rust side is the
suite's `vec_env_dump` example (built with cargo unless $EVOHARNESS_VEC_ENV_DUMP names it)."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import evoharness

ROOT = pathlib.Path(__file__).resolve().parents[3]


def rust_dump(args, prefix):
    exe = os.environ.get("EVOHARNESS_VEC_ENV_DUMP")
    cmd = [exe] if exe else ["cargo", "run", "-q", "-p", "evoharness-suite",
                             "--no-default-features", "--example", "vec_env_dump", "--"]
    subprocess.run(cmd + [str(a) for a in args] + [str(prefix)], check=True, cwd=ROOT)


def rule(env, s):
    """The dump's rule: the lean teacher, except every fifth (step + environment)."""
    a = env.teacher_actions("lean").copy()
    for i in range(env.n):
        if (s + i) % 5 == 0:
            start = (13 * s + 7 * i) % env.actions
            order = (start + np.arange(env.actions)) % env.actions
            legal = [t for t in order if t >= 2 and env.mask[i, t] == 1]
            a[i] = legal[0] if legal else 0
    return a


@pytest.mark.parametrize("task,group", [("migration", 1), ("records", 2), ("orchestration", 1)])
def test_python_and_rust_see_the_same_steps(task, group, tmp_path):
    n, horizon, steps, orgs, seed = 4, 60, 300, (2, 3), 11
    rust_dump([task, horizon, n, orgs[0], orgs[1], seed, group, steps], tmp_path / "dump")
    raw = (tmp_path / "dump.bin").read_bytes()
    env = evoharness.VecEnv(task, horizon, n, range(orgs[0], orgs[0] + orgs[1]), seed, group)
    ol, al = env.obs_len, env.actions
    rec = n * (4 * ol + al + 4 + 1)
    assert len(raw) == rec * (steps + 1)

    def check(k, obs, mask, rew, done):
        b = raw[k * rec:(k + 1) * rec]
        o = np.frombuffer(b, "<f4", n * ol).reshape(n, ol)
        m = np.frombuffer(b, np.uint8, n * al, 4 * n * ol).reshape(n, al)
        r = np.frombuffer(b, "<f4", n, 4 * n * ol + n * al)
        d = np.frombuffer(b, np.uint8, n, 4 * n * ol + n * al + 4 * n)
        assert np.array_equal(o.view(np.uint32), obs.view(np.uint32)), f"obs at step {k}"
        assert np.array_equal(m, mask), f"mask at step {k}"
        assert np.array_equal(r.view(np.uint32), rew.view(np.uint32)), f"reward at step {k}"
        assert np.array_equal(d, done), f"done at step {k}"

    check(0, env.obs, env.mask, np.zeros(n, np.float32), np.zeros(n, np.uint8))
    episodes = []
    for s in range(steps):
        env.step(rule(env, s))
        check(s + 1, env.obs, env.mask, env.reward, env.done)
        episodes += [env.last_episode(int(i)) for i in np.nonzero(env.done)[0]]
    rust = [json.loads(line) for line in (tmp_path / "dump.episodes.jsonl").read_text().splitlines()]
    assert len(rust) == len(episodes) > 0
    for p, r in zip(episodes, rust):
        assert p["success"] == r["success"] and p["finished"] == r["finished"]
        assert (p["duplicates"], p["gaps"], p["wrong_writes"]) == tuple(
            r["violations"][k] for k in ("duplicates", "gaps", "wrong_writes"))
        assert [p["steps"], p["world_actions"], p["cost"], p["items"], p["landed"]] == [
            r["steps"], r["world_actions"], r["cost"], r["items"], r["landed"]]
        assert list(p["harness_by_verb"].values()) == r["harness"]
        assert p["reward"] == r["reward"]
    env.close()
