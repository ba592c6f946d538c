"""How a language-model candidate is judged: its export through the runtime's agent on
validation organisations and seeds (``evoharness eval``, constrained decoding in Rust, as a
host runs it), and ``--diagnose``: its per-decision agreement with the teacher."""

from __future__ import annotations

import json

import numpy as np
import torch

from .decoding import choose
from .model import Decoder


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
    from ..vec_env import VecEnv, suite_layout

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


__all__ = ["VALID_SEED", "diagnose", "evaluate", "span"]
