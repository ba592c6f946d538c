"""A small decoder-only language model as a ``generative-v1`` policy: the model, its training
on the task suite's rendered workspaces, and its export (``runtime/POLICY.md``).

    python -m evoharness.lm --suite migration --teacher tuned --out LM.onnx [--minutes M]

The model reads the workspace as text (``workspace-text-v1``, ``core/PROTOCOL.md`` §11, the
library renders it: :meth:`evoharness.vec_env.VecEnv.text`) and writes its action as a line
(``action-text-v1``: the layout's ``action_texts``). It is trained from scratch (no weights
are downloaded): byte tokens, sinusoidal positions, pre-norm attention blocks.

1. **Imitation with DAgger.** Environments of the suite run; a rule-based teacher labels each
   state with its template, whose line is the target. Every state whose label is a harness
   action or ``finish``, or that follows an error, is kept, and a share (``--keep``) of the
   routine ones: the rare states are where an episode is lost (``--rare-weight`` draws them
   into batches more often still). ``--keep-mistakes`` keeps every state the student got
   wrong, ``--keep-fact-args`` every world action on a fact, and ``--permute-facts`` shows a
   share of the samples with their fact slots shuffled (the label follows its fact): the
   shipped policy's rules. The loss is the cross-entropy of the
   action's bytes given the prompt (the prompt's own bytes are not predicted). After the
   first round, the student's own greedy constrained choices (the same grammar the runtime
   decodes under) drive a growing share of the environments, and the teacher labels the
   states it visits.
2. **Cost-aware RL** (``--rl-iters N``, off by default): GRPO as the MLP's, from the round
   imitation selects (or ``--init ROUND.pt`` with ``--rounds 0``): groups of episodes that
   share an organisation and a seed, sampled under the grammar, each decision's advantage its
   episode's reward against its group's, a clipped ratio and a KL penalty to the start.
3. **Selection** on validation organisations and seeds: every round's and iteration's export
   runs through the runtime's agent (``evoharness eval``: constrained decoding in Rust, as a
   host runs it); the candidate with the highest success rate, then mean reward, is kept.
4. **Export** in the usual decoder layout with a key/value cache and the metadata the runtime
   checks; the export is compared with the torch model (cached and uncached logits).

Beside ``--out``: ``NAME.json`` (the command, sizes, times, the selected round),
``NAME.train.jsonl`` (one line per round or GRPO iteration: samples, loss, validation) and
``NAME.rounds/`` (each candidate's weights and export: ``roundN``, ``init``, ``rlN``; the
record's ``selected`` names one).

The modules: :mod:`~evoharness.lm.model`, :mod:`~evoharness.lm.text`,
:mod:`~evoharness.lm.decoding`, :mod:`~evoharness.lm.imitation`, :mod:`~evoharness.lm.grpo`,
:mod:`~evoharness.lm.export`, :mod:`~evoharness.lm.validation` (the package docs' table).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np
import torch

from .export import export
from .grpo import grpo
from .imitation import dagger
from .model import Decoder
from .validation import VALID_SEED, diagnose, evaluate, span


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m evoharness.lm", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default="migration", help="suite tasks, comma-separated")
    ap.add_argument("--scenario", default="v1")
    ap.add_argument("--teacher", default="tuned")
    ap.add_argument("--horizon", type=int, default=100)
    ap.add_argument("--out", type=pathlib.Path, help="the policy file to write (required to train)")
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ff", type=int, default=256)
    ap.add_argument("--alibi", action="store_true",
                    help="attention biased towards nearby bytes (ALiBi), besides the positions")
    ap.add_argument("--context", type=int, default=8192,
                    help="declared context (tokens): at least the longest prompt and action")
    ap.add_argument("--envs", type=int, default=16)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--round-steps", type=int, default=200,
                    help="vector-environment steps per round (each labels every environment)")
    ap.add_argument("--keep", type=float, default=0.25,
                    help="share of the routine states (a world action after a result) kept for "
                         "training; the others (harness actions, finish, errors) are all kept")
    ap.add_argument("--student-max", type=float, default=1.0,
                    help="the largest share of environments the student drives (its choices "
                         "cost a model run each in Python; the teacher's are free)")
    ap.add_argument("--updates", type=int, default=150,
                    help="gradient steps per round, on batches drawn from all labelled states")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3,
                    help="peak learning rate (cosine decay to a tenth over the rounds)")
    ap.add_argument("--organisations", default="0..600")
    ap.add_argument("--valid-organisations", default="1000..1040")
    ap.add_argument("--valid-episodes", type=int, default=40,
                    help="validation episodes per task and round through the runtime's agent "
                         "(the evoharness tool: $EVOHARNESS_BIN); 0 keeps the last round")
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--diagnose", type=pathlib.Path, metavar="ROUND.pt",
                    help="instead of training: the per-decision agreement of these weights (a "
                         "round's .pt, with the sizes it was trained with) with the teacher on "
                         "the teacher's own trajectories over the validation organisations")
    ap.add_argument("--driver", choices=("teacher", "student"), default="teacher",
                    help="with --diagnose: whose choices step the environments (the teacher's "
                         "trajectories, or the model's own with the teacher labelling them)")
    ap.add_argument("--show", type=int, default=0, metavar="N",
                    help="with --diagnose: list the first N disagreements (prompt and both lines)")
    ap.add_argument("--diagnose-envs", type=int, default=8, metavar="N",
                    help="with --diagnose: environments run side by side")
    ap.add_argument("--diagnose-steps", type=int, default=80, metavar="N",
                    help="with --diagnose: steps of each environment")
    ap.add_argument("--rare-weight", type=float, default=1.0,
                    help="how much more often a rare state (harness action, finish, after an "
                         "error) is drawn into a batch than a routine one")
    ap.add_argument("--keep-mistakes", action="store_true",
                    help="keep every state where the student drove and chose otherwise than "
                         "the teacher, as a rare state (else a routine one is kept at --keep "
                         "however often the student comes back to it)")
    ap.add_argument("--keep-fact-args", action="store_true",
                    help="keep every state whose label is a world action on a fact (`act T F<i>`), "
                         "as a rare state: few, and each decides what the tool works on")
    ap.add_argument("--permute-facts", type=float, default=0.0, metavar="P",
                    help="the share of drawn samples shown with their fact slots shuffled (the "
                         "action's slot follows its fact): teaches choosing a fact by its key")
    ap.add_argument("--init", type=pathlib.Path, metavar="ROUND.pt",
                    help="start from these weights (a round's .pt, with the sizes it was "
                         "trained with); with --rounds 0, GRPO starts from them as they are")
    ap.add_argument("--rl-iters", type=int, default=0,
                    help="stage 2: GRPO iterations after imitation, from its selected round "
                         "(the MLP's cost-aware RL: groups of episodes sampled under the "
                         "grammar, advantages against the group's mean, a KL penalty)")
    ap.add_argument("--rl-minutes", type=float, default=30.0, help="stage 2's time budget")
    ap.add_argument("--rl-epochs", type=int, default=2)
    ap.add_argument("--rl-lr", type=float, default=1e-5,
                    help="GRPO's learning rate (the MLP's 5e-5 made the suite's LM worse from "
                         "its second iteration on; 1e-5 made the shipped one)")
    ap.add_argument("--group", type=int, default=4, help="GRPO: episodes per group")
    ap.add_argument("--groups", type=int, default=8, help="GRPO: groups per iteration")
    ap.add_argument("--kl", type=float, default=0.05, help="GRPO: the KL penalty's weight")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    from ..vec_env import VecEnv, suite_capacities, suite_layout

    if args.threads:
        torch.set_num_threads(args.threads)
    if args.diagnose:
        model = Decoder(args.d_model, args.layers, args.heads, args.ff, args.alibi)
        model.load_state_dict(torch.load(args.diagnose))
        report = {t: diagnose(model, t, args.scenario, args.teacher, args.horizon,
                              span(args.valid_organisations), envs=args.diagnose_envs,
                              steps=args.diagnose_steps, driver=args.driver, show=args.show)
                  for t in args.suite.split(",")}
        print(json.dumps(report))
        return 0
    if args.out is None:
        parser().error("--out is required (the policy file to write)")
    if args.rounds < 1 and not (args.init and args.rl_iters > 0):
        parser().error("--rounds 0 trains nothing: it takes --init ROUND.pt and --rl-iters N")
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    tasks = args.suite.split(",")
    lines = [t.encode() for t in suite_layout()["action_texts"]]
    caps = suite_capacities()
    model = Decoder(args.d_model, args.layers, args.heads, args.ff, args.alibi)
    if args.init:
        model.load_state_dict(torch.load(args.init))
    params = sum(p.numel() for p in model.parameters())
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    start = time.time()
    deadline = start + 60 * args.minutes
    orgs = span(args.organisations)
    envs = [VecEnv(t, args.horizon, args.envs, organisations=orgs, seed=args.seed + 17 * k,
                   scenario=args.scenario) for k, t in enumerate(tasks)]
    data: list[tuple[bytes, bytes]] = []
    weight: list[float] = []  # each sample's draw weight (--rare-weight)
    producer = f"evoharness.lm ({' '.join(sys.argv[1:] if argv is None else argv)})"
    valid_orgs = span(args.valid_organisations)
    validate = args.valid_episodes > 0
    candidates = []
    # Each round's weights and export, beside --out (not part of what ships).
    rounds_dir = args.out.with_suffix(".rounds")
    rounds_dir.mkdir(parents=True, exist_ok=True)
    log_path = args.out.with_suffix(".train.jsonl")
    log = log_path.open("w")
    rounds = []

    def checkpoint(name: str, row: dict) -> None:
        """Saves the model's weights and export as ``name`` beside --out, validates the export
        through the runtime's agent on organisations and seeds never trained on, logs ``row``
        with the figures and makes it a candidate."""
        torch.save(model.state_dict(), rounds_dir / f"{name}.pt")
        candidate = rounds_dir / f"{name}.onnx"
        export(model, candidate, caps, args.context, producer)
        if validate:
            v = [evaluate(candidate, t, args.scenario, args.horizon, valid_orgs,
                          range(VALID_SEED, VALID_SEED + args.valid_episodes)) for t in tasks]
            row["valid_success"] = float(np.mean([x["success_rate"] for x in v]))
            row["valid_reward"] = float(np.mean([x["mean_reward"] for x in v]))
            row["valid_harness"] = float(np.mean([x["mean_harness_actions"] for x in v]))
            print(json.dumps({k: row[k] for k in row if k.startswith("valid")}), file=sys.stderr)
        rounds.append(row)
        log.write(json.dumps(row) + "\n")
        log.flush()
        candidates.append((row.get("valid_success", 0.0), row.get("valid_reward", 0.0),
                           len(candidates), name))

    print(f"lm: {params} parameters, tasks {tasks}, teacher {args.teacher}", file=sys.stderr)
    dagger(model, opt, envs, lines, args, rng, data, weight, start, deadline, checkpoint)
    if args.rl_iters > 0:
        if candidates:
            # GRPO starts from (and its KL penalty holds it near) the round imitation selects.
            best = max(candidates) if validate else candidates[-1]
            model.load_state_dict(torch.load(rounds_dir / f"{best[3]}.pt"))
        else:
            checkpoint("init", {"stage": "init"})
        grpo(model, args, tasks, lines, rng, checkpoint)
    best = max(candidates) if validate else candidates[-1]
    chosen = rounds_dir / f"{best[3]}.onnx"
    args.out.write_bytes(chosen.read_bytes())
    summary = {"command": producer, "parameters": params, "rounds": rounds, "selected": best[3],
               "seconds": round(time.time() - start, 1), "bytes": args.out.stat().st_size}
    args.out.with_suffix(".json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary), file=sys.stderr)
    return 0


__all__ = ["main", "parser"]
