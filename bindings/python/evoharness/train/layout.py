"""Reading the library's layout (``VecEnv.layout``: segments, features, templates) for the
trainer: where a feature sits in the observation, which templates are harness actions, and
each template's kind."""

from __future__ import annotations

import numpy as np


def template_kinds(lay: dict) -> np.ndarray:
    """Each template's kind, as an integer: its verb, and for a world action its tool (from
    the layout's ``templates``, ``[verb, tool]`` each)."""
    names = [f"{verb}:{tool}" if verb == "act" else verb for verb, tool in lay["templates"]]
    index = {n: k for k, n in enumerate(dict.fromkeys(names))}
    return np.array([index[n] for n in names], np.int64)


def feature_offset(lay: dict, segment: str, feature: str) -> int:
    """Where one feature of a segment of the observation starts, in its first row (``lay["segments"]``)."""
    for seg in lay["segments"]:
        if seg["name"] == segment:
            at = seg["offset"]
            for name, width in seg["features"]:
                if name == feature:
                    return at
                at += width
    raise KeyError(f"the layout has no feature {segment}.{feature}")


def harness_templates(lay: dict) -> np.ndarray:
    """Which templates are harness actions (every verb but ``act`` and ``finish``)."""
    return np.array([verb not in ("act", "finish") for verb, _ in lay["templates"]], bool)


__all__ = ["feature_offset", "harness_templates", "template_kinds"]
