"""Rollout steps per second of `python -m evoharness.train` in this process and on Ray workers
(a local cluster each time), for a world written in Python (the invoices example), the same
world behind a slow API (every tool call waits 2 ms, as a staging service would) and a suite
world (migration), with the learner's share of the time beside them.

    EVOHARNESS_LIB=.../no-tract/release/libevoharness_train.so python bindings/python/bench_ray.py [--workers 1,2]

Each run trains with the same settings (4 DAgger rounds of 64 environments x 200 steps, in
units of 8, and 4 GRPO iterations of 16 groups of 4; validation is left out of both figures)
and reads the record's ``rollouts``: ``steps_per_s`` is environment steps over the time the
learner waited for rollouts (sending the weights and receiving the samples included),
``learner_s`` the time it fitted and updated. The slow world runs fewer steps (--slow-steps).
"""

import argparse
import importlib.util
import json
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
INVOICES = HERE.parents[1] / "examples" / "workflows" / "invoices"
_spec = importlib.util.spec_from_file_location("invoices_world", INVOICES / "world.py")
_world = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_world)


class SlowInvoices(_world.Invoices):
    """The invoices world behind an API that takes 2 ms a call."""

    def call(self, tool, args):
        time.sleep(0.002)
        return super().call(tool, args)


LEAN = ["--teacher", f"{INVOICES / 'teacher.py'}:lean"]
WORLDS = {
    "invoices (Python)": ["--world", f"{INVOICES / 'world.py'}:Invoices", *LEAN],
    "invoices, 2 ms a call": ["--world", f"{pathlib.Path(__file__).resolve()}:SlowInvoices", *LEAN],
    "migration (suite)": ["--suite", "migration", "--teacher", "lean", "--horizon", "100"],
}
SIZES = ["--envs", "64", "--rounds", "4", "--rl-iters", "4", "--groups", "16", "--group", "4",
         "--valid-episodes", "8", "--unit-envs", "8", "--minutes", "60", "--quiet"]


def run(world: list, where: list, steps: int, out: pathlib.Path) -> dict:
    subprocess.run([sys.executable, "-m", "evoharness.train", *world, *SIZES, *where,
                    "--round-steps", str(steps), "--out", str(out)], check=True)
    return json.loads(out.with_suffix(".json").read_text())["rollouts"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", default="1,2", help="Ray worker counts to run (default 1,2)")
    ap.add_argument("--steps", type=int, default=200, help="DAgger steps a round (default 200)")
    ap.add_argument("--slow-steps", type=int, default=20, help="the same, slow world (default 20)")
    args = ap.parse_args()
    print("| world | where | rollout steps/s | rollout s | learner s | learner share |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for name, world in WORLDS.items():
            wheres = [("this process", [])] + [
                (f"Ray, {w} worker{'s' if w != '1' else ''}", ["--ray", "local", "--workers", w])
                for w in args.workers.split(",")]
            for label, where in wheres:
                steps = args.slow_steps if "ms a call" in name else args.steps
                r = run(world, where, steps, pathlib.Path(tmp) / "p.onnx")
                share = r["learner_s"] / (r["learner_s"] + r["rollout_s"])
                print(f"| {name} | {label} | {r['steps_per_s']:,} | {r['rollout_s']:.1f} | "
                      f"{r['learner_s']:.1f} | {share:.0%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
