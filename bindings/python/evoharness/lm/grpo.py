"""Stage 2, cost-aware GRPO (``--rl-iters``): groups of episodes sampled under the grammar,
each decision's advantage its episode's reward against its group's. The update is the
structured policy's (:func:`evoharness.train.grpo.update`); what differs is what an action
is, a line of bytes, and what its log-probability and the KL penalty are over
(:func:`line_terms`)."""

from __future__ import annotations

import copy
import json
import sys
import time

import numpy as np
import torch

from ..train.grpo import group_advantages, update
from ..train.seeds import RL_SEED
from .decoding import sample_lines
from .model import VOCAB, Decoder
from .validation import span


def rl_rollouts(model: Decoder, task: str, scenario: str, horizon: int, orgs: range, seed: int,
                groups: int, group: int, lines: list[bytes], rng: np.random.Generator):
    """GRPO's episodes: ``groups`` groups of ``group`` environments that share an organisation
    and a seed, one whole episode each, sampled from the model. Returns each environment's
    decisions (prompt, allowed bytes per position, line, log-probability) and its episode."""
    from ..vec_env import VecEnv

    env = VecEnv(task, horizon, groups * group, organisations=orgs, seed=seed, group=group,
                 scenario=scenario)
    traj = [[] for _ in range(env.n)]
    finished: list[dict | None] = [None] * env.n
    while any(f is None for f in finished):
        _, mask = env.observe()
        prompts = env.texts()
        live = [i for i in range(env.n) if finished[i] is None]
        # An environment whose episode is over steps on with its first legal template.
        act = mask.argmax(1).astype(np.int64)
        picks, logps, allowed = sample_lines(model, [prompts[i] for i in live], mask[live], lines,
                                             rng)
        act[live] = picks
        done = env.step(act)[3]
        for k, i in enumerate(live):
            traj[i].append((prompts[i].encode(), allowed[k], lines[picks[k]], logps[k]))
            if done[i]:
                finished[i] = env.last_episode(i)
    return traj, finished


def line_logps(model: Decoder, batch: list):
    """For decisions ``(prompt, allowed, line, ...)``: each line's log-probability under the
    grammar (the sum over its bytes of the log-softmax over the allowed bytes), the
    per-position log-probabilities over all 256 bytes (``-inf`` outside the allowed ones) and
    the allowed bytes as a mask, from one teacher-forced run of the batch (right-padded)."""
    seqs = [p + a for p, _, a, *_ in batch]
    n = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), n, dtype=torch.long)
    am = torch.zeros(len(seqs), n, dtype=torch.long)
    rows, cols, owner, byte = [], [], [], []
    allowed_mask = []
    for i, ((p, allowed, a, *_), s) in enumerate(zip(batch, seqs)):
        ids[i, : len(s)] = torch.tensor(list(s))
        am[i, : len(s)] = 1
        for k, b in enumerate(a):
            # Position len(p) - 1 + k predicts the line's byte k.
            rows.append(i)
            cols.append(len(p) - 1 + k)
            owner.append(i)
            byte.append(b)
            m = torch.zeros(VOCAB, dtype=torch.bool)
            m[allowed[k]] = True
            allowed_mask.append(m)
    pos = torch.arange(n)[None].expand(len(seqs), n)
    logits = model(ids, am, pos, *model.empty_past(len(seqs)))[0][rows, cols]  # [P, 256]
    allowed_mask = torch.stack(allowed_mask)
    lp_all = logits.masked_fill(~allowed_mask, float("-inf")).log_softmax(-1)
    chosen = lp_all[torch.arange(len(byte)), torch.tensor(byte)]
    per_line = torch.zeros(len(batch)).index_add(0, torch.tensor(owner), chosen)
    return per_line, lp_all, allowed_mask


def line_terms(model: Decoder, ref: Decoder, batch: list):
    """:func:`~evoharness.train.grpo.update`'s terms for the language model: ``batch`` holds
    decisions (prompt, allowed bytes per position, line, old log-probability, advantage); a
    minibatch runs in order of prompt length (less padding), an action's log-probability is
    its line's under the grammar (:func:`line_logps`), and the KL penalty to the frozen
    ``ref`` is over the allowed bytes of each position."""

    def terms(idx):
        mb = sorted((batch[k] for k in idx), key=lambda b: len(b[0]))
        lp, lp_all, allowed = line_logps(model, mb)
        old = torch.tensor([b[3] for b in mb], dtype=torch.float32)
        adv = torch.tensor([b[4] for b in mb], dtype=torch.float32)

        def kl():
            with torch.no_grad():
                ref_all = line_logps(ref, mb)[1]
            # Over the allowed bytes only (elsewhere both are -inf: filled with 0, no NaN).
            diff = (lp_all - ref_all.masked_fill(~allowed, 0.0)).masked_fill(~allowed, 0.0)
            return (lp_all.exp() * diff).sum(-1).mean()

        return lp, old, adv, kl

    return terms


def grpo(model: Decoder, args, tasks: list[str], lines: list[bytes], rng, checkpoint) -> None:
    """Stage 2, cost-aware GRPO as the MLP's (:func:`evoharness.train.grpo.grpo`): every iteration, for each
    task, ``--groups`` groups of ``--group`` fresh environments that share an organisation and
    a seed (new seeds each iteration) run one whole episode each, sampled from the model under
    the grammar; an episode's advantage is its reward (success gates an efficiency bonus, every
    action costs budget) against its group's mean, over the group's standard deviation, and a
    group without a success sits out. A clipped ratio and a KL penalty to the model GRPO
    started from. Every iteration is a candidate, validated as the rounds are."""
    ref = copy.deepcopy(model)
    ref.eval()
    opt = torch.optim.Adam(model.parameters(), lr=args.rl_lr)
    deadline = time.time() + 60 * args.rl_minutes
    orgs = span(args.organisations)
    for it in range(args.rl_iters):
        t0 = time.time()
        batch, eps = [], []
        for k, task in enumerate(tasks):
            seed = RL_SEED + (it * len(tasks) + k) * args.groups
            traj, finished = rl_rollouts(model, task, args.scenario, args.horizon, orgs, seed,
                                         args.groups, args.group, lines, rng)
            batch += group_advantages(traj, finished, args.group)
            eps += finished
        rollout_s = time.time() - t0
        t1 = time.time()
        kl = update(model, opt, len(batch), line_terms(model, ref, batch), args.rl_epochs,
                    args.batch, args.kl, rng) if batch else 0.0
        row = {"stage": "grpo", "iteration": it, "decisions": len(batch), "kl": round(kl, 5),
               "train_success": float(np.mean([e["success"] for e in eps])),
               "train_reward": round(float(np.mean([e["reward"] for e in eps])), 4),
               "train_harness": float(np.mean([e["harness_actions"] for e in eps])),
               "rollout_s": round(rollout_s, 1), "learn_s": round(time.time() - t1, 1)}
        print(json.dumps(row), file=sys.stderr)
        checkpoint(f"rl{it}", row)
        if time.time() > deadline:
            break


__all__ = ["grpo", "line_logps", "line_terms", "rl_rollouts"]
