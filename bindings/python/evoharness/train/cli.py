"""Train a structured-v1 policy for a world written in Python, and export it to ONNX.

    python -m evoharness.train --world MODULE:FACTORY (--teacher MODULE:CALLABLE | --demos FILE.jsonl)
                               --out POLICY.onnx [--minutes M] [--seed S] [--smoke]
    python -m evoharness.train --suite TASK[,TASK...] --teacher lean|oracle|static|static-lean|tuned|fixed-best|retuned|regional --out POLICY.onnx ...

``--ray auto|HOST:PORT|local --workers N`` runs the rollouts (DAgger's, GRPO's, validation's) on
Ray workers and keeps the learner here (:mod:`evoharness.train.distributed`); they run in units of
``--unit-envs`` environments (default 16 with ``--ray``, else one unit per kind), and the same
seeds and ``--unit-envs`` give the same policy on any number of workers or in one process.

``--suite`` trains on the task suite's own simulations (``migration``, ``records``,
``orchestration``; one kind of environment each) with one of the library's rule-based
teachers: the shipped generalist policy is made this way (``examples/train``).

1. Behaviour cloning: with ``--teacher``, DAgger (the teacher labels the states the learning
   policy itself visits; its share of the executed actions falls from 1 to 0 over the first
   half of the rounds); with ``--demos``, plain cloning of the recorded episodes, replayed in
   the world (:mod:`evoharness.demos`). ``--skip-harness P`` executes, in place of that share
   of the harness actions, what the teacher does without them (``--suite``: the lean rule;
   ``--world``: the teacher asked again with ``tracked`` faked as if the tracks it wants on
   this event were done), so the learner is taught the states after one left out;
   ``--skip-label Q`` also learns that choice at a share Q of the teacher's harness states,
   leaving RL a probability of leaving them out to explore (a wasteful teacher's imitation
   otherwise gives it ~1e-5).
2. With ``--world`` and ``--teacher``, by default, improving on the teacher (``--rl improve``,
   :mod:`evoharness.train.improve`): copies of an environment try other templates at a state
   and play on as the teacher would; what each decision changes is regressed, the teacher's
   labels are changed where another template is expected to earn more (checked as a rule
   against the teacher every iteration), and the learner imitates that improved teacher.
   Otherwise cost-aware RL, with no teacher: GRPO (``--rl grpo``: groups of environments
   share a seed; an episode's advantage is its return under the library's reward against its
   group's), PPO (``--rl ppo``: per-step credit from GAE against a critic, on the library's
   per-step reward, in ``--envs`` environments that sample ``--rl-steps`` steps per iteration;
   ``--gae-lambda``, ``--clip``, ``--temperature``, ``--explore``, ``--critic-iters``), or
   branching rollouts (``--rl rollouts``: copies of an environment, a ``--world``'s worlds
   pickled, try other templates at one state and play on greedily under the same draws;
   a template's advantage is its return against the policy's own choice there; an update is
   kept only if check episodes hold, ``examples/train/README.md``). ``--init`` starts
   from an existing policy's weights (with ``--rounds 0``, stage 2 starts from it directly).
3. Model selection on validation seeds: the highest mean reward among the checkpoints whose
   success rate is within a point of the best; with a teacher, a stage-2 checkpoint replaces
   the imitation stage 2 started from only if its paired gain over it on the validation
   episodes has a 95% interval above zero. With a teacher, the teacher runs the same
   validation episodes, and the chosen policy's paired reward gain over it (mean, 95%
   interval) decides what is written: a policy whose interval lies below zero is **not**
   written to ``--out`` (it goes to ``NAME.worse.onnx`` and the command exits with 1) unless
   ``--allow-worse`` (or the suite's ``oracle`` teacher, which reads hidden state); the command ends by printing the teacher's and the policy's figures side
   by side (and again on ``--eval-seeds``, through the embedded agent, when given), saying
   plainly when it found nothing better than the teacher.
4. Export (``runtime/POLICY.md`` metadata from the library's layout), then a load check through
   the library's policy loader (the embedded agent's) when ONNX Runtime is installed.

Beside ``--out``: ``NAME.train.jsonl`` (one line per round and iteration), ``NAME.training.svg``
(validation success, reward and harness actions per episode) and ``NAME.json`` (the command,
timings, sizes, the selected checkpoint, versions). ``MODULE`` is an importable module or a
path to a ``.py`` file. The world's class attributes ``budget`` and ``capacities`` are the
defaults of ``--horizon`` and the workspace capacities.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m evoharness.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    world = ap.add_mutually_exclusive_group(required=True)
    world.add_argument("--world", help="MODULE:FACTORY that makes one world")
    world.add_argument("--suite", help="TASK[,TASK...]: the task suite's simulations instead")
    ap.add_argument("--also-horizons", default="",
                    help="with --suite: H[,H...], horizons at which behaviour cloning and "
                         "validation also run every task, besides --horizon (GRPO: --horizon)")
    ap.add_argument("--scenario", default="v1", choices=["v1", "v2", "v3"],
                    help="with --suite: the suite's version (default v1; v2: tasks where no "
                         "hand-written rule is optimal; v3: v2 in a deployment each "
                         "organisation draws)")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--teacher", help="MODULE:CALLABLE, a teacher(world, event[, tracked]); "
                     "with --suite, the name of a library teacher (lean, oracle, static, static-lean, tuned, "
                     "fixed-best, retuned or regional)")
    src.add_argument("--demos", type=pathlib.Path, help="demonstrations (evoharness-demos-v1 JSONL)")
    ap.add_argument("--out", type=pathlib.Path, required=True, help="the ONNX policy to write")
    ap.add_argument("--minutes", type=float, default=10.0,
                    help="wall-clock budget of the two stages (default 10)")
    ap.add_argument("--seed", type=int, default=0,
                    help="seeds the network's initial weights and every random draw of training "
                         "(the episodes' seeds are fixed by stage: evoharness.train.seeds)")
    ap.add_argument("--smoke", action="store_true", help="a tiny run that checks the pipeline")
    ap.add_argument("--horizon", type=int, help="the step budget (default: the world's `budget`, else 100)")
    ap.add_argument("--hidden", type=int, default=128,
                    help="width of the policy network's two hidden layers (default 128)")
    ap.add_argument("--unit-staleness", choices=("auto", "on", "off"), default="auto",
                    help="scale Belief facts' staleness features inside the network so that "
                         "one step is about one unit (the observation squashes them; rules that "
                         "tell a fresh fact from a one-step-old one are then learnable): on, "
                         "off, or auto (default: on for --suite with --scenario v3)")
    ap.add_argument("--layout-version", type=int, choices=(1, 2), default=1,
                    help="the observation the policy reads: 1 (structured-v1, the default) or "
                         "2 (structured-v2: also the harness streak since the last world action "
                         "and the last harness verb, so that an edit that changed nothing is "
                         "visible; core/PROTOCOL.md §8)")
    ap.add_argument("--init", type=pathlib.Path,
                    help="start from this policy's weights (one this trainer exported, of the "
                         "same --hidden); with --rounds 0, stage 2 starts from it directly")
    ap.add_argument("--envs", type=int, default=32, help="environments per kind (DAgger, PPO)")
    ap.add_argument("--rounds", type=int, default=10,
                    help="DAgger rounds (demos: BC rounds); with a teacher, more follow while "
                         "the imitation earns less than the teacher on the validation "
                         "episodes, up to --max-rounds (default 10)")
    ap.add_argument("--max-rounds", type=int,
                    help="DAgger: the most rounds in all, the ones --rounds asks for and those "
                         "that follow while the imitation earns less than its teacher (default "
                         "4 x --rounds; --rounds: never more)")
    ap.add_argument("--round-steps", type=int, default=120,
                    help="DAgger: steps each of --envs environments takes per round (default 120)")
    ap.add_argument("--epochs", type=int, default=2,
                    help="DAgger, cloning: passes over the sample buffer per round (default 2)")
    ap.add_argument("--buffer", type=int, default=200_000,
                    help="DAgger, cloning: the samples kept, oldest dropped first (default 200000)")
    ap.add_argument("--batch", type=int, default=256,
                    help="DAgger, cloning: the minibatch (default 256; GRPO's too unless --rl-batch)")
    ap.add_argument("--lr", type=float, default=1e-3,
                    help="DAgger, cloning: Adam's learning rate (default 1e-3)")
    ap.add_argument("--lr-final", type=float,
                    help="DAgger: decay the learning rate geometrically from --lr at the first "
                         "round to this at the last (default: constant)")
    ap.add_argument("--rl-iters", type=int,
                    help="stage 2: iterations (each samples, updates and validates; default 10, "
                         "improve: as many as --minutes allows)")
    ap.add_argument("--rl-epochs", type=int, default=2,
                    help="GRPO, PPO: passes over an iteration's samples (default 2)")
    ap.add_argument("--rl-batch", type=int, help="GRPO's minibatch (default: --batch); larger "
                    "means fewer, steadier updates per iteration")
    ap.add_argument("--rl-lr", type=float, default=5e-5,
                    help="stage 2: Adam's learning rate (default 5e-5)")
    ap.add_argument("--group", type=int, default=4,
                    help="GRPO: environments per group, which share a seed (default 4)")
    ap.add_argument("--groups", type=int, default=8,
                    help="GRPO: groups per iteration and kind (default 8)")
    ap.add_argument("--kl", type=float, default=0.05,
                    help="GRPO, PPO: weight of the KL penalty to the policy stage 2 started from "
                         "(default 0.05; 0: none)")
    ap.add_argument("--skip-harness", type=float, default=0.0,
                    help="DAgger: skip this share of the harness actions about to be executed "
                         "(--suite: the lean rule's choice instead; --world: the teacher's "
                         "answer when told the tracks it wants here were done), so that the "
                         "learner is taught the states that follow one left out")
    ap.add_argument("--skip-label", type=float, default=0.0,
                    help="DAgger: at this share of the states where the teacher's label is a "
                         "harness action, also learn what --skip-harness would do instead, so "
                         "that imitation leaves RL a probability of leaving it out to explore")
    ap.add_argument("--mistakes", type=int, default=0,
                    help="DAgger: learn each state where the learner's own choice is not the "
                         "teacher's this many more times (rare states it gets wrong weigh as "
                         "much as common ones it has right)")
    ap.add_argument("--harness-cost", type=float, default=0.0,
                    help="GRPO, PPO: charge each harness action this much more in the return the "
                         "advantages compare (validation and model selection still use the "
                         "task's own reward)")
    ap.add_argument("--rl", choices=["improve", "grpo", "ppo", "rollouts"],
                    help="stage 2: improve on the teacher by measured per-decision gains "
                         "(default with --world and --teacher: evoharness.train.improve), "
                         "GRPO over episodes sampled from the start (the default otherwise), "
                         "PPO with a critic and GAE (per-step credit), or branching rollouts "
                         "(copies of an environment try other templates at one state). "
                         "improve and rollouts copy a --world's worlds by pickling their "
                         "attributes")
    ap.add_argument("--rl-steps", type=int, default=128,
                    help="ppo: steps each of --envs environments (per kind) samples per iteration")
    ap.add_argument("--gamma", type=float, default=1.0, help="ppo: discount (default 1: the "
                    "reward already charges every step)")
    ap.add_argument("--gae-lambda", type=float, default=0.95, help="ppo: GAE's lambda")
    ap.add_argument("--clip", type=float, default=0.2, help="ppo: the ratio's clip range")
    ap.add_argument("--critic-lr", type=float, default=1e-3, help="ppo: the critic's learning rate")
    ap.add_argument("--ent-coef", type=float, default=0.0, help="ppo: weight of the entropy bonus")
    ap.add_argument("--temperature", type=float, default=1.0,
                    help="ppo: the policy RL samples from and updates is softmax(logits / T); "
                         "greedy choices, and so the exported policy's, do not depend on T, and "
                         "a T of a few makes templates tried that imitation made unlikely")
    ap.add_argument("--explore", type=float, default=0.0,
                    help="ppo: the share of steps that take the policy's likeliest template of "
                         "the other kind (a world action where it would use its workspace, a "
                         "harness action where it would not), learned from as if sampled")
    ap.add_argument("--critic-iters", type=int, default=2,
                    help="ppo: first iterations that train the critic only")
    ap.add_argument("--branches", type=int, default=4,
                    help="rollouts: templates tried besides the policy's own at a branch point")
    ap.add_argument("--rl-states", type=int, default=256,
                    help="rollouts: new branch points per iteration and kind")
    ap.add_argument("--rollout-episodes", type=int, default=1,
                    help="rollouts: episodes each copy plays on for its return (1: to the end "
                         "of the current one)")
    ap.add_argument("--continuation", choices=("teacher", "policy", "improved"),
                    help="rollouts, improve: who plays a copy on after the template it tries: "
                         "the teacher (improve's default: a template is valued by what it "
                         "changes against the teacher's own play), the policy (greedy; the "
                         "rollouts' default), or improve's improved teacher from its second "
                         "iteration on (policy iteration, with templates tried at random now "
                         "and then)")
    ap.add_argument("--ray", metavar="ADDRESS",
                    help="run the rollouts (DAgger, GRPO, validation) on Ray workers: auto (a "
                         "cluster started with `ray start`), HOST:PORT, ray://HOST:PORT, or "
                         "local (a cluster for this run alone); the learner stays here")
    ap.add_argument("--workers", type=int, default=2, help="with --ray: Ray actors, one CPU each")
    ap.add_argument("--unit-envs", type=int,
                    help="environments per rollout unit (default: 16 with --ray, else one unit "
                         "per kind); the same value gives the same policy on any number of "
                         "workers or none")
    ap.add_argument("--valid-episodes", type=int, default=64,
                    help="validation episodes per kind: every checkpoint and the teacher run "
                         "the same ones (default 64)")
    ap.add_argument("--eval-seeds", help="A..B: after export, evaluate the policy through the "
                    "embedded agent on these seeds (held out: 1000000 and up) into the record")
    ap.add_argument("--allow-worse", action="store_true",
                    help="write --out even when the policy is worse than its teacher on the "
                         "validation episodes (by default it is then written beside it as "
                         "NAME.worse.onnx and the command fails)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    return ap


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    args.argv = argv
    if args.rl is None:
        args.rl = "improve" if args.world and args.teacher else "grpo"
    if args.rl_iters is None:
        args.rl_iters = 1_000_000 if args.rl == "improve" else 10
    if args.smoke:
        args.hidden, args.envs, args.rounds, args.round_steps = 32, 4, 2, 20
        args.rl_iters, args.group, args.groups, args.valid_episodes = 1, 2, 2, 4
        args.branches, args.rl_states, args.rl_steps = 2, 4, 16
        if args.rl == "ppo":  # one iteration of the critic alone, one of both
            args.rl_iters, args.critic_iters = 2, 1
        args.epochs, args.minutes = 1, min(args.minutes, 2.0)
        args.max_rounds = args.rounds  # a pipeline check: no rounds to catch up with a teacher
    try:
        import torch  # noqa: F401
    except ImportError:
        print("evoharness.train needs torch and onnx: pip install \"evoharness[train]\" (in a checkout: "
              "pip install -r examples/train/requirements.txt)",
              file=sys.stderr)
        return 2
    from ..spec import load_object
    from ..world import WorldError, world_settings
    from .sources import SuiteSource, WorldSource

    try:
        if not 0.0 <= args.skip_harness < 1.0:
            raise ValueError(f"--skip-harness is {args.skip_harness}: a share from 0 to below 1")
        if not 0.0 <= args.skip_label <= 1.0:
            raise ValueError(f"--skip-label is {args.skip_label}: a share from 0 to 1")
        if args.max_rounds is not None and args.max_rounds < args.rounds:
            raise ValueError(f"--max-rounds is {args.max_rounds}: at least --rounds ({args.rounds})")
        if args.mistakes < 0:
            raise ValueError(f"--mistakes is {args.mistakes}: a count of at least 0")
        if not args.harness_cost >= 0.0:
            raise ValueError(f"--harness-cost is {args.harness_cost}: a cost of at least 0")
        if (args.skip_harness or args.skip_label) and not (args.suite or args.teacher):
            raise ValueError("--skip-harness and --skip-label need a teacher (--suite, or "
                             "--teacher with --world)")
        if args.branches < 1 or args.rl_states < 1 or args.rollout_episodes < 1:
            raise ValueError("--branches, --rl-states and --rollout-episodes are at least 1")
        if args.rl_steps < 1 or args.critic_iters < 0:
            raise ValueError("--rl-steps is at least 1, --critic-iters at least 0")
        if not (args.temperature > 0 and 0 < args.clip and 0 <= args.gamma <= 1
                and 0 <= args.gae_lambda <= 1):
            raise ValueError("--temperature and --clip are above 0; --gamma and --gae-lambda "
                             "from 0 to 1")
        if args.unit_envs is not None and args.unit_envs < 0:
            raise ValueError(f"--unit-envs is {args.unit_envs}: a count of at least 0 (0: one unit)")
        if args.continuation is None:
            args.continuation = "teacher" if args.rl == "improve" else "policy"
        if args.continuation == "improved" and args.rl != "improve":
            raise ValueError("--continuation improved is for --rl improve")
        if args.workers < 1:
            raise ValueError(f"--workers is {args.workers}: at least 1")
        if args.scenario != "v1" and not args.suite:
            raise ValueError("--scenario is for --suite")
        if args.also_horizons and not args.suite:
            raise ValueError("--also-horizons is for --suite (a world has one budget)")
        if args.suite:
            if args.demos or args.eval_seeds:
                raise ValueError("--suite trains from a library teacher (--teacher lean|oracle|static|static-lean|tuned|fixed-best|retuned|regional); "
                                 "evaluate it with `evoharness eval`, not --eval-seeds")
            try:
                also = [int(h) for h in args.also_horizons.split(",") if h]
            except ValueError:
                raise ValueError(f"--also-horizons {args.also_horizons!r}: give H[,H...]") from None
            source = SuiteSource(args.suite.split(","), args.horizon or 250, args.teacher, also,
                                 args.scenario, layout_version=args.layout_version)
        else:
            factory = load_object(args.world, "--world")
            teacher = load_object(args.teacher, "--teacher") if args.teacher else None
            if args.rl in ("improve", "rollouts") and not copyable(factory):
                if "--rl" in argv:
                    raise ValueError(f"--rl {args.rl} copies worlds by pickling their "
                                     "attributes, and this world's do not pickle")
                print("evoharness.train: the world's attributes do not pickle, so its "
                      "environments cannot be copied: stage 2 is GRPO (--rl grpo), not improve",
                      file=sys.stderr)
                args.rl = "grpo"
                args.rl_iters = 10 if "--rl-iters" not in argv else args.rl_iters
            source = WorldSource(factory, world_settings(factory, args.horizon), teacher,
                                 layout_version=args.layout_version,
                                 copyable=args.rl in ("rollouts", "improve"))
        if args.eval_seeds:
            from ..evaluate import parse_seeds

            parse_seeds(args.eval_seeds)  # a mistake is told before training, not after
        return run(args, source)
    except (ValueError, WorldError) as e:
        print(f"evoharness.train: {e}", file=sys.stderr)
        return 2


def run(args, source) -> int:
    import torch

    from .distributed import pool as make_pool
    from .log import Log
    from .net import Net, staleness_scale

    torch.manual_seed(args.seed)
    # One thread: on a busy 2-core machine a second one makes small matrix products 100x
    # slower (measured: 0.07 ms against 8.8 ms for a 32x468 by 468x128 product).
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    out = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    stem = out.name[:-5] if out.name.endswith(".onnx") else out.name
    log = Log(out.parent / f"{stem}.train.jsonl", quiet=args.quiet)
    lay, tools, settings = source.layout, source.tools, source.settings
    world = args.world or f"suite:{args.suite}"
    log(event="start", world=world, source=args.teacher or str(args.demos),
        settings=settings, obs_len=lay["obs_len"], actions=lay["actions"], tools=tools,
        cpu=cpu(), args={k: str(v) for k, v in vars(args).items() if k != "argv"})
    unit = args.unit_staleness == "on" or (
        args.unit_staleness == "auto" and args.suite and args.scenario == "v3")
    scale = staleness_scale(lay) if unit else None
    net = Net(lay["obs_len"], lay["actions"], args.hidden, scale)
    pool = make_pool(args, source, (lay["obs_len"], lay["actions"], args.hidden, scale))
    try:
        return train(args, source, log, net, pool, rng)
    finally:
        pool.close()


def train(args, source, log, net, pool, rng) -> int:
    import torch

    from .. import demos as D
    from .export import export_onnx, load_weights
    from .grpo import grpo
    from .imitation import Buffer, dagger, dagger_lr, fit
    from .improve import improve
    from .log import plot
    from .ppo import ppo
    from .rollouts import rollouts
    from .seeds import VALID_SEED
    from .selection import choose, select
    from ..figures import paired_gain, side_by_side, verdict
    from .sources import teacher_unit, valid_fields, validate

    out, lay, tools, settings = args.out, source.layout, source.tools, source.settings
    stem = out.name[:-5] if out.name.endswith(".onnx") else out.name
    world = args.world or f"suite:{args.suite}"
    t0 = time.time()
    deadline1 = t0 + 60 * args.minutes * 0.5
    deadline2 = t0 + 60 * args.minutes
    buf = Buffer(args.buffer, lay["obs_len"], lay["actions"])
    best = None
    # The teacher on the validation episodes every checkpoint runs: what the policy must not
    # fall below, and what "better" is measured against (paired, the same seeds).
    teacher_v = None
    if args.teacher:
        teacher_v = validate(net, source, VALID_SEED, args.valid_episodes, pool, unit=teacher_unit)
        log(event="teacher", **valid_fields(teacher_v))
    if args.init:
        load_weights(net, args.init)
        v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
        log(event="init", policy=str(args.init), **valid_fields(v))
        best = select(None, v, net, ("init", 0))
    if args.teacher and args.rounds > 0:
        def matched(checkpoints) -> bool:
            """Whether the imitation stage 1 would choose now earns at least its teacher's
            mean reward on the validation episodes (paired: the same episodes). Not merely an
            interval that holds zero: an imitation a few failures short of its teacher passes
            that on 64 episodes and fails it on more."""
            if teacher_v is None or not checkpoints:
                return True
            return paired_gain(choose(checkpoints)["rows"], teacher_v["rows"])["gain"] >= 0

        if args.max_rounds is None:
            args.max_rounds = 4 * args.rounds
        b1 = dagger(net, source, args, log, deadline1, buf, rng, pool, until=matched)
        best = b1 if best is None else {"all": best["all"] + b1["all"]}
    elif args.demos:
        episodes = D.load(args.demos)
        obs, mask, act, stats = D.replay(source.factory, settings, episodes, args.demos.name,
                                              source.layout_version)
        buf.add(obs, mask, act)
        log(event="demos", episodes=len(episodes), samples=int(len(act)),
            demo_success=round(float(np.mean([s["success"] for s in stats])), 4) if stats else None)
        opt = torch.optim.Adam(net.parameters(), lr=args.lr)
        for r in range(args.rounds):
            for g in opt.param_groups:
                g["lr"] = dagger_lr(args, r)
            loss = fit(net, opt, buf, max(1, args.epochs), args.batch, rng)
            v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
            log(stage=1, round=r, samples=buf.size, loss=round(loss, 5), **valid_fields(v))
            best = select(best, v, net, ("bc", r))
            if time.time() > deadline1:
                break
    if best is None:
        print("evoharness.train: nothing to start stage 2 from: --rounds 0 needs --init",
              file=sys.stderr)
        return 2
    t1 = time.time()
    # GRPO starts from (and its KL penalty holds it near) the checkpoint stage 1 would have
    # chosen, not from its last round: a late round can be worse than an earlier one.
    start = choose(best)
    net.load_state_dict(start["state"])
    log(event="grpo_start", checkpoint=list(start["tag"]), success=start["success"],
        reward=round(start["reward"], 4))
    stage2 = {"grpo": grpo, "ppo": ppo, "rollouts": rollouts, "improve": improve}[args.rl]
    best = stage2(net, source, args, log, deadline2, best, rng, pool=pool)
    t2 = time.time()
    chosen = choose(best)
    # Stage 2 replaces the imitation only where it is better on the validation episodes beyond
    # their noise (paired with it: the same episodes). Among many RL checkpoints the best one
    # on 64 episodes is often an insignificant edge that the held-out seeds do not repeat
    # (measured on a bench world: +0.0004 on validation, -0.0057 held out).
    if teacher_v is not None and start.get("rows") and chosen is not start \
            and chosen.get("rows") and chosen["tag"][0] not in ("dagger", "bc", "init"):
        over = paired_gain(chosen["rows"], start["rows"])
        log(event="stage2_against_imitation", checkpoint=list(chosen["tag"]),
            gain=round(over["gain"], 5), low=round(over["low"], 5), high=round(over["high"], 5),
            kept=verdict(over) == "better")
        if verdict(over) != "better":
            chosen = start
    net.load_state_dict(chosen["state"])
    against = None
    if teacher_v is not None:
        against = paired_gain(chosen["rows"], teacher_v["rows"])
        against["verdict"] = verdict(against)
        log(event="against_teacher", **{k: (round(x, 5) if isinstance(x, float) else x)
                                        for k, x in against.items()})
        if refuses(args, against):
            out = out.parent / f"{stem}.worse.onnx"
    export_onnx(net, out, lay, f"python -m evoharness.train --{'world' if args.world else 'suite'} "
                f"{args.world or args.suite} seed {args.seed}", tools)
    check = load_check(out)
    plot(log.rows, out.parent / f"{stem}.training.svg", title=f"training {stem}")
    record = {
        "policy": out.name,
        "command": " ".join(["python -m evoharness.train"] + args.argv),
        "world": world, "source": args.teacher or str(args.demos), "seed": args.seed,
        "settings": settings, "tools": tools,
        "parameters": sum(p.numel() for p in net.parameters()),
        "bytes": out.stat().st_size, "stage1_s": round(t1 - t0, 1), "stage2_s": round(t2 - t1, 1),
        "selected": {"checkpoint": list(chosen["tag"]), "valid_success": chosen["success"],
                     "valid_reward": round(chosen["reward"], 4),
                     "valid_harness": round(chosen["harness"], 3)},
        "load_check": check,
        "teacher_valid": None if teacher_v is None else
        {k: x for k, x in teacher_v.items() if k != "rows"},
        "against_teacher": against,
        "rollouts": rollout_figures(args, pool, log.rows),
        "versions": versions(),
    }
    held_out = None
    if args.eval_seeds:
        from ..evaluate import evaluate, parse_seeds

        seeds = parse_seeds(args.eval_seeds)
        teacher = f"teacher:{args.teacher}" if args.teacher else None
        r = evaluate(args.world, f"policy:{out}", seeds, args.horizon, against=teacher)
        record["held_out"] = {k: v for k, v in r.items()
                              if k not in ("world", "agent", "wall_s", "against_figures")}
        log(event="held_out", seeds=args.eval_seeds, success_rate=r["success_rate"],
            mean_reward=round(r["mean_reward"], 4), reward_se=round(r["reward_se"], 4),
            mean_harness_actions=r["mean_harness_actions"])
        if teacher:
            p = r["paired"]
            gain = {"episodes": p["episodes"], "gain": p["mean_reward_gain"], "gain_se": p["gain_se"],
                    "low": p["low"], "high": p["high"], "better": p["better"],
                    "worse": p["worse"], "same": p["same"]}
            gain["verdict"] = verdict(gain)
            held_out = (r["against_figures"], r, gain)
            record["held_out"]["teacher"] = r["against_figures"]
            record["held_out"]["against_teacher"] = gain
    (out.parent / f"{stem}.json").write_text(json.dumps(record, indent=2) + "\n")
    log(event="done", selected=list(chosen["tag"]), valid_success=chosen["success"],
        valid_reward=round(chosen["reward"], 4), stage1_s=record["stage1_s"],
        stage2_s=record["stage2_s"], load_check=check)
    log.close()
    if against is not None:
        print(side_by_side(teacher_v, chosen["summary"], against,
                           "validation: the teacher and the policy chosen"))
        if held_out is not None:
            print(side_by_side(*held_out, f"held out (seeds {args.eval_seeds}, the policy "
                               "through the embedded agent)"))
        if refuses(args, against):
            print(f"evoharness.train: the policy is worse than its teacher on the validation "
                  f"episodes; it was written to {out}, not to {args.out} (--allow-worse "
                  "writes it there anyway)", file=sys.stderr)
            return 1
    return 0


def copyable(factory) -> bool:
    """Whether a world ``factory`` makes pickles once reset (what copying its environments
    needs: :meth:`~evoharness.VecEnv.from_worlds` with ``copyable``)."""
    import pickle

    try:
        world = factory()
        world.reset(0)
        pickle.dumps(vars(world))
    except Exception:  # noqa: BLE001 - any failure means: not copyable
        return False
    return True


def refuses(args, against: dict) -> bool:
    """Whether the chosen policy, :func:`~evoharness.figures.paired_gain` ``against`` its
    teacher, is kept from ``--out``: when it is worse, unless ``--allow-worse``, ``--smoke`` (a
    pipeline check), or the suite's ``oracle`` teacher (it reads hidden state no policy sees:
    the comparison is reported, never a bar)."""
    oracle = bool(args.suite) and args.teacher == "oracle"
    return against["verdict"] == "worse" and not (args.allow_worse or args.smoke or oracle)


def rollout_figures(args, pool, rows) -> dict:
    """Where the rollouts of DAgger and GRPO ran, and their environment steps per second of
    rollout time against the learner's time (fitting, updates; validation is in neither)."""
    steps = sum(r.get("rollout_steps", 0) for r in rows)
    roll = sum(r.get("rollout_s", 0.0) for r in rows)
    learn = sum(r.get("learn_s", 0.0) for r in rows)
    return {"where": f"ray {args.ray}, {args.workers} workers" if args.ray else "this process",
            "unit_envs": pool.unit_envs, "steps": steps, "rollout_s": round(roll, 2),
            "steps_per_s": round(steps / roll) if roll > 0 else None,
            "learner_s": round(learn, 2)}


def load_check(path) -> str:
    """Loads the file through the library's policy loader (what the embedded agent runs):
    ``ok`` or why it could not be checked; a refusal is an error."""
    from .. import agent

    try:
        lib_ort = agent.onnxruntime_library()
    except agent.NoBackend as e:
        return f"skipped: {e}"
    abi = agent.check_policy(path, lib_ort)
    return f"ok ({abi['abi']}, {abi['obs_len']} floats, {abi['actions']} templates, ONNX Runtime)"


def versions() -> dict:
    """What a record's numbers depend on besides its command: the packages, and the CPU. A run
    repeats a record bit for bit only on the same kind of CPU: torch picks its kernels by
    instruction set (``cpu``: the one it picked), and they round differently
    (``examples/train/README.md``, "Reproducing a record")."""
    import onnx
    import torch

    from .. import version

    return {"torch": torch.__version__, "numpy": np.__version__, "onnx": onnx.__version__,
            "python": sys.version.split()[0], "evoharness": version(), "cpu": cpu()}


def cpu() -> str:
    """The CPU as a record names it: architecture, model (where the system says it) and the
    instruction set of torch's kernels, e.g. ``x86_64, AMD EPYC, torch kernels AVX512``."""
    import platform

    import torch

    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f
                          if line.startswith("model name")), "")
    except OSError:
        pass
    parts = [platform.machine() or "unknown", model,
             f"torch kernels {torch.backends.cpu.get_cpu_capability()}"]
    return ", ".join(p for p in parts if p)

