"""The task suite's vectorised environment, stepped through the C library into numpy arrays."""

from __future__ import annotations

import ctypes
import json
from ctypes import c_float, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p

import numpy as np

from ._native import Capacities, EpisodeStats, EvoharnessError, Handle, VecEnvInfo, check, lib, ptr

#: The suite's tasks and their ``evoharness_task`` codes.
TASKS = {"migration": 0, "records": 1, "orchestration": 2}

#: The suite's versions and the flag each adds to a task code (``EVOHARNESS_TASK_V2``).
SCENARIOS = {"v1": 0, "v2": 0x100, "v3": 0x200}
#: The rule-based teachers and their ``evoharness_teacher`` codes.
TEACHERS = {"lean": 0, "oracle": 1, "static": 2, "tuned": 3, "static-lean": 4, "fixed-best": 5,
            "retuned": 6}
#: What :meth:`VecEnv.teacher_actions` gives where the teacher has no legal action.
NO_LABEL = -1


def suite_capacities() -> dict:
    """The suite's workspace capacities (facts, steps, lessons, tools), from the library."""
    c = Capacities()
    check(lib().evoharness_suite_capacities(ctypes.byref(c)))
    return {k: getattr(c, k) for k in ("facts", "steps", "lessons", "tools")}


def layout(facts: int, steps: int, lessons: int, tools: int) -> dict:
    """The structured-v1 layout for these capacities, from the library: sizes, segments with
    their features, and each template's ``[verb, tool]``."""
    n = c_size_t(0)
    cap = 1 << 20  # a layout of the largest capacities is a few hundred KB
    buf = ctypes.create_string_buffer(cap)
    caps = Capacities(facts, steps, lessons, tools)
    check(lib().evoharness_layout_json(ctypes.byref(caps), buf, cap, ctypes.byref(n)))
    return json.loads(buf.raw[: n.value].decode())


def suite_layout() -> dict:
    """The layout of the suite's capacities."""
    c = suite_capacities()
    return layout(c["facts"], c["steps"], c["lessons"], c["tools"])


def _range(organisations) -> range:
    r = range(organisations) if isinstance(organisations, int) else organisations
    if not isinstance(r, range) or r.step != 1:
        raise ValueError(f"organisations must be a count or a range with step 1, not {organisations!r}")
    return r


class VecEnv(Handle):
    """``n`` environments of one task, stepped together (see the suite's ``vec_env`` module).

    Environment ``i`` runs organisation ``organisations[0] + g % len(organisations)`` with
    ``g = i // group``, and for its ``k``-th episode seed ``seed + g + k * (n // group)``; an
    environment whose episode ends is reset at once. ``organisations`` is a range, or a count
    (``range(count)``); ``families`` is its old name. ``obs`` (float32, ``[n, obs_len]``),
    ``mask`` (uint8, ``[n, actions]``), ``reward`` (float32, ``[n]``) and ``done`` (uint8,
    ``[n]``) are owned by this object and overwritten by every call. ``scenario`` is the suite's
    version, ``"v1"``, ``"v2"`` (tasks where no hand-written rule is optimal; each
    environment's agent then has an experience store, kept across its episodes) or ``"v3"``
    (v2 in the deployment each organisation draws: each agent pays its deployment's prices, is
    renewed after its store lifetime, and its machine crashes back to its last commit; the
    first event carries the deployment's card). The ``fixed-best`` teacher is v3's best single
    rule, tuned on training organisations, keeping the deployment's card in Belief without
    acting on it; the ``retuned`` teacher is, in each environment, the rule's setting that
    earns the most in that environment's own organisation (tuned there on first request, on
    episodes no evaluation uses), keeping the card the same way: it reads no card, it measured
    the deployment as reward.

    ``lifetime`` (episodes; 0, the default: forever): every ``lifetime`` episodes an
    environment's agent is replaced by one that knows nothing (an empty working set and
    experience store), on the next organisation: for its ``m``-th agent, environment ``i`` runs
    ``organisations[(g + m * G) % len(organisations)]`` with ``G = n // group`` groups. Seeds are
    unchanged. ``evoharness eval`` runs about a dozen episodes of an organisation on one agent;
    training with a lifetime of that size sees new agents as often.
    """

    def __init__(self, task: str, horizon: int, n: int, organisations=range(0, 4), seed: int = 0,
                 group: int = 1, *, families=None, scenario: str = "v1", lifetime: int = 0):
        if task not in TASKS:
            raise ValueError(f"unknown task {task!r}: expected one of {sorted(TASKS)}")
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}: expected one of {sorted(SCENARIOS)}")
        if int(lifetime) < 0:
            raise ValueError(f"lifetime is a number of episodes (0: forever), not {lifetime}")
        orgs = _range(organisations if families is None else families)
        handle = c_void_p()
        check(lib().evoharness_vec_env_new_grouped(
            TASKS[task] | SCENARIOS[scenario], horizon, n, group, orgs.start, len(orgs), seed,
            ctypes.byref(handle)))
        self._h = handle
        check(lib().evoharness_vec_env_set_lifetime(handle, int(lifetime)))
        self.lifetime = int(lifetime)
        info = VecEnvInfo()
        check(lib().evoharness_vec_env_get_info(handle, ctypes.byref(info)))
        self.task, self.horizon, self.n, self.group = task, horizon, info.n, info.group
        self.scenario = scenario
        self.organisations = orgs
        self.obs_len, self.actions = info.obs_len, info.actions
        self.obs = np.zeros((n, self.obs_len), np.float32)
        self.mask = np.zeros((n, self.actions), np.uint8)
        self.reward = np.zeros(n, np.float32)
        self.done = np.zeros(n, np.uint8)
        self._teacher = np.zeros(n, np.uint32)
        self.observe()

    def close(self) -> None:
        """Frees the environments (also done when the object is collected)."""
        if getattr(self, "_h", None):
            lib().evoharness_vec_env_free(self._h)
            self._h = None

    def _live(self):
        if not self._h:
            raise EvoharnessError(0, "the VecEnv was closed")
        return self._h

    def observe(self):
        """Every environment's current observation and mask."""
        check(lib().evoharness_vec_env_observe(
            self._live(), ptr(self.obs, c_float), self.obs.size, ptr(self.mask, c_uint8),
            self.mask.size))
        return self.obs, self.mask

    def step(self, actions):
        """Steps every environment with its template; returns ``(obs, mask, reward, done)``.

        An illegal template (mask 0) raises :class:`EvoharnessError` and changes nothing."""
        a = np.ascontiguousarray(actions, dtype=np.uint32)
        if a.shape != (self.n,):
            raise ValueError(f"actions has shape {a.shape}; {self.n} environments need ({self.n},)")
        check(lib().evoharness_vec_env_step(
            self._live(), ptr(a, c_uint32), a.size, ptr(self.obs, c_float), self.obs.size,
            ptr(self.mask, c_uint8), self.mask.size, ptr(self.reward, c_float), self.reward.size,
            ptr(self.done, c_uint8), self.done.size))
        return self.obs, self.mask, self.reward, self.done

    def teacher_actions(self, teacher: str = "lean") -> np.ndarray:
        """The template a rule-based teacher (one of :data:`TEACHERS`) would choose
        now in every environment: labels for imitation learning, as int64, :data:`NO_LABEL`
        (-1) where the teacher has no legal action (a state only a learner's mistakes reach).
        The ``static`` harness works through an agenda; each environment's copy of it follows
        the actions taken, so its labels hold on a learner's trajectories too."""
        if teacher not in TEACHERS:
            raise ValueError(f"unknown teacher {teacher!r}: expected {', '.join(TEACHERS)}")
        check(lib().evoharness_vec_env_teacher_actions(
            self._live(), TEACHERS[teacher], ptr(self._teacher, c_uint32), self._teacher.size))
        labels = self._teacher.astype(np.int64)
        labels[self._teacher == np.iinfo(np.uint32).max] = NO_LABEL
        return labels

    def last_episode(self, i: int):
        """Environment ``i``'s last finished episode as a dict, or None before its first end."""
        if self.episodes(i) == 0:
            return None
        s = EpisodeStats()
        check(lib().evoharness_vec_env_last_episode(self._live(), i, ctypes.byref(s)))
        return s.to_dict()

    def copy(self, src: int, dst: int, *, observe: bool = True) -> None:
        """Makes environment ``dst`` an exact copy of environment ``src`` as it is now (agent,
        world, experience store, random state, the episode so far): the same actions then give
        both the same observations, rewards and end of episode. For branching rollouts: try
        another action in a copy, compare returns under the same draws. Environments of one
        group stay alike after their episode too (the same seeds). Updates :attr:`obs` and
        :attr:`mask` unless ``observe`` is false (then call :meth:`observe` before reading
        them). :class:`EvoharnessError` for an index past the last (nothing changed) or a copy
        the world refuses (``dst`` then plays on as it was, or starts its episode over: the
        message says which)."""
        for i in (src, dst):
            if i < 0:
                raise EvoharnessError(4, f"no environment {i}")
        check(lib().evoharness_vec_env_copy(self._live(), int(src), int(dst)))
        if observe:
            self.observe()

    def episodes(self, i: int) -> int:
        """Episodes environment ``i`` has finished (:class:`EvoharnessError` past the last)."""
        if i < 0:
            raise EvoharnessError(4, f"no environment {i}")
        n = c_uint64(0)
        check(lib().evoharness_vec_env_episodes(self._live(), i, ctypes.byref(n)))
        return n.value
