"""Stage 2 by branching rollouts (``--rl rollouts``): copies of an
environment try other templates at one state and play on greedily under the same draws; a
template's advantage is its return against the policy's own choice there, and an update is
kept only if check episodes hold."""

from __future__ import annotations

import copy
import time

import numpy as np
import torch
from torch import nn

from ..figures import summary
from .imitation import Buffer
from .layout import harness_templates, template_kinds
from .net import greedy, tensor
from .seeds import CHECK_SEED, RL_SEED, VALID_SEED
from .selection import select
from .sources import first_episodes, valid_fields, validate

#: How much mean reward the check episodes (:data:`~evoharness.train.seeds.CHECK_SEED`) may
#: lose in an update that is still kept.
CHECK_SLACK = 0.002


class Branches:
    """A ring of branch points: a state (observation, mask), the templates tried there (the
    policy's own first) and the return each earned to the end of its rollout."""

    def __init__(self, cap: int, obs_len: int, actions: int, width: int):
        self.obs = np.zeros((cap, obs_len), np.float32)
        self.mask = np.zeros((cap, actions), np.float32)
        self.act = np.zeros((cap, width), np.int64)
        self.ret = np.zeros((cap, width), np.float64)
        self.tried = np.zeros((cap, width), bool)
        self.cap, self.size, self.head = cap, 0, 0

    def add(self, obs, mask, act, ret, tried):
        i = self.head
        self.obs[i], self.mask[i], self.act[i], self.ret[i], self.tried[i] = obs, mask, act, ret, tried
        self.head = (self.head + 1) % self.cap
        self.size = min(self.cap, self.size + 1)

    def advantages(self) -> np.ndarray:
        """Each tried template's return less the return of the policy's own choice at its state
        (slot 0), differences below 1e-6 (float rounding) taken as 0, over the median gain,
        then clipped to [-30, 3]: the usual gain (a step saved) weighs about 1; a template that
        rescues an episode the policy would fail weighs 3 (one such state, pushed hundreds of
        times harder than the rest, teaches its template everywhere); one that fails the
        episode weighs -30 (what the policy must never learn)."""
        r, t = self.ret[: self.size], self.tried[: self.size]
        adv = np.where(t, r - r[:, :1], 0.0)
        adv[np.abs(adv) < 1e-6] = 0.0
        gains = adv[adv > 0]
        scale = float(np.median(gains)) if gains.size else max(1e-6, float(np.abs(adv).max()))
        return np.clip(adv / scale, -30.0, 3.0).astype(np.float32)


def alternatives(logits: np.ndarray, mask: np.ndarray, width: int, kinds: np.ndarray,
                 harness: np.ndarray | None = None, extra=None) -> tuple:
    """The templates a branch point tries: the policy's greedy one first; then the likeliest
    legal template of each other kind (:func:`template_kinds`: another tool, or a harness verb
    instead of a world action and back), the likeliest kinds first; then the likeliest legal
    templates left. ``tried`` is False for slots left over when fewer templates are legal (they
    repeat the greedy one). A policy sharpened by imitation puts its next likeliest templates
    in the same kind as its choice (another field to track); the choice that pays is often of
    another kind (no harness action at all).

    With ``harness`` (:func:`harness_templates`), a harness step tries only templates that are
    not harness actions: doing without it. Another harness action in its place often wins by
    being cheaper while changing nothing (a second ``track`` of a field already tracked, the
    greedy policy then doing what it would have done), and a policy taught to prefer it there
    takes it again in the state it leaves unchanged, until the budget is spent. Loops still
    arise from what the policy generalises (``examples/train/README.md``); the update check of
    :func:`rollouts` is what holds them off.

    ``extra`` (a template or a sequence of them, e.g. the teacher's choice here; -1 for none)
    is tried next when legal and not tried already."""
    legal = np.flatnonzero(mask > 0)
    if harness is not None and len(legal):
        greedy = legal[np.argmax(logits[legal])]
        if harness[greedy]:
            legal = np.concatenate([[greedy], legal[~harness[legal]]])
    order = legal[np.argsort(-logits[legal], kind="stable")]
    chosen = [int(order[0])] if len(order) else []
    for e in np.atleast_1d(extra if extra is not None else []):
        e = int(e)
        if chosen and len(chosen) < width and e >= 0 and mask[e] > 0 and e not in chosen:
            chosen.append(e)
    seen = {int(kinds[t]) for t in chosen}
    for t in order[1:]:
        if len(chosen) == width:
            break
        if int(kinds[t]) not in seen:
            seen.add(int(kinds[t]))
            chosen.append(int(t))
    for t in order[1:]:
        if len(chosen) == width:
            break
        if int(t) not in chosen:
            chosen.append(int(t))
    tried = np.zeros(width, bool)
    tried[: len(chosen)] = True
    act = np.full(width, chosen[0] if chosen else 0, np.int64)
    act[: len(chosen)] = chosen
    return act, tried


def rollouts(net, source, args, log, deadline: float, best, rng, update=None, pool=None):
    """Policy improvement by branching rollouts: no teacher, only the library's reward.

    Each kind (the source's ``rl_kinds`` if it has them) runs ``args.groups`` groups of
    ``args.branches + 1`` environments that share their seeds (``VecEnv(group=)``), acting
    greedily. A group walks its first environment on for a random number of steps (up to the
    mean length of the episodes so far), then copies it into the others (``VecEnv.copy``: the
    same agent, world, store and random state), and each copy tries another template there
    (:func:`alternatives`: the likeliest of other kinds, at a harness step none that is a
    harness action); every copy then acts greedily to the
    end of ``args.rollout_episodes`` episodes. The suite's v2 worlds draw their faults per item
    and attempt, so the copies meet the same faults wherever their actions agree, and their
    returns differ by what the first template changed, not by luck: each template's advantage
    is its return against that of the policy's own choice there. An update raises the
    probability of the templates that did better and lowers that of those that did worse
    (:func:`rollout_update`), with a KL penalty to the policy the iteration started from; an
    iteration learns from the latest ``args.rl_states`` branch points of each kind and more
    from a ring of earlier ones (``8 x rl_states``). Tried templates that a policy sharpened by
    imitation would never sample get their advantage all the same, which GRPO from the start
    of an episode cannot give them.

    An update is kept only if the policy's greedy episodes on check seeds (:data:`CHECK_SEED`,
    training organisations, ``args.valid_episodes`` of them: the same ones every time) lose at
    most :data:`CHECK_SLACK` mean reward against those after the last kept update (a failed
    episode costs about two rewards, so this also holds success); otherwise the weights go
    back and the learning rate halves (a kept update grows it by half again, up to
    ``args.rl_lr``). Improving one state at a time changes states the policy never met:
    skipping one ``track`` of three leaves a state in which an imitated policy tracks the same
    field again and again, and without the check such loops spread from the fifth iteration
    on (validation success 100% to 34% in ten iterations). With the check, progress stops
    once every update breaks one check episode (``examples/train/README.md``: 1.14x fewer
    harness actions from the v2 static imitation).

    With ``args.continuation`` ``"teacher"`` (and a teacher), the copies play on as the teacher
    would instead of greedily.

    ``update`` (default :func:`rollout_update`, same arguments) replaces the update: a
    measurement that only wants the branch points (``scripts/branch-points.py``) passes one
    that keeps the ring and changes nothing."""
    by_teacher = getattr(args, "continuation", "policy") == "teacher" and \
        getattr(source, "teacher", None) is not None
    kinds = list(getattr(source, "rl_kinds", source.kinds))
    lay = source.layout
    width = int(args.branches) + 1
    ring = Branches(8 * args.rl_states * len(kinds), lay["obs_len"], lay["actions"], width)
    # States the policy visits (a group's first environment, walking): where the KL penalty
    # holds the policy, besides the branch points.
    anchors = Buffer(32 * args.rl_states * len(kinds), lay["obs_len"], lay["actions"])
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    brancher = Brancher(source, args, rng, cont=teacher_labels_of(source) if by_teacher else None)

    def check(policy):
        rows = []
        for kind in kinds:
            rows += first_episodes(source, kind, lambda env: greedy(policy, env.obs, env.mask),
                                   CHECK_SEED, args.valid_episodes, split="train")
        return summary(rows)

    accepted_check = check(net)
    try:
        for it in range(args.rl_iters):
            if time.time() > deadline:
                break
            t_it = time.time()
            fresh, flips, gains = brancher.collect(net, args.rl_states * len(kinds), ring, anchors)
            rollout_s = time.time() - t_it
            before = {k: t.clone() for k, t in net.state_dict().items()}
            opt_before = copy.deepcopy(opt.state_dict())
            (update or rollout_update)(net, opt, ring, args, rng, anchors)
            c = check(net)
            accepted = c["mean_reward"] >= accepted_check["mean_reward"] - CHECK_SLACK
            row = dict(stage=2, iteration=it, branch_points=ring.size,
                       rollout_s=round(rollout_s, 1),
                       better_elsewhere=round(flips / max(1, fresh), 4),
                       mean_gain=round(float(np.mean(gains)), 5) if gains else None,
                       check_success=round(c["success_rate"], 4),
                       check_reward=round(c["mean_reward"], 4), accepted=accepted,
                       lr=float(f"{opt.param_groups[0]['lr']:.3g}"))
            if accepted:
                accepted_check = c
                scale_lr(opt, 1.5, args.rl_lr)
                v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
                log(**row, **valid_fields(v))
                best = select(best, v, net, ("rollouts", it))
            else:
                net.load_state_dict(before)
                opt.load_state_dict(opt_before)
                scale_lr(opt, 0.5, args.rl_lr)
                log(**row)
    finally:
        brancher.close()
    return best


def teacher_labels_of(source):
    """A continuation (see :class:`Brancher`) that plays as the source's teacher: its label
    in every environment, -1 where it has none."""
    return lambda env, logits: source.labels(env)[0]


class Brancher:
    """The branch points of :func:`rollouts` and :func:`~evoharness.train.improve.improve`.

    Each kind (the source's ``rl_kinds`` if it has them) runs ``args.groups`` groups of
    ``args.branches + 1`` environments that share their seeds (``VecEnv(group=)``). A group
    walks its first environment on, greedily, for a random number of steps (up to the mean
    length of the episodes so far), then copies it into the others (``VecEnv.copy``: the same
    agent, world, store and random state); each copy tries another template there
    (:func:`alternatives`, with ``extra(env, logits)``'s templates per environment among them
    when given: a template or a row of them per environment, -1 for none) and plays on to the end of ``args.rollout_episodes`` episodes:
    greedily, or as ``cont(env, logits)`` says (a template per environment, -1: greedy; or a
    row per environment whose first column that is: ``extra`` may then be the same function,
    called once a step for both).
    A branch point is the state, the templates tried and each one's return. With ``explore``
    > 0, a walking group takes a legal template at random at that share of its steps, and a
    branch point's last slot is a legal template at random (one not tried otherwise): so
    that what the policy would never do is tried too, and states after it measured."""

    def __init__(self, source, args, rng, cont=None, extra=None, explore: float = 0.0):
        self.source, self.rng, self.cont, self.extra = source, rng, cont, extra
        self.explore = float(explore)
        self.width = width = int(args.branches) + 1
        self.G = G = int(args.groups)
        self.E = int(args.rollout_episodes)
        lay = source.layout
        self.kinds_of, self.harness_of = template_kinds(lay), harness_templates(lay)
        kinds = list(getattr(source, "rl_kinds", source.kinds))
        self.envs = [source.envs(kind, G * width, RL_SEED, group=width) for kind in kinds]
        self.horizon = horizon = int(getattr(source, "horizon", 0) or 100)
        self.lengths = []  # of the episodes that ended, for how far a group walks
        self.state = []
        for env in self.envs:
            self.state.append({
                "wait": rng.integers(0, horizon, G),  # steps until the group branches
                "branching": np.zeros(G, bool),  # in a rollout
                "ret": np.zeros(env.n), "ended": np.zeros(env.n, np.int64),
                "age": np.zeros(env.n, np.int64),
                "act": np.zeros((G, width), np.int64), "tried": np.zeros((G, width), bool),
                "obs": np.zeros((G, env.obs_len), np.float32),
                "mask": np.zeros((G, env.actions), np.float32),
            })

    def collect(self, net, count: int, ring: Branches, anchors: Buffer | None = None):
        """Steps until ``count`` new branch points are in ``ring`` (and a tenth of the walking
        states, with the policy's choice, in ``anchors``); returns how many were added, at
        how many another template earned more than the policy's own choice, and each one's
        best gain over it."""
        width, E, rng = self.width, self.E, self.rng
        fresh, flips, gains = 0, 0, []
        while fresh < count:
            for env, st in zip(self.envs, self.state):
                starting = np.flatnonzero(~st["branching"] & (st["wait"] <= 0))
                for g in starting:
                    for j in range(1, width):
                        env.copy(g * width, g * width + j, observe=False)
                if len(starting):
                    env.observe()
                obs, mask = env.obs, env.mask
                with torch.no_grad():
                    logits = net(tensor(obs), tensor(mask))[0].numpy()
                a = logits.argmax(-1).astype(np.uint32)
                going = np.repeat(st["branching"], width)  # copies past their first template
                guide = None  # cont's answer this step, reused when extra is the same function
                if self.cont is not None and going.any():
                    guide = np.asarray(self.cont(env, logits))
                    labels = guide if guide.ndim == 1 else guide[:, 0]
                    use = going & (labels >= 0)
                    a[use] = labels[use].astype(np.uint32)
                extra = None
                if self.extra is not None and len(starting):
                    extra = guide if guide is not None and self.extra is self.cont \
                        else self.extra(env, logits)
                for g in starting:
                    s = g * width
                    act, tried = alternatives(logits[s], mask[s], width, self.kinds_of,
                                              self.harness_of,
                                              None if extra is None else extra[s])
                    if self.explore > 0 and tried.all():
                        # The last slot: any legal template not tried yet, at random.
                        rest = np.setdiff1d(np.flatnonzero(mask[s] > 0), act)
                        if len(rest):
                            act[-1] = rng.choice(rest)
                    st["act"][g], st["tried"][g] = act, tried
                    st["obs"][g], st["mask"][g] = obs[s], mask[s]
                    a[s: s + width] = act
                    st["ret"][s: s + width] = 0.0
                    st["ended"][s: s + width] = 0
                    st["branching"][g] = True
                if self.explore > 0:
                    # A walking group takes a legal template at random now and then, so that
                    # branch points also come after what the policy would not do.
                    for g in np.flatnonzero(~st["branching"]):
                        if rng.random() < self.explore:
                            s = g * width
                            a[s] = rng.choice(np.flatnonzero(mask[s] > 0))
                if anchors is not None:
                    walking = np.flatnonzero(~st["branching"]) * width
                    keep = walking[rng.random(len(walking)) < 0.1]
                    anchors.add(obs[keep], mask[keep], a[keep].astype(np.int64))
                reward, done = env.step(a)[2:]
                counting = np.repeat(st["branching"], width) & (st["ended"] < E)
                st["ret"][counting] += reward[counting]
                st["ended"][counting] += done[counting].astype(np.int64)
                st["wait"][~st["branching"]] -= 1
                st["age"] += 1
                ends = np.flatnonzero(done)
                self.lengths += [int(x) for x in st["age"][ends]]
                st["age"][ends] = 0
                del self.lengths[:-1000]
                for g in np.flatnonzero(st["branching"]):
                    s = g * width
                    if (st["ended"][s: s + width] >= E).all():
                        r = st["ret"][s: s + width]
                        ring.add(st["obs"][g], st["mask"][g], st["act"][g], r, st["tried"][g])
                        t = st["tried"][g]
                        gains.append(float(r[t].max() - r[0]))
                        flips += int(r[t].max() > r[0] + 1e-6)
                        fresh += 1
                        st["branching"][g] = False
                        walk = int(np.mean(self.lengths)) if self.lengths else self.horizon
                        st["wait"][g] = rng.integers(0, max(1, walk))
        return fresh, flips, gains

    def close(self) -> None:
        for env in self.envs:
            env.close()


def scale_lr(opt, factor: float, top: float) -> None:
    """Multiplies every learning rate of ``opt`` by ``factor``, within [top / 64, top]."""
    for g in opt.param_groups:
        g["lr"] = min(top, max(top / 64, g["lr"] * factor))


def rollout_update(net, opt, ring: Branches, args, rng, anchors: Buffer | None = None) -> None:
    """``args.rl_epochs`` passes over the ring, in minibatches of ``args.rl_batch`` (or
    ``args.batch``), of: for a template that did better than the policy's choice, its gain
    times its log-probability (raised until the policy prefers it: the push fades only as its
    probability nears 1); for one that did worse, its loss times its log-probability down to a
    floor of 1e-3 (below it the log-probability has no bottom, and pushing templates that are
    already unlikely further down spoils the policy elsewhere); plus ``args.kl`` times the KL
    divergence from the policy before the update (legal templates only), on the branch points
    and on as many of ``anchors`` (states the policy visited) drawn at random."""
    if ring.size == 0:
        return
    adv = ring.advantages()
    n_anchor = anchors.size if anchors is not None else 0
    O = tensor(np.concatenate([ring.obs[: ring.size]] + ([anchors.obs[:n_anchor]] if n_anchor else [])))
    M = tensor(np.concatenate([ring.mask[: ring.size]] + ([anchors.mask[:n_anchor]] if n_anchor else [])))
    A, W = torch.as_tensor(ring.act[: ring.size]), torch.as_tensor(adv)
    with torch.no_grad():
        old = torch.log_softmax(net(O, M)[0], -1)
    floor = float(np.log(1e-3))
    mb = getattr(args, "rl_batch", None) or args.batch
    net.train()
    for _ in range(args.rl_epochs):
        perm = rng.permutation(ring.size)
        for s in range(0, ring.size, mb):
            b = torch.as_tensor(perm[s: s + mb])
            if n_anchor:
                b = torch.cat([b, torch.as_tensor(ring.size + rng.integers(0, n_anchor, len(b)))])
            logp = torch.log_softmax(net(O[b], M[b])[0], -1)
            k = len(b) if not n_anchor else len(b) // 2
            lp = logp[:k].gather(1, A[b[:k]])
            w = W[b[:k]]
            gain = (w.clamp(min=0) * lp).sum(1).mean()
            loss_ = (w.clamp(max=0) * lp.clamp(min=floor)).sum(1).mean()
            p_old = old[b].exp()
            kl = (p_old * (old[b] - logp)).masked_fill(M[b] == 0, 0.0).sum(-1).mean()
            loss = -gain - loss_ + args.kl * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
    net.eval()


__all__ = ["Branches", "Brancher", "CHECK_SLACK", "alternatives", "rollout_update", "rollouts",
           "scale_lr", "teacher_labels_of"]
