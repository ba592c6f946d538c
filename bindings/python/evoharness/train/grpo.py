"""Stage 2 by cost-aware GRPO (``--rl grpo``, the default): groups of environments share a
seed, and an episode's advantage is its return under the library's reward against its group's.

:func:`update` is the one GRPO update of the package: the structured policy's here (its
actions are templates: :func:`template_terms`) and the language model's
(:func:`evoharness.lm.grpo.line_terms`: its actions are lines of bytes under a grammar) run
the same loop, surrogate, penalty and step; only what an action's log-probability and the KL
penalty are over differs, and each policy says that in its *terms*."""

from __future__ import annotations

import time

import numpy as np
import torch
from torch import nn

from .net import tensor
from .seeds import RL_SEED, VALID_SEED
from .selection import select
from .sources import valid_fields, validate, warm_up
from .units import LocalPool, unit_slices


def grpo_unit(source, net, state, kind: str, n: int, seed: int, group: int, offset: int,
              entropy: list) -> tuple[list, list]:
    """GRPO's episodes of one unit (see :func:`grpo`): ``n`` fresh environments in groups of
    ``group``, one whole episode each, sampled from the policy with the generator seeded by
    ``entropy``. Returns each environment's steps (observation, mask, template, log-prob) and
    its episode."""
    env = source.envs(kind, n, seed, group=group, **({"offset": offset} if offset else {}))
    rng = np.random.default_rng(entropy)
    try:
        traj = [[] for _ in range(n)]
        finished: list[dict | None] = [None] * n
        while any(f is None for f in finished):
            obs, mask = env.obs.copy(), env.mask.copy()
            with torch.no_grad():
                logits, _ = net(tensor(obs), tensor(mask))
            a, logp = sample(logits, mask, rng)
            a_np, warming = warm_up(source, env, a.astype(np.uint32))
            done = env.step(a_np)[3]
            for i in range(n):
                if finished[i] is None and not warming[i]:
                    traj[i].append((obs[i], mask[i], int(a_np[i]), float(logp[i])))
                    if done[i]:
                        finished[i] = env.last_episode(i)
    finally:
        env.close()
    return traj, finished


def group_advantages(traj, finished, group: int, harness_cost: float = 0.0) -> list:
    """GRPO's batch: every step of every finished episode, as (obs, mask, action, old log-prob,
    advantage), the advantage being the episode's return (its reward less `harness_cost` per
    harness action) less its group's mean, over the group's standard deviation; a group in
    which no episode succeeded gives no steps. Environments `g*group .. (g+1)*group` form
    group `g`."""
    batch = []
    for g in range(len(finished) // group):
        members = range(g * group, (g + 1) * group)
        R = np.array([finished[i]["reward"] - harness_cost * finished[i]["harness_actions"]
                      for i in members])
        if not any(finished[i]["success"] for i in members):
            # A group where no member succeeded says nothing about what success costs; what
            # it would teach is to fail cheaply, that is to give up at once (the reward
            # charges every step), which is how a policy's success collapses. It sits out.
            continue
        adv = (R - R.mean()) / (R.std() + 1e-6)
        for j, i in enumerate(members):
            batch += [(o, m, act, lp, adv[j]) for (o, m, act, lp) in traj[i]]
    return batch


def update(policy, opt, n: int, terms, epochs: int, minibatch: int, kl_coef: float,
           rng) -> float:
    """GRPO's update: ``epochs`` passes over a batch of ``n`` decisions (from
    :func:`group_advantages`) in minibatches of ``minibatch`` in an order drawn from the
    numpy generator ``rng``, each minimising the clipped-ratio policy-gradient loss (ratios
    clipped to [0.8, 1.2]) plus ``kl_coef`` times a KL penalty to the frozen policy the stage
    started from; gradients clipped to norm 1, one ``opt`` step per minibatch.

    ``terms(indices)`` (indices into the batch) says what depends on the kind of policy:
    it runs ``policy`` on those decisions and returns ``(logp, old_logp, advantage, kl)``,
    the first three tensors of one value per decision and ``kl`` a function that then
    returns the mean KL penalty (called after the surrogate is formed, so the operations run
    in one order). Returns the last minibatch's KL."""
    policy.train()
    kl_last = 0.0
    for _ in range(epochs):
        perm = rng.permutation(n)
        for s in range(0, n, minibatch):
            logp, old, adv, kl_of = terms(perm[s: s + minibatch])
            ratio = torch.exp(logp - old)
            pg = -torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv).mean()
            kl = kl_of()
            loss = pg + kl_coef * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            kl_last = float(kl.detach())
    policy.eval()
    return kl_last


def template_terms(net, ref, batch):
    """:func:`update`'s terms for the structured policy: ``batch`` holds (obs, mask,
    template, old log-prob, advantage); an action's log-probability is its template's under
    the masked logits, and the KL penalty to the frozen ``ref`` is over legal templates only
    (illegal ones have probability about 0 in both)."""
    O = tensor(np.stack([b[0] for b in batch]))
    M = tensor(np.stack([b[1] for b in batch]))
    A = torch.as_tensor([b[2] for b in batch])
    LP = torch.as_tensor([b[3] for b in batch])
    ADV = torch.as_tensor([b[4] for b in batch], dtype=torch.float32)

    def terms(idx):
        b = torch.as_tensor(idx)
        logits, _ = net(O[b], M[b])
        logp_all = torch.log_softmax(logits, -1)
        logp = logp_all.gather(1, A[b][:, None])[:, 0]

        def kl():
            with torch.no_grad():
                ref_logp = torch.log_softmax(ref(O[b], M[b])[0], -1)
            p = logp_all.exp()
            return (p * (logp_all - ref_logp)).masked_fill(M[b] == 0, 0.0).sum(-1).mean()

        return logp, LP[b], ADV[b], kl

    return terms


def sample(logits, mask: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
    """A template per row of ``logits`` (a batch), drawn from their softmax over the legal
    templates of ``mask``, and its log-probability. The Gumbel-max trick: the argmax of the
    log-probabilities less the logs of standard exponential draws (from the numpy generator
    ``rng``) is a draw from the softmax. The same distribution as
    ``torch.distributions.Categorical(logits=logits).sample()``, which took a third of a GRPO
    iteration on batches of 64 (its normalisation and ``torch.multinomial``); this takes a
    fifth of its time."""
    logp = torch.log_softmax(logits, -1).numpy()
    score = logp - np.log(rng.standard_exponential(logp.shape))
    score[mask == 0] = -np.inf
    a = score.argmax(1)
    return a, logp[np.arange(len(a)), a]


def grpo(net, source, args, log, deadline: float, best, rng, pool=None):
    """Cost-aware GRPO. Every iteration starts fresh environments: for each kind (the
    source's ``rl_kinds`` if it has them),
    ``args.groups`` groups of ``args.group`` that share an organisation and a seed (new seeds
    each iteration), each running one whole episode sampled from the policy. An episode's
    advantage is its return under the library's reward (success gates an efficiency bonus;
    every action, harness ones included, costs budget) against its group's mean, over the
    group's standard deviation. A clipped ratio and a KL penalty to the policy GRPO started
    from.

    A source with ``warmup`` > 0 (v2 suite tasks, whose agents keep an experience store) has
    its teacher drive each environment's first ``warmup`` episodes, so that the episode
    sampled and learned from is one of an agent whose store is at work. A deterministic
    teacher leaves a group's members in the same state, so they still share their episode.

    The groups run in units of ``pool`` (:func:`grpo_unit`; whole groups, ``args.unit_envs``
    environments at most), each sampling with its own generator; the update sees their steps
    in group order, as from one set."""
    ref = net.twin()
    ref.eval()
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    G = args.group
    pool = pool or LocalPool(source, getattr(args, "unit_envs", 0))
    kinds = getattr(source, "rl_kinds", source.kinds)
    units = unit_slices(G * args.groups, G, pool.unit_envs)
    seed = int(getattr(args, "seed", 0))
    for it in range(args.rl_iters):
        if time.time() > deadline:
            break
        batch, eps = [], []
        t = time.time()
        jobs = [(kind, m, RL_SEED + it * args.groups + lo // G, G, lo // G, [seed, 2, it, k, lo])
                for k, kind in enumerate(kinds) for lo, m in units]
        parts = iter(pool.run(grpo_unit, net, jobs))
        rollout_s = time.time() - t
        steps = 0
        for kind in kinds:
            traj, finished = [], []
            for _ in units:
                tr, fin = next(parts)
                traj += tr
                finished += fin
            steps += sum(len(x) for x in traj)
            batch += group_advantages(traj, finished, G, float(getattr(args, "harness_cost", 0.0)))
            eps += finished
        t = time.time()
        if batch:
            update(net, opt, len(batch), template_terms(net, ref, batch), args.rl_epochs,
                   getattr(args, "rl_batch", None) or args.batch, args.kl, rng)
        learn_s = time.time() - t
        v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
        log(stage=2, iteration=it, steps=len(batch),
            train_reward=round(float(np.mean([f["reward"] for f in eps])), 4),
            train_success=round(float(np.mean([f["success"] for f in eps])), 3),
            train_harness=round(float(np.mean([f["harness_actions"] for f in eps])), 3),
            rollout_steps=steps, rollout_s=round(rollout_s, 3), learn_s=round(learn_s, 3),
            **valid_fields(v))
        best = select(best, v, net, ("grpo", it))
    return best


__all__ = ["group_advantages", "grpo", "grpo_unit", "sample", "template_terms", "update"]
