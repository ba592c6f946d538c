"""The embedded agent over a world written in Python: the library's ``evoharness_agent_*``
(the same loop a C or C++ product runs) with a policy file, the Python world serving the tools
as a callback world (``evoharness_world_from_callbacks``).

>>> with Agent("invoices.onnx", Invoices, budget=80) as agent:   # doctest: +SKIP
...     agent.run_task(1_000_000)   # {'success': True, 'steps': 14, 'reward': 1.41, ...}

The policy runs on ONNX Runtime, loaded from the ``onnxruntime`` Python package's library (or
``$EVOHARNESS_ORT_LIB``): the library built for training leaves the pure-Rust backend out. The
first policy a process loads fixes its backend.
"""

from __future__ import annotations

import ctypes
import glob
import os
import pathlib
from ctypes import (POINTER, c_bool, c_char, c_char_p, c_float, c_int8, c_int32, c_size_t,
                    c_uint16, c_uint32, c_uint64, c_void_p)

from ._native import Capacities, EvoharnessError, Handle, check
from .world import STATUS_WORLD, WorldError, _Bridge, _lib, _make_world

BACKEND_ONNXRUNTIME = 2
#: The suite's reward constants (``suite/src/lib.rs``, ``reward``): the agent reports cost and
#: verdict, and the reward of an episode is computed from them as the library's environments
#: do. ``tests/test_train.py`` checks the two agree episode by episode.
STEP_PENALTY, EFFICIENCY, VIOLATION = 0.1, 0.5, -0.5


class NoBackend(RuntimeError):
    """No ONNX Runtime library was found to run a policy with."""


class _Limits(ctypes.Structure):
    _fields_ = [("max_file_bytes", c_uint64), ("max_nodes", c_uint64),
                ("max_tensor_elements", c_uint64), ("max_constant_bytes", c_uint64)]


class _PolicyOptions(ctypes.Structure):
    _fields_ = [("backend", c_uint32), ("ort_library", c_char_p), ("device", c_uint32),
                ("device_id", c_int32), ("threads", c_uint32), ("cpu_fallback", c_bool),
                ("limits", _Limits)]


class _PolicyAbi(ctypes.Structure):
    _fields_ = [("abi", c_char * 32), ("layout_version", c_uint32), ("capacities", Capacities),
                ("obs_len", c_size_t), ("actions", c_size_t), ("recurrent", c_bool),
                ("state_len", c_size_t), ("has_value", c_bool), ("tool_names", c_size_t),
                ("backend", c_uint32), ("device", c_uint32), ("device_id", c_int32)]


class _Costs(ctypes.Structure):
    _fields_ = [(k, c_uint16) for k in ("act", "track", "commit", "recall", "note", "finish")]


class _AgentConfig(ctypes.Structure):
    _fields_ = [("budget", c_uint32), ("costs", _Costs), ("temperature", c_float),
                ("seed", c_uint64)]


class _Summary(ctypes.Structure):
    _fields_ = [("finished", c_int8), ("steps", c_uint64), ("world_actions", c_uint64),
                ("harness_actions", c_uint64), ("spent", c_uint32)]


class _Verdict(ctypes.Structure):
    _fields_ = [("success", c_bool), ("violations", c_uint32)]


class _StepReport(ctypes.Structure):
    _fields_ = [("taken", c_bool), ("step", c_uint64), ("template_index", c_uint32),
                ("verb", ctypes.c_uint8), ("tool", c_int32), ("cost", c_uint32),
                ("finished", c_int8)]


#: ``evoharness_verb`` values: act, then the harness verbs, then finish.
_VERB_ACT, _VERB_FINISH = 0, 5

_SIGNATURES = {
    "evoharness_policy_options_default": ([POINTER(_PolicyOptions)], c_uint32),
    "evoharness_policy_load": ([c_char_p, POINTER(_PolicyOptions), POINTER(c_void_p)], c_uint32),
    "evoharness_policy_get_abi": ([c_void_p, POINTER(_PolicyAbi)], c_uint32),
    "evoharness_policy_free": ([c_void_p], None),
    "evoharness_agent_config_default": ([POINTER(_AgentConfig)], c_uint32),
    "evoharness_agent_new": ([POINTER(c_void_p), POINTER(c_void_p), POINTER(_AgentConfig),
                              POINTER(c_void_p)], c_uint32),
    "evoharness_agent_free": ([c_void_p], None),
    "evoharness_agent_start_task": ([c_void_p, c_uint64], c_uint32),
    "evoharness_agent_run": ([c_void_p, c_uint64, POINTER(_Summary)], c_uint32),
    "evoharness_agent_verdict": ([c_void_p, POINTER(_Verdict)], c_uint32),
    "evoharness_agent_set_trace_file": ([c_void_p, c_char_p], c_uint32),
    "evoharness_fleet_new": ([POINTER(c_void_p), POINTER(c_void_p)], c_uint32),
    "evoharness_fleet_free": ([c_void_p], None),
    "evoharness_fleet_add": ([c_void_p, POINTER(c_void_p), POINTER(_AgentConfig),
                              POINTER(c_size_t)], c_uint32),
    "evoharness_fleet_start_task": ([c_void_p, c_size_t, c_uint64], c_uint32),
    "evoharness_fleet_step": ([c_void_p, POINTER(_StepReport), POINTER(c_uint32), c_size_t,
                               POINTER(c_size_t)], c_uint32),
    "evoharness_fleet_verdict": ([c_void_p, c_size_t, POINTER(_Verdict)], c_uint32),
    "evoharness_fleet_checkpoint": ([c_void_p, c_size_t, c_char_p], c_uint32),
}


def _alib():
    l = _lib()
    if not getattr(l, "_evoharness_agent_declared", False):
        for name, (args, res) in _SIGNATURES.items():
            f = getattr(l, name)
            f.argtypes, f.restype = args, res
        l._evoharness_agent_declared = True
    return l


def onnxruntime_library() -> str:
    """The ONNX Runtime shared library: ``$EVOHARNESS_ORT_LIB``, else the one inside the
    ``onnxruntime`` Python package (``pip install onnxruntime``)."""
    env = os.environ.get("EVOHARNESS_ORT_LIB")
    if env:
        if not pathlib.Path(env).is_file():
            raise NoBackend(f"EVOHARNESS_ORT_LIB={env}: no such file")
        return env
    try:
        import importlib.util

        spec = importlib.util.find_spec("onnxruntime")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise NoBackend("no ONNX Runtime: pip install onnxruntime (examples/train/requirements.txt "
                        "pins it), or set EVOHARNESS_ORT_LIB to libonnxruntime.so")
    for root in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(root, "capi", "libonnxruntime.so*")))
        if found:
            return found[-1]
    raise NoBackend("the onnxruntime package has no libonnxruntime.so; set EVOHARNESS_ORT_LIB")


def _load(path, ort_library: str | None) -> c_void_p:
    l = _alib()
    opts = _PolicyOptions()
    check(l.evoharness_policy_options_default(ctypes.byref(opts)))
    opts.backend = BACKEND_ONNXRUNTIME
    ort = (ort_library or onnxruntime_library()).encode()
    opts.ort_library = ort
    opts.threads = 1
    h = c_void_p()
    check(l.evoharness_policy_load(str(path).encode(), ctypes.byref(opts), ctypes.byref(h)))
    return h


def _abi(h) -> dict:
    a = _PolicyAbi()
    check(_alib().evoharness_policy_get_abi(h, ctypes.byref(a)))
    c = a.capacities
    return {"abi": a.abi.decode(), "layout_version": a.layout_version,
            "capacities": {"facts": c.facts, "steps": c.steps, "lessons": c.lessons,
                           "tools": c.tools},
            "obs_len": a.obs_len, "actions": a.actions, "recurrent": a.recurrent}


def check_policy(path, ort_library: str | None = None) -> dict:
    """Loads a policy file through the library's loader (the checks the runtime makes) and
    returns its contract; :class:`~evoharness.EvoharnessError` says why a file is refused."""
    h = _load(path, ort_library)
    try:
        return _abi(h)
    finally:
        _alib().evoharness_policy_free(h)


def episode_reward(success: bool, violations: int, spent: int, budget: int) -> float:
    """An episode's return as the library's environments count it (every step's share of the
    budget, then the success-gated efficiency bonus or the violation penalty)."""
    b = max(1, budget)
    r = -STEP_PENALTY * spent / b
    if success:
        r += 1.0 + EFFICIENCY * (1.0 - min(1.0, spent / b))
    elif violations > 0:
        r += VIOLATION
    return r


def _raise_world(bridge: _Bridge) -> None:
    """Raises what a Python world's callback raised, if it did (the library only heard that it
    failed)."""
    e = bridge.error
    if e is not None:
        bridge.error = None
        raise WorldError(STATUS_WORLD, f"world: {type(e).__name__}: {e}") from e


def _config(budget: int, costs: dict | None, seed: int) -> _AgentConfig:
    cfg = _AgentConfig()
    check(_alib().evoharness_agent_config_default(ctypes.byref(cfg)))
    cfg.budget = budget
    for k, v in (costs or {}).items():
        setattr(cfg.costs, k, v)
    cfg.temperature, cfg.seed = 0.0, seed
    return cfg


def _checked_abi(policy, policy_path, bridge: _Bridge) -> dict:
    abi = _abi(policy)
    if abi["capacities"]["tools"] != len(bridge.tools):
        raise EvoharnessError(4, f"the policy {policy_path} has {abi['capacities']['tools']}"
                              f" tools; the world has {len(bridge.tools)} "
                              f"({', '.join(bridge.tools)})")
    return abi


def _task_result(success: bool, finished, steps: int, world_actions: int, harness_actions: int,
                 spent: int, violations: int, budget: int, judge) -> dict:
    return {"success": success, "finished": finished, "steps": steps,
            "world_actions": world_actions, "harness_actions": harness_actions, "cost": spent,
            "violations": violations,
            "reward": episode_reward(success, violations, spent, budget),
            "judge": dict(judge or {})}


class Agent(Handle):
    """One embedded agent: a policy file driving a world made by ``factory()`` through the
    library's agent loop. The world's tools must match the policy's tool count (and names,
    where the policy records them)."""

    def __init__(self, policy_path, factory, *, budget: int, costs: dict | None = None,
                 seed: int = 0, ort_library: str | None = None):
        self._h = None
        l = _alib()
        self.world = factory()
        self.bridge = _Bridge(self.world, 0)
        policy = _load(policy_path, ort_library)
        try:
            self.abi = _checked_abi(policy, policy_path, self.bridge)
            world = _make_world(self.bridge)
            cfg = _config(budget, costs, seed)
            self.budget = budget
            h = c_void_p()
            status = l.evoharness_agent_new(ctypes.byref(policy), ctypes.byref(world),
                                            ctypes.byref(cfg), ctypes.byref(h))
            if world:
                _lib().evoharness_world_free(world)
            self._raise(status)
            self._h = h
            self._started = seed
        finally:
            if policy:
                l.evoharness_policy_free(policy)

    def _raise(self, status: int):
        _raise_world(self.bridge)
        check(status)

    def run_task(self, seed: int) -> dict:
        """Runs the task of ``seed`` to its end; returns ``success``, ``finished``, ``steps``,
        ``world_actions``, ``harness_actions``, ``cost``, ``violations``, ``reward`` and the
        world's ``judge`` dict."""
        l = _alib()
        if self._started != seed:
            self._raise(l.evoharness_agent_start_task(self._h, seed))
        self._started = None
        s = _Summary()
        # A bound far above any task's length (free verbs can make steps outnumber the
        # budget): the task's own end stops the run.
        self._raise(l.evoharness_agent_run(self._h, 16 * self.budget + 1024, ctypes.byref(s)))
        v = _Verdict()
        self._raise(l.evoharness_agent_verdict(self._h, ctypes.byref(v)))
        return _task_result(bool(v.success), None if s.finished < 0 else bool(s.finished),
                            int(s.steps), int(s.world_actions), int(s.harness_actions),
                            int(s.spent), int(v.violations), self.budget, self.bridge.last_judge)

    def trace_to(self, path) -> None:
        """Writes the agent's trace from now on to a new file at ``path``: one JSON line per
        step in the runtime's trace format (``runtime/TRACE.md``), which
        ``evoharness view PATH --follow`` shows live while the agent runs and
        ``evoharness view PATH -o page.html`` as a page. ``None`` stops tracing and flushes the
        file."""
        p = None if path is None else os.fsencode(path)
        self._raise(_alib().evoharness_agent_set_trace_file(self._h, p))

    def set_experience_store(self, store) -> None:
        """Gives the agent an :class:`~evoharness.experience.ExperienceStore` behind its
        workspace's Experience: ``note`` actions write through to it, ``recall`` actions first
        bring its best matches into the working set, checkpoints carry it. The agent takes the
        store over (``store`` is then empty); an agent that has one refuses another."""
        from .experience import _lib as _elib

        h = store._handle()
        check(_elib().evoharness_experience_store_attach(ctypes.byref(h), self._h))
        store._h = None

    def take_experience_store(self):
        """Takes the agent's experience store back (``None`` if it has none); the agent goes
        on without one."""
        from .experience import ExperienceStore, _lib as _elib

        h = c_void_p()
        status = _elib().evoharness_experience_store_detach(self._h, ctypes.byref(h))
        if status == 4:
            return None
        check(status)
        return ExperienceStore(_handle=h)

    def close(self):
        if self._h:
            _alib().evoharness_agent_free(self._h)
            self._h = None


class Fleet(Handle):
    """``n`` embedded agents with one policy file, stepped together: every step runs the policy
    **once** for all the agents that decide (a file with a dynamic batch dimension, as
    :func:`~evoharness.train.export.export_onnx` writes; a batch-1 file runs once per agent). Agent
    ``i`` drives its own world, made by ``factory(i)``, and acts exactly as an :class:`Agent`
    with the same policy, world and seed would alone.

    >>> with Fleet("invoices.onnx", lambda i: Invoices(), 64, budget=80) as fleet:  # doctest: +SKIP
    ...     results = fleet.run_tasks(range(1_000_000, 1_000_064))   # one dict per agent
    """

    def __init__(self, policy_path, factory, n: int, *, budget: int, costs: dict | None = None,
                 seeds=None, ort_library: str | None = None):
        self._h = None
        if n < 1:
            raise ValueError(f"a fleet of {n} agents")
        seeds = list(range(n)) if seeds is None else [int(x) for x in seeds]
        if len(seeds) != n:
            raise ValueError(f"{len(seeds)} seeds for {n} agents")
        l = _alib()
        self.bridges = [_Bridge(factory(i), i) for i in range(n)]
        self.worlds = [b.world for b in self.bridges]
        policy = _load(policy_path, ort_library)
        try:
            for b in self.bridges:
                self.abi = _checked_abi(policy, policy_path, b)
            h = c_void_p()
            check(l.evoharness_fleet_new(ctypes.byref(policy), ctypes.byref(h)))
            self._h = h
        finally:
            if policy:
                l.evoharness_policy_free(policy)
        self.budget = budget
        index = c_size_t()
        for b, seed in zip(self.bridges, seeds):
            world = _make_world(b)
            status = l.evoharness_fleet_add(self._h, ctypes.byref(world),
                                            ctypes.byref(_config(budget, costs, seed)),
                                            ctypes.byref(index))
            if world:
                _lib().evoharness_world_free(world)
            _raise_world(b)
            check(status)
        self._started = list(seeds)
        self._reports = (_StepReport * n)()
        self._statuses = (c_uint32 * n)()

    def __len__(self) -> int:
        return len(self.bridges)

    def step(self) -> list:
        """One step of every agent whose task goes on, with one policy run; returns, per agent,
        ``None`` if its task had ended, else its step: ``template``, ``verb`` (0 act, 1 track,
        2 commit, 3 recall, 4 note, 5 finish), ``tool`` (-1 for none), ``cost`` and
        ``finished`` (``None`` while the task runs). A world's exception is raised (after every
        agent has stepped)."""
        stepped = c_size_t()
        status = _alib().evoharness_fleet_step(self._h, self._reports, self._statuses,
                                               len(self), ctypes.byref(stepped))
        check(status)
        for b in self.bridges:
            _raise_world(b)
        for s in self._statuses:
            check(s)
        return [None if not r.taken else
                {"template": int(r.template_index), "verb": int(r.verb), "tool": int(r.tool),
                 "cost": int(r.cost), "finished": None if r.finished < 0 else bool(r.finished)}
                for r in self._reports]

    def run_tasks(self, seeds) -> list[dict]:
        """Agent ``i`` runs the task of ``seeds[i]`` to its end, all of them together; returns
        one dict per agent, as :meth:`Agent.run_task` does."""
        seeds = [int(x) for x in seeds]
        if len(seeds) != len(self):
            raise ValueError(f"{len(seeds)} seeds for {len(self)} agents")
        l = _alib()
        for i, seed in enumerate(seeds):
            if self._started[i] != seed:
                check(l.evoharness_fleet_start_task(self._h, i, seed))
            self._started[i] = None
        tally = [{"steps": 0, "world": 0, "harness": 0, "spent": 0, "finished": None}
                 for _ in seeds]
        # A bound far above any task's length, as Agent.run_task has.
        for _ in range(16 * self.budget + 1024):
            reports = self.step()
            if all(r is None for r in reports):
                break
            for t, r in zip(tally, reports):
                if r is None:
                    continue
                t["steps"] += 1
                t["spent"] += r["cost"]
                t["finished"] = r["finished"]
                if r["verb"] == _VERB_ACT:
                    t["world"] += 1
                elif r["verb"] != _VERB_FINISH:
                    t["harness"] += 1
        out = []
        for i, (t, b) in enumerate(zip(tally, self.bridges)):
            v = _Verdict()
            status = l.evoharness_fleet_verdict(self._h, i, ctypes.byref(v))
            _raise_world(b)
            check(status)
            out.append(_task_result(bool(v.success), t["finished"], t["steps"], t["world"],
                                    t["harness"], t["spent"], int(v.violations), self.budget,
                                    b.last_judge))
        return out

    def checkpoint(self, i: int, path) -> None:
        """Writes agent ``i``'s checkpoint to ``path`` (the C library's
        ``evoharness_agent_resume`` and ``evoharness_fleet_resume`` continue from it)."""
        check(_alib().evoharness_fleet_checkpoint(self._h, i, os.fsencode(path)))

    def close(self):
        if self._h:
            _alib().evoharness_fleet_free(self._h)
            self._h = None


__all__ = ["Agent", "Fleet", "NoBackend", "check_policy", "episode_reward", "onnxruntime_library"]
