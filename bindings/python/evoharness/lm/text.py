"""Prompts and actions as the model's bytes: a state's text (``workspace-text-v1``, rendered
by the library) encoded, and the same state with its fact slots shuffled
(``--permute-facts``)."""

from __future__ import annotations

import re

import numpy as np


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


__all__ = ["encode", "permute_facts"]
