"""The language model as a ``generative-v1`` policy file: the decoder layout with a
key/value cache and the metadata the runtime checks (``runtime/POLICY.md``), then checked
against torch through ONNX Runtime."""

from __future__ import annotations

import pathlib

import numpy as np
import torch

from ..train.export import write_metadata
from .model import ABI, GRAMMAR_VERSION, TEXT_VERSION, Decoder
from .text import encode


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
    write_metadata(m, meta)
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


__all__ = ["check_export", "export"]
