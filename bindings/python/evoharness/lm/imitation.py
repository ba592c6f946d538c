"""Stage 1, imitation with DAgger: a rule-based teacher labels the states the environments
visit (the student drives a growing share of them), the rare ones are kept, and the model
learns each label's line given its prompt."""

from __future__ import annotations

import json
import math
import sys
import time

import numpy as np
import torch
from torch.nn import functional as F

from .decoding import choose
from .model import VOCAB, Decoder
from .text import permute_facts


def batch_loss(model: Decoder, samples: list[tuple[bytes, bytes]]) -> torch.Tensor:
    """Mean cross-entropy of the action bytes given the prompt, over a batch (right-padded)."""
    seqs = [p + a for p, a in samples]
    n = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), n, dtype=torch.long)
    am = torch.zeros(len(seqs), n, dtype=torch.long)
    target = torch.full((len(seqs), n), -100, dtype=torch.long)
    for i, ((p, a), s) in enumerate(zip(samples, seqs)):
        ids[i, : len(s)] = torch.tensor(list(s))
        am[i, : len(s)] = 1
        # Position t predicts byte t + 1: the action's bytes, from the prompt's last byte on.
        target[i, len(p) - 1: len(s) - 1] = torch.tensor(list(a))
    pos = torch.arange(n)[None].expand(len(seqs), n)
    logits = model(ids, am, pos, *model.empty_past(len(seqs)))[0]
    return F.cross_entropy(logits.reshape(-1, VOCAB), target.reshape(-1), ignore_index=-100)


def dagger(model: Decoder, opt, envs: list, lines: list[bytes], args, rng, data: list,
           weight: list, start: float, deadline: float, checkpoint) -> None:
    """``args.rounds`` rounds of DAgger over ``envs`` (one per task): each round collects
    labelled states into ``data`` (with their draw weights in ``weight``), then takes
    ``args.updates`` gradient steps of :func:`batch_loss` on batches drawn from all of them
    under a cosine learning rate, and hands the round to ``checkpoint(name, row)``. Stops
    after the round in which ``deadline`` passes."""
    for r in range(args.rounds):
        # DAgger's mixing: the teacher drives every environment in round 0, then a falling share.
        beta = 1.0 if r == 0 else max(1.0 - args.student_max, 1.0 - r / max(1, args.rounds // 2))
        t0 = time.time()
        for env in envs:
            for _ in range(args.round_steps):
                obs, mask = env.observe()
                labels = env.teacher_actions(args.teacher)
                prompts = env.texts()
                act = np.where(labels >= 0, labels, 0).astype(np.int64)
                student = rng.random(env.n) >= beta
                if student.any():
                    idx = np.flatnonzero(student)
                    act[idx] = choose(model, [prompts[i] for i in idx], mask[idx], lines)
                for i in range(env.n):
                    if labels[i] < 0:
                        continue
                    # Routine world actions are most states and alike: a share of them is kept.
                    # Every harness action, finish, and every state after an error is kept:
                    # rare, and an episode fails on one of them. With --keep-mistakes, so is
                    # every state the student got wrong.
                    line = lines[labels[i]]
                    routine = line.startswith(b"act ") and "\nevent error" not in prompts[i]
                    if args.keep_mistakes and student[i] and act[i] != labels[i]:
                        routine = False
                    if args.keep_fact_args and b" F" in line:
                        routine = False
                    if not routine or rng.random() < args.keep:
                        data.append((prompts[i].encode(), line))
                        weight.append(1.0 if routine else args.rare_weight)
                env.step(act)
        collect_s = time.time() - t0
        t1 = time.time()
        model.train()
        losses = []
        total = args.rounds * args.updates
        p = np.asarray(weight) / sum(weight)
        for u in range(args.updates):
            step = r * args.updates + u
            # Cosine decay over the rounds, or over the time budget when that ends first.
            done = max(step / total, (time.time() - start) / (deadline - start))
            lr = args.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, done))))
            for g in opt.param_groups:
                g["lr"] = lr
            # A batch of similar lengths (less padding): a random sample, sorted, one slice.
            pick = rng.choice(len(data), size=min(len(data), args.batch * 4), replace=False, p=p)
            pick = sorted(pick, key=lambda k: len(data[k][0]))
            at = int(rng.integers(0, max(1, len(pick) - args.batch + 1)))
            batch = [data[k] for k in pick[at: at + args.batch]]
            if args.permute_facts > 0:
                batch = [permute_facts(p_, a_, rng) if rng.random() < args.permute_facts
                         else (p_, a_) for p_, a_ in batch]
            loss = batch_loss(model, batch)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            losses.append(loss.item())
            if time.time() > deadline:
                break
        row = {"round": r, "beta": beta, "samples": len(data), "loss": float(np.mean(losses[-50:])),
               "lr": lr,
               "collect_s": round(collect_s, 1), "fit_s": round(time.time() - t1, 1),
               "elapsed_s": round(time.time() - start, 1)}
        print(json.dumps(row), file=sys.stderr)
        checkpoint(f"round{r}", row)
        if time.time() > deadline:
            break


__all__ = ["batch_loss", "dagger"]
