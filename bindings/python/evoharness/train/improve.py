"""Stage 2 by improving on the teacher (``--rl improve``, the default with a world and a
teacher): what each decision earns is measured, and the teacher's labels are changed where
another template earns more on average.

A branch point (:class:`~evoharness.train.rollouts.Brancher`) is a state the learner reached;
copies of its environment try the learner's choice, the teacher's, what the teacher does
without its harness action (the source's ``skip_labels``) and the likeliest templates of other
kinds there, and then every copy plays on *as the teacher would* to the end of the episode,
under the same draws. A template's gain is its return against the learner's choice: what that
one decision changes when the teacher does the rest (the teacher's action-value ``Q_T``).
:data:`MEMBERS` networks over templates (:class:`Gains`) are fitted to those gains, in steps of
the budget (:func:`unit_of`), by squared error, so that over states the observation cannot
tell apart they learn the *mean*: a check skipped that paid in two draws of three and failed
the episode in the third is learnt as the loss it is on average, where the best template of
each draw would teach the skip. A loss beyond :data:`SETBACK` steps (a failed episode) is
learnt as a chance, not regressed, so that it cannot drown the small gains.

The **improved teacher** (:class:`Improved`) labels a state with the teacher's template, unless
a candidate is expected by every network to earn more than it by :data:`MARGIN` steps with a
chance of a setback under :data:`RISK`: at a harness label its skip label, at a world action
the other world actions. It never adds a harness action. Acting so at every state is the
one-step policy improvement of the teacher: never worse than the teacher where the gains are
right, and better wherever one decision of the teacher's is improvable on its own (a ``track``
no later decision reads, a call that saves more than it costs). Where the gains are wrong it can
be worse, so every iteration it plays check episodes, paired with the teacher, with and without
its world-action changes, and only gains that keep it at least as good as the teacher are used.

The learner imitates the improved teacher by DAgger on the states it visits itself, as in stage
1, with its cross-entropy: the policy stays an imitation of a rule, labelled everywhere it goes,
never a network pushed at a few states (what made the rollouts' updates loop,
``examples/train/README.md``). Every state visited is kept with the teacher's labels and
relabelled by the latest gains each iteration; every iteration is a checkpoint for model
selection.

What it cannot find: a change that pays only with another change later (keep a fact in Belief
so that a later check can be skipped; note a lesson that a later decision reads), as the
teacher plays on and reads neither. ``--continuation improved`` (policy iteration: the copies
play on as the improved teacher, and templates are tried at random now and then) is the
attempt at those; on the bench it found nothing more (``examples/learning/README.md``)."""

from __future__ import annotations

import collections
import copy
import time

import numpy as np
import torch
from torch import nn

from .imitation import Buffer, fit
from .layout import harness_templates, template_kinds
from .net import greedy, tensor
from .rollouts import Branches, Brancher, alternatives
from .seeds import CHECK_SEED, TRAIN_SEED, VALID_SEED
from ..figures import paired_gain, summary
from .selection import select
from .sources import first_episodes, teacher_choice, valid_fields, validate

#: How much more than the teacher's choice, in steps of the budget (:func:`unit_of`), every
#: :class:`Gains` network must expect a template to earn before the improved teacher takes it.
MARGIN = 0.5
#: With ``--continuation improved``: the share of walking steps that take a template at random
#: (:class:`~evoharness.train.rollouts.Brancher`'s ``explore``).
EXPLORE = 0.05
#: How many :class:`Gains` networks are fitted (each from its own initial weights and
#: minibatches); the improved teacher takes a template only where every one expects it to pay.
MEMBERS = 4
#: Iterations over which the learner's learning rate falls from ``--lr`` to a tenth of it.
DECAY_ITERS = 30
#: Minibatches of the gains' fit per iteration.
GAIN_STEPS = 400
#: A difference below minus this many steps of the budget is a *setback* (an episode failed, a
#: remedy lost): :class:`Gains` predicts its chance instead of regressing its size.
SETBACK = 10.0
#: The highest chance of a setback a template may have for the improved teacher to take it.
RISK = 0.02


class Gains(nn.Module):
    """What each template earns against another at a state: an MLP from the observation to two
    values per template: its gain in steps of the budget, clipped to ``[-SETBACK, SETBACK]`` (only
    differences between templates mean anything), and the logit of the chance that it is a
    setback (a loss beyond ``SETBACK``) against the learner's choice. Separate, a failed
    episode (a hundred steps or more) cannot drown the regression of the small gains that
    decide most states, and the chance of one is learnt as a chance."""

    def __init__(self, obs_len: int, actions: int, hidden: int):
        super().__init__()
        self.actions = actions
        self.f = nn.Sequential(nn.Linear(obs_len, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                               nn.ReLU(), nn.Linear(hidden, 2 * actions))

    def forward(self, obs):
        out = self.f(obs)
        return out[:, : self.actions], out[:, self.actions:]


def unit_of(source) -> float:
    """The smallest gain that counts: what one step of an episode that succeeds costs in the
    library's reward (``STEP_PENALTY + EFFICIENCY`` over the budget; an action of cost 1)."""
    from ..agent import EFFICIENCY, STEP_PENALTY

    return (STEP_PENALTY + EFFICIENCY) / max(1, int(getattr(source, "horizon", 0) or 100))


def fit_gains(q: Gains, opt, ring: Branches, unit: float, steps: int, batch: int, rng) -> float:
    """``steps`` minibatches of: squared error of each tried template's value less the first's
    (the learner's choice) against their return difference over ``unit``, clipped to
    ``[-SETBACK, SETBACK]``; plus the cross-entropy of its setback logit against whether the
    difference is below ``-SETBACK``. Returns the mean loss of the last tenth."""
    n = ring.size
    if n == 0:
        return 0.0
    T = ring.tried[:n].copy()
    d = np.where(T, ring.ret[:n] - ring.ret[:n, :1], 0.0) / unit
    d[np.abs(d) < 1e-6 / unit] = 0.0
    T[:, 0] = False
    O, A = tensor(ring.obs[:n]), torch.as_tensor(ring.act[:n])
    D = tensor(np.clip(d, -SETBACK, SETBACK))
    S = tensor((d < -SETBACK).astype(np.float32))
    W = tensor(T.astype(np.float32))
    q.train()
    losses = []
    for _ in range(steps):
        b = torch.as_tensor(rng.integers(0, n, min(batch, n)))
        v, c = q(O[b])
        v, c = v.gather(1, A[b]), c.gather(1, A[b])
        w = W[b]
        reg = (((v - v[:, :1] - D[b]) ** 2) * w).sum() / w.sum().clamp(min=1.0)
        bce = (nn.functional.binary_cross_entropy_with_logits(c, S[b], reduction="none") * w).sum() \
            / w.sum().clamp(min=1.0)
        loss = reg + bce
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(q.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
    q.eval()
    return float(np.mean(losses[-max(1, steps // 10):]))


class Improved:
    """The improved teacher (module docstring) over a ``source``: its teacher's label, unless a
    candidate is expected by ``gains`` to earn more than the label by :data:`MARGIN`, with a
    chance of a setback of at most :data:`RISK`. The candidates: where the teacher's label is a
    harness action, only doing without it (the source's ``skip_labels``: what the teacher does
    next when told it was done); where it is a world action, the learner ``net``'s likeliest
    template of each other kind that is not a harness action (:func:`alternatives`). So the
    improved teacher leaves out harness actions and changes world actions, and never adds a
    harness action the teacher would not take: one that changes nothing the observation shows
    would look as good again at the state it leaves, and a learner taught it loops."""

    def __init__(self, source, net, gains: list, width: int):
        self.source, self.net, self.gains, self.width = source, net, gains, width
        self.kinds_of = template_kinds(source.layout)
        self.harness_of = harness_templates(source.layout)
        #: False: the teacher's labels as they are (no gains have passed the check yet).
        self.active = True
        #: Whether world actions are changed too (else only harness actions left out).
        self.world = True
        #: Labels changed and labels given, since the last :meth:`counts`.
        self.changed = self.given = 0
        #: The changes since the last :meth:`counts`, by the kinds of template
        #: (``"track -> act:publish"``).
        self.how = collections.Counter()
        self.names = [f"{v}:{t}" if v == "act" else v for v, t in
                      ((verb, source.tools[tool] if source.tools and tool >= 0 else tool)
                       for verb, tool in source.layout["templates"])]

    def teacher(self, env) -> np.ndarray:
        """The teacher's label and its skip label in every environment, as ``(n, 2)``."""
        labels = np.asarray(self.source.labels(env)[0], np.int64)
        skips = np.asarray(self.source.skip_labels(env), np.int64).copy()
        skips[(labels < 0) | ~self.harness_of[np.maximum(labels, 0)]] = -1
        return np.stack([labels, skips], 1)

    def relabel(self, obs, mask, taught, count: bool = True) -> np.ndarray:
        """The improved teacher's templates at states (``obs``, ``mask``) where
        :meth:`teacher` said ``taught`` (label -1: none, kept); ``count`` adds them to
        :meth:`counts`."""
        labels = taught[:, 0].copy()
        ok = np.flatnonzero(labels >= 0)
        if len(ok) == 0 or not self.active:
            return labels
        with torch.no_grad():
            o, m = tensor(obs[ok]), tensor(mask[ok])
            logits = self.net(o, m)[0].numpy()
            outs = [q(o) for q in self.gains]
            value = torch.stack([v for v, _ in outs]).numpy()  # (members, states, templates)
            risk = torch.sigmoid(torch.stack([c for _, c in outs])).max(0).values.numpy()
        for row, i in enumerate(ok):
            label, skip = int(labels[i]), int(taught[i, 1])
            if self.harness_of[label]:
                if skip < 0:
                    continue
                cand = np.array([skip])
            elif not self.world:
                continue
            else:
                act, tried = alternatives(logits[row], mask[i], self.width, self.kinds_of,
                                          self.harness_of, label)
                cand = act[tried]
                cand = cand[~self.harness_of[cand] & (cand != label)]
                if len(cand) == 0:
                    continue
            # Pessimistic: the least gain any member expects, the highest risk any sees.
            gain = (value[:, row, cand] - value[:, row, label: label + 1]).min(0)
            gain[risk[row, cand] > RISK] = -np.inf
            j = int(np.argmax(gain))
            if gain[j] > MARGIN:
                if count:
                    self.how[f"{self.names[label]} -> {self.names[cand[j]]}"] += 1
                labels[i] = cand[j]
                self.changed += count
        self.given += len(ok) if count else 0
        return labels

    def continuation(self, env, logits) -> np.ndarray:
        """The improved teacher's template in every environment."""
        return self.relabel(env.obs, env.mask, self.teacher(env), count=False)

    def guide(self, env, logits) -> np.ndarray:
        """A :class:`~evoharness.train.rollouts.Brancher` ``cont`` and ``extra`` in one call:
        the improved teacher's template, then the teacher's label and skip label, ``(n, 3)``."""
        taught = self.teacher(env)
        return np.concatenate(
            [self.relabel(env.obs, env.mask, taught, count=False)[:, None], taught], 1)

    def choose(self, env) -> np.ndarray:
        """The improved teacher acting (the learner's choice where the teacher has none)."""
        lab = self.continuation(env, None)
        return np.where(lab >= 0, lab, greedy(self.net, env.obs, env.mask)).astype(np.uint32)

    def counts(self) -> tuple[int, int, str]:
        """Labels changed and given since the last call, and the commonest changes."""
        how = ", ".join(f"{k} {n}" for k, n in self.how.most_common(4))
        out = self.changed, self.given, how
        self.changed = self.given = 0
        self.how.clear()
        return out


class Taught:
    """A ring of states the learner visited, with what :meth:`Improved.teacher` said there."""

    def __init__(self, cap: int, obs_len: int, actions: int):
        self.obs = np.zeros((cap, obs_len), np.float32)
        self.mask = np.zeros((cap, actions), np.float32)
        self.taught = np.zeros((cap, 2), np.int64)
        self.cap, self.size, self.head = cap, 0, 0

    def add(self, obs, mask, taught):
        for k in range(len(taught)):
            i = self.head
            self.obs[i], self.mask[i], self.taught[i] = obs[k], mask[k], taught[k]
            self.head = (self.head + 1) % self.cap
            self.size = min(self.cap, self.size + 1)


def visit(env, net, improved: Improved, taught: Taught, steps: int) -> int:
    """``steps`` steps of ``env``, the learner acting greedily, each state kept in ``taught``
    with the teacher's label and skip label; returns the steps taken."""
    for _ in range(steps):
        t = improved.teacher(env)
        ok = t[:, 0] >= 0
        taught.add(env.obs[ok], env.mask[ok], t[ok])
        env.step(greedy(net, env.obs, env.mask))
    return steps * env.n


def improve(net, source, args, log, deadline: float, best, rng, pool=None):
    """Stage 2 of ``--rl improve`` (module docstring): ``args.rl_iters`` iterations (or until
    the ``deadline``) of ``args.rl_states`` new branch points per kind (``args.branches``
    templates besides the learner's, ``args.groups`` groups; the teacher's label and skip
    label among them), the gains refitted on all branch points so far, and ``args.round_steps``
    steps of ``args.envs`` environments per kind, the learner acting (as a DAgger round),
    each state kept with the teacher's labels. Then the learner is fitted as stage 1 fits
    (twice ``args.epochs`` passes of ``args.batch``; the learning rate from ``args.lr`` down to
    a tenth over :data:`DECAY_ITERS` iterations) to every state kept so far, each labelled by
    the improved teacher of the latest gains: as the gains improve, every state follows.
    Needs a teacher; runs in this process (``--ray`` or not)."""
    if getattr(source, "teacher", None) is None:
        raise ValueError("--rl improve needs a teacher (--teacher)")
    lay = source.layout
    kinds = list(getattr(source, "rl_kinds", source.kinds))
    width = int(args.branches) + 1
    ring = Branches(64 * args.rl_states * len(kinds), lay["obs_len"], lay["actions"], width)
    # Their initial weights from the run's seed alone, whatever drew from torch's generator
    # before (a Ray pool does, this process's does not): the same run anywhere.
    with torch.random.fork_rng():
        torch.manual_seed(int(getattr(args, "seed", 0)) + 7_919)
        gains = [Gains(lay["obs_len"], lay["actions"], args.hidden) for _ in range(MEMBERS)]
    gopt = [torch.optim.Adam(q.parameters(), lr=1e-3) for q in gains]
    improved = Improved(source, net, gains, width)

    def check_rows(choose) -> list:
        return [row for kind in source.kinds for row in first_episodes(
            source, kind, choose, CHECK_SEED, args.valid_episodes, split="train")]

    teacher_rows = check_rows(teacher_choice(source))
    accepted = None  # the members' weights the improved teacher last passed its check with
    unit = unit_of(source)
    iterate = getattr(args, "continuation", "teacher") == "improved"
    # One call a step: the teacher's label plays the copies on, and with its skip label is
    # tried at a branch point.
    def guide(env, logits):
        return improved.teacher(env)

    brancher = Brancher(source, args, rng, cont=guide, extra=guide,
                        explore=EXPLORE if iterate else 0.0)
    per_round = args.envs * args.round_steps * len(source.kinds)
    taught = Taught(8 * per_round, lay["obs_len"], lay["actions"])
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    envs = [source.envs(kind, args.envs, TRAIN_SEED + 7_919 * (k + 1), split="train")
            for k, kind in enumerate(source.kinds)]
    try:
        for it in range(args.rl_iters):
            if time.time() > deadline:
                break
            if iterate and it > 0:  # policy iteration: the copies play on as the improved teacher
                brancher.cont = brancher.extra = improved.guide
            t = time.time()
            fresh, flips, g = brancher.collect(net, args.rl_states * len(kinds), ring)
            branch_s = time.time() - t
            t = time.time()
            gloss = float(np.mean([fit_gains(q, o, ring, unit, GAIN_STEPS, args.batch, rng)
                                   for q, o in zip(gains, gopt)]))
            # The improved teacher as a rule, on check episodes, paired with the teacher, with
            # its changes of world actions and without: the better of the two that is not
            # worse than the teacher is used; if neither, the gains that last passed (or none).
            improved.active, chosen = True, None
            for world in (True, False):
                improved.world = world
                rows = check_rows(improved.choose)
                p = paired_gain(rows, teacher_rows)
                if p["gain"] >= 0.0 and (chosen is None or p["gain"] > chosen[1]["gain"]):
                    chosen = (world, p, rows)
            passed = chosen is not None
            if passed:
                improved.world, against, rule_rows = chosen
                accepted = ([copy.deepcopy(q.state_dict()) for q in gains], improved.world)
            else:
                against, rule_rows = p, rows
                if accepted is not None:  # back to the gains that passed; the fit goes on
                    for q, w in zip(gains, accepted[0]):
                        q.load_state_dict(w)
                    improved.world = accepted[1]
            improved.active = accepted is not None
            rule = summary(rule_rows)
            # The first round visits four rounds' worth: the learner is fitted to these alone.
            for env in envs:
                visit(env, net, improved, taught, args.round_steps * (4 if it == 0 else 1))
            n = taught.size
            data = Buffer(n, lay["obs_len"], lay["actions"])
            data.add(taught.obs[:n], taught.mask[:n],
                     improved.relabel(taught.obs[:n], taught.mask[:n], taught.taught[:n]))
            changed, given, how = improved.counts()
            # The learning rate falls from --lr to a tenth of it over the first DECAY_ITERS
            # iterations (or --rl-iters, if fewer), so that later rounds settle on the improved
            # teacher instead of chasing it. By iteration, not time: the same run anywhere.
            done = min(1.0, it / max(1, min(args.rl_iters, DECAY_ITERS)))
            for group in opt.param_groups:
                group["lr"] = args.lr * 0.1 ** done
            loss = fit(net, opt, data, 2 * args.epochs, args.batch, rng)
            learn_s = time.time() - t
            v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
            log(stage=2, iteration=it, rule_success=round(rule["success_rate"], 4),
                rule_reward=round(rule["mean_reward"], 4),
                rule_harness=round(rule["mean_harness_actions"], 3),
                rule_gain=round(against["gain"], 5), rule_passed=passed,
                rule_world=improved.world, branch_points=ring.size,
                better_elsewhere=round(flips / max(1, fresh), 4),
                mean_gain=round(float(np.mean(g)), 5) if g else None, unit=float(f"{unit:.3g}"),
                gains_loss=round(gloss, 4), relabelled=round(changed / max(1, given), 4),
                changes=how, samples=data.size, loss=round(loss, 5), branch_s=round(branch_s, 1),
                learn_s=round(learn_s, 1), **valid_fields(v))
            best = select(best, v, net, ("improve", it))
    finally:
        for env in envs:
            env.close()
        brancher.close()
    return best


__all__ = ["DECAY_ITERS", "EXPLORE", "GAIN_STEPS", "Gains", "Improved", "MARGIN", "MEMBERS",
           "RISK", "SETBACK", "Taught", "fit_gains", "improve", "unit_of", "visit"]
