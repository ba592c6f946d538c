#!/usr/bin/env python3
"""Greedy validation of a policy with a constant added to the logits of every template of some
harness verbs: how far a uniform cost knob takes harness use down, and what it costs.

    scripts/logit-offsets.py POLICY.onnx [--task migration] [--scenario v1] [--horizon 100]
                             [--episodes 32] [--grid '{"track": [0, -4], "commit": [0, -8]}']

POLICY.onnx is one `python -m evoharness.train` exported (`--hidden` its width). For every
combination of the grid's offsets (verbs: track, commit, recall, note, ...), the policy's
output bias is shifted by them and the trainer's validation runs (`train.sources.validate`:
validation organisations and seeds, first episodes, greedy); one JSON line per combination
with its success, mean reward and harness actions per episode. `examples/train/README.md`
quotes it for the v1 static imitation. Needs torch and onnx (`examples/train/requirements.txt`)
and the training library (`EVOHARNESS_LIB`, as the Python package finds it).
"""
import argparse
import itertools
import json

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("policy")
    ap.add_argument("--task", default="migration")
    ap.add_argument("--scenario", default="v1", choices=["v1", "v2"])
    ap.add_argument("--horizon", type=int, default=100)
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--grid", default='{"track": [0, -2, -4, -8], "commit": [0, -4]}',
                    help="JSON: verb -> list of offsets")
    a = ap.parse_args()

    import torch

    from evoharness.train.seeds import VALID_SEED
    from evoharness.train.sources import suite_policy, valid_fields, validate

    src, net = suite_policy(a.policy, a.task, a.horizon, a.scenario, a.hidden)
    lay = src.layout
    verbs = np.array([str(verb) for verb, _ in lay["templates"]])
    grid = json.loads(a.grid)
    unknown = sorted(set(grid) - set(verbs))
    if unknown:
        ap.error(f"no templates of verb(s) {unknown}; the layout's verbs: {sorted(set(verbs))}")
    base = net.pi.bias.detach().clone()
    for offsets in itertools.product(*grid.values()):
        bias = base.clone()
        for verb, x in zip(grid, offsets):
            bias[torch.as_tensor(verbs == verb)] += x
        with torch.no_grad():
            net.pi.bias.copy_(bias)
        v = validate(net, src, VALID_SEED, a.episodes)
        print(json.dumps({**dict(zip(grid, offsets)), **valid_fields(v)}), flush=True)


if __name__ == "__main__":
    main()
