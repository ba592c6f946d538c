"""Many environments stepped together through the C library into numpy arrays: the task
suite's (:class:`VecEnv`) or worlds written in Python (:meth:`VecEnv.from_worlds`)."""

from __future__ import annotations

import ctypes
import json
from ctypes import c_float, c_size_t, c_uint8, c_uint32, c_uint64, c_void_p

import numpy as np

from ._native import Capacities, EpisodeStats, EvoharnessError, Handle, VecEnvInfo, check, lib, ptr
from . import world as _world
from .world import FIELDS_MAX, STATUS_WORLD, Event, TeacherError, Templates, WorldError

#: The suite's tasks and their ``evoharness_task`` codes.
TASKS = {"migration": 0, "records": 1, "orchestration": 2}

#: The suite's versions and the flag each adds to a task code (``EVOHARNESS_TASK_V2``).
SCENARIOS = {"v1": 0, "v2": 0x100, "v3": 0x200}
#: The rule-based teachers and their ``evoharness_teacher`` codes.
TEACHERS = {"lean": 0, "oracle": 1, "static": 2, "tuned": 3, "static-lean": 4, "fixed-best": 5,
            "retuned": 6, "regional": 7}
#: What :meth:`VecEnv.teacher_actions` gives where the teacher has no legal action.
NO_LABEL = -1


def suite_capacities() -> dict:
    """The suite's workspace capacities (facts, steps, lessons, tools), from the library."""
    c = Capacities()
    check(lib().evoharness_suite_capacities(ctypes.byref(c)))
    return {k: getattr(c, k) for k in ("facts", "steps", "lessons", "tools")}


#: The observation layout versions the library writes: 1 (``structured-v1``) and 2
#: (``structured-v2``: structured-v1's and the ``harness`` segment, the configured costs, the
#: harness streak and the last harness verb; ``core/PROTOCOL.md`` §8).
LAYOUT_VERSIONS = (1, 2)


def _check_version(layout_version) -> int:
    if layout_version not in LAYOUT_VERSIONS:
        raise ValueError(f"layout version {layout_version!r}: the library writes 1 or 2")
    return int(layout_version)


def layout(facts: int, steps: int, lessons: int, tools: int, layout_version: int = 1) -> dict:
    """The layout of ``layout_version`` (1: structured-v1, 2: structured-v2) for these
    capacities, from the library: ``abi``, ``layout_version``, sizes, segments with their
    features, and each template's ``[verb, tool]``."""
    n = c_size_t(0)
    cap = 1 << 20  # a layout of the largest capacities is a few hundred KB
    buf = ctypes.create_string_buffer(cap)
    caps = Capacities(facts, steps, lessons, tools)
    check(lib().evoharness_layout_json_version(ctypes.byref(caps), _check_version(layout_version),
                                               buf, cap, ctypes.byref(n)))
    return json.loads(buf.raw[: n.value].decode())


def suite_layout(layout_version: int = 1) -> dict:
    """The layout of the suite's capacities (of ``layout_version``)."""
    c = suite_capacities()
    return layout(c["facts"], c["steps"], c["lessons"], c["tools"], layout_version)


def _range(organisations) -> range:
    r = range(organisations) if isinstance(organisations, int) else organisations
    if not isinstance(r, range) or r.step != 1:
        raise ValueError(f"organisations must be a count or a range with step 1, not {organisations!r}")
    return r


class VecEnv(Handle):
    """``n`` environments stepped together (see the suite's ``vec_env`` module), made in one of
    two ways: ``VecEnv(task, horizon, n, ...)`` runs the task suite's simulators, and
    :meth:`VecEnv.from_worlds` runs worlds written in Python. Both step, observe, label and
    copy alike.

    ``obs`` (float32, ``[n, obs_len]``), ``mask`` (uint8, ``[n, actions]``), ``reward``
    (float32, ``[n]``) and ``done`` (uint8, ``[n]``) are owned by this object and overwritten
    by every call.

    **The suite** (this constructor): environment ``i`` runs organisation
    ``organisations[0] + g % len(organisations)`` with ``g = i // group``, and for its ``k``-th
    episode seed ``seed + g + k * (n // group)``; an environment whose episode ends is reset at
    once. ``organisations`` is a range, or a count (``range(count)``); ``families`` is its old
    name. ``scenario`` is the suite's version, ``"v1"``, ``"v2"`` (tasks where no hand-written
    rule is optimal; each environment's agent then has an experience store, kept across its
    episodes) or ``"v3"`` (v2 in the deployment each organisation draws: each agent pays its
    deployment's prices, is renewed after its store lifetime, and its machine crashes back to
    its last commit; the first event carries the deployment's card). The ``fixed-best``
    teacher is v3's best single rule, tuned on training organisations, keeping the
    deployment's card in Belief without acting on it; the ``retuned`` teacher is, in each
    environment, the rule's setting that earns the most in that environment's own
    organisation (tuned there on first request, on episodes no evaluation uses), keeping the
    card the same way: it reads no card, it measured the deployment as reward. The
    ``regional`` teacher is that search pooled over deployments whose cards agree on the
    model's and the machines' tier (the setting found on training organisations for each
    pair, ``tune::REGIONAL``), keeping the card the same way: what it distils is a function
    of what a policy sees.

    ``lifetime`` (episodes; 0, the default: forever): every ``lifetime`` episodes an
    environment's agent is replaced by one that knows nothing (an empty working set and
    experience store), on the next organisation: for its ``m``-th agent, environment ``i`` runs
    ``organisations[(g + m * G) % len(organisations)]`` with ``G = n // group`` groups. Seeds are
    unchanged. ``evoharness eval`` runs about a dozen episodes of an organisation on one agent;
    training with a lifetime of that size sees new agents as often.

    ``layout_version`` (both ways of making one): 1 (the default) for structured-v1
    observations, 2 for structured-v2 (:func:`layout`); a policy trained on them declares it.
    """

    def __init__(self, task: str, horizon: int, n: int, organisations=range(0, 4), seed: int = 0,
                 group: int = 1, *, families=None, scenario: str = "v1", lifetime: int = 0,
                 layout_version: int = 1):
        if task not in TASKS:
            raise ValueError(f"unknown task {task!r}: expected one of {sorted(TASKS)}")
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown scenario {scenario!r}: expected one of {sorted(SCENARIOS)}")
        if int(lifetime) < 0:
            raise ValueError(f"lifetime is a number of episodes (0: forever), not {lifetime}")
        version = _check_version(layout_version)
        orgs = _range(organisations if families is None else families)
        self._bridges = None
        self.worlds = None
        handle = c_void_p()
        check(lib().evoharness_vec_env_new_grouped(
            TASKS[task] | SCENARIOS[scenario], horizon, n, group, orgs.start, len(orgs), seed,
            ctypes.byref(handle)))
        self._h = handle
        check(lib().evoharness_vec_env_set_lifetime(handle, int(lifetime)))
        check(lib().evoharness_vec_env_set_layout_version(handle, version))
        self.layout_version = version
        self.lifetime = int(lifetime)
        self.task, self.horizon = task, horizon
        self.scenario = scenario
        self.organisations = orgs
        self._arrays(handle)

    @classmethod
    def from_worlds(cls, factory, n: int, *, capacities: dict | None = None,
                    costs: dict | None = None, budget: int | None = None,
                    horizon: int | None = None, seed: int = 0, group: int = 1,
                    layout_version: int = 1, copyable: bool = False) -> "VecEnv":
        """``n`` environments over worlds written in Python (:mod:`evoharness.world`), stepped
        through the C library (``evoharness_vec_env_new_worlds``): the library's workspace,
        harness actions, budget, costs, observation, mask and reward over the worlds' tools and
        judges.

        ``factory()`` makes one world (a class works); it is called ``n`` times. ``capacities``
        (``facts``, ``steps``, ``lessons``; default 16, 8, 4) size the workspace, and with the
        worlds' tool count they give the layout (:attr:`layout`, :attr:`templates`). ``budget``
        (``horizon`` is another name for it) is an episode's step budget; ``costs`` maps verbs
        (act, track, commit, recall, note, finish) to their cost (default 1, finish 0). A
        world's own ``capacities``, ``budget`` and ``costs`` attributes
        (:func:`~evoharness.world.world_defaults`, read from the first world) come first and
        what is given overrides them, key by key: the settings ``python -m evoharness.train``
        and ``evaluate`` use for that world, so a policy trained on it reads this layout.
        Environment ``i`` in group ``g = i // group`` runs, for its ``k``-th episode, seed
        ``seed + g + k * (n // group)``; an episode that ends (finished, or budget spent) is
        reset at once. A failing world raises :class:`~evoharness.WorldError`.

        ``copyable`` lets :meth:`copy` copy an environment mid-episode (branching rollouts): each
        world's state is then saved and restored by pickling its attributes (``vars(world)``),
        so a world must pickle (no open files or connections; a ``random.Random`` or numpy
        generator does) and keep its state in its attributes. Without it a copy is refused."""
        if budget is not None and horizon is not None and budget != horizon:
            raise ValueError("give budget or horizon (the same thing), not both")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n is {n!r}: at least 1 environment")
        version = _check_version(layout_version)
        for k in capacities or {}:
            if k not in _world._DEFAULT_CAPS:
                raise ValueError(f"unknown capacity {k!r}: facts, steps or lessons (the tools "
                                 "are the world's)")
        self = cls.__new__(cls)
        self._h = None
        self.worlds = [factory() for _ in range(n)]
        own = _world.world_defaults(self.worlds[0])
        caps = dict(_world._DEFAULT_CAPS)
        for k, v in {**own["capacities"], **(capacities or {})}.items():
            if k not in _world._DEFAULT_CAPS:
                raise ValueError(f"unknown capacity {k!r} in the world's capacities: facts, "
                                 "steps or lessons (the tools are the world's)")
            caps[k] = v
        if budget is None and horizon is None:
            budget = own["budget"] or None  # 0, as None: the default (as world_settings reads it)
        costs = {**own["costs"], **(costs or {})}
        bridges = []
        for i, w in enumerate(self.worlds):
            try:
                bridges.append(_world._Bridge(w, i, copyable))
            except (TypeError, ValueError) as e:
                raise WorldError(0, f"world {i}: {e}") from e
        tools = bridges[0].tools
        for b in bridges[1:]:
            if b.tools != tools:
                raise WorldError(0, f"world {b.index} has the tools {b.tools}; world 0 has "
                                 f"{tools}: every world of one environment needs the same")
        self.tools = tools
        self._bridges = bridges
        handles = []
        try:
            for b in bridges:
                handles.append(_world._make_world(b))
        except BaseException:
            for h in handles:
                _world._lib().evoharness_world_free(h)
            raise
        l = _world._lib()
        cfg = _world._VecEnvConfig()
        check(l.evoharness_vec_env_config_default(ctypes.byref(cfg)))
        cfg.capacities = Capacities(caps["facts"], caps["steps"], caps["lessons"], len(tools))
        if budget is not None or horizon is not None:
            cfg.budget = budget if budget is not None else horizon
        for k, v in (costs or {}).items():
            if k not in _world._VERBS:
                raise ValueError(f"unknown verb {k!r} in costs: {', '.join(_world._VERBS)}")
            setattr(cfg.costs, k, v)
        cfg.seed, cfg.group = seed, group
        arr = (c_void_p * n)(*handles)
        handle = c_void_p()
        status = l.evoharness_vec_env_new_worlds(arr, n, ctypes.byref(cfg), ctypes.byref(handle))
        if any(arr[i] for i in range(n)):  # refused before taking them: still ours
            for i in range(n):
                if arr[i]:
                    l.evoharness_world_free(arr[i])
        self._check(status)
        self._h = handle
        _world._LIVE.add(self)
        self._check(lib().evoharness_vec_env_set_layout_version(handle, version))
        self.layout_version = version
        self.capacities = {**caps, "tools": len(tools)}
        self.budget = cfg.budget
        self.layout = layout(caps["facts"], caps["steps"], caps["lessons"], len(tools), version)
        self.templates = Templates(self.layout)
        self._judged: list[dict | None] = [None] * n
        #: Per environment, what its episode's `track` actions put in Belief (key -> value),
        #: as this object saw them: what a teacher with memory reads (see `teacher_actions`).
        self.tracked: list[dict] = [{} for _ in range(n)]
        self._track0 = self.templates.start["track"]
        self._arrays(handle)
        return self

    def _arrays(self, handle) -> None:
        """The sizes from the library, the arrays, and the first observation."""
        info = VecEnvInfo()
        check(lib().evoharness_vec_env_get_info(handle, ctypes.byref(info)))
        self.n, self.group = info.n, info.group
        self.obs_len, self.actions = info.obs_len, info.actions
        n = self.n
        self.obs = np.zeros((n, self.obs_len), np.float32)
        self.mask = np.zeros((n, self.actions), np.uint8)
        self.reward = np.zeros(n, np.float32)
        self.done = np.zeros(n, np.uint8)
        self._teacher = np.zeros(n, np.uint32)
        # A prompt is at most text::max_len bytes of the capacities: 5,881 for the suite's.
        self._text_buf = ctypes.create_string_buffer(1 << 16)
        self.observe()

    @property
    def over_worlds(self) -> bool:
        """Whether the worlds are written in Python (:meth:`from_worlds`), not the suite's."""
        return self._bridges is not None

    def _check(self, status: int) -> None:
        """Raises the library's error; a Python world's own exception becomes a
        :class:`~evoharness.WorldError` caused by it."""
        failed = [b for b in self._bridges or () if b.error is not None]
        if status == 0 and not failed:
            return
        if failed:
            b = failed[0]
            e = b.error
            for x in self._bridges:
                x.error = None
            try:
                check(status)
                detail = ""
            except EvoharnessError as lib_error:
                detail = f" ({lib_error})"
            raise WorldError(STATUS_WORLD, f"world {b.index}: {type(e).__name__}: {e}{detail}") from e
        check(status)

    def close(self) -> None:
        """Frees the environments (and their worlds; also done when the object is collected)."""
        if getattr(self, "_h", None):
            lib().evoharness_vec_env_free(self._h)
            self._h = None

    def _live(self):
        if not self._h:
            raise EvoharnessError(0, "the VecEnv was closed")
        return self._h

    def observe(self):
        """Every environment's current observation and mask."""
        self._check(lib().evoharness_vec_env_observe(
            self._live(), ptr(self.obs, c_float), self.obs.size, ptr(self.mask, c_uint8),
            self.mask.size))
        return self.obs, self.mask

    def text(self, i: int) -> str:
        """Environment ``i``'s workspace as a ``generative-v1`` prompt (``workspace-text-v1``,
        ``core/PROTOCOL.md`` §11): what a language-model policy reads there now, ending in
        ``"> "``. The lines it may answer with are the layout's ``action_texts``."""
        n = c_size_t(0)
        buf = self._text_buf
        check(lib().evoharness_vec_env_text(self._live(), i, buf, len(buf), ctypes.byref(n)))
        return buf.raw[: n.value].decode()

    def texts(self) -> list[str]:
        """Every environment's prompt (:meth:`text`)."""
        return [self.text(i) for i in range(self.n)]

    def step(self, actions):
        """Steps every environment with its template; returns ``(obs, mask, reward, done)``.

        An illegal template (mask 0) raises :class:`EvoharnessError` and changes nothing; a
        failing Python world raises :class:`~evoharness.WorldError`."""
        a = np.ascontiguousarray(actions, dtype=np.uint32)
        if a.shape != (self.n,):
            raise ValueError(f"actions has shape {a.shape}; {self.n} environments need ({self.n},)")
        self._check(lib().evoharness_vec_env_step(
            self._live(), ptr(a, c_uint32), a.size, ptr(self.obs, c_float), self.obs.size,
            ptr(self.mask, c_uint8), self.mask.size, ptr(self.reward, c_float), self.reward.size,
            ptr(self.done, c_uint8), self.done.size))
        if self.over_worlds:
            for i in np.flatnonzero((a >= self._track0) & (a < self._track0 + FIELDS_MAX)):
                ev = self._bridges[i].last_event
                if ev is not None:  # the event the track read: a harness action calls no tool
                    keys = list(ev.fields)
                    j = int(a[i]) - self._track0
                    if j < len(keys):
                        self.tracked[i][keys[j]] = ev.fields[keys[j]]
            for i in np.flatnonzero(self.done):
                self._judged[i] = self._bridges[i].last_judge
                self.tracked[i] = {}
        return self.obs, self.mask, self.reward, self.done

    def teacher_actions(self, teacher="lean") -> np.ndarray:
        """Labels for imitation learning, or actions to step with: the template a teacher would
        choose now in every environment.

        ``teacher`` names one of the suite's rule-based teachers (:data:`TEACHERS`; suite
        environments only): the labels are int64, :data:`NO_LABEL` (-1) where the teacher has
        no legal action (a state only a learner's mistakes reach). The ``static`` harness works
        through an agenda; each environment's copy of it follows the actions taken, so its
        labels hold on a learner's trajectories too.

        Or ``teacher`` is a Python function that says what to do in high-level terms (see
        :meth:`teacher_action`), each answer mapped to its template (:meth:`intent_template`):
        a uint32 array reused by the next call."""
        if callable(teacher):
            out = self._teacher
            for i in range(self.n):
                out[i] = self.intent_template(i, self.teacher_action(teacher, i))
            return out
        if teacher not in TEACHERS:
            raise ValueError(f"unknown teacher {teacher!r}: expected {', '.join(TEACHERS)} or a "
                             "function")
        if self.over_worlds:
            raise ValueError(f"the {teacher!r} teacher knows the suite's tasks only: give "
                             "environments over Python worlds a teacher function")
        check(lib().evoharness_vec_env_teacher_actions(
            self._live(), TEACHERS[teacher], ptr(self._teacher, c_uint32), self._teacher.size))
        labels = self._teacher.astype(np.int64)
        labels[self._teacher == np.iinfo(np.uint32).max] = NO_LABEL
        return labels

    def intent_template(self, i: int, action) -> int:
        """The template that does a teacher's high-level ``action`` (see
        :func:`~evoharness.world.intent_json`) in environment ``i``'s current state, mapped by
        the library; :class:`~evoharness.TeacherError` if the layout cannot express it or it is
        not legal now."""
        js = _world.intent_json(action)
        t = c_uint32(0)
        status = lib().evoharness_vec_env_intent_template(self._live(), i, js.encode(),
                                                          ctypes.byref(t))
        if status != 0:
            try:
                check(status)
            except EvoharnessError as e:
                raise TeacherError(status, f"teacher action {action!r}: {e}") from None
        return t.value

    def last_event(self, i: int) -> Event | None:
        """The last event environment ``i``'s Python world returned (what its teacher sees)."""
        self._worlds_only("last_event")
        return self._bridges[i].last_event

    def teacher_action(self, teacher, i: int):
        """``teacher``'s high-level action in environment ``i`` of Python worlds:
        ``teacher(world, event)``, or ``teacher(world, event, tracked)`` for a teacher of three
        parameters, ``tracked`` being what this episode's ``track`` actions put in Belief
        (:attr:`tracked`; retract and compress are not mirrored), so a teacher can decide from
        what the workspace holds, as a policy does."""
        self._worlds_only("teacher_action")
        ev = self._bridges[i].last_event
        if _world.teacher_arity(teacher) >= 3:
            return teacher(self.worlds[i], ev, self.tracked[i])
        return teacher(self.worlds[i], ev)

    def _worlds_only(self, what: str) -> None:
        if not self.over_worlds:
            raise ValueError(f"{what} is for environments over Python worlds "
                             "(VecEnv.from_worlds)")

    def last_episode(self, i: int):
        """Environment ``i``'s last finished episode as a dict, or None before its first end.

        Over Python worlds: ``success``, ``finished`` (None if the budget ran out, else the
        claim), ``steps``, ``world_actions``, ``harness_actions``, ``harness_by_verb``,
        ``cost``, ``reward``, ``violations``, and everything else the world's ``judge``
        returned for it (under ``judge``)."""
        if self.episodes(i) == 0:
            return None
        s = EpisodeStats()
        check(lib().evoharness_vec_env_last_episode(self._live(), i, ctypes.byref(s)))
        d = s.to_dict()
        if not self.over_worlds:
            return d
        judged = self._judged[i] or {}
        out = {k: d[k] for k in ("success", "finished", "steps", "world_actions",
                                 "harness_actions", "harness_by_verb", "cost", "reward")}
        out["violations"] = int(judged.get("violations", 0))
        out["judge"] = judged
        return out

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
        try:
            self._check(lib().evoharness_vec_env_copy(self._live(), int(src), int(dst)))
        except EvoharnessError as e:
            bridges = getattr(self, "_bridges", None)
            if bridges and not bridges[0].copyable:
                raise EvoharnessError(e.status, f"{e} (Python worlds are copied when the "
                                      "environment is made with copyable=True)") from e
            raise
        if self.over_worlds:  # what the teacher is told was tracked: the copy's is the source's
            self.tracked[dst] = dict(self.tracked[src])
        if observe:
            self.observe()

    def episodes(self, i: int) -> int:
        """Episodes environment ``i`` has finished (:class:`EvoharnessError` past the last)."""
        if not 0 <= i < self.n:
            raise EvoharnessError(4, f"no environment {i}")
        c = c_uint64(0)
        check(lib().evoharness_vec_env_episodes(self._live(), i, ctypes.byref(c)))
        return c.value


def HarnessEnv(factory, n: int, **settings) -> VecEnv:
    """:meth:`VecEnv.from_worlds` under its name from before the suite's environment and the
    Python worlds' were one class; kept so that code written for it runs."""
    return VecEnv.from_worlds(factory, n, **settings)
