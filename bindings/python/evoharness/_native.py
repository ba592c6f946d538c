"""Loading the evoharness training kit's C library and declaring the functions this package calls.

The library is ``libevoharness_train.so`` (crate ``evoharness-train-c``: the embedding API and the
training kit, with the task suite to train on). It is ``$EVOHARNESS_LIB`` if set, else the one
inside this package (an installed wheel has it), else, in a checkout, the first of ``release``,
``debug``, ``no-tract/release`` and ``no-tract/debug`` of ``$CARGO_TARGET_DIR`` or of the checkout's
``target/``. Build it with ``cargo build --release -p evoharness-train-c``, or build the wheel
(``bindings/python/build-wheel.sh``).
"""

from __future__ import annotations

import ctypes
import os
import pathlib

from ctypes import POINTER, c_char_p, c_double, c_float, c_int8, c_size_t, c_uint8, c_uint16
from ctypes import c_uint32, c_uint64, c_void_p, c_bool


class EvoharnessError(RuntimeError):
    """A call into the library failed: ``status`` is its ``evoharness_status`` code."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


#: The library's file name.
LIBRARY = "libevoharness_train.so"


def _candidates():
    env = os.environ.get("EVOHARNESS_LIB")
    if env:
        yield pathlib.Path(env)
        return
    here = pathlib.Path(__file__).resolve()
    yield here.parent / LIBRARY
    roots = []
    if os.environ.get("CARGO_TARGET_DIR"):
        roots.append(pathlib.Path(os.environ["CARGO_TARGET_DIR"]))
    roots.extend(p / "target" for p in here.parents)
    for root in roots:
        for profile in ("release", "debug", "no-tract/release", "no-tract/debug"):
            yield root / profile / LIBRARY


def library_path() -> pathlib.Path:
    """Where the library is loaded from; an error naming the places looked at if nowhere."""
    tried = []
    for c in _candidates():
        if c.is_file():
            return c
        tried.append(str(c))
    raise EvoharnessError(
        0,
        f"{LIBRARY} not found (install the evoharness wheel, build the library with "
        "`cargo build --release -p evoharness-train-c`, or set EVOHARNESS_LIB); looked at: "
        + ", ".join(tried[:8]),
    )


class Capacities(ctypes.Structure):
    """``struct evoharness_capacities``."""

    _fields_ = [("facts", c_uint16), ("steps", c_uint16), ("lessons", c_uint16), ("tools", c_uint16)]


class VecEnvInfo(ctypes.Structure):
    """``struct evoharness_vec_env_info``."""

    _fields_ = [("n", c_size_t), ("group", c_size_t), ("obs_len", c_size_t), ("actions", c_size_t)]


class EpisodeStats(ctypes.Structure):
    """``struct evoharness_episode_stats``."""

    _fields_ = [
        ("success", c_bool),
        ("finished", c_int8),
        ("duplicates", c_uint32),
        ("gaps", c_uint32),
        ("wrong_writes", c_uint32),
        ("steps", c_uint64),
        ("world_actions", c_uint64),
        ("harness", c_uint64 * 4),
        ("cost", c_uint32),
        ("reward", c_double),
        ("items", c_uint32),
        ("landed", c_uint32),
    ]

    def to_dict(self) -> dict:
        h = list(self.harness)
        return {
            "success": bool(self.success),
            "finished": None if self.finished < 0 else bool(self.finished),
            "duplicates": self.duplicates,
            "gaps": self.gaps,
            "wrong_writes": self.wrong_writes,
            "integrity_violations": self.duplicates + self.gaps + self.wrong_writes,
            "steps": self.steps,
            "world_actions": self.world_actions,
            "harness_actions": sum(h),
            "harness_by_verb": dict(zip(("track", "commit", "recall", "note"), h)),
            "cost": self.cost,
            "reward": self.reward,
            "items": self.items,
            "landed": self.landed,
        }


class Handle:
    """A Python object owning a library handle: ``close()`` frees it (each class says how), and
    so do collection and the end of a ``with`` block."""

    def close(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_F32 = POINTER(c_float)
_U8 = POINTER(c_uint8)
_U32 = POINTER(c_uint32)

_SIGNATURES = {
    "evoharness_version": ([], c_char_p),
    "evoharness_status_message": ([c_uint32], c_char_p),
    "evoharness_last_error_message": ([], c_char_p),
    "evoharness_vec_env_new_grouped": (
        [c_uint32, c_uint32, c_size_t, c_size_t, c_uint64, c_uint64, c_uint64, POINTER(c_void_p)],
        c_uint32,
    ),
    "evoharness_vec_env_free": ([c_void_p], None),
    "evoharness_vec_env_get_info": ([c_void_p, POINTER(VecEnvInfo)], c_uint32),
    "evoharness_vec_env_observe": ([c_void_p, _F32, c_size_t, _U8, c_size_t], c_uint32),
    "evoharness_vec_env_step": (
        [c_void_p, _U32, c_size_t, _F32, c_size_t, _U8, c_size_t, _F32, c_size_t, _U8, c_size_t],
        c_uint32,
    ),
    "evoharness_vec_env_teacher_actions": ([c_void_p, c_uint32, _U32, c_size_t], c_uint32),
    "evoharness_vec_env_text": (
        [c_void_p, c_size_t, c_char_p, c_size_t, POINTER(c_size_t)],
        c_uint32,
    ),
    "evoharness_vec_env_last_episode": ([c_void_p, c_size_t, POINTER(EpisodeStats)], c_uint32),
    "evoharness_vec_env_episodes": ([c_void_p, c_size_t, POINTER(c_uint64)], c_uint32),
    "evoharness_vec_env_set_lifetime": ([c_void_p, c_uint64], c_uint32),
    "evoharness_vec_env_set_layout_version": ([c_void_p, c_uint32], c_uint32),
    "evoharness_vec_env_copy": ([c_void_p, c_size_t, c_size_t], c_uint32),
    "evoharness_layout_json": (
        [POINTER(Capacities), c_char_p, c_size_t, POINTER(c_size_t)],
        c_uint32,
    ),
    "evoharness_layout_json_version": (
        [POINTER(Capacities), c_uint32, c_char_p, c_size_t, POINTER(c_size_t)],
        c_uint32,
    ),
    "evoharness_suite_capacities": ([POINTER(Capacities)], c_uint32),
}

_lib = None


def lib() -> ctypes.CDLL:
    """The loaded library, with every function's argument and result types declared."""
    global _lib
    if _lib is None:
        handle = ctypes.CDLL(str(library_path()))
        for name, (args, res) in _SIGNATURES.items():
            f = getattr(handle, name)
            f.argtypes = args
            f.restype = res
        _lib = handle
    return _lib


def check(status: int) -> None:
    """Raises the last error of this thread if ``status`` is not success (0)."""
    if status != 0:
        l = lib()
        what = l.evoharness_status_message(status).decode()
        detail = (l.evoharness_last_error_message() or b"").decode()
        raise EvoharnessError(status, f"{what}: {detail}" if detail else what)


def ptr(array, ctype):
    """A pointer to a contiguous numpy array's data."""
    return array.ctypes.data_as(POINTER(ctype))
