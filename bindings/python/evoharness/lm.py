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
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import re
import sys
import time

import numpy as np

try:
    import torch
    from torch import nn
    from torch.nn import functional as F
except ImportError as e:  # pragma: no cover - the train extra brings torch
    raise SystemExit("evoharness.lm needs torch: pip install 'evoharness[train]'") from e

ABI = "generative-v1"
TEXT_VERSION = 1
GRAMMAR_VERSION = 1
VOCAB = 256
PROMPT_END = b"> "


def sinusoid(positions: torch.Tensor, d: int) -> torch.Tensor:
    """Positions [..] (int64) to [.., d]: sin of the first half of the frequencies, then cos."""
    half = d // 2
    inv = 1.0 / (10000.0 ** (torch.arange(half, dtype=torch.float32) / half))
    ang = positions.to(torch.float32).unsqueeze(-1) * inv
    return torch.cat([torch.sin(ang), torch.cos(ang)], dim=-1)


class Block(nn.Module):
    def __init__(self, d: int, heads: int, ff: int):
        super().__init__()
        self.heads, self.dh = heads, d // heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, d, bias=False)
        self.ff1, self.ff2 = nn.Linear(d, ff), nn.Linear(ff, d)
        # Written out (MatMul, Softmax) for the export: tract runs opset 17 (FACTS).
        self.fused = True

    def forward(self, x, bias, past_k, past_v):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        split = lambda t: t.reshape(b, s, self.heads, self.dh).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        if self.fused:
            # The same arithmetic in one fused kernel: training and the student's choices.
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        else:
            att = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(self.dh)) + bias
            y = att.softmax(-1) @ v
        y = y.transpose(1, 2).reshape(b, s, d)
        x = x + self.out(y)
        x = x + self.ff2(F.gelu(self.ff1(self.ln2(x)), approximate="tanh"))
        return x, k, v


class Decoder(nn.Module):
    """The policy: ``forward(input_ids, attention_mask, position_ids, *past)`` returns
    ``(logits, *present)`` in the ``generative-v1`` layout (past and present: key then value
    of each layer, ``[batch, heads, length, head_dim]``)."""

    def __init__(self, d: int = 64, layers: int = 3, heads: int = 4, ff: int = 256,
                 alibi: bool = False):
        super().__init__()
        self.d, self.n_layers, self.n_heads, self.ff = d, layers, heads, ff
        # ALiBi: each head's attention falls off linearly with distance, at its own slope (a
        # bias towards the nearby bytes: the current event is the prompt's last lines).
        self.alibi = alibi
        self.register_buffer(
            "slopes", torch.tensor([2.0 ** (-8.0 * (h + 1) / heads) for h in range(heads)]),
            persistent=False)
        self.embed = nn.Embedding(VOCAB, d)
        self.blocks = nn.ModuleList(Block(d, heads, ff) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.unembed = nn.Linear(d, VOCAB, bias=False)

    def empty_past(self, batch: int = 1):
        z = torch.zeros(batch, self.n_heads, 0, self.d // self.n_heads)
        return [z] * (2 * self.n_layers)

    def forward(self, input_ids, attention_mask, position_ids, *past):
        s = input_ids.shape[1]
        t = attention_mask.shape[1]
        x = self.embed(input_ids) + sinusoid(position_ids, self.d)
        key_pos = torch.arange(t)
        q_pos = torch.arange(t - s, t).unsqueeze(1)
        allowed = (key_pos <= q_pos) & (attention_mask[:, None, None, :] > 0)
        bias = torch.where(allowed, torch.tensor(0.0), torch.tensor(-1e9))
        if self.alibi:
            dist = (q_pos - key_pos).clamp(min=0).to(torch.float32)  # [s, t]
            bias = bias - self.slopes.view(1, -1, 1, 1) * dist
        present = []
        for i, blk in enumerate(self.blocks):
            x, k, v = blk(x, bias, past[2 * i], past[2 * i + 1])
            present += [k, v]
        return (self.unembed(self.ln(x)), *present)


# --- data -------------------------------------------------------------------------------------


def encode(text: str) -> list[int]:
    return list(text.encode())


_FACT_LINE = re.compile(rb"F(\d+) ")
_FACT_REF = re.compile(rb"\bF(\d+)\b")


def permute_facts(prompt: bytes, action: bytes, rng: np.random.Generator) -> tuple[bytes, bytes]:
    """The same state with its facts in another slot order: the fact lines are shuffled and
    renumbered (``F<i>``) and the action's fact slot follows its fact. A fact is chosen by its
    key, which the rendering prints beside its slot; but a fact's slot is the order the task
    met it, and in most of the suite's states one slot holds the batch, so a model trained on
    them alone can learn the slot instead of the key (``act 2 F0`` where the batch sits in
    ``F2``). Nothing else in a prompt names a fact slot (events and lessons name keys)."""
    lines = prompt.split(b"\n")
    at = [k for k, line in enumerate(lines) if _FACT_LINE.match(line)]
    if len(at) < 2:
        return prompt, action
    perm = rng.permutation(len(at))  # the fact in slot i moves to slot perm[i]
    out = list(lines)
    for i, k in enumerate(at):
        body = lines[k].split(b" ", 1)[1]
        out[at[perm[i]]] = b"F%d %s" % (perm[i], body)
    action = _FACT_REF.sub(lambda m: b"F%d" % perm[int(m.group(1))], action)
    return b"\n".join(out), action


class Grammar:
    """The legal lines of one state, for the student's greedy constrained choice (the
    runtime's grammar, in Python: a prefix of a legal line at each byte)."""

    def __init__(self, lines: list[bytes], mask: np.ndarray):
        self.legal = {lines[i]: i for i in np.flatnonzero(mask)}

    def allowed(self, out: bytes) -> list[int]:
        n = len(out)
        return sorted({line[n] for line in self.legal if line.startswith(out) and len(line) > n})


def decode_line(model: Decoder, prompt: str, mask: np.ndarray, lines: list[bytes], pick):
    """One action line decoded under the grammar of ``mask``'s legal lines, as the runtime
    decodes: the prompt whole, then byte by byte with its cache; a byte every legal
    continuation shares is appended without a model run (it has probability 1) and fed with
    the next chosen one. ``pick(logits, allowed)`` returns the index in ``allowed`` of the
    byte to write. Returns the template index and the allowed bytes at each position."""
    g = Grammar(lines, mask)
    ids = torch.tensor([encode(prompt)])
    n = ids.shape[1]
    res = model(ids, torch.ones(1, n, dtype=torch.long), torch.arange(n)[None], *model.empty_past())
    logits, past = res[0][0, -1], list(res[1:])
    text, seq, fed = b"", [], 0
    while text not in g.legal:
        allowed = g.allowed(text)
        seq.append(allowed)
        if len(allowed) == 1:
            text += bytes(allowed)
            continue
        if fed < len(text):
            new = torch.tensor([list(text[fed:])])
            res = model(new, torch.ones(1, n + len(text), dtype=torch.long),
                        torch.arange(n + fed, n + len(text))[None], *past)
            logits, past, fed = res[0][0, -1], list(res[1:]), len(text)
        text += bytes([allowed[pick(logits, allowed)]])
    return g.legal[text], seq


@torch.no_grad()
def choose(model: Decoder, prompts: list[str], masks: np.ndarray, lines: list[bytes]) -> np.ndarray:
    """Greedy constrained decoding for a batch of prompts (no cache across decisions)."""
    model.eval()
    greedy = lambda logits, allowed: int(torch.argmax(logits[allowed]))
    return np.array([decode_line(model, p, m, lines, greedy)[0] for p, m in zip(prompts, masks)],
                    np.int64)


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


# --- cost-aware RL (GRPO) --------------------------------------------------------------------


@torch.no_grad()
def sample_lines(model: Decoder, prompts: list[str], masks: np.ndarray, lines: list[bytes],
                 rng: np.random.Generator):
    """Each prompt's action line sampled under the grammar: every chosen byte drawn from the
    softmax of the model's logits over the bytes a legal line can continue with (the Gumbel-max
    trick, with ``rng``). Returns the template indices, their log-probabilities (the sum over
    the line's bytes) and, for each, the allowed bytes at each of its positions."""
    model.eval()
    picks = np.zeros(len(prompts), np.int64)
    logps = np.zeros(len(prompts))
    allowed_seqs = []
    for j, (p, m) in enumerate(zip(prompts, masks)):
        lp = [0.0]

        def draw(logits, allowed):
            z = logits[allowed].log_softmax(-1).numpy()
            k = int(np.argmax(z - np.log(rng.standard_exponential(len(allowed)))))
            lp[0] += float(z[k])
            return k

        picks[j], seq = decode_line(model, p, m, lines, draw)
        logps[j] = lp[0]
        allowed_seqs.append(seq)
    return picks, logps, allowed_seqs


def rl_rollouts(model: Decoder, task: str, scenario: str, horizon: int, orgs: range, seed: int,
                groups: int, group: int, lines: list[bytes], rng: np.random.Generator):
    """GRPO's episodes: ``groups`` groups of ``group`` environments that share an organisation
    and a seed, one whole episode each, sampled from the model. Returns each environment's
    decisions (prompt, allowed bytes per position, line, log-probability) and its episode."""
    from .vec_env import VecEnv

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


def grpo_update(model: Decoder, ref: Decoder, opt, batch: list, epochs: int, minibatch: int,
                kl_coef: float, rng: np.random.Generator) -> float:
    """Clipped-ratio policy-gradient epochs over ``batch`` (decisions with their old
    log-probability and their episode's advantage), with a KL penalty to the frozen ``ref``
    over the allowed bytes of each position; the same update as the MLP's GRPO. Returns the
    mean KL of the last minibatch."""
    model.train()
    kl_last = 0.0
    for _ in range(epochs):
        order = rng.permutation(len(batch))
        for s in range(0, len(batch), minibatch):
            mb = sorted((batch[k] for k in order[s: s + minibatch]), key=lambda b: len(b[0]))
            lp, lp_all, allowed = line_logps(model, mb)
            old = torch.tensor([b[3] for b in mb], dtype=torch.float32)
            adv = torch.tensor([b[4] for b in mb], dtype=torch.float32)
            ratio = torch.exp(lp - old)
            pg = -torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv).mean()
            with torch.no_grad():
                ref_all = line_logps(ref, mb)[1]
            # Over the allowed bytes only (elsewhere both are -inf: filled with 0, no NaN).
            diff = (lp_all - ref_all.masked_fill(~allowed, 0.0)).masked_fill(~allowed, 0.0)
            kl = (lp_all.exp() * diff).sum(-1).mean()
            loss = pg + kl_coef * kl
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            kl_last = float(kl.detach())
    model.eval()
    return kl_last


# --- export -----------------------------------------------------------------------------------


def export(model: Decoder, path, capacities: dict, context: int, producer: str) -> None:
    """Writes the model in the ``generative-v1`` layout with its metadata, and checks with
    ONNX Runtime that the cached and uncached logits agree with torch's."""
    import onnx

    model.eval()
    for blk in model.blocks:
        blk.fused = False
    L = model.n_layers
    past_names = [f"past_key_values.{i}.{kv}" for i in range(L) for kv in ("key", "value")]
    present_names = [f"present.{i}.{kv}" for i in range(L) for kv in ("key", "value")]
    ids = torch.tensor([encode("tools 8 budget")])
    s = ids.shape[1]
    past = [torch.zeros(1, model.n_heads, 2, model.d // model.n_heads)] * (2 * L)
    args = (ids, torch.ones(1, s + 2, dtype=torch.long), torch.arange(2, s + 2)[None], *past)
    dyn = {"input_ids": {1: "sequence"}, "attention_mask": {1: "total"},
           "position_ids": {1: "sequence"}, "logits": {1: "sequence"}}
    for n in past_names:
        dyn[n] = {2: "past"}
    for n in present_names:
        dyn[n] = {2: "total"}
    path = pathlib.Path(path)
    import warnings

    with torch.no_grad(), warnings.catch_warnings():
        # The legacy exporter's notices (deprecation, traced constants) are expected here.
        warnings.simplefilter("ignore")
        torch.onnx.export(model, args, str(path), input_names=["input_ids", "attention_mask",
                          "position_ids", *past_names], output_names=["logits", *present_names],
                          dynamic_axes=dyn, opset_version=17, dynamo=False)
    m = onnx.load(str(path))
    del m.graph.value_info[:]  # tract refuses symbolic value_info (FACTS)
    meta = {"evoharness.abi": ABI, "evoharness.text_version": str(TEXT_VERSION),
            "evoharness.grammar_version": str(GRAMMAR_VERSION), "evoharness.context": str(context),
            "evoharness.tokenizer": "bytes", "evoharness.facts": str(capacities["facts"]),
            "evoharness.steps": str(capacities["steps"]),
            "evoharness.lessons": str(capacities["lessons"]),
            "evoharness.tools": str(capacities["tools"]), "evoharness.producer": producer}
    del m.metadata_props[:]
    for k, v in meta.items():
        e = m.metadata_props.add()
        e.key, e.value = k, v
    onnx.save(m, str(path))
    for blk in model.blocks:
        blk.fused = True
    check_export(model, path)


def check_export(model: Decoder, path) -> float:
    """The largest difference between torch's logits and ONNX Runtime's for a prompt run whole,
    and in two pieces through the exported cache; raises if above 1e-3."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    prompt = encode("tools 8 budget 100 costs 1 1 1 1 1 0\nlessons 0/4\n> ")
    ids = torch.tensor([prompt])
    n = ids.shape[1]
    with torch.no_grad():
        want = model(ids, torch.ones(1, n, dtype=torch.long), torch.arange(n)[None],
                     *model.empty_past())[0].numpy()
    names = [i.name for i in sess.get_inputs()]
    outs = [o.name for o in sess.get_outputs()]

    def run(chunk, start, past):
        feeds = {"input_ids": np.array([chunk], np.int64),
                 "attention_mask": np.ones((1, start + len(chunk)), np.int64),
                 "position_ids": np.arange(start, start + len(chunk), dtype=np.int64)[None]}
        for k, name in enumerate(x for x in names if x.startswith("past_key_values.")):
            feeds[name] = past[k] if past else np.zeros(
                (1, model.n_heads, 0, model.d // model.n_heads), np.float32)
        return sess.run(outs, feeds)

    whole = run(prompt, 0, None)
    cut = 17
    first = run(prompt[:cut], 0, None)
    second = run(prompt[cut:], cut, first[1:])
    d = max(float(np.abs(whole[0] - want).max()),
            float(np.abs(second[0][0] - want[0, cut:]).max()))
    if d > 1e-3:
        raise RuntimeError(f"the export differs from torch by {d}")
    return d


# --- training ---------------------------------------------------------------------------------


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


#: Validation seeds: above every training seed, below the held-out ones (3,000,000 and up).
VALID_SEED = 2_000_000


def span(s: str) -> range:
    a, b = s.split("..")
    return range(int(a), int(b))


def evaluate(path, task: str, scenario: str, horizon: int, orgs: range, seeds: range) -> dict:
    """The exported policy through the runtime's agent (``evoharness eval``: the loop a host
    embeds, constrained decoding in Rust): its JSON report. The tool is ``$EVOHARNESS_BIN``,
    else ``evoharness`` on the PATH."""
    import os
    import subprocess

    binary = os.environ.get("EVOHARNESS_BIN", "evoharness")
    cmd = [binary, "eval", "--scenario", scenario, "--task", task, "--agent", f"policy:{path}",
           "--horizon", str(horizon), "--organisations", f"{orgs.start}..{orgs.stop}",
           "--seeds", f"{seeds.start}..{seeds.stop}", "--json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@torch.no_grad()
def diagnose(model: Decoder, task: str, scenario: str, teacher: str, horizon: int, orgs: range,
             envs: int = 8, steps: int = 80, driver: str = "teacher", show: int = 0) -> dict:
    """How often the model's constrained greedy choice is the teacher's, by the teacher's kind
    of action (its line's first word) and right after an error. ``driver`` says whose choices
    step the environments: the teacher's (every state is one the teacher visits) or the
    model's own (the states the model reaches, its errors included: where DAgger's data comes
    from). With ``show``, the first ``show`` disagreements are listed under ``"examples"``
    (the prompt, the model's line, the teacher's)."""
    from .vec_env import VecEnv, suite_layout

    if driver not in ("teacher", "student"):
        raise ValueError(f"driver is teacher or student, not {driver!r}")
    lines = [t.encode() for t in suite_layout()["action_texts"]]
    env = VecEnv(task, horizon, envs, organisations=orgs, seed=VALID_SEED, scenario=scenario)
    seen: dict[str, list[int]] = {}
    examples = []
    for _ in range(steps):
        _, mask = env.observe()
        labels = env.teacher_actions(teacher)
        prompts = env.texts()
        pick = choose(model, prompts, mask, lines)
        for i in range(env.n):
            if labels[i] < 0:
                continue
            kinds = [lines[labels[i]].split()[0].decode()]
            if "\nevent error" in prompts[i]:
                kinds.append("after an error")
            for k in kinds + ["all"]:
                right, total = seen.setdefault(k, [0, 0])
                seen[k] = [right + int(pick[i] == labels[i]), total + 1]
            if pick[i] != labels[i] and len(examples) < show:
                examples.append({"prompt": prompts[i], "model": lines[pick[i]].decode(),
                                 "teacher": lines[labels[i]].decode()})
        act = pick if driver == "student" else labels
        env.step(np.where(labels >= 0, act, 0).astype(np.int64))
    report = {k: {"agree": r, "states": n, "share": round(r / n, 4)} for k, (r, n) in seen.items()}
    if show:
        report["examples"] = examples
    return report


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    from .vec_env import VecEnv, suite_layout, suite_capacities

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


def grpo(model: Decoder, args, tasks: list[str], lines: list[bytes], rng, checkpoint) -> None:
    """Stage 2, cost-aware GRPO as the MLP's (``training.grpo``): every iteration, for each
    task, ``--groups`` groups of ``--group`` fresh environments that share an organisation and
    a seed (new seeds each iteration) run one whole episode each, sampled from the model under
    the grammar; an episode's advantage is its reward (success gates an efficiency bonus, every
    action costs budget) against its group's mean, over the group's standard deviation, and a
    group without a success sits out. A clipped ratio and a KL penalty to the model GRPO
    started from. Every iteration is a candidate, validated as the rounds are."""
    import copy

    from .training import RL_SEED, group_advantages

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
        kl = grpo_update(model, ref, opt, batch, args.rl_epochs, args.batch, args.kl, rng) \
            if batch else 0.0
        row = {"stage": "grpo", "iteration": it, "decisions": len(batch), "kl": round(kl, 5),
               "train_success": float(np.mean([e["success"] for e in eps])),
               "train_reward": round(float(np.mean([e["reward"] for e in eps])), 4),
               "train_harness": float(np.mean([e["harness_actions"] for e in eps])),
               "rollout_s": round(rollout_s, 1), "learn_s": round(time.time() - t1, 1)}
        print(json.dumps(row), file=sys.stderr)
        checkpoint(f"rl{it}", row)
        if time.time() > deadline:
            break


if __name__ == "__main__":
    sys.exit(main())
