"""The networks: the structured policy (:class:`Net`, an MLP with masked logits, what is
exported) and PPO's value function (:class:`Critic`, never exported), with the helpers that
run them on observations."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from .layout import feature_offset


class Net(nn.Module):
    """An MLP with masked logits and a value head: the structured-v1 contract.

    ``scale`` (``obs_len`` floats, or ``None``) multiplies the observation before the first
    layer, inside the exported graph (an initialiser named ``scale``): the same observation
    in, a network that sees some features at another scale (:func:`staleness_scale`)."""

    def __init__(self, obs_len: int, actions: int, hidden: int, scale=None):
        super().__init__()
        self.register_buffer(
            "scale", None if scale is None else torch.as_tensor(np.asarray(scale, np.float32)))
        self.body = nn.Sequential(
            nn.Linear(obs_len, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs, mask):
        if self.scale is not None:
            obs = obs * self.scale
        h = self.body(obs)
        return self.pi(h) + (mask - 1.0) * 1e9, self.v(h)

    def twin(self) -> "Net":
        """A network of the same shape and scale with a copy of these weights."""
        ref = Net(self.body[0].in_features, self.pi.out_features, self.pi.in_features,
                  self.scale)
        ref.load_state_dict(self.state_dict())
        return ref


def staleness_scale(lay: dict) -> np.ndarray:
    """A :class:`Net` ``scale`` that multiplies every Belief fact's ``staleness`` feature by 32:
    the observation writes staleness s as s / (s + 32), so a fact confirmed at the last step
    (0) and one a step older (0.03) differ by a hair, and rules that tell them apart (the tuned
    rule's recall: track the code, recall while it is fresh, guess once it is a step old) are
    hard to imitate from it. Scaled, one step is about one unit. Every other feature as is."""
    scale = np.ones(lay["obs_len"], np.float32)
    facts = next(s for s in lay["segments"] if s["name"] == "facts")
    first = feature_offset(lay, "facts", "staleness")  # in the first row
    scale[first: facts["offset"] + facts["rows"] * facts["width"]: facts["width"]] = 32.0
    return scale


class Critic(nn.Module):
    """PPO's value function: an MLP of its own on the observation, not a head on the policy's
    body. Measured on the invoices world (the imitation policy's episodes, returns to the end):
    a linear head on the imitated body explains 4% of the returns' variance, an MLP of the same
    size on the observation 59%; training the body for both moves the policy. It is not
    exported: the runtime never needs a value."""

    def __init__(self, obs_len: int, hidden: int):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(obs_len, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                               nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.f(obs)[:, 0]


def tensor(a, dtype=torch.float32):
    return torch.as_tensor(np.asarray(a), dtype=dtype)


def greedy(net, obs, mask):
    with torch.no_grad():
        logits, _ = net(tensor(obs), tensor(mask))
    return logits.argmax(-1).numpy().astype(np.uint32)


__all__ = ["Critic", "Net", "greedy", "staleness_scale", "tensor"]
