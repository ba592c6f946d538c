"""The generative-v1 pieces from Python: the library's prompts and action texts, a language
model loaded and run by the embedded agent, and the LM trainer's export."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

from evoharness import Event, agent as agent_mod
from evoharness.vec_env import VecEnv, suite_layout

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "runtime" / "tests" / "fixtures"


def test_prompts_are_the_workspace_and_labels_are_action_lines():
    lines = suite_layout()["action_texts"]
    assert len(lines) == 348 and lines[0] == "finish ok\n" and all(l.endswith("\n") for l in lines)
    assert len(set(lines)) == len(lines), "one line per template"
    env = VecEnv("migration", 40, 2, organisations=range(0, 2), seed=3)
    first = env.text(0)
    assert first.startswith("tools 8 budget ") and first.endswith("> ")
    assert "event notice from 0\n" in first and len(first) < 5882
    for _ in range(30):
        _, mask = env.observe()
        labels = env.teacher_actions("lean")
        for i in range(env.n):
            # The teacher's line is a legal template's, and the prompt shows what it points at.
            assert mask[i, labels[i]] == 1
            line = lines[labels[i]]
            for tag in [w for w in line.split() if w[0] in "XF" and w[1:].isdigit()]:
                assert f"\n{tag} " in env.text(i), (tag, env.text(i))
        env.step(labels)
    assert env.texts()[1] == env.text(1)
    with pytest.raises(Exception, match="no environment 2"):
        env.text(2)


class Relay:
    """Three tools, as the fixture decoder was made for: `copy`, `wait`, `verify`."""

    tools = ["copy", "wait", "verify"]
    budget = 30

    def reset(self, seed):
        self.calls = 0
        return Event.notice(batch=seed % 7)

    def call(self, tool, args):
        self.calls += 1
        return Event.result(done=self.calls)

    def judge(self, finished):
        return {"success": finished is True}


def test_the_embedded_agent_runs_a_language_model_from_its_file():
    path = FIXTURES / "generative.onnx"
    abi = agent_mod.check_policy(path)
    assert abi["abi"] == "generative-v1" and abi["obs_len"] == 0
    assert abi["capacities"]["tools"] == 3 and abi["actions"] > 0
    with agent_mod.Agent(path, Relay, budget=Relay.budget) as a:
        r = a.run_task(4)
    # A random model: no skill; an illegal action would have raised (the library refuses it),
    # so each of these steps was a legal one, and it ran until its budget or a finish.
    assert r["steps"] > 0 and (r["finished"] is not None or r["cost"] >= Relay.budget - 2)


def test_the_lm_trainer_exports_a_file_the_library_loads(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from evoharness import lm

    out = tmp_path / "tiny.onnx"
    assert lm.main(["--out", str(out), "--rounds", "2", "--round-steps", "4", "--envs", "2",
                    "--updates", "2", "--d-model", "16", "--layers", "1", "--heads", "2",
                    "--ff", "32", "--horizon", "30", "--valid-episodes", "0"]) == 0
    abi = agent_mod.check_policy(out)
    assert abi["abi"] == "generative-v1" and abi["capacities"]["tools"] == 8
    record = json.loads(out.with_suffix(".json").read_text())
    assert len(record["rounds"]) == 2 and record["parameters"] > 0 and record["selected"] == 1
    # The export computes what the torch model computes, with and without the cache.
    model = lm.Decoder(16, 1, 2, 32)
    model.load_state_dict(torch.load(tmp_path / "tiny.rounds" / "round1.pt"))
    assert lm.check_export(model, out) < 1e-3
    # The per-decision diagnosis counts every labelled state once in "all", by kind.
    d = lm.diagnose(model, "migration", "v1", "lean", 30, range(0, 2), envs=2, steps=3)
    assert d["all"]["states"] == 6 and 0 <= d["all"]["agree"] <= 6
    assert sum(v["states"] for k, v in d.items() if k not in ("all", "after an error")) == 6
    # On the model's own trajectories, with the disagreements listed.
    d = lm.diagnose(model, "migration", "v1", "lean", 30, range(0, 2), envs=2, steps=6,
                    driver="student", show=3)
    assert d["all"]["states"] == 12 and len(d["examples"]) == min(3, 12 - d["all"]["agree"])
    assert all(e["model"] != e["teacher"] and e["prompt"].endswith("> ") for e in d["examples"])
    with pytest.raises(ValueError):
        lm.diagnose(model, "migration", "v1", "lean", 30, range(0, 2), driver="nobody")
    # And the student's constrained greedy choice is always a legal template.
    env = VecEnv("migration", 30, 2, organisations=range(0, 2), seed=1)
    lines = [t.encode() for t in suite_layout()["action_texts"]]
    for _ in range(5):
        _, mask = env.observe()
        picks = lm.choose(model, env.texts(), mask, lines)
        assert all(mask[i, picks[i]] == 1 for i in range(env.n))
        env.step(picks)
