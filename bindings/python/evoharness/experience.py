"""The experience store: the library of lessons behind an agent's Experience working set
(``evoharness_experience_store_*``), with its own file, its bytes, and a merge that is a join:
each store writes as a *replica* (one per agent), keeps the latest lessons of every replica it has
merged, and shows their sum, so fleets merge in any order, as often as they like, and nothing is
counted twice.

>>> from evoharness.experience import ExperienceStore
>>> fleet = [ExperienceStore.load(p) for p in ("a.evhe", "b.evhe")]   # doctest: +SKIP
>>> ExperienceStore.merge_all(fleet).save("fleet.evhe")                # doctest: +SKIP

A lesson's trigger and remedy are values: ``bool``, ``int``, ``float``, ``str`` or ``bytes`` (text
and bytes at most 32 bytes). Give a store to an embedded agent with
:meth:`evoharness.agent.Agent.set_experience_store`: its ``note`` actions then write through to the
store, its ``recall`` actions first bring the store's best matches into its working set, and its
checkpoints carry the store.
"""

from __future__ import annotations

import ctypes
from ctypes import (POINTER, c_bool, c_char_p, c_size_t, c_uint8, c_uint16, c_uint32, c_uint64,
                    c_void_p)

from ._native import EvoharnessError, Handle, check, lib
from .world import TEXT_MAX, _Value

#: ``EVOHARNESS_STATUS_EXPERIENCE_STORE``: bytes or a file that are not a valid store.
STATUS_EXPERIENCE_STORE = 18


class _Lesson(ctypes.Structure):
    _fields_ = [("trigger", _Value), ("remedy", _Value), ("helpful", c_uint16),
                ("harmful", c_uint16), ("uses", c_uint16), ("noted", c_uint16),
                ("last_use", c_uint32), ("recalled", c_bool)]


_VP = POINTER(_Value)
_SIGNATURES = {
    "evoharness_experience_store_new": ([c_size_t, POINTER(c_void_p)], c_uint32),
    "evoharness_experience_store_new_replica": ([c_size_t, c_uint64, POINTER(c_void_p)],
                                                c_uint32),
    "evoharness_experience_store_replica": ([c_void_p, POINTER(c_uint64)], c_uint32),
    "evoharness_experience_store_become_replica": ([c_void_p, c_uint64], c_uint32),
    "evoharness_experience_store_free": ([c_void_p], None),
    "evoharness_experience_store_note": ([c_void_p, _VP, _VP], c_uint32),
    "evoharness_experience_store_rate": ([c_void_p, _VP, c_bool], c_uint32),
    "evoharness_experience_store_lesson": ([c_void_p, _VP, POINTER(_Lesson)], c_uint32),
    "evoharness_experience_store_count": ([c_void_p, POINTER(c_size_t)], c_uint32),
    "evoharness_experience_store_budget": ([c_void_p, POINTER(c_size_t)], c_uint32),
    "evoharness_experience_store_merge": ([c_void_p, c_void_p], c_uint32),
    "evoharness_experience_store_merge_all": ([POINTER(c_void_p), c_size_t, POINTER(c_void_p)],
                                              c_uint32),
    "evoharness_experience_store_save": ([c_void_p, c_char_p], c_uint32),
    "evoharness_experience_store_load": ([c_char_p, POINTER(c_void_p)], c_uint32),
    "evoharness_experience_store_encoded_len": ([c_void_p, POINTER(c_size_t)], c_uint32),
    "evoharness_experience_store_to_bytes": ([c_void_p, POINTER(c_uint8), c_size_t,
                                              POINTER(c_size_t)], c_uint32),
    "evoharness_experience_store_from_bytes": ([POINTER(c_uint8), c_size_t, POINTER(c_void_p)],
                                               c_uint32),
    "evoharness_experience_store_attach": ([POINTER(c_void_p), c_void_p], c_uint32),
    "evoharness_fleet_push": ([c_void_p, c_char_p, POINTER(c_size_t)], c_uint32),
    "evoharness_fleet_pull": ([c_void_p, c_char_p, POINTER(c_size_t)], c_uint32),
    "evoharness_experience_store_detach": ([c_void_p, POINTER(c_void_p)], c_uint32),
}


def _lib():
    l = lib()
    if not getattr(l, "_evoharness_experience_declared", False):
        for name, (args, res) in _SIGNATURES.items():
            f = getattr(l, name)
            f.argtypes, f.restype = args, res
        l._evoharness_experience_declared = True
    return l


def _value(v) -> _Value:
    """A Python value as ``struct evoharness_value``."""
    out = _Value()
    if isinstance(v, bool):
        out.kind, out.boolean = 0, v
    elif isinstance(v, int):
        out.kind, out.integer = 1, v
    elif isinstance(v, float):
        out.kind, out.number = 2, v
    elif isinstance(v, (str, bytes, bytearray)):
        raw = v.encode() if isinstance(v, str) else bytes(v)
        if len(raw) > TEXT_MAX:
            raise ValueError(f"{v!r} is {len(raw)} bytes; values hold at most {TEXT_MAX}")
        out.kind = 3 if isinstance(v, str) else 4
        out.len = len(raw)
        ctypes.memmove(out.data, raw, len(raw))
    else:
        raise TypeError(f"{v!r}: a value is a bool, int, float, str or bytes")
    return out


class ExperienceStore(Handle):
    """A library of lessons. Each store writes as one replica (``replica``: chosen, or drawn at
    random), which keeps at most ``budget`` lessons of its own (1 to
    ``EVOHARNESS_EXPERIENCE_STORE_BUDGET_MAX``, 65536), evicting its least-frequently-useful
    lesson when full; merged stores add the other replicas' lessons. Errors raise
    :class:`~evoharness.EvoharnessError` (``status`` 18 for bytes or a file that are not a valid
    store)."""

    def __init__(self, budget: int = 1024, *, replica: int | None = None, _handle=None):
        self._h = _handle
        if self._h is None:
            h = c_void_p()
            if replica is None:
                check(_lib().evoharness_experience_store_new(budget, ctypes.byref(h)))
            else:
                check(_lib().evoharness_experience_store_new_replica(budget, replica,
                                                                     ctypes.byref(h)))
            self._h = h

    @classmethod
    def load(cls, path) -> "ExperienceStore":
        """Reads a store file (written by :meth:`save`)."""
        h = c_void_p()
        check(_lib().evoharness_experience_store_load(str(path).encode(), ctypes.byref(h)))
        return cls(_handle=h)

    @classmethod
    def from_bytes(cls, data: bytes) -> "ExperienceStore":
        """Reads a store from its bytes (:meth:`to_bytes`); refused bytes raise."""
        buf = (c_uint8 * max(1, len(data))).from_buffer_copy(data or b"\0")
        h = c_void_p()
        check(_lib().evoharness_experience_store_from_bytes(buf, len(data), ctypes.byref(h)))
        return cls(_handle=h)

    @staticmethod
    def merge_all(stores) -> "ExperienceStore":
        """Joins stores (unchanged) into a new one, a copy of the first: the same replicas and
        lessons in any order and however often a store appears; it writes as the first store's
        replica."""
        stores = list(stores)
        arr = (c_void_p * max(1, len(stores)))(*[s._handle() for s in stores])
        h = c_void_p()
        check(_lib().evoharness_experience_store_merge_all(arr, len(stores), ctypes.byref(h)))
        return ExperienceStore(_handle=h)

    @property
    def replica(self) -> int:
        """The replica this store writes as."""
        n = c_uint64()
        check(_lib().evoharness_experience_store_replica(self._handle(), ctypes.byref(n)))
        return n.value

    def become_replica(self, replica: int) -> None:
        """Writes as ``replica`` from now on; what was written as the old replica stays, as that
        replica's lessons. Give each agent that starts from one shared store its own replica."""
        check(_lib().evoharness_experience_store_become_replica(self._handle(), replica))

    def _handle(self):
        if not self._h:
            raise EvoharnessError(2, "this experience store was given to an agent or closed")
        return self._h

    def note(self, trigger, remedy) -> None:
        """Notes a lesson as this replica: the same remedy again counts one more note, another
        remedy replaces the lesson's (and resets its ratings)."""
        check(_lib().evoharness_experience_store_note(self._handle(), ctypes.byref(_value(trigger)),
                                                       ctypes.byref(_value(remedy))))

    def rate(self, trigger, helpful: bool = True) -> None:
        """Counts the lesson with this trigger helpful or harmful, as this replica (``status`` 4
        if the store sees none)."""
        check(_lib().evoharness_experience_store_rate(self._handle(),
                                                       ctypes.byref(_value(trigger)), helpful))

    def lesson(self, trigger) -> dict | None:
        """The lesson an agent sees for this trigger, summed over replicas (``remedy``,
        ``helpful``, ``harmful``, ``uses``, ``noted``, ``last_use``), or ``None``."""
        out = _Lesson()
        status = _lib().evoharness_experience_store_lesson(
            self._handle(), ctypes.byref(_value(trigger)), ctypes.byref(out))
        if status == 4:
            return None
        check(status)
        return {"trigger": out.trigger.to_python(), "remedy": out.remedy.to_python(),
                "helpful": out.helpful, "harmful": out.harmful, "uses": out.uses,
                "noted": out.noted, "last_use": out.last_use}

    def __len__(self) -> int:
        n = c_size_t()
        check(_lib().evoharness_experience_store_count(self._handle(), ctypes.byref(n)))
        return n.value

    @property
    def budget(self) -> int:
        """The most lessons the store's replica keeps of its own."""
        n = c_size_t()
        check(_lib().evoharness_experience_store_budget(self._handle(), ctypes.byref(n)))
        return n.value

    def merge(self, other: "ExperienceStore") -> None:
        """Joins ``other`` (unchanged) into this store: per replica, the later of the two
        versions of its lessons. Commutative, associative and idempotent: merging again, or
        merging a store that holds this one's lessons, counts nothing twice."""
        check(_lib().evoharness_experience_store_merge(self._handle(), other._handle()))

    def push(self, url: str) -> int:
        """Pushes every replica this store holds to the fleet database at ``url``
        (``sqlite:PATH`` or ``postgres://USER:PASSWORD@HOST:PORT/DB``): per replica the
        database keeps the later of its row and this store's, so pushing again counts nothing
        twice. Returns how many rows changed. A database that stays busy or unreachable through
        the retries raises with ``status`` 12 (IO): try again later, nothing was lost."""
        n = c_size_t()
        check(_lib().evoharness_fleet_push(self._handle(), url.encode(), ctypes.byref(n)))
        return n.value

    def pull(self, url: str) -> int:
        """Joins every replica of the fleet database at ``url`` into this store (see
        :meth:`push`); returns how many rows were joined. On failure the store is unchanged."""
        n = c_size_t()
        check(_lib().evoharness_fleet_pull(self._handle(), url.encode(), ctypes.byref(n)))
        return n.value

    def to_bytes(self) -> bytes:
        """The store's versioned, checksummed bytes (a file's content): the same state gives
        the same bytes."""
        l = _lib()
        n = c_size_t()
        check(l.evoharness_experience_store_encoded_len(self._handle(), ctypes.byref(n)))
        buf = (c_uint8 * max(1, n.value))()
        got = c_size_t()
        check(l.evoharness_experience_store_to_bytes(self._handle(), buf, n.value,
                                                      ctypes.byref(got)))
        return bytes(buf[: got.value])

    def save(self, path) -> None:
        """Writes the store to ``path``, replacing it atomically."""
        check(_lib().evoharness_experience_store_save(self._handle(), str(path).encode()))

    def close(self) -> None:
        if self._h:
            _lib().evoharness_experience_store_free(self._h)
            self._h = None


__all__ = ["ExperienceStore", "STATUS_EXPERIENCE_STORE"]
