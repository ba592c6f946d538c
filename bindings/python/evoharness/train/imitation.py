"""Stage 1, imitation: behaviour cloning with DAgger (the teacher labels the states the
learner itself visits), the sample buffer and the cross-entropy fit; also what plain cloning
of recorded demonstrations uses (``--demos``)."""

from __future__ import annotations

import time

import numpy as np
import torch
import torch.nn.functional as F

from ..figures import episode_row
from .layout import feature_offset, harness_templates
from .net import greedy, tensor
from .seeds import TRAIN_SEED, VALID_SEED
from .selection import select
from .sources import valid_fields, validate
from .units import LocalPool, unit_slices


def dagger_unit(source, net, state: dict, unit, p: dict) -> dict:
    """One DAgger round of one unit (see :func:`dagger`): ``unit`` is ``(k, kind, first,
    count)``, ``p`` the round's settings. The unit's environments live in ``state`` from
    round to round (a rotating source makes new ones each round). Returns the samples to
    learn, in order, and the round's counts."""
    k, kind, lo, m = unit
    r, key = p["round"], ("dagger", k, lo)
    env = state.get(key)
    if env is None or (p["rotate"] and r > 0):
        if env is not None:
            del state[key]
            env.close()
        base = TRAIN_SEED + 1_000 * k + (r * p["envs"] if p["rotate"] else 0)
        env = source.envs(kind, m, base + lo, **({"offset": lo} if lo else {}))
        state[key] = env
    rng = np.random.default_rng([p["seed"], 1, r, k, lo])
    skip_p, alt_q, mistakes = p["skip_harness"], p["skip_label"], p["mistakes"]
    skipping = skip_p > 0 or alt_q > 0
    harness = harness_templates(source.layout) if skipping else None
    # Suite: only once a plan step is active; skipping the plan itself would leave the static
    # rule no step to record a cursor in for the rest of the episode (no labels there at all).
    in_plan = skipping and getattr(source, "skip_in_plan_only", True)
    active = feature_offset(source.layout, "global", "has_active_step") if in_plan else 0
    beta = p["beta"]
    obs, mask, act, eps = [], [], [], []
    c = {"agree": 0, "seen": 0, "refused": 0, "skipped": 0, "alt_labelled": 0, "steps": 0}

    def learn(rows, labels):
        if rows.any():
            obs.append(env.obs[rows])
            mask.append(env.mask[rows])
            act.append(labels[rows])

    for _ in range(p["steps"]):
        labels, bad = source.labels(env)
        labels = labels.astype(np.int64)  # a copy: skip_labels may reuse its array
        c["refused"] += bad
        ok = labels >= 0
        learn(ok, labels)
        mine = greedy(net, env.obs, env.mask).astype(np.int64)
        if mistakes > 0:
            wrong = ok & (mine != labels)
            for _ in range(mistakes):
                learn(wrong, labels)
        planned = env.obs[:, active] > 0 if in_plan else np.ones(env.n, bool)
        if alt_q > 0:
            alt = source.skip_labels(env).astype(np.int64)
            extra = (ok & harness[np.maximum(labels, 0)] & (alt >= 0) & (alt != labels)
                     & planned & (rng.random(env.n) < alt_q))
            learn(extra, alt)
            c["alt_labelled"] += int(extra.sum())
        c["agree"] += int((mine[ok] == labels[ok]).sum())
        c["seen"] += int(ok.sum())
        use_teacher = (rng.random(env.n) < beta) & ok
        a = np.where(use_teacher, labels, mine).astype(np.uint32)
        if skip_p > 0:
            skip = harness[a] & (rng.random(env.n) < skip_p) & planned
            if skip.any():
                if alt_q <= 0:
                    alt = source.skip_labels(env)
                skip &= alt >= 0
                a = np.where(skip, alt, a).astype(np.uint32)
                c["skipped"] += int(skip.sum())
        done = env.step(a)[3]
        c["steps"] += env.n
        eps += [episode_row(env.last_episode(int(i))) for i in np.flatnonzero(done)]
    width = env.obs.shape[1], env.mask.shape[1]
    return {"obs": np.concatenate(obs) if obs else np.zeros((0, width[0]), np.float32),
            "mask": np.concatenate(mask) if mask else np.zeros((0, width[1]), np.uint8),
            "act": np.concatenate(act) if act else np.zeros(0, np.int64), "eps": eps, **c}


class Buffer:
    """A ring of (observation, mask, template) samples."""

    def __init__(self, cap: int, obs_len: int, actions: int):
        self.obs = np.zeros((cap, obs_len), np.float32)
        self.mask = np.zeros((cap, actions), np.float32)
        self.act = np.zeros(cap, np.int64)
        self.cap, self.size, self.head = cap, 0, 0

    def add(self, obs, mask, act):
        k = len(act)
        if k == 0:
            return
        idx = (self.head + np.arange(k)) % self.cap
        self.obs[idx], self.mask[idx], self.act[idx] = obs, mask, act
        self.head = (self.head + k) % self.cap
        self.size = min(self.cap, self.size + k)


def fit(net, opt, buf: Buffer, epochs: int, batch: int, rng) -> float:
    """Cross-entropy on the buffer; returns the mean loss of the last batches."""
    net.train()
    losses = []
    for _ in range(epochs):
        perm = rng.permutation(buf.size)
        for s in range(0, buf.size, batch):
            b = perm[s: s + batch]
            logits, _ = net(tensor(buf.obs[b]), tensor(buf.mask[b]))
            loss = F.cross_entropy(logits, torch.as_tensor(buf.act[b]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    net.eval()
    return float(np.mean(losses[-50:])) if losses else 0.0


def dagger(net, source, args, log, deadline: float, buf: Buffer, rng, pool=None, until=None):
    """Behaviour cloning with DAgger: the teacher labels the states the learner visits (every
    kind of the source, ``args.envs`` environments each); the teacher's share of the executed
    actions falls from 1 to 0 over the first half of the rounds. Returns the checkpoints for
    :func:`choose`.

    ``until`` (the checkpoints so far -> bool) asks for more: after ``args.rounds`` rounds,
    rounds go on (the teacher's share 0) while it says no, up to ``args.max_rounds`` in all
    and the ``deadline``. The trainer passes "the imitation chosen so far earns at least its
    teacher's mean reward on the validation episodes": an imitation a few rounds short of its
    teacher (agreement 0.99, a failure in a few episodes that the teacher does not have) gets
    the rounds it needs, and one that already matches gets none.

    With ``args.skip_harness`` = p > 0 (a source with ``skip_labels``: the suite, where a plan
    step is active; a Python world whose teacher is told what was tracked), a harness
    action about to be executed is skipped with probability p, the source's ``skip_labels``
    choice taken instead, so that the learner also meets, labelled, the states that follow a
    harness action left out: RL that later leaves one out does not step off what it was
    taught.

    With ``args.skip_label`` = q > 0, each state where the teacher's label is a harness action
    with a ``skip_labels`` choice is, with probability q, also learned with that choice as its
    label: imitation leaves the policy about q / (1 + q) of probability for leaving the
    harness action out, which RL can then try (from the imitation alone, 1e-5 on the invoices
    world's tracks), and the choice it tries is the teacher's.

    With ``args.mistakes`` = K > 0, each state where the learner's own greedy choice is not
    the teacher's label is learned K more times: the rare states a learner gets wrong (after
    a remedy failed, a lesson already noted) weigh as much as the common ones it has right,
    and a deterministic policy that loops in one of them fails its whole episode.

    The environments run in units (``args.unit_envs``, :func:`unit_slices`) of ``pool``
    (:class:`LocalPool` if none), each with its own random draws (:func:`dagger_unit`); the
    learner adds their samples unit by unit, fits, and validates through the same pool."""
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    own = pool is None
    pool = pool or LocalPool(source, getattr(args, "unit_envs", 0))
    units = [(k, kind, lo, m) for k, kind in enumerate(source.kinds)
             for lo, m in unit_slices(args.envs, 1, pool.unit_envs)]
    settings = {"steps": args.round_steps, "envs": args.envs, "seed": int(getattr(args, "seed", 0)),
                "skip_harness": float(getattr(args, "skip_harness", 0.0)),
                "skip_label": float(getattr(args, "skip_label", 0.0)),
                "mistakes": int(getattr(args, "mistakes", 0)),
                # A source that rotates (v3) gets new environments, in other organisations,
                # each round.
                "rotate": bool(getattr(source, "rotate", False))}
    best = None
    most = max(args.rounds, int(getattr(args, "max_rounds", None) or args.rounds))
    try:
        for r in range(most):
            if r >= args.rounds and (until is None or until(best)):
                break
            beta = max(0.0, 1.0 - r / max(1, args.rounds // 2))
            t = time.time()
            parts = pool.run(dagger_unit, net,
                             [(u, {**settings, "round": r, "beta": beta}) for u in units])
            rollout_s = time.time() - t
            c = {key: sum(part[key] for part in parts)
                 for key in ("agree", "seen", "refused", "skipped", "alt_labelled", "steps")}
            eps = [e for part in parts for e in part["eps"]]
            for part in parts:
                buf.add(part["obs"], part["mask"], part["act"])
            t = time.time()
            lr = dagger_lr(args, r)
            for g in opt.param_groups:
                g["lr"] = lr
            loss = fit(net, opt, buf, args.epochs, args.batch, rng)
            learn_s = time.time() - t
            v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
            log(stage=1, round=r, beta=round(beta, 2), samples=buf.size, loss=round(loss, 5),
                **({"lr": float(f"{lr:.3g}")} if getattr(args, "lr_final", None) else {}),
                agreement=round(c["agree"] / max(1, c["seen"]), 4), teacher_refused=c["refused"],
                **({"skipped": c["skipped"]} if settings["skip_harness"] > 0 else {}),
                **({"skip_labelled": c["alt_labelled"]} if settings["skip_label"] > 0 else {}),
                train_success=round(float(np.mean([e["success"] for e in eps])), 3) if eps else None,
                train_harness=round(float(np.mean([e["harness"] for e in eps])), 3) if eps else None,
                rollout_steps=c["steps"], rollout_s=round(rollout_s, 3), learn_s=round(learn_s, 3),
                **valid_fields(v))
            best = select(best, v, net, ("dagger", r))
            if time.time() > deadline:
                break
    finally:
        pool.close_units()
        if own:
            pool.close()
    return best


def dagger_lr(args, r: int) -> float:
    """The learning rate of DAgger round ``r``: ``args.lr``, or with ``args.lr_final`` set, a
    geometric decay from ``args.lr`` at the first round to ``args.lr_final`` at the last of
    ``args.rounds``. A constant rate keeps moving a network that already agrees with its
    teacher on 99% of states, and the rare states that fail a whole episode move with it:
    the greedy policy's validation success swings from round to round. A decaying one lets
    the last rounds settle."""
    final = getattr(args, "lr_final", None)
    if not final:
        return args.lr
    return args.lr * (final / args.lr) ** (min(r, args.rounds - 1) / max(1, args.rounds - 1))


__all__ = ["Buffer", "dagger", "dagger_lr", "dagger_unit", "fit"]
