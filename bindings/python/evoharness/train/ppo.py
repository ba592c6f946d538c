"""Stage 2 by PPO (``--rl ppo``): per-step credit from GAE against a critic of its own, on
the library's per-step reward."""

from __future__ import annotations

import time

import numpy as np
import torch
from torch import nn

from .grpo import sample
from .layout import harness_templates
from .net import Critic, tensor
from .seeds import RL_SEED, VALID_SEED
from .selection import select
from .sources import valid_fields, validate, warm_up


def gae(rewards, values, dones, last_values, gamma: float, lam: float):
    """Generalised advantage estimation over a segment of ``T`` steps of ``n`` environments
    (arrays ``[T, n]``; a 1-d array is one environment): ``rewards[t]`` and ``dones[t]`` are what
    step ``t`` returned, ``values[t]`` the value of the state it acted in, ``last_values`` that
    of the state after the segment's last step. An episode that ends at step ``t`` bootstraps
    nothing past it (the budget is in the observation, so running out of it is an end, not a
    cut). Returns ``(advantages, returns)``, returns being advantages plus values: with
    ``delta_t = r_t + gamma * V(s_t+1) * (1 - done_t) - V(s_t)``,
    ``A_t = delta_t + gamma * lam * (1 - done_t) * A_t+1``."""
    r = np.asarray(rewards, np.float64)
    v = np.asarray(values, np.float64)
    live = 1.0 - np.asarray(dones, np.float64)
    adv = np.zeros_like(r)
    nxt = np.asarray(last_values, np.float64)
    run = np.zeros_like(nxt)
    for t in range(len(r) - 1, -1, -1):
        delta = r[t] + gamma * nxt * live[t] - v[t]
        run = delta + gamma * lam * live[t] * run
        adv[t] = run
        nxt = v[t]
    return adv, adv + v


def ppo_update(net, critic, ref, opt, copt, batch: dict, args, rng, policy: bool = True) -> dict:
    """``args.rl_epochs`` passes over ``batch`` (from :func:`ppo`) in minibatches of
    ``args.rl_batch`` (or ``args.batch``). The critic learns the squared error against the GAE
    returns; with ``policy``, the policy learns the clipped-ratio surrogate (``args.clip``) on
    advantages normalised over the batch, minus ``args.ent_coef`` times the entropy, plus
    ``args.kl`` times the KL divergence from ``ref`` (the policy RL started from).
    Probabilities are the tempered ones the rollout sampled from (each step's temperature in
    ``batch["temp"]``), over legal templates. Returns the last epoch's means of the losses,
    the entropy, the KL and the share of clipped ratios."""
    O, M = tensor(batch["obs"]), tensor(batch["mask"])
    A = torch.as_tensor(batch["act"])
    LP = torch.as_tensor(batch["logp"], dtype=torch.float32)
    adv = batch["adv"]
    ADV = torch.as_tensor((adv - adv.mean()) / (adv.std() + 1e-8), dtype=torch.float32)
    RET = torch.as_tensor(batch["ret"], dtype=torch.float32)
    TAU = torch.as_tensor(batch["temp"], dtype=torch.float32)[:, None]
    clip = float(args.clip)
    mb = getattr(args, "rl_batch", None) or args.batch
    n = len(A)
    net.train()
    for _ in range(args.rl_epochs):
        stats = []
        perm = rng.permutation(n)
        for s in range(0, n, mb):
            b = torch.as_tensor(perm[s: s + mb])
            vloss = 0.5 * (critic(O[b]) - RET[b]).pow(2).mean()
            copt.zero_grad()
            vloss.backward()
            copt.step()
            if not policy:
                stats.append([0.0, vloss.item(), 0.0, 0.0, 0.0])
                continue
            logits = net(O[b], M[b])[0]
            logp_all = torch.log_softmax(logits / TAU[b], -1)
            logp = logp_all.gather(1, A[b][:, None])[:, 0]
            ratio = torch.exp(logp - LP[b])
            pg = -torch.min(ratio * ADV[b], torch.clamp(ratio, 1 - clip, 1 + clip) * ADV[b]).mean()
            legal = M[b] > 0
            p = logp_all.exp()
            ent = -(p * logp_all).masked_fill(~legal, 0.0).sum(-1).mean()
            with torch.no_grad():
                ref_logp = torch.log_softmax(ref(O[b], M[b])[0] / TAU[b], -1)
            kl = (p * (logp_all - ref_logp)).masked_fill(~legal, 0.0).sum(-1).mean()
            loss = pg - args.ent_coef * ent + args.kl * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            clipped = ((ratio - 1).abs() > clip).float().mean()
            stats.append([pg.item(), vloss.item(), ent.item(), kl.item(), clipped.item()])
    net.eval()
    m = np.mean(stats, 0)
    return {"pg_loss": float(m[0]), "value_loss": float(m[1]), "entropy": float(m[2]),
            "kl": float(m[3]), "clipped": float(m[4])}


def flip_kind(scaled, mask: np.ndarray, greedy: np.ndarray, a: np.ndarray, logp: np.ndarray,
              harness: np.ndarray, flip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where ``flip``: the likeliest legal template (under ``scaled`` logits) on the other
    side of the line between harness actions and the rest from the ``greedy`` template (a
    world action or ``finish`` where the greedy one is a harness action, a harness action
    where it is not), with its log-probability; elsewhere, or where that side has no legal
    template, ``a`` and ``logp`` as they are."""
    lp_all = torch.log_softmax(scaled, -1).numpy()
    other = np.where(harness[greedy][:, None] != harness[None, :], lp_all, -np.inf)
    other[mask == 0] = -np.inf
    b = other.argmax(1)
    ok = flip & np.isfinite(other[np.arange(len(b)), b])
    a = np.where(ok, b, a)
    return a, lp_all[np.arange(len(a)), a]


def ppo(net, source, args, log, deadline: float, best, rng, pool=None):
    """Cost-aware PPO with a critic and GAE: per-step credit, where GRPO gives every step of an
    episode that episode's advantage.

    For each kind (the source's ``rl_kinds`` if it has them), ``args.envs`` environments live
    through the whole stage (new seeds every episode, from :data:`RL_SEED`). An iteration
    samples ``args.rl_steps`` steps in each from softmax(logits / ``args.temperature``)
    (greedy choices, and so the exported policy, do not depend on the temperature), with the
    library's per-step reward: every action's share of the budget, and at the end of an episode
    the success-gated efficiency bonus, so a harness action that changes nothing costs its
    price at the step it is taken. ``args.harness_cost`` (default 0) charges each harness
    action that much more in the rewards RL learns from; validation and model selection use
    the task's own reward. With ``args.explore`` > 0, that share of the steps takes the
    policy's likeliest template of the other kind (:func:`flip_kind`) and is learned from as
    if sampled (its ratio against the policy's own probability: a biased push, as in
    :func:`rollout_update`; the unbiased importance weight of a template imitation made 1e-5
    likely moves nothing).

    Advantages are GAE(``args.gamma``, ``args.gae_lambda``) against a :class:`Critic` of its
    own (trained on the GAE returns, learning rate ``args.critic_lr``), normalised over the
    iteration's steps; an episode cut by the end of a segment is bootstrapped from the value
    of its next state. The first ``args.critic_iters`` iterations train only the critic. Then
    :func:`ppo_update`. Checkpoints for model selection after every policy update.

    A source with ``warmup`` > 0 (v2 suite tasks) has its teacher drive each agent's first
    ``warmup`` episodes (:func:`warm_up`, again after every new agent of a ``lifetime``);
    those steps are not learned from."""
    ref = net.twin()
    ref.eval()
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    critic = Critic(source.layout["obs_len"], net.pi.in_features)
    copt = torch.optim.Adam(critic.parameters(), lr=args.critic_lr)
    harness = harness_templates(source.layout)
    kinds = list(getattr(source, "rl_kinds", source.kinds))
    envs = [source.envs(kind, args.envs, RL_SEED + 10_000 * k) for k, kind in enumerate(kinds)]
    T, tau, cost = int(args.rl_steps), float(args.temperature), float(args.harness_cost)
    explore = float(getattr(args, "explore", 0.0))
    try:
        for it in range(args.rl_iters):
            if time.time() > deadline:
                break
            t_it = time.time()
            parts, eps = [], []
            for env in envs:
                n = env.n
                obs = np.zeros((T, n, env.obs_len), np.float32)
                mask = np.zeros((T, n, env.actions), np.float32)
                act = np.zeros((T, n), np.int64)
                logp = np.zeros((T, n), np.float32)
                val = np.zeros((T, n), np.float32)
                rew = np.zeros((T, n), np.float32)
                done = np.zeros((T, n), bool)
                learn = np.zeros((T, n), bool)
                temp = np.zeros((T, n), np.float32)
                for t in range(T):
                    obs[t], mask[t] = env.obs, env.mask
                    with torch.no_grad():
                        logits = net(tensor(obs[t]), tensor(mask[t]))[0]
                        v = critic(tensor(obs[t]))
                    g = logits.argmax(-1).numpy()
                    temp[t] = tau
                    scaled = logits / tau
                    a, lp = sample(scaled, mask[t], rng)
                    if explore > 0:
                        a, lp = flip_kind(scaled, mask[t], g, a, lp, harness,
                                          rng.random(n) < explore)
                    a, warming = warm_up(source, env, a.astype(np.uint32))
                    r, d = env.step(a)[2:]
                    act[t], logp[t], val[t] = a, lp, v.numpy()
                    rew[t] = r - cost * harness[a]
                    done[t], learn[t] = d.astype(bool), ~warming
                    for i in np.flatnonzero(d & ~warming):
                        eps.append(env.last_episode(int(i)))
                with torch.no_grad():
                    last = critic(tensor(env.obs)).numpy()
                adv, ret = gae(rew, val, done, last, args.gamma, args.gae_lambda)
                keep = learn.reshape(-1)
                parts.append({"obs": obs.reshape(T * n, -1)[keep],
                              "mask": mask.reshape(T * n, -1)[keep],
                              "act": act.reshape(-1)[keep], "logp": logp.reshape(-1)[keep],
                              "temp": temp.reshape(-1)[keep],
                              "adv": adv.reshape(-1)[keep], "ret": ret.reshape(-1)[keep],
                              "val": val.reshape(-1)[keep]})
            batch = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            rollout_s = time.time() - t_it
            critic_only = it < args.critic_iters
            stats = {}
            if len(batch["act"]):
                stats = ppo_update(net, critic, ref, opt, copt, batch, args, rng, not critic_only)
                resid = np.var(batch["ret"] - batch["val"])
                stats["explained_var"] = 1.0 - resid / max(1e-12, float(np.var(batch["ret"])))
            v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
            row = dict(stage=2, iteration=it, steps=int(len(batch["act"])),
                       rollout_s=round(rollout_s, 1), critic_only=critic_only)
            if eps:
                row.update(train_episodes=len(eps),
                           train_reward=round(float(np.mean([e["reward"] for e in eps])), 4),
                           train_success=round(float(np.mean([e["success"] for e in eps])), 3),
                           train_harness=round(float(np.mean([e["harness_actions"] for e in eps])), 3))
            row.update({k: float(f"{x:.4g}") for k, x in stats.items()})
            log(**row, **valid_fields(v))
            if not critic_only:
                best = select(best, v, net, ("ppo", it))
    finally:
        for env in envs:
            env.close()
    return best


__all__ = ["flip_kind", "gae", "ppo", "ppo_update"]
