"""Policy files: a :class:`~evoharness.train.net.Net` written as a structured ONNX policy
(``runtime/POLICY.md``), its weights read back, and the one writer of the ``evoharness.*``
metadata that every exporter of the package uses (this one, :mod:`evoharness.lm.export`,
:mod:`evoharness.lm.hf_export`)."""

from __future__ import annotations

import pathlib

import numpy as np
import torch

from .net import Net


def write_metadata(model, props: dict) -> None:
    """Sets ``props`` (key -> string) as the ONNX ``model``'s metadata, in their order,
    in place of any it had: the ``evoharness.*`` keys the runtime reads
    (``runtime/POLICY.md``). What ``onnx.helper.set_model_props`` does, here so that
    every exporter writes the same bytes."""
    del model.metadata_props[:]
    for k, v in props.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = k, v


def export_onnx(net: Net, path, lay: dict, producer: str, tool_names=None) -> None:
    """Writes ``net`` as a structured ONNX file (``runtime/POLICY.md``; the ABI and layout version
    of ``lay``, structured-v1 or structured-v2): opset 17, a dynamic
    batch dimension (a fleet runs all its agents in one call; one agent runs batch 1), masked
    logits, IR version 8, every ``evoharness.*`` number taken from ``lay`` (the
    library's layout), the tool names if given."""
    import onnx

    path = pathlib.Path(path)
    net.eval()
    obs = torch.zeros(1, lay["obs_len"])
    mask = torch.ones(1, lay["actions"])
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, (obs, mask), str(path), dynamo=False, opset_version=17,
        input_names=["obs", "mask"], output_names=["logits", "value"],
        dynamic_axes={n: {0: "batch"} for n in ("obs", "mask", "logits", "value")},
    )
    m = onnx.load(str(path))
    m.ir_version = 8
    del m.graph.value_info[:]
    versions = f"torch {torch.__version__}, numpy {np.__version__}, onnx {onnx.__version__}"
    props = {
        "evoharness.abi": lay["abi"],
        "evoharness.layout_version": str(lay["layout_version"]),
        **{f"evoharness.{k}": str(lay[k])
           for k in ("facts", "steps", "lessons", "tools", "obs_len", "actions")},
        "evoharness.producer": f"{producer} ({versions})",
    }
    if tool_names:
        if any("," in t for t in tool_names):
            raise ValueError(f"tool names with a comma cannot be recorded: {tool_names}")
        props["evoharness.tool_names"] = ",".join(tool_names)
    write_metadata(m, props)
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, str(path))


def load_weights(net: Net, path) -> None:
    """Loads the weights of a policy this module exported (its ONNX initialisers, by name) into
    ``net``, which must have the same shape: to start training from an existing policy.
    ``ValueError`` says what does not fit."""
    import onnx
    from onnx import numpy_helper

    try:
        m = onnx.load(str(path))
    except Exception as e:  # noqa: BLE001 - onnx raises several kinds for a bad file
        raise ValueError(f"{path}: not an ONNX file ({e})") from None
    have = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    state = net.state_dict()
    missing = [k for k in state if k not in have]
    if missing:
        raise ValueError(f"{path}: no weights named {', '.join(missing)}: not a policy of this "
                         "trainer's network")
    for k, t in state.items():
        if tuple(have[k].shape) != tuple(t.shape):
            raise ValueError(f"{path}: {k} has shape {tuple(have[k].shape)}, this network "
                             f"{tuple(t.shape)} (--hidden, or another layout)")
    net.load_state_dict({k: torch.as_tensor(have[k].copy()) for k in state})


__all__ = ["export_onnx", "load_weights", "write_metadata"]
