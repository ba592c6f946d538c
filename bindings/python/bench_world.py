"""Environment steps per second: a world written in Python (tests/test_world.py's three-tool
invoice world) through VecEnv.from_worlds, against the suite's Rust worlds through VecEnv.

    EVOHARNESS_LIB=.../no-tract/release/libevoharness_train.so python bindings/python/bench_world.py
"""

import pathlib
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "tests")]

import evoharness  # noqa: E402
from test_world import Scripted, scripted_action  # noqa: E402


def rate(env, pick, steps=300):
    t0 = time.perf_counter()
    for _ in range(steps):
        env.step(pick(env))
    return steps * env.n / (time.perf_counter() - t0)


def main(n=32):
    h = evoharness.VecEnv.from_worlds(Scripted, n, budget=60)
    acts = np.zeros(n, np.uint32)

    def script(env):
        for i in range(env.n):
            acts[i] = scripted_action(env, i)
        return acts

    audit = np.full(n, h.templates.act(2), np.uint32)
    rows = [
        ("Python world, scripted (templates from Python)", rate(h, script)),
        ("Python world, one fixed world action", rate(h, lambda env: audit)),
        ("Python world, Python teacher mapped by the library",
         rate(h, lambda env: env.teacher_actions(lambda w, e: ("call", "audit")))),
    ]
    s = evoharness.VecEnv("migration", 250, n)
    rows.append(("suite VecEnv (Rust worlds), lean teacher",
                 rate(s, lambda env: env.teacher_actions("lean"))))
    for what, r in rows:
        print(f"{what:55} {r:>10,.0f} env-steps/s")


if __name__ == "__main__":
    main()
