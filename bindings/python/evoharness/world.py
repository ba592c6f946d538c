"""Worlds written in Python, bridged to the C library (stepped by
:meth:`evoharness.VecEnv.from_worlds`).

A *world* is everything outside the agent: its tools and the events they return. Write one as a
plain Python class (no base class needed)::

    class Invoices:
        tools = ["next", "pay", "audit"]        # any count from 1 to 64

        def reset(self, seed):                  # a new task for this seed: its first event
            ...
            return evoharness.Event.notice(items=3)

        def call(self, tool, args):             # tool: a name of `tools`; args: a list of values
            ...
            return evoharness.Event.result(item=101)   # or Event.error(code="E42")

        def judge(self, finished):              # finished: None, True (claimed success), False
            return {"success": ..., "violations": 0, "any_metric": 1.5}

An event is a kind (``result``, ``error`` or ``notice``) and at most 8 named fields (keys of at
most 16 bytes) whose values are ``bool``, ``int`` (64-bit), ``float``, ``str`` or ``bytes`` (at
most 32 bytes each). The library does everything else: the workspace, harness actions, costs,
budget, observation, mask and reward shaping (:meth:`evoharness.VecEnv.from_worlds`).

Mistakes raise :class:`WorldError` (an :class:`~evoharness.EvoharnessError`) from the call that
ran the world (``VecEnv.from_worlds(...)``, ``step``), naming the environment, the method and what was
wrong, with the original exception as its ``__cause__``.
"""

from __future__ import annotations

import atexit
import ctypes
import inspect
import pickle
import weakref
from ctypes import (CFUNCTYPE, POINTER, c_bool, c_char_p, c_double, c_float, c_int8, c_int32,
                    c_int64, c_size_t, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

import numpy as np

from ._native import Capacities, EpisodeStats, EvoharnessError, Handle, VecEnvInfo, check, lib, ptr

#: The core's bounds (``evoharness.h``): checked here first, for clearer messages.
KEY_MAX, TEXT_MAX, FIELDS_MAX, ARGS_MAX, TOOLS_MAX = 16, 32, 8, 4, 64
#: Event kinds and their ``evoharness_event_kind`` codes.
KINDS = {"result": 0, "error": 1, "notice": 2}
_I64 = (-(1 << 63), (1 << 63) - 1)
#: ``EVOHARNESS_STATUS_WORLD``.
STATUS_WORLD = 17


class WorldError(EvoharnessError):
    """A world written in Python failed: it raised, or returned something that is not an event
    (or, from ``judge``, not a verdict). ``__cause__`` is the original exception."""


class TeacherError(EvoharnessError):
    """A teacher's action that the layout cannot express, or that is not legal now (the
    message says which and why)."""


class Event:
    """What a world says: a ``kind`` (``"result"``, ``"error"`` or ``"notice"``) and ordered
    ``fields`` (a dict of ``str`` keys to ``bool``, ``int``, ``float``, ``str`` or ``bytes``).

    >>> Event.result(item=101, amount=12.5)
    Event('result', {'item': 101, 'amount': 12.5})
    """

    __slots__ = ("kind", "fields")

    def __init__(self, kind: str = "result", fields: dict | None = None, **more):
        self.kind = kind
        self.fields = dict(fields or {})
        self.fields.update(more)

    @classmethod
    def result(cls, **fields) -> "Event":
        """A tool ran and returned these fields."""
        return cls("result", fields)

    @classmethod
    def error(cls, **fields) -> "Event":
        """A tool ran and failed at its job (say why in the fields): the agent sees it and goes
        on. (An exception is a failure of the world itself, which stops the environment.)"""
        return cls("error", fields)

    @classmethod
    def notice(cls, **fields) -> "Event":
        """The world says something unprompted (a task's start)."""
        return cls("notice", fields)

    def __repr__(self):
        return f"Event({self.kind!r}, {self.fields!r})"

    def __eq__(self, other):
        return isinstance(other, Event) and (self.kind, self.fields) == (other.kind, other.fields)


def check_event(value, what: str) -> Event:
    """``value`` as an :class:`Event` whose kind, keys and values the library accepts; a dict
    is a result event of those fields. Raises ``TypeError``/``ValueError`` naming ``what``."""
    if isinstance(value, dict):
        value = Event("result", value)
    if not isinstance(value, Event):
        raise TypeError(f"{what} returned {type(value).__name__} {value!r:.60}; return an "
                        "evoharness.Event (or a dict of fields)")
    if value.kind not in KINDS:
        raise ValueError(f"{what} returned an event of kind {value.kind!r}; the kinds are "
                         f"{', '.join(KINDS)}")
    if len(value.fields) > FIELDS_MAX:
        raise ValueError(f"{what} returned an event of {len(value.fields)} fields; at most "
                         f"{FIELDS_MAX}")
    for k, v in value.fields.items():
        if not isinstance(k, str) or not k or len(k.encode()) > KEY_MAX:
            raise ValueError(f"{what} returned a field key {k!r}: keys are non-empty str of at "
                             f"most {KEY_MAX} bytes")
        if isinstance(v, (bool, np.bool_)):
            continue
        if isinstance(v, (int, np.integer)):
            if not _I64[0] <= int(v) <= _I64[1]:
                raise ValueError(f"{what} returned field {k!r} = {v}: out of the 64-bit range")
        elif isinstance(v, (float, np.floating)):
            continue
        elif isinstance(v, str):
            if len(v.encode()) > TEXT_MAX:
                raise ValueError(f"{what} returned field {k!r}: text of {len(v.encode())} bytes;"
                                 f" at most {TEXT_MAX}")
        elif isinstance(v, (bytes, bytearray)):
            if len(v) > TEXT_MAX:
                raise ValueError(f"{what} returned field {k!r}: {len(v)} bytes; at most "
                                 f"{TEXT_MAX}")
        else:
            raise TypeError(f"{what} returned field {k!r} of type {type(v).__name__}; event "
                            "values are bool, int, float, str or bytes")
    return value


def check_tools(tools) -> list[str]:
    """A world's ``tools``, checked: 1 to 64 distinct, non-empty names."""
    if isinstance(tools, (str, bytes)) or not hasattr(tools, "__len__"):
        raise TypeError(f"a world's `tools` must be a list of names, not {tools!r:.60}")
    names = list(tools)
    if not 1 <= len(names) <= TOOLS_MAX:
        raise ValueError(f"the world has {len(names)} tools; a layout expresses 1 to "
                         f"{TOOLS_MAX} (TOOLS_MAX)")
    for i, t in enumerate(names):
        if not isinstance(t, str) or not t or "\0" in t:
            raise TypeError(f"tools[{i}] is {t!r}: tool names are non-empty str")
    if len(set(names)) != len(names):
        dup = next(t for t in names if names.count(t) > 1)
        raise ValueError(f"the tool name {dup!r} is repeated")
    return names


# --- The C side ---------------------------------------------------------------------------

class _Value(ctypes.Structure):
    _fields_ = [("kind", c_uint8), ("boolean", c_bool), ("integer", c_int64), ("number", c_double),
                ("len", c_size_t), ("data", c_uint8 * (TEXT_MAX + 1))]

    def to_python(self):
        if self.kind == 0:
            return bool(self.boolean)
        if self.kind == 1:
            return int(self.integer)
        if self.kind == 2:
            return float(self.number)
        raw = bytes(self.data[: self.len])
        return raw.decode() if self.kind == 3 else raw


class _ToolCall(ctypes.Structure):
    _fields_ = [("tool", c_uint16), ("name", c_char_p), ("arg_count", c_size_t),
                ("args", _Value * ARGS_MAX)]


class _Verdict(ctypes.Structure):
    _fields_ = [("success", c_bool), ("violations", c_uint32)]


_RESET = CFUNCTYPE(c_int32, c_void_p, c_uint64, c_void_p)
_CALL = CFUNCTYPE(c_int32, c_void_p, POINTER(_ToolCall), c_void_p)
_JUDGE = CFUNCTYPE(c_int32, c_void_p, c_int8, POINTER(_Verdict))
_SAVE = CFUNCTYPE(c_int32, c_void_p, c_void_p)
_RESTORE = CFUNCTYPE(c_int32, c_void_p, POINTER(c_uint8), c_size_t)
_DROP = CFUNCTYPE(None, c_void_p)


class _Callbacks(ctypes.Structure):
    _fields_ = [("reset", _RESET), ("call", _CALL), ("judge", _JUDGE),
                ("save_resume_point", _SAVE), ("restore_resume_point", _RESTORE), ("drop", _DROP)]


class _Costs(ctypes.Structure):
    _fields_ = [(k, c_uint16) for k in ("act", "track", "commit", "recall", "note", "finish")]


class _VecEnvConfig(ctypes.Structure):
    _fields_ = [("capacities", Capacities), ("budget", c_uint32), ("costs", _Costs),
                ("seed", c_uint64), ("group", c_size_t)]


_SIGNATURES = {
    "evoharness_world_from_callbacks": (
        [POINTER(_Callbacks), c_void_p, POINTER(c_char_p), c_size_t, POINTER(c_void_p)], c_uint32),
    "evoharness_world_free": ([c_void_p], None),
    "evoharness_tool_result_set_kind": ([c_void_p, c_uint32], c_uint32),
    "evoharness_tool_result_add_bool": ([c_void_p, c_char_p, c_bool], c_uint32),
    "evoharness_tool_result_add_int": ([c_void_p, c_char_p, c_int64], c_uint32),
    "evoharness_tool_result_add_float": ([c_void_p, c_char_p, c_double], c_uint32),
    "evoharness_tool_result_add_text": ([c_void_p, c_char_p, c_char_p], c_uint32),
    "evoharness_tool_result_add_bytes": ([c_void_p, c_char_p, POINTER(c_uint8), c_size_t], c_uint32),
    "evoharness_vec_env_config_default": ([POINTER(_VecEnvConfig)], c_uint32),
    "evoharness_vec_env_new_worlds": (
        [POINTER(c_void_p), c_size_t, POINTER(_VecEnvConfig), POINTER(c_void_p)], c_uint32),
    "evoharness_vec_env_intent_template": ([c_void_p, c_size_t, c_char_p, POINTER(c_uint32)],
                                           c_uint32),
    "evoharness_resume_point_write": ([c_void_p, POINTER(c_uint8), c_size_t], c_uint32),
}

#: A teacher's actions: name -> (JSON key, how many arguments after the name).
_ACTIONS = {"finish": 1, "call": 2, "track": 1, "retract": 1, "recall": 1, "note": 1, "plan": 1,
            "cursor": 1, "step": 2}


def intent_json(action) -> str:
    """A teacher's action as the library's JSON (``evoharness_vec_env_intent_template``):
    ``("finish", True)``, ``("call", "pay")``, ``("call", "pay", 101)``, ``("track", key)``,
    ``("retract", key)``, ``("recall", key)``, ``("note", key)``, ``("plan", key)``,
    ``("cursor", key)``, ``("step", index, "complete")``, or that JSON's dict itself."""
    import json

    if isinstance(action, dict):
        return json.dumps(action)
    if isinstance(action, str):
        action = (action,)
    if not isinstance(action, (tuple, list)) or not action or action[0] not in _ACTIONS:
        raise ValueError(f"unknown teacher action {action!r}: a tuple starting with one of "
                         f"{', '.join(_ACTIONS)}")
    verb, args = action[0], list(action[1:])
    if verb == "finish":
        return json.dumps({"finish": bool(args[0]) if args else True})
    if verb == "call":
        if not 1 <= len(args) <= 2:
            raise ValueError(f"{action!r}: a call is (\"call\", tool) or (\"call\", tool, arg)")
        d = {"call": args[0]}
        if len(args) == 2:
            arg = args[1]
            if isinstance(arg, (np.integer, np.floating, np.bool_)):
                arg = arg.item()
            if not isinstance(arg, (bool, int, float, str)):
                raise ValueError(f"{action!r}: a teacher's call argument is a bool, int, float "
                                 f"or str, not {type(arg).__name__}")
            d["arg"] = arg
        return json.dumps(d)
    if verb == "step":
        if len(args) != 2:
            raise ValueError(f"{action!r}: a step change is (\"step\", index, verb)")
        return json.dumps({"step": args[0], "verb": args[1]})
    if len(args) != 1 or not isinstance(args[0], str):
        raise ValueError(f"{action!r}: {verb} takes a key (a str)")
    return json.dumps({verb: args[0]})


def _lib():
    l = lib()
    if not getattr(l, "_evoharness_world_declared", False):
        for name, (args, res) in _SIGNATURES.items():
            f = getattr(l, name)
            f.argtypes, f.restype = args, res
        l._evoharness_world_declared = True
    return l


def _write(event: Event, out) -> None:
    """Writes a checked event into the library's result being filled."""
    l = _lib()
    check(l.evoharness_tool_result_set_kind(out, KINDS[event.kind]))
    for k, v in event.fields.items():
        key = k.encode()
        if isinstance(v, (bool, np.bool_)):
            check(l.evoharness_tool_result_add_bool(out, key, bool(v)))
        elif isinstance(v, (int, np.integer)):
            check(l.evoharness_tool_result_add_int(out, key, int(v)))
        elif isinstance(v, (float, np.floating)):
            check(l.evoharness_tool_result_add_float(out, key, float(v)))
        elif isinstance(v, str):
            check(l.evoharness_tool_result_add_text(out, key, v.encode()))
        else:
            b = bytes(v)
            buf = (c_uint8 * max(1, len(b))).from_buffer_copy(b or b"\0")
            check(l.evoharness_tool_result_add_bytes(out, key, buf, len(b)))


class _Bridge:
    """One Python world behind one C world: what its callbacks call, and the first exception
    they caught (the library only hears that the callback failed)."""

    def __init__(self, world, index: int, copyable: bool = False):
        self.world = world
        self.index = index
        #: Whether the C world saves and restores the Python world's state (pickled), so that
        #: an environment over it can be copied (:meth:`VecEnv.copy`).
        self.copyable = bool(copyable)
        self.tools = check_tools(getattr(world, "tools", None))
        for m in ("reset", "call"):
            if not callable(getattr(world, m, None)):
                raise TypeError(f"the world has no `{m}` method; see evoharness.world")
        judge = getattr(world, "judge", None)
        self.judge = judge if callable(judge) else None
        self.judge_takes_finished = False
        if self.judge is not None:
            try:
                params = inspect.signature(self.judge).parameters.values()
                self.judge_takes_finished = any(
                    p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
                    for p in params)
            except (TypeError, ValueError):  # a builtin without a signature
                self.judge_takes_finished = True
        self.error: BaseException | None = None
        self.last_judge: dict | None = None
        self.last_event: Event | None = None

    def fail(self, e: BaseException) -> int:
        if self.error is None:
            self.error = e
        return 1

    def reset(self, seed: int, out) -> int:
        try:
            ev = check_event(self.world.reset(int(seed)), f"reset({seed})")
            _write(ev, out)
            self.last_event = ev
            return 0
        except BaseException as e:  # noqa: BLE001 - everything must stay on this side of C
            return self.fail(e)

    def call(self, c: _ToolCall, out) -> int:
        try:
            tool = self.tools[c.tool]
            args = [c.args[i].to_python() for i in range(min(c.arg_count, ARGS_MAX))]
            ev = check_event(self.world.call(tool, args), f"call({tool!r}, {args!r})")
            _write(ev, out)
            self.last_event = ev
            return 0
        except BaseException as e:  # noqa: BLE001
            return self.fail(e)

    def save(self, out) -> int:
        """The world's state as its resume point: its attributes pickled (with the last event
        and verdict the bridge keeps), so that a copy continues exactly where it stands."""
        try:
            data = pickle.dumps((vars(self.world), self.last_event, self.last_judge),
                                protocol=pickle.HIGHEST_PROTOCOL)
            buf = (c_uint8 * max(1, len(data))).from_buffer_copy(data or b"\0")
            check(_lib().evoharness_resume_point_write(out, buf, len(data)))
            return 0
        except BaseException as e:  # noqa: BLE001
            return self.fail(e)

    def restore(self, data, size: int) -> int:
        """Takes a resume point :meth:`save` wrote (this world's or another of its kind):
        the same object, its attributes replaced, so that what holds it (a teacher given
        ``env.worlds[i]``) sees the restored state."""
        try:
            state, self.last_event, self.last_judge = pickle.loads(ctypes.string_at(data, size))
            attrs = vars(self.world)
            attrs.clear()
            attrs.update(state)
            return 0
        except BaseException as e:  # noqa: BLE001
            return self.fail(e)

    def verdict(self, finished: int, out) -> int:
        try:
            f = None if finished < 0 else bool(finished)
            v = self.judge(f) if self.judge_takes_finished else self.judge()
            if not isinstance(v, dict) or "success" not in v:
                raise TypeError(f"judge({f}) returned {v!r:.60}; return a dict with at least "
                                "'success' (a bool)")
            if not isinstance(v["success"], (bool, np.bool_)):
                raise TypeError(f"judge({f}) returned success={v['success']!r}; it must be a bool")
            violations = v.get("violations", 0)
            if isinstance(violations, bool) or not isinstance(violations, (int, np.integer)) \
                    or not 0 <= violations < 1 << 32:
                raise TypeError(f"judge({f}) returned violations={violations!r}; it must be an "
                                "int from 0")
            out.contents.success = bool(v["success"])
            out.contents.violations = int(violations)
            self.last_judge = dict(v)
            return 0
        except BaseException as e:  # noqa: BLE001
            return self.fail(e)


# The trampolines are made once and live as long as the module: the library may call them
# until the last world is freed. `user_data` is a key of `_BRIDGES`.
_BRIDGES: dict[int, _Bridge] = {}
_NEXT = [1]


def _bridge(user_data) -> _Bridge:
    return _BRIDGES[int(user_data or 0)]


@_RESET
def _reset_cb(user_data, seed, out):
    try:
        return _bridge(user_data).reset(seed, out)
    except BaseException:  # noqa: BLE001 - a missing bridge: report, never raise into C
        return 1


@_CALL
def _call_cb(user_data, call, out):
    try:
        return _bridge(user_data).call(call.contents, out)
    except BaseException:  # noqa: BLE001
        return 1


@_JUDGE
def _judge_cb(user_data, finished, verdict):
    try:
        return _bridge(user_data).verdict(finished, verdict)
    except BaseException:  # noqa: BLE001
        return 1


@_SAVE
def _save_cb(user_data, out):
    try:
        return _bridge(user_data).save(out)
    except BaseException:  # noqa: BLE001
        return 1


@_RESTORE
def _restore_cb(user_data, data, size):
    try:
        return _bridge(user_data).restore(data, size)
    except BaseException:  # noqa: BLE001
        return 1


@_DROP
def _drop_cb(user_data):
    try:
        _BRIDGES.pop(int(user_data or 0), None)
    except BaseException:  # noqa: BLE001 - never raise into C
        pass


# Environments still open at exit are closed while the trampolines above still exist (module
# teardown could otherwise free them before a late `__del__` frees the worlds that call them).
#: Environments over Python worlds that are still open: closed at exit, while Python can
#: still run their worlds' drop callbacks.
_LIVE: "weakref.WeakSet" = weakref.WeakSet()


@atexit.register
def _close_all():
    for env in list(_LIVE):
        env.close()


def _callbacks(has_judge: bool, copyable: bool = False) -> _Callbacks:
    cb = _Callbacks()
    cb.reset, cb.call, cb.drop = _reset_cb, _call_cb, _drop_cb
    if has_judge:
        cb.judge = _judge_cb
    if copyable:
        cb.save_resume_point, cb.restore_resume_point = _save_cb, _restore_cb
    return cb


def _make_world(bridge: _Bridge) -> c_void_p:
    """A C world over ``bridge``; the library owns it (and drops the bridge) once made."""
    key = _NEXT[0]
    _NEXT[0] += 1
    _BRIDGES[key] = bridge
    names = (c_char_p * len(bridge.tools))(*(t.encode() for t in bridge.tools))
    handle = c_void_p()
    try:
        check(_lib().evoharness_world_from_callbacks(
            ctypes.byref(_callbacks(bridge.judge is not None, bridge.copyable)), c_void_p(key),
            names,
            len(bridge.tools), ctypes.byref(handle)))
    except BaseException:
        _BRIDGES.pop(key, None)
        raise
    return handle


def teacher_arity(teacher) -> int:
    """How many positional arguments ``teacher`` takes (2 or 3; 2 when it cannot be told)."""
    cached = getattr(teacher, "__evoharness_arity__", None)
    if cached is not None:
        return cached
    try:
        params = [p for p in inspect.signature(teacher).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        var = any(p.kind == p.VAR_POSITIONAL for p in inspect.signature(teacher).parameters.values())
        n = 3 if var or len(params) >= 3 else 2
    except (TypeError, ValueError):
        n = 2
    try:
        teacher.__evoharness_arity__ = n
    except (AttributeError, TypeError):
        pass
    return n


# --- The environment ----------------------------------------------------------------------

_DEFAULT_CAPS = {"facts": 16, "steps": 8, "lessons": 4}
_VERBS = ("act", "track", "commit", "recall", "note", "finish")


def world_defaults(world) -> dict:
    """What a world says of itself, from its (class) attributes when it has them: ``budget``
    (an episode's step budget, else None), ``capacities`` (some of ``facts``, ``steps``,
    ``lessons``) and ``costs`` (verb -> cost). :meth:`VecEnv.from_worlds` starts from them, as
    training and evaluation do (:func:`world_settings`)."""
    return {"capacities": dict(getattr(world, "capacities", None) or {}),
            "budget": getattr(world, "budget", None),
            "costs": dict(getattr(world, "costs", None) or {})}


def world_settings(factory, horizon: int | None = None, capacities: dict | None = None) -> dict:
    """A world's defaults (:func:`world_defaults` of one world ``factory()`` makes), overridden
    by what is given, with a budget of 100 when neither says one: the keyword arguments of
    :meth:`VecEnv.from_worlds` that ``train``, ``evaluate`` and ``record`` pass."""
    own = world_defaults(factory())
    caps = own["capacities"]
    caps.update(capacities or {})
    budget = horizon or own["budget"] or 100
    return {"capacities": caps, "budget": int(budget), "costs": own["costs"]}


class Templates:
    """Indices of the layout's action templates, for scripts and teachers: the table order of
    the core's structured-v1 layout (``core/src/obs/template.rs``), checked against the library's
    ``templates`` list when made."""

    def __init__(self, lay: dict):
        f, s, l, t = lay["facts"], lay["steps"], lay["lessons"], lay["tools"]
        self.facts, self.tools = f, t
        sizes = [("finish", 2), ("act", t * (1 + f + FIELDS_MAX)), ("track", FIELDS_MAX),
                 ("confirm", f), ("retract", f), ("compress", 1), ("plan", FIELDS_MAX),
                 ("step", s * 6), ("cursor", FIELDS_MAX), ("recall", FIELDS_MAX),
                 ("note_fact", f), ("note_field", FIELDS_MAX), ("rate", 2 * l),
                 ("consolidate", 1)]
        self.start, at = {}, 0
        for name, n in sizes:
            self.start[name] = at
            at += n
        if at != lay["actions"] or lay["templates"][self.act(t - 1)] != ["act", t - 1]:
            raise EvoharnessError(0, "the library's layout is not the one this package knows")

    def finish(self, success: bool = True) -> int:
        """Finish, claiming success or not."""
        return self.start["finish"] + (0 if success else 1)

    def act(self, tool: int, field: int | None = None, fact: int | None = None) -> int:
        """Call ``tool`` with no argument, or with field ``field`` of the current event, or with
        the value of belief slot ``fact``."""
        if not 0 <= tool < self.tools:
            raise ValueError(f"no tool {tool}: the layout has {self.tools}")
        base = self.start["act"] + tool * (1 + self.facts + FIELDS_MAX)
        if field is not None:
            if not 0 <= field < FIELDS_MAX:
                raise ValueError(f"no field {field}: an event has at most {FIELDS_MAX}")
            return base + 1 + self.facts + field
        if fact is not None:
            if not 0 <= fact < self.facts:
                raise ValueError(f"no belief slot {fact}: the layout has {self.facts}")
            return base + 1 + fact
        return base

    def track(self, field: int) -> int:
        """Track field ``field`` of the current event in Belief."""
        if not 0 <= field < FIELDS_MAX:
            raise ValueError(f"no field {field}: an event has at most {FIELDS_MAX}")
        return self.start["track"] + field


__all__ = ["Event", "TeacherError", "Templates", "WorldError", "check_event",
           "check_tools", "intent_json", "teacher_arity", "world_defaults", "world_settings"]
