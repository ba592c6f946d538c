"""Constrained decoding in training: an action line decoded byte by byte under the grammar of
a state's legal lines, as the runtime decodes it; greedy (the student's choice in DAgger,
:func:`choose`) or sampled (GRPO's episodes, :func:`sample_lines`)."""

from __future__ import annotations

import numpy as np
import torch

from .model import Decoder
from .text import encode


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


__all__ = ["Grammar", "choose", "decode_line", "sample_lines"]
