"""evoharness for Python: the task suite's simulators, worlds written in Python (your own tools:
:mod:`evoharness.world`) and the structured-v1 layout, through the evoharness task suite's C
library, libevoharness_suite (ctypes; no compiled extension).

>>> import evoharness
>>> env = evoharness.VecEnv("migration", horizon=100, n=4)
>>> obs, mask = env.observe()
>>> obs, mask, reward, done = env.step(env.teacher_actions("lean"))

Training for your own world (``pip install "evoharness[train]"``: torch, onnx): ``python -m evoharness.train``,
``python -m evoharness.evaluate`` and ``python -m evoharness.record``
(:mod:`evoharness.training`, :mod:`evoharness.agent` for the embedded agent over a Python world,
:mod:`evoharness.demos` for the demonstration format).
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
