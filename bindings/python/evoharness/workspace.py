"""A standalone workspace through the C library: snapshots to and from bytes, its state for
display, and the wire frames of ``core/PROTOCOL.md`` for actions and events."""

from __future__ import annotations

import ctypes
from ctypes import c_bool, c_int8, c_int32, c_size_t, c_uint8, c_uint16, c_uint32, c_void_p

from ._native import Capacities, EvoharnessError, check, lib


class Costs(ctypes.Structure):
    """``struct evoharness_costs``."""

    _fields_ = [(k, c_uint16) for k in ("act", "track", "commit", "recall", "note", "finish")]


class Config(ctypes.Structure):
    """``struct evoharness_workspace_config``."""

    _fields_ = [("capacities", Capacities), ("budget", c_uint32), ("costs", Costs)]


class Info(ctypes.Structure):
    """``struct evoharness_workspace_info``."""

    _fields_ = [
        ("capacities", Capacities), ("budget", c_uint32), ("spent", c_uint32),
        ("remaining", c_uint32), ("clock", c_uint32), ("finished", c_int8), ("facts", c_size_t),
        ("plan_steps", c_size_t), ("lessons", c_size_t), ("has_event", c_bool),
        ("last_act", c_int32),
    ]


_U8P = ctypes.POINTER(c_uint8)
_SIGNATURES = {
    "evoharness_workspace_config_default": ([ctypes.POINTER(Config)], c_uint32),
    "evoharness_workspace_new": ([ctypes.POINTER(Config), ctypes.POINTER(c_void_p)], c_uint32),
    "evoharness_workspace_free": ([c_void_p], None),
    "evoharness_workspace_apply": (
        [c_void_p, _U8P, c_size_t, _U8P, c_size_t, ctypes.POINTER(c_size_t), ctypes.POINTER(c_bool)],
        c_uint32,
    ),
    "evoharness_workspace_observe": ([c_void_p, _U8P, c_size_t], c_uint32),
    "evoharness_workspace_reset_task": ([c_void_p], c_uint32),
    "evoharness_workspace_snapshot_max_len": ([c_void_p, ctypes.POINTER(c_size_t)], c_uint32),
    "evoharness_workspace_snapshot": ([c_void_p, _U8P, c_size_t, ctypes.POINTER(c_size_t)], c_uint32),
    "evoharness_workspace_restore": ([c_void_p, _U8P, c_size_t], c_uint32),
    "evoharness_workspace_get_info": ([c_void_p, ctypes.POINTER(Info)], c_uint32),
}


def _lib():
    l = lib()
    if not getattr(l, "_evoharness_workspace_declared", False):
        for name, (args, res) in _SIGNATURES.items():
            f = getattr(l, name)
            f.argtypes, f.restype = args, res
        l._evoharness_workspace_declared = True
    return l


def _bytes(b: bytes):
    buf = (c_uint8 * max(1, len(b))).from_buffer_copy(b or b"\0")
    return buf, len(b)


class Workspace:
    """A workspace of the given capacities, tool count and budget (costs: the defaults).

    ``snapshot()`` returns the versioned, checksummed snapshot bytes; ``restore(bytes)``
    replaces the whole state with one, all or nothing (a corrupted or foreign snapshot raises
    :class:`EvoharnessError` and changes nothing)."""

    def __init__(self, facts: int = 16, steps: int = 8, lessons: int = 4, tools: int = 8,
                 budget: int = 1000):
        l = _lib()
        cfg = Config()
        check(l.evoharness_workspace_config_default(ctypes.byref(cfg)))
        cfg.capacities = Capacities(facts, steps, lessons, tools)
        cfg.budget = budget
        h = c_void_p()
        check(l.evoharness_workspace_new(ctypes.byref(cfg), ctypes.byref(h)))
        self._h = h

    def close(self) -> None:
        """Frees the workspace (also done when the object is collected)."""
        if getattr(self, "_h", None):
            _lib().evoharness_workspace_free(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def _live(self):
        if not self._h:
            raise EvoharnessError(0, "the workspace was closed")
        return self._h

    def info(self) -> dict:
        """Capacities, budget, spent, clock, whether finished, table sizes, the last act."""
        i = Info()
        check(_lib().evoharness_workspace_get_info(self._live(), ctypes.byref(i)))
        return {
            "capacities": {k: getattr(i.capacities, k) for k in ("facts", "steps", "lessons", "tools")},
            "budget": i.budget, "spent": i.spent, "remaining": i.remaining, "clock": i.clock,
            "finished": None if i.finished < 0 else bool(i.finished), "facts": i.facts,
            "plan_steps": i.plan_steps, "lessons": i.lessons, "has_event": bool(i.has_event),
            "last_act": None if i.last_act < 0 else i.last_act,
        }

    def snapshot(self) -> bytes:
        """The whole workspace as snapshot bytes."""
        l = _lib()
        max_len = c_size_t(0)
        check(l.evoharness_workspace_snapshot_max_len(self._live(), ctypes.byref(max_len)))
        cap = max_len.value
        buf = (c_uint8 * cap)()
        n = c_size_t(0)
        check(l.evoharness_workspace_snapshot(self._h, buf, cap, ctypes.byref(n)))
        return bytes(buf[: n.value])

    def restore(self, snapshot: bytes) -> None:
        """Replaces the state with a snapshot's, all or nothing."""
        buf, n = _bytes(snapshot)
        check(_lib().evoharness_workspace_restore(self._live(), buf, n))

    def observe(self, event_frame: bytes) -> None:
        """Makes an event (an encoded wire frame holding an event) the current event."""
        buf, n = _bytes(event_frame)
        check(_lib().evoharness_workspace_observe(self._live(), buf, n))

    def apply(self, action_frame: bytes) -> tuple[bytes, bool]:
        """Applies an encoded action frame; returns the encoded outcome frame, and whether the
        action applied (a refused one comes back as an error outcome and changes nothing)."""
        buf, n = _bytes(action_frame)
        out = (c_uint8 * 512)()
        m, applied = c_size_t(0), c_bool(False)
        check(_lib().evoharness_workspace_apply(self._live(), buf, n, out, len(out), ctypes.byref(m),
                                                ctypes.byref(applied)))
        return bytes(out[: m.value]), bool(applied.value)

    def reset_task(self) -> None:
        """Clears Belief and Progress for a new task; Experience stays."""
        check(_lib().evoharness_workspace_reset_task(self._live()))
