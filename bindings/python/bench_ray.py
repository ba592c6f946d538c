"""Rollout steps per second of `python -m evoharness.train` in this process and on 1 and 2 Ray
workers (a local cluster each time), for a world written in Python (the invoices example) and
a suite world (migration), with the learner's share of the time beside them.

    EVOHARNESS_LIB=.../no-tract/release/libevoharness_suite.so python bindings/python/bench_ray.py [--workers 1,2]

Each run trains with the same settings (DAgger rounds and GRPO iterations of 32 environments in
units of 8; validation is left out of both figures) and reads the record's ``rollouts``:
``steps_per_s`` is environment steps over the time the learner waited for rollouts (sending the
weights and receiving the samples included), ``learner_s`` the time it fitted and updated.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
INVOICES = HERE.parents[1] / "examples" / "workflows" / "invoices"
WORLDS = {
    "invoices (Python)": ["--world", f"{INVOICES / 'world.py'}:Invoices",
                          "--teacher", f"{INVOICES / 'teacher.py'}:lean"],
    "migration (suite)": ["--suite", "migration", "--teacher", "lean", "--horizon", "100"],
}
SIZES = ["--envs", "32", "--rounds", "4", "--round-steps", "100", "--rl-iters", "4",
         "--groups", "8", "--group", "4", "--valid-episodes", "8", "--unit-envs", "8",
         "--minutes", "30", "--quiet"]


def run(world: list, where: list, out: pathlib.Path) -> dict:
    subprocess.run([sys.executable, "-m", "evoharness.train", *world, *SIZES, *where,
                    "--out", str(out)], check=True)
    return json.loads(out.with_suffix(".json").read_text())["rollouts"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", default="1,2", help="Ray worker counts to run (default 1,2)")
    args = ap.parse_args()
    print("| world | where | rollout steps/s | rollout s | learner s | learner share |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for name, world in WORLDS.items():
            wheres = [("this process", [])] + [
                (f"Ray, {w} worker{'s' if w != '1' else ''}", ["--ray", "local", "--workers", w])
                for w in args.workers.split(",")]
            for label, where in wheres:
                r = run(world, where, pathlib.Path(tmp) / "p.onnx")
                share = r["learner_s"] / (r["learner_s"] + r["rollout_s"])
                print(f"| {name} | {label} | {r['steps_per_s']:,} | {r['rollout_s']:.1f} | "
                      f"{r['learner_s']:.1f} | {share:.0%} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
