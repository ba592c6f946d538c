"""The language model: a small decoder-only transformer over bytes (sinusoidal positions,
pre-norm attention blocks, optional ALiBi), whose ``forward`` is the ``generative-v1``
layout (``runtime/POLICY.md``), and the layout's versions."""

from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

#: The policy file's ABI, and the versions of the text it reads and the grammar it writes.
ABI = "generative-v1"
TEXT_VERSION = 1
GRAMMAR_VERSION = 1
#: Byte tokens.
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


__all__ = ["ABI", "Block", "Decoder", "GRAMMAR_VERSION", "PROMPT_END", "TEXT_VERSION", "VOCAB",
           "sinusoid"]
