#!/usr/bin/env python3
"""Train the generalist structured-v1 policy for the task suite, export it to ONNX, evaluate it.

The training is the generic trainer's, ``python -m evoharness.train``, on the suite's three
simulations (``--suite migration,records,orchestration --teacher lean``):

Stage 1, harness fine-tuning: behaviour cloning with DAgger. The teacher is the lean harness
(`tasks::baselines::LeanHarness`), rules that see only what a policy sees, so the network can
imitate it exactly; DAgger labels the states the learning policy itself visits, so it learns
to recover from its own mistakes. (The oracle reads hidden state a policy cannot see, and the
static harness spends two harness actions per world action; both are compared against, not
imitated.)

Stage 2, cost-aware RL: group-relative policy optimisation (GRPO). Every iteration starts
fresh environments; groups run the same organisation and seed; each episode's advantage is its
return (the suite's reward: success gates an efficiency bonus, every action costs budget)
against its group's mean, with a clipped ratio and a KL penalty to the stage-1 policy. Model
selection: the best validation reward among checkpoints within a point of the best success.

This script adds what is the suite's own: its defaults (horizon 250, the training size below),
`evoharness inspect`, and `evoharness eval` on organisations and seeds never seen in training
at the training horizon and at 4x it, written into the record; and the append-only ablation,
whose observation is not structured-v1 (trained with the same stages, evaluated here).

    python examples/train/train.py --out examples/policies/generalist.onnx
    python examples/train/train.py --smoke --out target/train-smoke/smoke.onnx  # seconds

examples/train/run.sh sets up the environment (pinned requirements, the release library) and
runs this.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
from evoharness import train as generic  # noqa: E402
from evoharness.figures import summary  # noqa: E402
from evoharness.train.grpo import grpo  # noqa: E402
from evoharness.train.imitation import Buffer, dagger  # noqa: E402
from evoharness.train.log import Log, plot  # noqa: E402
from evoharness.train.net import Net, greedy  # noqa: E402
from evoharness.train.selection import choose  # noqa: E402
from evoharness.train.sources import SuiteSource, first_episodes  # noqa: E402

TASKS = ("migration", "records", "orchestration")
#: Held out: organisations and seeds no training or validation run uses (training uses
#: organisations 0-63, validation 5000-5015: ``evoharness.train.sources.SuiteSource``).
TEST_ORGANISATIONS = range(10_000, 10_016)
TEST_SEEDS = (1_000_000, 1_000_200)


class AppendOnlyView:
    """The ablation's observation: the last `window` events instead of the workspace.

    Kept: the global features that are not about the workspace (budget, last world action) and,
    for each of the last `window` events (a new one after every world action; cleared at a new
    episode), its event and field rows with the two features that compare a field with belief
    zeroed. Every offset comes from the library's layout."""

    def __init__(self, lay: dict, n: int, window: int):
        segs = {seg["name"]: seg for seg in lay["segments"]}
        g, ev, fi = segs["global"], segs["event"], segs["fields"]
        assert fi["offset"] == ev["offset"] + ev["width"], "event and field rows are adjacent"
        self.g = slice(g["offset"], g["offset"] + g["width"])
        self.e = slice(ev["offset"], fi["offset"] + fi["rows"] * fi["width"])

        def offsets(seg):
            at, out = 0, {}
            for name, width in seg["features"]:
                out[name] = (at, width)
                at += width
            return out

        gf, ff = offsets(g), offsets(fi)
        self.zero_g = [gf[k][0] for k in ("belief_fill", "plan_fill", "experience_fill", "plan_done", "has_active_step")]
        base = fi["offset"] - ev["offset"]
        self.zero_e = [base + r * fi["width"] + ff[k][0] for r in range(fi["rows"]) for k in ("in_belief", "differs")]
        self.acts = np.array([v == "act" for v, _ in lay["templates"]])
        width = self.e.stop - self.e.start
        self.ring = np.zeros((n, window, width), np.float32)
        self.size = (self.g.stop - self.g.start) + window * width
        self.started = False

    def _event(self, obs):
        e = obs[:, self.e].copy()
        e[:, self.zero_e] = 0.0
        return e

    def _push(self, idx, obs):
        if len(idx):
            self.ring[idx] = np.roll(self.ring[idx], -1, axis=1)
            self.ring[idx, -1] = self._event(obs[idx])

    def __call__(self, obs):
        if not self.started:
            self._push(np.arange(len(obs)), obs)
            self.started = True
        g = obs[:, self.g].copy()
        g[:, self.zero_g] = 0.0
        return np.concatenate([g, self.ring.reshape(len(obs), -1)], axis=1)

    def after_step(self, obs, actions, done):
        ended = np.nonzero(done)[0]
        self.ring[ended] = 0.0
        acted = np.nonzero(self.acts[actions] & (done == 0))[0]
        self._push(np.concatenate([ended, acted]), obs)


class ViewEnv:
    """A suite VecEnv as the ablation's network sees it."""

    def __init__(self, env, view):
        self.env, self.view, self.n = env, view, env.n

    @property
    def obs(self):
        return self.view(self.env.obs)

    @property
    def mask(self):
        return self.env.mask

    def step(self, actions):
        out = self.env.step(actions)
        self.view.after_step(self.env.obs, actions, self.env.done)
        return out

    def last_episode(self, i):
        return self.env.last_episode(i)

    def teacher_actions(self, teacher):
        return self.env.teacher_actions(teacher)

    def close(self):
        self.env.close()


class AppendOnlySource(SuiteSource):
    """The suite's tasks seen through :class:`AppendOnlyView`."""

    ORGANISATIONS = {**SuiteSource.ORGANISATIONS, "test": TEST_ORGANISATIONS}

    def __init__(self, tasks, horizon: int, window: int, also_horizons=()):
        super().__init__(tasks, horizon, "lean", also_horizons)
        self.window = window
        self.obs_len = AppendOnlyView(self.layout, 1, window).size

    def envs(self, kind, n, seed, group=1, split="train", offset=0):
        return ViewEnv(super().envs(kind, n, seed, group, split, offset),
                       AppendOnlyView(self.layout, n, self.window))


def evoharness_bin() -> list[str]:
    if os.environ.get("EVOHARNESS_BIN"):
        return [os.environ["EVOHARNESS_BIN"]]
    for profile in ("release", "debug"):
        target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        b = target / profile / "evoharness"
        if b.is_file():
            return [str(b)]
    return ["cargo", "run", "-q", "--release", "-p", "evoharness-cli", "--bin", "evoharness", "--"]


def final_eval(path: pathlib.Path, args) -> list[dict]:
    rows = []
    seeds = f"{TEST_SEEDS[0]}..{TEST_SEEDS[0] + args.test_episodes}"
    orgs = f"{TEST_ORGANISATIONS.start}..{TEST_ORGANISATIONS.stop}"
    for task in TASKS:
        for h in (args.horizon, 4 * args.horizon):
            out = subprocess.run(
                evoharness_bin() + ["eval", "--task", task, "--agent", f"policy:{path}", "--backend", args.backend,
                                    "--seeds", seeds, "--organisations", orgs, "--horizon", str(h), "--json"],
                check=True, capture_output=True, text=True, cwd=ROOT,
            ).stdout
            r = json.loads(out)
            rows.append(r)
            print(f"eval {task:14} h={h:5}: success {100 * r['success_rate']:.1f}%, harness "
                  f"{r['mean_harness_actions']:.1f}/episode, violations {r['integrity_violations']}", flush=True)
    return rows


def ablation(args) -> None:
    """The ablation cannot run in the runtime (its observation is not structured-v1): trained
    with the generic stages, then evaluated here, greedily, on the held-out organisations and
    seeds."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    stem = args.out.stem
    log = Log(args.out.parent / f"{stem}.train.jsonl")
    # As the policy: behaviour cloning and validation at the horizon and at 4x it.
    source = AppendOnlySource(TASKS, args.horizon, args.window, (4 * args.horizon,))
    lay = source.layout
    net = Net(source.obs_len, lay["actions"], args.hidden)
    t0 = time.time()
    buf = Buffer(args.buffer, source.obs_len, lay["actions"])
    best = dagger(net, source, args, log, t0 + 30 * args.minutes, buf, rng)
    t1 = time.time()
    net.load_state_dict(choose(best)["state"])  # as python -m evoharness.train does
    best = grpo(net, source, args, log, t0 + 60 * args.minutes, best, rng)
    t2 = time.time()
    net.load_state_dict(choose(best)["state"])
    plot(log.rows, args.out.parent / f"{stem}.training.svg", title=f"training {stem}")
    rows = []
    for task in TASKS:
        for h in (args.horizon, 4 * args.horizon):
            eps = first_episodes(AppendOnlySource(TASKS, h, args.window), task,
                                 lambda env: greedy(net, env.obs, env.mask), TEST_SEEDS[0],
                                 args.test_episodes, split="test")
            r = {"task": task, "agent": f"ablation:append-only(window {args.window})", "horizon": h,
                 **summary(eps)}
            r["integrity_violations"] = r.pop("violations")  # evoharness eval's name
            rows.append(r)
            print(f"ablation {task:14} h={h:5}: success {100 * r['success_rate']:.1f}%, harness "
                  f"{r['mean_harness_actions']:.1f}/episode, violations {r['integrity_violations']}",
                  flush=True)
    (args.out.parent / f"{stem}.json").write_text(json.dumps(
        {"ablation": rows, "stage1_s": round(t1 - t0, 1), "stage2_s": round(t2 - t1, 1),
         "command": " ".join(sys.argv)}, indent=2) + "\n")
    log.close()


#: The suite's training size, passed to ``python -m evoharness.train`` (its flags).
DEFAULTS = {"hidden": 128, "envs": 32, "rounds": 12, "round-steps": 400, "epochs": 2,
            "buffer": 400_000, "batch": 512, "lr": 1e-3, "rl-iters": 10, "rl-epochs": 2,
            "rl-lr": 1e-4, "group": 4, "groups": 8, "kl": 0.05, "valid-episodes": 32,
            "minutes": 40.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=pathlib.Path, required=True, help="the ONNX policy to write")
    ap.add_argument("--smoke", action="store_true", help="a tiny run that checks the pipeline")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--horizon", type=int, default=250, help="the training horizon")
    for flag, default in DEFAULTS.items():
        ap.add_argument(f"--{flag}", type=type(default), default=default,
                        help=f"as in python -m evoharness.train (default {default})")
    ap.add_argument("--test-episodes", type=int, default=200)
    ap.add_argument("--no-eval", action="store_true", help="skip the final evoharness eval")
    ap.add_argument("--backend", choices=("tract", "onnxruntime"), default="tract",
                    help="the final evaluation's backend (the two take the same actions)")
    ap.add_argument("--observation", choices=("workspace", "append-only"), default="workspace",
                    help="what the network sees: the workspace (the policy) or the last --window "
                         "events (the append-only ablation, evaluated here, not exported)")
    ap.add_argument("--window", type=int, default=8, help="events the append-only view keeps")
    ap.add_argument("--tasks", default=",".join(TASKS),
                    help="the families to train on (default all three); the evaluation runs all "
                         "three, so a family left out is a held-out family")
    ap.add_argument("--teacher", choices=("lean", "static"), default="lean",
                    help="stage 1's teacher: the lean harness (the shipped policy) or the static "
                         "harness (harness annealing starts from it)")
    args = ap.parse_args()
    tasks = [t for t in args.tasks.split(",") if t]
    if not tasks or any(t not in TASKS for t in tasks):
        sys.exit(f"--tasks: expected some of {', '.join(TASKS)}, got {args.tasks!r}")
    if args.smoke:
        args.horizon, args.test_episodes = 50, 4
    if args.observation != "workspace":
        if args.smoke:
            args.hidden, args.envs, args.rounds, args.round_steps = 32, 4, 2, 20
            args.rl_iters, args.group, args.groups, args.valid_episodes = 1, 2, 2, 4
        ablation(args)
        return
    # The bar is at the training horizon and at 4x it: behaviour cloning and validation run
    # both (GRPO the training horizon).
    argv = ["--suite", ",".join(tasks), "--teacher", args.teacher, "--out", str(args.out),
            "--seed", str(args.seed), "--horizon", str(args.horizon),
            "--also-horizons", str(4 * args.horizon)]
    for flag in DEFAULTS:
        argv += [f"--{flag}", str(getattr(args, flag.replace("-", "_")))]
    if args.smoke:
        argv.append("--smoke")
    if generic.main(argv) != 0:
        sys.exit("python -m evoharness.train failed")
    inspect = subprocess.run(evoharness_bin() + ["inspect", str(args.out), "--backend", "tract"],
                             capture_output=True, text=True, cwd=ROOT)
    print(inspect.stdout + inspect.stderr, flush=True)
    if inspect.returncode != 0:
        sys.exit(f"evoharness inspect refused {args.out}")
    record_path = args.out.parent / f"{args.out.name.removesuffix('.onnx')}.json"
    record = json.loads(record_path.read_text())
    record["command"] = " ".join([pathlib.Path(sys.executable).name] + sys.argv)
    record["generic_command"] = "python -m evoharness.train " + " ".join(argv)
    record["horizon"] = args.horizon
    if not args.no_eval:
        record["eval"] = final_eval(args.out, args)
    record_path.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
