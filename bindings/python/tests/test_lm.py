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
    from evoharness.lm.decoding import choose
    from evoharness.lm.export import check_export
    from evoharness.lm.model import Decoder
    from evoharness.lm.validation import diagnose

    out = tmp_path / "tiny.onnx"
    assert lm.main(["--out", str(out), "--rounds", "2", "--round-steps", "4", "--envs", "2",
                    "--updates", "2", "--d-model", "16", "--layers", "1", "--heads", "2",
                    "--ff", "32", "--horizon", "30", "--valid-episodes", "0", "--keep-mistakes",
                    "--keep-fact-args", "--permute-facts", "0.5"]) == 0
    abi = agent_mod.check_policy(out)
    assert abi["abi"] == "generative-v1" and abi["capacities"]["tools"] == 8
    record = json.loads(out.with_suffix(".json").read_text())
    assert len(record["rounds"]) == 2 and record["parameters"] > 0 and record["selected"] == "round1"
    # The export computes what the torch model computes, with and without the cache.
    model = Decoder(16, 1, 2, 32)
    model.load_state_dict(torch.load(tmp_path / "tiny.rounds" / "round1.pt"))
    assert check_export(model, out) < 1e-3
    # The per-decision diagnosis counts every labelled state once in "all", by kind.
    d = diagnose(model, "migration", "v1", "lean", 30, range(0, 2), envs=2, steps=3)
    assert d["all"]["states"] == 6 and 0 <= d["all"]["agree"] <= 6
    assert sum(v["states"] for k, v in d.items() if k not in ("all", "after an error")) == 6
    # On the model's own trajectories, with the disagreements listed.
    d = diagnose(model, "migration", "v1", "lean", 30, range(0, 2), envs=2, steps=6,
                    driver="student", show=3)
    assert d["all"]["states"] == 12 and len(d["examples"]) == min(3, 12 - d["all"]["agree"])
    assert all(e["model"] != e["teacher"] and e["prompt"].endswith("> ") for e in d["examples"])
    with pytest.raises(ValueError):
        diagnose(model, "migration", "v1", "lean", 30, range(0, 2), driver="nobody")
    # And the student's constrained greedy choice is always a legal template.
    env = VecEnv("migration", 30, 2, organisations=range(0, 2), seed=1)
    lines = [t.encode() for t in suite_layout()["action_texts"]]
    for _ in range(5):
        _, mask = env.observe()
        picks = choose(model, env.texts(), mask, lines)
        assert all(mask[i, picks[i]] == 1 for i in range(env.n))
        env.step(picks)


def test_fact_slots_are_shuffled_with_the_action_following_its_fact():
    pytest.importorskip("torch")
    from evoharness.lm.text import permute_facts

    prompt = (b"tools 8 budget 656 costs 1 1 1 1 1 0\nlessons 0/4\nplan 0/8\nfacts 3/16\n"
              b"F0 schema = 2 conf 1.00 from event:0 seen 18\n"
              b"F1 code = \"E377\" conf 1.00 from event:2 seen 28\n"
              b"F2 batch = 528682739 conf 1.00 from event:4 seen 31\n"
              b"now clock 37 spent 37 left 619 streak 0 last act tool 3\n"
              b"event result from 3\nX0 ready = true\n> ")
    rng = np.random.default_rng(7)
    moved = set()
    for _ in range(30):
        p, a = permute_facts(prompt, b"act 2 F2\n", rng)
        facts = [l for l in p.split(b"\n") if l[:1] == b"F"]
        # The same facts, numbered 0, 1, 2 in order, and every other line where it was.
        assert [l.split(b" ", 1)[0] for l in facts] == [b"F0", b"F1", b"F2"]
        assert sorted(l.split(b" ", 1)[1] for l in facts) == sorted(
            l.split(b" ", 1)[1] for l in prompt.split(b"\n") if l[:1] == b"F")
        assert [l for l in p.split(b"\n") if l[:1] != b"F"] == [
            l for l in prompt.split(b"\n") if l[:1] != b"F"]
        # The action still names the batch.
        slot = a.split()[-1]
        assert a.startswith(b"act 2 F") and a.endswith(b"\n")
        assert next(l for l in facts if l.startswith(slot + b" ")).split()[1] == b"batch"
        moved.add(slot)
    assert moved == {b"F0", b"F1", b"F2"}
    # An action on no fact is unchanged; a prompt with one fact is left as it is.
    assert permute_facts(prompt, b"act 0\n", rng)[1] == b"act 0\n"
    one = prompt.replace(b"F1 code", b"G1 code").replace(b"F2 batch", b"G2 batch")
    assert permute_facts(one, b"act 2 F0\n", rng) == (one, b"act 2 F0\n")


def test_grpo_samples_under_the_grammar_and_learns_from_what_it_sampled(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from evoharness import lm
    from evoharness.lm.grpo import line_logps, line_terms, rl_rollouts
    from evoharness.lm.model import Decoder
    from evoharness.train.grpo import update

    torch.manual_seed(0)
    model = Decoder(16, 1, 2, 32)
    lines = [t.encode() for t in suite_layout()["action_texts"]]
    rng = np.random.default_rng(0)
    traj, finished = rl_rollouts(model, "migration", "v1", 30, range(0, 2), 5, 1, 2, lines, rng)
    # One episode per environment, every decision a legal line of its state.
    assert len(traj) == 2 and all(f is not None and f["steps"] == len(t)
                                  for t, f in zip(traj, finished))
    decisions = [d for t in traj for d in t][:24]
    for prompt, allowed, line, lp in decisions:
        assert prompt.endswith(b"> ") and line.endswith(b"\n") and len(allowed) == len(line)
        assert all(b in a for b, a in zip(line, allowed)) and lp <= 0
    # The learner's log-probability of each sampled line is the sampler's.
    with torch.no_grad():
        per_line, lp_all, mask = line_logps(model, decisions)
    assert np.allclose(per_line.numpy(), [d[3] for d in decisions], atol=1e-4)
    assert torch.isinf(lp_all[~mask]).all() and torch.isfinite(lp_all[mask]).all()
    # An update towards lines with a positive advantage makes them likelier, the KL finite.
    ref = Decoder(16, 1, 2, 32)
    ref.load_state_dict(model.state_dict())
    batch = [(p, a, l, lp, 1.0) for p, a, l, lp in decisions]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    kl = update(model, opt, len(batch), line_terms(model, ref, batch), 2, 8, 0.05, rng)
    with torch.no_grad():
        after = line_logps(model, decisions)[0]
    assert np.isfinite(kl) and float(after.sum()) > float(per_line.sum())
    # The trainer runs the stage from a round's weights and keeps the better candidate.
    torch.save(ref.state_dict(), tmp_path / "init.pt")
    out = tmp_path / "rl.onnx"
    assert lm.main(["--out", str(out), "--rounds", "0", "--init", str(tmp_path / "init.pt"),
                    "--rl-iters", "1", "--groups", "1", "--group", "2", "--d-model", "16",
                    "--layers", "1", "--heads", "2", "--ff", "32", "--horizon", "30",
                    "--valid-episodes", "0"]) == 0
    record = json.loads(out.with_suffix(".json").read_text())
    assert [r.get("stage") for r in record["rounds"]] == ["init", "grpo"]
    assert record["selected"] == "rl0" and agent_mod.check_policy(out)["abi"] == "generative-v1"
