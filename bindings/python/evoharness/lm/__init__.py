"""A small decoder-only language model as a ``generative-v1`` policy, trained on the task
suite's rendered workspaces: ``python -m evoharness.lm`` (:mod:`evoharness.lm.cli`, whose docs
say the stages and ``--help`` every flag); and ``python -m evoharness.lm.hf_export``, which
brings a Hugging Face causal LM into the same layout instead. Needs ``torch``
(``pip install "evoharness[train]"``; ``hf_export`` also ``transformers``: ``[hf]``).

Layout (imports run up the table; the GRPO update and the metadata writer are the structured
trainer's, :mod:`evoharness.train.grpo` and :mod:`evoharness.train.export`):

==================  ===========================================================================
``model``           the decoder (bytes in, logits and key/value cache out) and layout versions
``text``            prompts and actions as bytes; the same state with its facts reordered
``decoding``        constrained decoding under a state's grammar: greedy and sampled
``validation``      a candidate through the runtime's agent (``evoharness eval``); diagnosis
``imitation``       stage 1: DAgger and its loss
``grpo``            stage 2: GRPO's episodes and its terms for the shared update
``export``          the ``generative-v1`` file, checked against torch in ONNX Runtime
``cli``             the command line: flags, the run, selection, the record
``hf_export``       a Hugging Face model into ``generative-v1`` (its own command line)
==================  ===========================================================================
"""

import importlib.util

if importlib.util.find_spec("torch") is None:  # pragma: no cover - the train extra brings torch
    raise SystemExit("evoharness.lm needs torch: pip install 'evoharness[train]'")


def main(argv=None) -> int:
    """``python -m evoharness.lm`` with ``argv`` (default: the process's arguments); its exit
    status."""
    from .cli import main as run

    return run(argv)


__all__ = ["main"]
