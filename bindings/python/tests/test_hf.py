"""A model brought from Hugging Face ``transformers``: a causal LM built locally from a config
(random weights, a byte-level BPE or a SentencePiece tokenizer trained here; no download),
exported with the documented command, loaded and run by the embedded agent."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from evoharness import agent as agent_mod
from evoharness.lm import hf_export

from test_lm import Relay


@pytest.mark.parametrize("arch, tokenizer",
                         [("llama", "bpe"), ("gpt2", "bpe"), ("llama", "sentencepiece")])
def test_a_transformers_model_exports_with_the_documented_command_and_drives_an_agent(
        tmp_path, arch, tokenizer):
    model_dir = hf_export.tiny_model(tmp_path / arch, arch=arch, tokenizer=tokenizer)
    if tokenizer == "sentencepiece":
        # Llama 2's shape: spaces as `▁`, bytes the pieces lack as `<0xHH>`.
        spec = json.loads((model_dir / "tokenizer.json").read_text())
        assert spec["model"]["byte_fallback"] and spec["decoder"]["type"] == "Sequence"
        assert "<0x7C>" in spec["model"]["vocab"] and "\u2581act" in spec["model"]["vocab"]
    out = tmp_path / f"{arch}.onnx"
    # The command of runtime/POLICY.md, as a user runs it.
    run = subprocess.run([sys.executable, "-m", "evoharness.lm.hf_export", str(model_dir), str(out),
                          "--capacities", "16,8,4,3"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["max_diff"] < 1e-3 and report["layers"] == 2
    abi = agent_mod.check_policy(out)
    assert abi["abi"] == "generative-v1" and abi["capacities"]["tools"] == 3
    with agent_mod.Agent(out, Relay, budget=Relay.budget) as a:
        r = a.run_task(4)
    # Random weights: no skill; an illegal action would have raised in the library.
    assert r["steps"] > 0 and (r["finished"] is not None or r["cost"] >= Relay.budget - 2)


def test_the_exporter_refuses_what_the_runtime_could_not_run(tmp_path):
    model_dir = hf_export.tiny_model(tmp_path / "m")
    run = subprocess.run([sys.executable, "-m", "evoharness.lm.hf_export", str(model_dir),
                          str(tmp_path / "x.onnx"), "--capacities", "16,8,4"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "FACTS,STEPS,LESSONS,TOOLS" in run.stderr
    # A tokenizer whose decoder is not byte-level: the runtime could not spell actions with it.
    cfg = json.loads((model_dir / "tokenizer.json").read_text())
    cfg["decoder"] = {"type": "Fuse"}
    (model_dir / "tokenizer.json").write_text(json.dumps(cfg))
    run = subprocess.run([sys.executable, "-m", "evoharness.lm.hf_export", str(model_dir),
                          str(tmp_path / "x.onnx"), "--capacities", "16,8,4,3"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "ByteLevel" in run.stderr
    assert not (tmp_path / "x.onnx").exists()
