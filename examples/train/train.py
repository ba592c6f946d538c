#!/usr/bin/env python3
"""Train a generalist structured-v1 policy for the task suite, export it to ONNX, evaluate it.

Stage 1, harness fine-tuning: behaviour cloning with DAgger. The teacher is the lean harness
(`tasks::baselines::LeanHarness`), rules that see only what a policy sees, so the network can
imitate it exactly; DAgger labels the states the learning policy itself visits, so it learns
to recover from its own mistakes. (The oracle reads hidden state a policy cannot see, and the
static harness spends two harness actions per world action; both are compared against, not
imitated.)

Stage 2, cost-aware RL: group-relative policy optimisation (GRPO). Groups of environments run
the same organisation and seed; each episode's advantage is its return (the suite's reward:
success gates an efficiency bonus, every action costs budget) against its group's mean, with
a clipped ratio and a KL penalty to the stage-1 policy.

Then: export to ONNX (opset 17, masked logits, the metadata of runtime/POLICY.md taken from
the library's layout), `evoharness inspect`, and `evoharness eval` on organisations and seeds
never seen in training, at the training horizon and at 4x it. Logs, a JSON summary and an SVG
plot of success rate and harness actions per episode over training go to --out-dir.

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
import torch.nn.functional as F

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import evoharness  # noqa: E402
# The network, its export, the record and its plot are the generic trainer's (python -m
# evoharness.train); the suite's stages stay here: they drive the suite's VecEnv and teachers.
from evoharness.training import (  # noqa: E402
    Log,
    Net,
    export_onnx,
    greedy,
    group_advantages,
    grpo_update,
    plot,
    tensor,
)

TASKS = ("migration", "records", "orchestration")
#: Organisations and seeds: training, validation (during training) and test (the final
#: evaluation) never overlap.
TRAIN_ORGANISATIONS = range(0, 64)
VALID_ORGANISATIONS = range(5_000, 5_016)
TEST_ORGANISATIONS = range(10_000, 10_016)
TRAIN_SEED = 0
VALID_SEED = 500_000
TEST_SEEDS = (1_000_000, 1_000_200)


class WorkspaceView:
    """The structured-v1 observation as the library writes it: the workspace and the event."""

    def __init__(self, lay: dict, n: int, window: int):
        self.size = lay["obs_len"]

    def __call__(self, obs):
        return obs

    def after_step(self, obs, actions, done):
        pass


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


VIEWS = {"workspace": WorkspaceView, "append-only": AppendOnlyView}


class Envs:
    """A VecEnv with the observation view the network sees."""

    def __init__(self, task, horizon, n, organisations, seed, view, lay, window, group=1):
        self.env = evoharness.VecEnv(task, horizon, n, organisations, seed, group)
        self.view = VIEWS[view](lay, n, window)
        self.n = n

    @property
    def mask(self):
        return self.env.mask

    def obs(self):
        return self.view(self.env.obs)

    def step(self, actions):
        self.env.step(actions)
        self.view.after_step(self.env.obs, actions, self.env.done)
        return self.env.done

    def close(self):
        self.env.close()


def rollouts(net, task, horizon, n, organisations, seed, episodes, args, lay) -> list[dict]:
    """`episodes` greedy episodes of `task`: their stats."""
    e = Envs(task, horizon, n, organisations, seed, args.observation, lay, args.window)
    out = []
    while len(out) < episodes:
        done = e.step(greedy(net, e.obs(), e.mask))
        out += [e.env.last_episode(int(i)) for i in np.nonzero(done)[0]]
    e.close()
    return out[:episodes]


def validate(net, args, lay, seed: int) -> dict:
    """Greedy rollouts on validation organisations: success rate and harness actions."""
    out = {}
    for task in TASKS:
        eps = rollouts(net, task, args.horizon, args.valid_envs, VALID_ORGANISATIONS, seed, args.valid_episodes, args, lay)
        out[task] = {
            "success": float(np.mean([e["success"] for e in eps])),
            "harness": float(np.mean([e["harness_actions"] for e in eps])),
        }
    return out


def stage1(net, args, log, lay):
    """Behaviour cloning with DAgger from the lean harness."""
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    envs = {
        t: Envs(t, args.horizon, args.envs, TRAIN_ORGANISATIONS, TRAIN_SEED + 1_000 * k, args.observation, lay, args.window)
        for k, t in enumerate(TASKS)
    }
    obs_len, actions = envs[TASKS[0]].view.size, lay["actions"]
    cap = args.buffer
    B_obs = np.zeros((cap, obs_len), np.float32)
    B_mask = np.zeros((cap, actions), np.float32)
    B_act = np.zeros(cap, np.int64)
    size, head = 0, 0
    rng = np.random.default_rng(args.seed)
    for r in range(args.rounds):
        beta = max(0.0, 1.0 - r / max(1, args.rounds // 2))
        agree, seen = 0, 0
        train_eps = []
        for _ in range(args.round_steps):
            for env in envs.values():
                teacher = env.env.teacher_actions("lean").astype(np.int64)
                n = env.n
                obs = env.obs()
                idx = (head + np.arange(n)) % cap
                B_obs[idx], B_mask[idx], B_act[idx] = obs, env.mask, teacher
                head = (head + n) % cap
                size = min(cap, size + n)
                mine = greedy(net, obs, env.mask).astype(np.int64)
                agree += int((mine == teacher).sum())
                seen += n
                a = np.where(rng.random(n) < beta, teacher, mine).astype(np.uint32)
                done = env.step(a)
                for i in np.nonzero(done)[0]:
                    train_eps.append(env.env.last_episode(int(i)))
        # Train on the aggregate.
        net.train()
        losses = []
        for _ in range(args.epochs):
            perm = rng.permutation(size)
            for s in range(0, size, args.batch):
                b = perm[s : s + args.batch]
                logits, _ = net(tensor(B_obs[b]), tensor(B_mask[b]))
                loss = F.cross_entropy(logits, torch.as_tensor(B_act[b]))
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.item())
        net.eval()
        v = validate(net, args, lay, VALID_SEED + r)
        log(
            stage=1,
            round=r,
            beta=round(beta, 2),
            samples=size,
            loss=round(float(np.mean(losses[-50:])), 5),
            agreement=round(agree / max(1, seen), 5),
            train_success=round(float(np.mean([e["success"] for e in train_eps])) if train_eps else 0.0, 3),
            train_harness=round(float(np.mean([e["harness_actions"] for e in train_eps])) if train_eps else 0.0, 2),
            valid_success=round(float(np.mean([x["success"] for x in v.values()])), 3),
            valid_harness=round(float(np.mean([x["harness"] for x in v.values()])), 2),
            **{f"valid_{t}": v[t]["success"] for t in TASKS},
        )
    for env in envs.values():
        env.close()


def stage2(net, args, log, lay):
    """GRPO with the task reward, a clipped ratio and a KL penalty to the stage-1 policy."""
    ref = Net(net.body[0].in_features, net.pi.out_features, args.hidden)
    envs = {
        t: Envs(t, args.horizon, args.group * args.groups, TRAIN_ORGANISATIONS, 700_000 + 1_000 * k,
                args.observation, lay, args.window, group=args.group)
        for k, t in enumerate(TASKS)
    }
    ref.load_state_dict(net.state_dict())
    ref.eval()
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    G = args.group
    start = validate(net, args, lay, VALID_SEED + 999)
    best_score = np.mean([x["success"] for x in start.values()])
    best_state = {k: v.clone() for k, v in net.state_dict().items()}
    for it in range(args.rl_iters):
        # One episode per environment, sampled at temperature 1.
        batch = []  # (obs, mask, action, old logp, advantage)
        returns, successes, harness = [], [], []
        for env in envs.values():
            n = env.n
            traj = [[] for _ in range(n)]
            finished = [None] * n
            while any(f is None for f in finished):
                obs, mask = env.obs().copy(), env.mask.copy()
                with torch.no_grad():
                    logits, _ = net(tensor(obs), tensor(mask))
                    dist = torch.distributions.Categorical(logits=logits)
                    a = dist.sample()
                    logp = dist.log_prob(a)
                a_np = a.numpy().astype(np.uint32)
                done = env.step(a_np)
                for i in range(n):
                    if finished[i] is None:
                        traj[i].append((obs[i], mask[i], int(a_np[i]), float(logp[i])))
                        if done[i]:
                            finished[i] = env.env.last_episode(i)
            batch += group_advantages(traj, finished, G)
            returns += [f["reward"] for f in finished]
            successes += [f["success"] for f in finished]
            harness += [f["harness_actions"] for f in finished]
        rng = np.random.default_rng(args.seed + it)
        grpo_update(net, ref, opt, batch, args.rl_epochs, args.batch, args.kl, rng)
        v = validate(net, args, lay, VALID_SEED + 1_000 + it)
        score = np.mean([x["success"] for x in v.values()])
        log(
            stage=2,
            iteration=it,
            steps=len(batch),
            mean_return=round(float(np.mean(returns)), 4),
            train_success=round(float(np.mean(successes)), 3),
            train_harness=round(float(np.mean(harness)), 2),
            valid_success=round(float(score), 3),
            valid_harness=round(float(np.mean([x["harness"] for x in v.values()])), 2),
            **{f"valid_{t}": v[t]["success"] for t in TASKS},
        )
        if score >= best_score:
            best_score = score
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
    net.load_state_dict(best_state)
    for env in envs.values():
        env.close()


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
                evoharness_bin() + ["eval", "--task", task, "--agent", f"policy:{path}", "--backend", "tract",
                                    "--seeds", seeds, "--organisations", orgs, "--horizon", str(h), "--json"],
                check=True, capture_output=True, text=True, cwd=ROOT,
            ).stdout
            r = json.loads(out)
            rows.append(r)
            print(f"eval {task:14} h={h:5}: success {100 * r['success_rate']:.1f}%, harness "
                  f"{r['mean_harness_actions']:.1f}/episode, violations {r['integrity_violations']}", flush=True)
    return rows


def ablation_eval(net, args, lay, path, s1, s2) -> None:
    """The ablation cannot run in the runtime (its observation is not structured-v1): it is
    evaluated here, greedily, on the test organisations and unseen seeds."""
    rows = []
    for task in TASKS:
        for h in (args.horizon, 4 * args.horizon):
            eps = rollouts(net, task, h, 20, TEST_ORGANISATIONS, TEST_SEEDS[0], args.test_episodes, args, lay)
            r = {
                "task": task, "agent": f"ablation:append-only(window {args.window})", "horizon": h,
                "episodes": len(eps),
                "success_rate": float(np.mean([e["success"] for e in eps])),
                "integrity_violations": int(sum(e["integrity_violations"] for e in eps)),
                "mean_world_actions": float(np.mean([e["world_actions"] for e in eps])),
                "mean_harness_actions": float(np.mean([e["harness_actions"] for e in eps])),
                "mean_cost": float(np.mean([e["cost"] for e in eps])),
            }
            rows.append(r)
            print(f"ablation {task:14} h={h:5}: success {100 * r['success_rate']:.1f}%, harness "
                  f"{r['mean_harness_actions']:.1f}/episode, violations {r['integrity_violations']}", flush=True)
    path.write_text(json.dumps({"ablation": rows, "stage1_s": round(s1, 1), "stage2_s": round(s2, 1),
                                "command": " ".join(sys.argv)}, indent=2) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=pathlib.Path, required=True, help="the ONNX policy to write")
    ap.add_argument("--out-dir", type=pathlib.Path, help="logs and plot (default: beside --out)")
    ap.add_argument("--smoke", action="store_true", help="a tiny run that checks the pipeline")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--horizon", type=int, default=250, help="the training horizon")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--envs", type=int, default=32, help="environments per task")
    ap.add_argument("--rounds", type=int, default=12, help="DAgger rounds")
    ap.add_argument("--round-steps", type=int, default=400)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--buffer", type=int, default=400_000)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--rl-iters", type=int, default=10)
    ap.add_argument("--rl-epochs", type=int, default=2)
    ap.add_argument("--rl-lr", type=float, default=1e-4)
    ap.add_argument("--group", type=int, default=4)
    ap.add_argument("--groups", type=int, default=8)
    ap.add_argument("--kl", type=float, default=0.05)
    ap.add_argument("--valid-envs", type=int, default=16)
    ap.add_argument("--valid-episodes", type=int, default=32)
    ap.add_argument("--test-episodes", type=int, default=200)
    ap.add_argument("--no-eval", action="store_true", help="skip the final evoharness eval")
    ap.add_argument("--observation", choices=sorted(VIEWS), default="workspace",
                    help="what the network sees: the workspace (the policy) or the last --window "
                         "events (the append-only ablation, evaluated here, not exported)")
    ap.add_argument("--window", type=int, default=8, help="events the append-only view keeps")
    args = ap.parse_args()
    if args.smoke:
        args.hidden, args.envs, args.rounds, args.round_steps = 32, 4, 2, 40
        args.rl_iters, args.group, args.groups, args.horizon = 1, 2, 2, 50
        args.valid_envs, args.valid_episodes, args.test_episodes = 2, 2, 4
    torch.manual_seed(args.seed)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    out_dir = args.out_dir or args.out.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = args.out.stem
    log = Log(out_dir / f"{stem}.train.jsonl")
    lay = evoharness.suite_layout()
    log(event="start", library=str(evoharness.library_path().name), torch=torch.__version__,
        args={k: str(v) for k, v in vars(args).items()}, obs_len=lay["obs_len"], actions=lay["actions"])
    net = Net(VIEWS[args.observation](lay, 1, args.window).size, lay["actions"], args.hidden)
    params = sum(p.numel() for p in net.parameters())
    t0 = time.time()
    stage1(net, args, log, lay)
    t1 = time.time()
    stage2(net, args, log, lay)
    t2 = time.time()
    if args.observation != "workspace":
        ablation_eval(net, args, lay, out_dir / f"{stem}.json", t1 - t0, t2 - t1)
        plot(log.rows, out_dir / f"{stem}.training.svg")
        return
    export_onnx(net, args.out, lay, f"examples/train/train.py seed {args.seed}")
    inspect = subprocess.run(evoharness_bin() + ["inspect", str(args.out), "--backend", "tract"],
                             capture_output=True, text=True, cwd=ROOT)
    print(inspect.stdout + inspect.stderr, flush=True)
    if inspect.returncode != 0:
        sys.exit(f"evoharness inspect refused {args.out}")
    plot(log.rows, out_dir / f"{stem}.training.svg")
    summary = {
        "policy": str(args.out),
        "parameters": params,
        "bytes": args.out.stat().st_size,
        "stage1_s": round(t1 - t0, 1),
        "stage2_s": round(t2 - t1, 1),
        "command": " ".join([pathlib.Path(sys.executable).name] + sys.argv),
        "seed": args.seed,
        "horizon": args.horizon,
        "versions": {"torch": torch.__version__, "numpy": np.__version__, "python": sys.version.split()[0],
                     "evoharness": evoharness.version()},
    }
    if not args.no_eval:
        summary["eval"] = final_eval(args.out, args)
    (out_dir / f"{stem}.json").write_text(json.dumps(summary, indent=2) + "\n")
    log(event="done", parameters=params, bytes=summary["bytes"], stage1_s=summary["stage1_s"],
        stage2_s=summary["stage2_s"])


if __name__ == "__main__":
    main()
