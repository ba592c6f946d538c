"""evoharness for Python: the task suite's simulators, worlds written in Python (your own tools:
:mod:`evoharness.world`) and the structured-v1 layout, through the evoharness task suite's C
library, libevoharness_train (ctypes; no compiled extension).

>>> import evoharness
>>> env = evoharness.VecEnv("migration", horizon=100, n=4)
>>> obs, mask = env.observe()
>>> obs, mask, reward, done = env.step(env.teacher_actions("lean"))

By who uses it (``python -m evoharness`` lists the commands):

- Stepping, evaluating and recording need the base install only (numpy, onnxruntime,
  gymnasium; no torch): :class:`VecEnv`, :mod:`evoharness.world` (worlds written in Python),
  :mod:`evoharness.gym`, :mod:`evoharness.agent` (the embedded agent over a Python world),
  ``python -m evoharness.evaluate`` and ``python -m evoharness.record`` (:mod:`evoharness.demos`:
  the demonstration format).
- Training needs ``pip install "evoharness[train]"`` (torch, onnx): :mod:`evoharness.train`
  (``python -m evoharness.train``: a structured policy for any world) and :mod:`evoharness.lm`
  (``python -m evoharness.lm``: the language-model policy; ``python -m evoharness.lm.hf_export``
  with ``[hf]``: a Hugging Face causal LM into the generative layout).
"""

from ._native import EvoharnessError, library_path
from .experience import ExperienceStore
from .vec_env import (SCENARIOS, TASKS, TEACHERS, HarnessEnv, VecEnv, layout, suite_capacities,
                      suite_layout)
from .workspace import Workspace
from .world import Event, TeacherError, Templates, WorldError


def version() -> str:
    """The library's version."""
    from ._native import lib

    return lib().evoharness_version().decode()


__all__ = [
    "Event",
    "EvoharnessError",
    "ExperienceStore",
    "HarnessEnv",
    "TeacherError",
    "Templates",
    "WorldError",
    "SCENARIOS",
    "TASKS",
    "TEACHERS",
    "VecEnv",
    "Workspace",
    "layout",
    "library_path",
    "suite_capacities",
    "suite_layout",
    "version",
]
