"""Training a structured-v1 policy for any world: the network, behaviour cloning with DAgger,
cost-aware GRPO, model selection, ONNX export with the layout metadata, the training record
and its plot. Needs ``torch`` and ``onnx`` (``pip install "evoharness[train]"``).

The command line is :mod:`evoharness.train`. What it trains on is a *source*: a
:class:`WorldSource` (worlds written in Python, a Python teacher) or a :class:`SuiteSource` (the
task suite's simulations, a library teacher; the shipped generalist policy,
``examples/train/train.py``); each has ``kinds``, ``layout``, ``tools``, ``settings``,
``envs(kind, n, seed, group, split)`` and ``labels(env)``.

Seeds: training episodes use seeds from :data:`TRAIN_SEED`, GRPO and branching rollouts from
:data:`RL_SEED`, the rollouts' update checks from :data:`CHECK_SEED`, validation (model
selection) from :data:`VALID_SEED`; :data:`TEST_SEED` and up are never used
by training, for the held-out evaluation (:mod:`evoharness.evaluate`).
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import pathlib
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from .vec_env import VecEnv
from .world import TeacherError, teacher_arity

TRAIN_SEED = 0
RL_SEED = 200_000
VALID_SEED = 500_000
TEST_SEED = 1_000_000
#: Seeds (on training organisations) of the episodes that decide whether a rollout update is
#: kept (:func:`rollouts`): neither validation's nor the held-out evaluation's.
CHECK_SEED = 300_000
#: How much mean reward on those episodes an update may lose and still be kept.
CHECK_SLACK = 0.002


# --- The network and its export -------------------------------------------------------------

class Net(nn.Module):
    """An MLP with masked logits and a value head: the structured-v1 contract.

    ``scale`` (``obs_len`` floats, or ``None``) multiplies the observation before the first
    layer, inside the exported graph (an initialiser named ``scale``): the same observation
    in, a network that sees some features at another scale (:func:`staleness_scale`)."""

    def __init__(self, obs_len: int, actions: int, hidden: int, scale=None):
        super().__init__()
        self.register_buffer(
            "scale", None if scale is None else torch.as_tensor(np.asarray(scale, np.float32)))
        self.body = nn.Sequential(
            nn.Linear(obs_len, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs, mask):
        if self.scale is not None:
            obs = obs * self.scale
        h = self.body(obs)
        return self.pi(h) + (mask - 1.0) * 1e9, self.v(h)

    def twin(self) -> "Net":
        """A network of the same shape and scale with a copy of these weights."""
        ref = Net(self.body[0].in_features, self.pi.out_features, self.pi.in_features,
                  self.scale)
        ref.load_state_dict(self.state_dict())
        return ref


def staleness_scale(lay: dict) -> np.ndarray:
    """A :class:`Net` ``scale`` that multiplies every Belief fact's ``staleness`` feature by 32:
    the observation writes staleness s as s / (s + 32), so a fact confirmed at the last step
    (0) and one a step older (0.03) differ by a hair, and rules that tell them apart (the tuned
    rule's recall: track the code, recall while it is fresh, guess once it is a step old) are
    hard to imitate from it. Scaled, one step is about one unit. Every other feature as is."""
    scale = np.ones(lay["obs_len"], np.float32)
    facts = next(s for s in lay["segments"] if s["name"] == "facts")
    first = feature_offset(lay, "facts", "staleness")  # in the first row
    scale[first: facts["offset"] + facts["rows"] * facts["width"]: facts["width"]] = 32.0
    return scale


def export_onnx(net: Net, path, lay: dict, producer: str, tool_names=None) -> None:
    """Writes ``net`` as a structured ONNX file (``runtime/POLICY.md``; the ABI and layout version
    of ``lay``, structured-v1 or structured-v2): opset 17, a dynamic
    batch dimension (a fleet runs all its agents in one call; one agent runs batch 1), masked
    logits, IR version 8, every ``evoharness.*`` number taken from ``lay`` (the
    library's layout), the tool names if given."""
    import onnx

    path = pathlib.Path(path)
    net.eval()
    obs = torch.zeros(1, lay["obs_len"])
    mask = torch.ones(1, lay["actions"])
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, (obs, mask), str(path), dynamo=False, opset_version=17,
        input_names=["obs", "mask"], output_names=["logits", "value"],
        dynamic_axes={n: {0: "batch"} for n in ("obs", "mask", "logits", "value")},
    )
    m = onnx.load(str(path))
    m.ir_version = 8
    del m.graph.value_info[:]
    versions = f"torch {torch.__version__}, numpy {np.__version__}, onnx {onnx.__version__}"
    props = {
        "evoharness.abi": lay["abi"],
        "evoharness.layout_version": str(lay["layout_version"]),
        **{f"evoharness.{k}": str(lay[k])
           for k in ("facts", "steps", "lessons", "tools", "obs_len", "actions")},
        "evoharness.producer": f"{producer} ({versions})",
    }
    if tool_names:
        if any("," in t for t in tool_names):
            raise ValueError(f"tool names with a comma cannot be recorded: {tool_names}")
        props["evoharness.tool_names"] = ",".join(tool_names)
    onnx.helper.set_model_props(m, props)
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, str(path))


def load_weights(net: Net, path) -> None:
    """Loads the weights of a policy this module exported (its ONNX initialisers, by name) into
    ``net``, which must have the same shape: to start training from an existing policy.
    ``ValueError`` says what does not fit."""
    import onnx
    from onnx import numpy_helper

    try:
        m = onnx.load(str(path))
    except Exception as e:  # noqa: BLE001 - onnx raises several kinds for a bad file
        raise ValueError(f"{path}: not an ONNX file ({e})") from None
    have = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    state = net.state_dict()
    missing = [k for k in state if k not in have]
    if missing:
        raise ValueError(f"{path}: no weights named {', '.join(missing)}: not a policy of this "
                         "trainer's network")
    for k, t in state.items():
        if tuple(have[k].shape) != tuple(t.shape):
            raise ValueError(f"{path}: {k} has shape {tuple(have[k].shape)}, this network "
                             f"{tuple(t.shape)} (--hidden, or another layout)")
    net.load_state_dict({k: torch.as_tensor(have[k].copy()) for k in state})


# --- Records ---------------------------------------------------------------------------------

class Log:
    """JSON lines, echoed to stdout (``quiet`` echoes nothing)."""

    def __init__(self, path, quiet: bool = False):
        self.f = open(path, "w")
        self.t0 = time.time()
        self.rows: list[dict] = []
        self.quiet = quiet

    def __call__(self, **row):
        row["elapsed_s"] = round(time.time() - self.t0, 1)
        self.rows.append(row)
        self.f.write(json.dumps(row) + "\n")
        self.f.flush()
        if not self.quiet:
            print(" ".join(f"{k}={v}" for k, v in row.items() if k != "args"), flush=True)

    def close(self):
        self.f.close()


def suite_policy(path, task: str, horizon: int, scenario: str = "v1", hidden: int = 128):
    """For the measurement scripts (``scripts/branch-points.py``, ``scripts/logit-offsets.py``):
    a :class:`SuiteSource` of one ``task`` (its teacher unused) and the policy at ``path`` (one
    this module exported, of width ``hidden``) loaded into a :class:`Net`, single-threaded."""
    torch.set_num_threads(1)
    src = SuiteSource([task], horizon, "lean", scenario=scenario)
    net = Net(src.layout["obs_len"], src.layout["actions"], hidden)
    load_weights(net, path)
    return src, net


def plot(rows: list[dict], path, title: str = "training") -> None:
    """Validation success rate, mean reward and harness actions per episode over training, as
    a small SVG (one panel each; the dashed line marks where RL starts)."""
    pts = [r for r in rows if "stage" in r and "valid_success" in r]
    if not pts:
        return
    panels = [("valid_success", "success rate", "#1b9e77")]
    if all("valid_reward" in r for r in pts):
        panels.append(("valid_reward", "mean reward", "#7570b3"))
    panels.append(("valid_harness", "harness actions / episode", "#d95f02"))
    W, L, T, P = 640, 60, 30, 130
    H = T + len(panels) * (P + 10) + 40
    xs = list(range(len(pts)))
    x = lambda i: L + (W - 2 * L) * (i / max(1, len(xs) - 1))  # noqa: E731
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         'font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{L}" y="20" font-size="14">{title}: validation per round / iteration</text>']
    for k, (key, label, colour) in enumerate(panels):
        top = T + k * (P + 10)
        vals = [float(r[key]) for r in pts]
        lo = min(0.0, min(vals))
        hi = 1.0 if key == "valid_success" else max(1e-6, max(vals))
        y = lambda v, lo=lo, hi=hi, top=top: top + P * (1 - (v - lo) / max(1e-9, hi - lo))  # noqa: E731
        s.append(f'<rect x="{L}" y="{top}" width="{W - 2 * L}" height="{P}" fill="none" stroke="#ccc"/>')
        s.append(f'<text x="{L + 4}" y="{top + 14}">{label} (from {lo:.2f} to {hi:.2f})</text>')
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in zip(xs, vals))
        s.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        for i, r in zip(xs, pts):
            if r.get("stage") == 2 and (i == 0 or pts[i - 1].get("stage") != 2):
                s.append(f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{top}" y2="{top + P}" '
                         'stroke="#999" stroke-dasharray="4"/>')
    s.append(f'<text x="{L}" y="{H - 10}">DAgger rounds, then RL iterations after the dashed '
             'line</text>')
    s.append("</svg>")
    pathlib.Path(path).write_text("\n".join(s) + "\n")


# --- Loading what the user names ---------------------------------------------------------

def load_object(spec: str, what: str = "object"):
    """``MODULE:NAME`` (an importable module, or a path to a ``.py`` file) -> the object."""
    if not isinstance(spec, str) or ":" not in spec:
        raise ValueError(f"{what} {spec!r}: give it as MODULE:NAME (a module or a .py file, a "
                         "colon, then the name in it)")
    mod, _, name = spec.rpartition(":")
    if not mod or not name:
        raise ValueError(f"{what} {spec!r}: give it as MODULE:NAME")
    if mod.endswith(".py") or "/" in mod:
        p = pathlib.Path(mod)
        if not p.is_file():
            raise ValueError(f"{what} {spec!r}: no file {mod}")
        # The file's folder goes on the path, so a world and its teacher can import each other.
        sys.path.insert(0, str(p.resolve().parent))
        key = f"_evoharness_user_{abs(hash(str(p.resolve())))}_{p.stem}"
        module = sys.modules.get(key)
        if module is None:
            specobj = importlib.util.spec_from_file_location(key, p)
            module = importlib.util.module_from_spec(specobj)
            sys.modules[key] = module
            specobj.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(mod)
        except ImportError as e:
            raise ValueError(f"{what} {spec!r}: cannot import {mod}: {e}") from e
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"{what} {spec!r}: {mod} has no {name!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{what} {spec!r}: {name} is not callable")
    return obj


def world_settings(factory, horizon: int | None = None, capacities: dict | None = None) -> dict:
    """A world's defaults (its class attributes ``budget`` and ``capacities``, when it has
    them), overridden by what is given: the keyword arguments of :meth:`VecEnv.from_worlds`."""
    probe = factory()
    caps = dict(getattr(probe, "capacities", None) or {})
    caps.update(capacities or {})
    budget = horizon or getattr(probe, "budget", None) or 100
    costs = dict(getattr(probe, "costs", None) or {})
    return {"capacities": caps, "budget": int(budget), "costs": costs}


# --- Episodes --------------------------------------------------------------------------------

def tensor(a, dtype=torch.float32):
    return torch.as_tensor(np.asarray(a), dtype=dtype)


def greedy(net, obs, mask):
    with torch.no_grad():
        logits, _ = net(tensor(obs), tensor(mask))
    return logits.argmax(-1).numpy().astype(np.uint32)


def episode_row(e: dict) -> dict:
    violations = e["violations"] if "violations" in e else e["integrity_violations"]
    return {"success": bool(e["success"]), "reward": float(e["reward"]),
            "harness": int(e["harness_actions"]), "world": int(e["world_actions"]),
            "steps": int(e["steps"]), "cost": int(e["cost"]), "violations": int(violations)}


# --- What training runs on -------------------------------------------------------------------

class WorldSource:
    """Worlds written in Python (any ``factory`` :meth:`VecEnv.from_worlds` takes): one kind of
    environment, labelled by a Python ``teacher`` (see :meth:`VecEnv.teacher_action`)."""

    kinds = ("world",)

    def __init__(self, factory, settings: dict, teacher=None, layout_version: int = 1):
        self.factory, self.settings, self.teacher = factory, settings, teacher
        self.layout_version = int(layout_version)
        probe = VecEnv.from_worlds(factory, 1, layout_version=self.layout_version, **settings)
        self.layout, self.tools = probe.layout, probe.tools
        probe.close()

    def envs(self, kind: str, n: int, seed: int, group: int = 1, split: str = "train",
             offset: int = 0):
        """``n`` environments of ``kind``; ``offset`` (the first group's index in a larger set,
        see :func:`unit_slices`) changes nothing for a Python world: its seeds say it all."""
        return VecEnv.from_worlds(self.factory, n, seed=seed, group=group,
                                  layout_version=self.layout_version, **self.settings)

    def labels(self, env) -> tuple[np.ndarray, int]:
        return teacher_labels(env, self.teacher)

    #: DAgger's ``--skip-harness`` and ``--skip-label`` apply at any state (a host world has
    #: no plan a skipped harness action could leave without steps).
    skip_in_plan_only = False

    def skip_labels(self, env) -> np.ndarray:
        """What the teacher does instead of the tracks it wants on the current event, for
        DAgger's ``--skip-harness`` and ``--skip-label``: where its action is a ``track``, it
        is asked again with ``tracked`` faked as if that track had happened, until it answers
        something other than a track; that answer's template. Executed, it leaves Belief
        without those fields, and the teacher labels the states that follow as it labels any.
        -1 where the teacher does not track, a teacher of two parameters (it cannot be told
        what was tracked), or no legal answer."""
        out = np.full(env.n, -1, np.int64)
        if self.teacher is None or teacher_arity(self.teacher) < 3:
            return out
        for i in range(env.n):
            ev = env.last_event(i)
            if ev is None:
                continue
            tracked = dict(env.tracked[i])
            try:
                a = env.teacher_action(self.teacher, i)
                if track_key(a) is None:
                    continue
                for _ in range(len(ev.fields)):
                    key = track_key(a)
                    if key is None or key not in ev.fields:
                        break
                    tracked[key] = ev.fields[key]
                    a = self.teacher(env.worlds[i], ev, dict(tracked))
                if track_key(a) is None:
                    out[i] = env.intent_template(i, a)
            except TeacherError:
                pass
        return out


def track_key(action) -> str | None:
    """The key a teacher's high-level ``track`` action names (``("track", key)`` or
    ``{"track": key}``), else None."""
    if isinstance(action, dict):
        key = action.get("track") if len(action) == 1 else None
    elif isinstance(action, (tuple, list)) and len(action) == 2 and action[0] == "track":
        key = action[1]
    else:
        key = None
    return key if isinstance(key, str) else None


class SuiteSource:
    """The task suite's simulations, one kind per task, through its :class:`VecEnv`, labelled
    by one of the library's rule-based teachers (``lean``, ``oracle``, ``static``,
    ``tuned``, ``fixed-best``, ``retuned`` or ``regional``), in the suite's version ``scenario`` (``v1``,
    ``v2`` or ``v3``).
    Training and validation
    run on organisations that never overlap (:data:`ORGANISATIONS`); the held-out evaluation
    uses others again (``evoharness eval``, ``examples/train``)."""

    ORGANISATIONS = {"train": range(0, 64), "valid": range(5_000, 5_016)}
    #: v3: what a policy must learn is the mapping from a deployment's card to its behaviour,
    #: so training sees many deployments: each environment set (:meth:`envs`) takes its own
    #: window of these, moved on by its seed, and DAgger makes a new set every round
    #: (``rotate``); validation runs each environment in an organisation of its own.
    ORGANISATIONS_V3 = {"train": range(0, 2_000), "valid": range(5_000, 5_064)}

    def __init__(self, tasks, horizon: int, teacher: str = "lean", also_horizons=(),
                 scenario: str = "v1", layout_version: int = 1):
        from .vec_env import SCENARIOS, TASKS, TEACHERS, suite_layout

        tasks = tuple(tasks)
        bad = [t for t in tasks if t not in TASKS]
        if not tasks or bad:
            raise ValueError(f"unknown suite task(s) {bad or tasks}: expected some of "
                             f"{', '.join(TASKS)}")
        if teacher not in TEACHERS:
            raise ValueError(f"the suite's teachers are {', '.join(TEACHERS)}, not {teacher!r}")
        if scenario not in SCENARIOS:
            raise ValueError(f"the suite's scenarios are {', '.join(SCENARIOS)}, not {scenario!r}")
        self.horizon, self.teacher, self.scenario = int(horizon), teacher, scenario
        # Behaviour cloning and validation may also run each task at other horizons (kinds
        # `TASK@H`); GRPO runs at the training horizon only (`rl_kinds`: its episodes are
        # whole, and at 4x the horizon one would cost 4x).
        self.rl_kinds = tasks
        self.kinds = tasks + tuple(f"{t}@{int(h)}" for h in also_horizons for t in tasks)
        self.layout_version = int(layout_version)
        self.layout, self.tools = suite_layout(self.layout_version), None
        self.settings = {"budget": self.horizon, "tasks": list(tasks)}
        # v2 agents keep an experience store across episodes: validation counts each
        # environment's fourth episode, so that model selection sees a store at work; and a
        # training environment's agent lives for 12 episodes, then a new one starts on the
        # next organisation (`VecEnv(lifetime=)`), as `evoharness eval` runs 12-13 episodes of
        # an organisation on one agent. Agents that live forever come to know every code of
        # their organisation, and imitation then never sees what a new agent meets (recalls
        # that find nothing, unknown codes).
        # v3 agents are renewed after their deployment's own store lifetime (the library
        # does it), in the same organisation, so no lifetime of ours; the warm-up still lets
        # the store work before the episode learned from.
        self.warmup = 3 if scenario in ("v2", "v3") else 0
        self.rotate = scenario == "v3"
        self.lifetime = 12 if scenario == "v2" else 0
        if scenario != "v1":
            self.settings["scenario"] = scenario
        if also_horizons:
            self.settings["also_horizons"] = [int(h) for h in also_horizons]

    def envs(self, kind: str, n: int, seed: int, group: int = 1, split: str = "train",
             offset: int = 0):
        """``n`` environments of ``kind`` on the ``split``'s organisations. ``offset`` is the
        index of the first group in a larger set that is run in units (:func:`unit_slices`):
        group ``g`` then runs the organisation group ``offset + g`` of the set would, except
        that past the end of the range it goes on instead of wrapping (0: as one set)."""
        task, _, h = kind.partition("@")
        orgs = (self.ORGANISATIONS_V3 if self.rotate else self.ORGANISATIONS)[split]
        if self.rotate and split == "train" and len(orgs) > n:
            # A window of n organisations (one per environment), moved on by the seed.
            at = orgs.start + seed % (len(orgs) - n + 1)
            orgs = range(at, at + n)
        elif offset % len(orgs):
            at = orgs.start + offset % len(orgs)
            orgs = range(at, at + len(orgs))
        return VecEnv(task, int(h or self.horizon), n, orgs, seed, group,
                      scenario=self.scenario, lifetime=self.lifetime,
                      layout_version=self.layout_version)

    def labels(self, env) -> tuple[np.ndarray, int]:
        labels = env.teacher_actions(self.teacher)
        return labels, int((labels < 0).sum())

    def skip_labels(self, env) -> np.ndarray:
        """What to do instead of a harness action that DAgger skips (``--skip-harness``): the
        lean teacher's choice, a rule that uses the workspace only for what must outlive the
        event (its own harness action where it needs one)."""
        return env.teacher_actions("lean")


def first_episodes(source, kind: str, choose, seed: int, episodes: int, split: str = "valid",
                   chunk: int = 64) -> list[dict]:
    """One episode from a fresh reset in each of ``episodes`` environments of ``kind`` (seeds
    ``seed`` ..), ``choose(env) -> templates`` acting: their :func:`episode_row`, in seed
    order. Environments whose episode ended keep stepping (auto-reset) until all have ended;
    what they do then is not counted. They run ``chunk`` at a time (each chunk its own
    environments, seeds ``seed + at`` .., organisations from group ``at`` on).

    A source with ``warmup`` > 0 (v2 suite tasks, whose agents keep an experience store across
    episodes) counts each environment's episode after that many: the states of an agent that
    has been at work for a while, which first episodes never reach."""
    out = []
    for at in range(0, episodes, chunk):
        out += episodes_unit(source, kind, choose, min(chunk, episodes - at), seed + at, split, at)
    return out


def episodes_unit(source, kind: str, choose, n: int, seed: int, split: str, offset: int) -> list:
    """:func:`first_episodes` of one chunk: ``n`` environments, seeds ``seed`` .., the first
    group ``offset`` of the whole set."""
    warmup = int(getattr(source, "warmup", 0))
    env = source.envs(kind, n, seed, split=split, **({"offset": offset} if offset else {}))
    try:
        rows: list[dict | None] = [None] * env.n
        while any(r is None for r in rows):
            done = env.step(choose(env))[3]
            for i in np.flatnonzero(done):
                if rows[i] is None and env.episodes(int(i)) > warmup:
                    rows[i] = episode_row(env.last_episode(int(i)))
    finally:
        env.close()
    return rows


def standard_error(x) -> float:
    """The standard error of the mean of ``x``: sample standard deviation over the square root
    of the count; 0 for fewer than two."""
    x = np.asarray(x, np.float64)
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0


def summary(rows: list[dict]) -> dict:
    r = np.array([x["reward"] for x in rows], float)
    return {"episodes": len(rows),
            "success_rate": float(np.mean([x["success"] for x in rows])),
            "mean_reward": float(r.mean()),
            "reward_se": standard_error(r),
            "mean_harness_actions": float(np.mean([x["harness"] for x in rows])),
            "mean_world_actions": float(np.mean([x["world"] for x in rows])),
            "mean_steps": float(np.mean([x["steps"] for x in rows])),
            "mean_cost": float(np.mean([x["cost"] for x in rows])),
            "violations": int(sum(x["violations"] for x in rows))}


def validate(net, source, seed: int, episodes: int, pool=None) -> dict:
    """Greedy episodes of every kind on validation seeds: the :func:`summary` of all of them,
    with each kind's success rate under ``by_kind`` when there are several. They run in the
    units of ``pool`` (:class:`LocalPool` if none: chunks of 64 environments, or of its
    ``unit_envs``), in this process or on its workers; the rows are the same either way."""
    pool = pool or LocalPool(source)
    chunk = pool.unit_envs or 64
    kinds = source.kinds
    jobs = [(kind, min(chunk, episodes - at), seed + at, at) for kind in kinds
            for at in range(0, episodes, chunk)]
    done = pool.run("valid", net, jobs)
    rows, by_kind = [], {}
    for kind in kinds:
        r = [row for (k, *_), part in zip(jobs, done) if k == kind for row in part]
        by_kind[kind] = round(float(np.mean([x["success"] for x in r])), 4)
        rows += r
    out = summary(rows)
    if len(kinds) > 1:
        out["by_kind"] = by_kind
    return out


def valid_fields(v: dict) -> dict:
    """A validation's figures as log fields."""
    out = {"valid_success": round(v["success_rate"], 4), "valid_reward": round(v["mean_reward"], 4),
           "valid_harness": round(v["mean_harness_actions"], 3)}
    out.update({f"valid_{k}": s for k, s in v.get("by_kind", {}).items()})
    return out


# --- The rollout side, in units ------------------------------------------------------------

def unit_slices(n: int, group: int, size: int) -> list[tuple[int, int]]:
    """How a set of ``n`` environments in groups of ``group`` runs in units: ``(first, count)``
    pairs of at most ``size`` environments each, in whole groups (at least one); ``size`` 0
    (or at least ``n``): one unit of all.

    A unit is a set of environments of its own (:meth:`VecEnv` seeds ``seed + first / group``
    .., organisations from group ``first / group`` on), stepped as one batch with its own
    random draws: the split is part of what a training run is, and the same split gives the
    same policy whether the units run in this process or on any number of workers."""
    if size <= 0 or size >= n:
        return [(0, n)]
    per = max(group, size // group * group)
    return [(lo, min(per, n - lo)) for lo in range(0, n, per)]


def valid_unit(source, net, state, kind: str, n: int, seed: int, offset: int) -> list:
    """A validation unit: :func:`episodes_unit` with the greedy policy."""
    return episodes_unit(source, kind, lambda env: greedy(net, env.obs, env.mask), n, seed, "valid",
                         offset)


def dagger_unit(source, net, state: dict, unit, p: dict) -> dict:
    """One DAgger round of one unit (see :func:`dagger`): ``unit`` is ``(k, kind, first,
    count)``, ``p`` the round's settings. The unit's environments live in ``state`` from
    round to round (a rotating source makes new ones each round). Returns the samples to
    learn, in order, and the round's counts."""
    k, kind, lo, m = unit
    r, key = p["round"], ("dagger", k, lo)
    env = state.get(key)
    if env is None or (p["rotate"] and r > 0):
        if env is not None:
            del state[key]
            env.close()
        base = TRAIN_SEED + 1_000 * k + (r * p["envs"] if p["rotate"] else 0)
        env = source.envs(kind, m, base + lo, **({"offset": lo} if lo else {}))
        state[key] = env
    rng = np.random.default_rng([p["seed"], 1, r, k, lo])
    skip_p, alt_q, mistakes = p["skip_harness"], p["skip_label"], p["mistakes"]
    skipping = skip_p > 0 or alt_q > 0
    harness = harness_templates(source.layout) if skipping else None
    # Suite: only once a plan step is active; skipping the plan itself would leave the static
    # rule no step to record a cursor in for the rest of the episode (no labels there at all).
    in_plan = skipping and getattr(source, "skip_in_plan_only", True)
    active = feature_offset(source.layout, "global", "has_active_step") if in_plan else 0
    beta = p["beta"]
    obs, mask, act, eps = [], [], [], []
    c = {"agree": 0, "seen": 0, "refused": 0, "skipped": 0, "alt_labelled": 0, "steps": 0}

    def learn(rows, labels):
        if rows.any():
            obs.append(env.obs[rows])
            mask.append(env.mask[rows])
            act.append(labels[rows])

    for _ in range(p["steps"]):
        labels, bad = source.labels(env)
        labels = labels.astype(np.int64)  # a copy: skip_labels may reuse its array
        c["refused"] += bad
        ok = labels >= 0
        learn(ok, labels)
        mine = greedy(net, env.obs, env.mask).astype(np.int64)
        if mistakes > 0:
            wrong = ok & (mine != labels)
            for _ in range(mistakes):
                learn(wrong, labels)
        planned = env.obs[:, active] > 0 if in_plan else np.ones(env.n, bool)
        if alt_q > 0:
            alt = source.skip_labels(env).astype(np.int64)
            extra = (ok & harness[np.maximum(labels, 0)] & (alt >= 0) & (alt != labels)
                     & planned & (rng.random(env.n) < alt_q))
            learn(extra, alt)
            c["alt_labelled"] += int(extra.sum())
        c["agree"] += int((mine[ok] == labels[ok]).sum())
        c["seen"] += int(ok.sum())
        use_teacher = (rng.random(env.n) < beta) & ok
        a = np.where(use_teacher, labels, mine).astype(np.uint32)
        if skip_p > 0:
            skip = harness[a] & (rng.random(env.n) < skip_p) & planned
            if skip.any():
                if alt_q <= 0:
                    alt = source.skip_labels(env)
                skip &= alt >= 0
                a = np.where(skip, alt, a).astype(np.uint32)
                c["skipped"] += int(skip.sum())
        done = env.step(a)[3]
        c["steps"] += env.n
        eps += [episode_row(env.last_episode(int(i))) for i in np.flatnonzero(done)]
    width = env.obs.shape[1], env.mask.shape[1]
    return {"obs": np.concatenate(obs) if obs else np.zeros((0, width[0]), np.float32),
            "mask": np.concatenate(mask) if mask else np.zeros((0, width[1]), np.uint8),
            "act": np.concatenate(act) if act else np.zeros(0, np.int64), "eps": eps, **c}


def grpo_unit(source, net, state, kind: str, n: int, seed: int, group: int, offset: int,
              entropy: list) -> tuple[list, list]:
    """GRPO's episodes of one unit (see :func:`grpo`): ``n`` fresh environments in groups of
    ``group``, one whole episode each, sampled from the policy with the generator seeded by
    ``entropy``. Returns each environment's steps (observation, mask, template, log-prob) and
    its episode."""
    env = source.envs(kind, n, seed, group=group, **({"offset": offset} if offset else {}))
    rng = np.random.default_rng(entropy)
    try:
        traj = [[] for _ in range(n)]
        finished: list[dict | None] = [None] * n
        while any(f is None for f in finished):
            obs, mask = env.obs.copy(), env.mask.copy()
            with torch.no_grad():
                logits, _ = net(tensor(obs), tensor(mask))
            a, logp = sample(logits, mask, rng)
            a_np, warming = warm_up(source, env, a.astype(np.uint32))
            done = env.step(a_np)[3]
            for i in range(n):
                if finished[i] is None and not warming[i]:
                    traj[i].append((obs[i], mask[i], int(a_np[i]), float(logp[i])))
                    if done[i]:
                        finished[i] = env.last_episode(i)
    finally:
        env.close()
    return traj, finished


#: The kinds of unit a pool runs, by name.
UNITS = {"valid": valid_unit, "dagger": dagger_unit, "grpo": grpo_unit}


class LocalPool:
    """The rollout side in this process: the units of a job run one after another, with the
    learner's own network. ``unit_envs`` is :func:`unit_slices`' size (0: one unit per kind;
    validation then runs 64 environments at a time). :class:`evoharness.distributed.RayPool`
    runs the same units on Ray workers."""

    workers = 0

    def __init__(self, source, unit_envs: int = 0):
        self.source, self.unit_envs, self.state = source, int(unit_envs), {}

    def run(self, job: str, net, jobs: list) -> list:
        """Each of ``jobs`` (a tuple of arguments) as a unit of kind ``job``: the results, in
        order."""
        return [UNITS[job](self.source, net, self.state, *a) for a in jobs]

    def close_units(self) -> None:
        """Closes the environments units keep (DAgger's) between calls."""
        for env in self.state.values():
            env.close()
        self.state.clear()

    close = close_units


# --- The two stages --------------------------------------------------------------------------

class Buffer:
    """A ring of (observation, mask, template) samples."""

    def __init__(self, cap: int, obs_len: int, actions: int):
        self.obs = np.zeros((cap, obs_len), np.float32)
        self.mask = np.zeros((cap, actions), np.float32)
        self.act = np.zeros(cap, np.int64)
        self.cap, self.size, self.head = cap, 0, 0

    def add(self, obs, mask, act):
        k = len(act)
        if k == 0:
            return
        idx = (self.head + np.arange(k)) % self.cap
        self.obs[idx], self.mask[idx], self.act[idx] = obs, mask, act
        self.head = (self.head + k) % self.cap
        self.size = min(self.cap, self.size + k)


def fit(net, opt, buf: Buffer, epochs: int, batch: int, rng) -> float:
    """Cross-entropy on the buffer; returns the mean loss of the last batches."""
    net.train()
    losses = []
    for _ in range(epochs):
        perm = rng.permutation(buf.size)
        for s in range(0, buf.size, batch):
            b = perm[s: s + batch]
            logits, _ = net(tensor(buf.obs[b]), tensor(buf.mask[b]))
            loss = F.cross_entropy(logits, torch.as_tensor(buf.act[b]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    net.eval()
    return float(np.mean(losses[-50:])) if losses else 0.0


def teacher_labels(env: VecEnv, teacher) -> tuple[np.ndarray, int]:
    """The teacher's template in every environment, -1 where its action is not legal there
    (a state only the learner's own mistakes reach): those states get no label."""
    labels = np.full(env.n, -1, np.int64)
    refused = 0
    for i in range(env.n):
        try:
            labels[i] = env.intent_template(i, env.teacher_action(teacher, i))
        except TeacherError:
            refused += 1
    return labels, refused


def dagger(net, source, args, log, deadline: float, buf: Buffer, rng, pool=None):
    """Behaviour cloning with DAgger: the teacher labels the states the learner visits (every
    kind of the source, ``args.envs`` environments each); the teacher's share of the executed
    actions falls from 1 to 0 over the first half of the rounds. Returns the checkpoints for
    :func:`choose`.

    With ``args.skip_harness`` = p > 0 (a source with ``skip_labels``: the suite, where a plan
    step is active; a Python world whose teacher is told what was tracked), a harness
    action about to be executed is skipped with probability p, the source's ``skip_labels``
    choice taken instead, so that the learner also meets, labelled, the states that follow a
    harness action left out: RL that later leaves one out does not step off what it was
    taught.

    With ``args.skip_label`` = q > 0, each state where the teacher's label is a harness action
    with a ``skip_labels`` choice is, with probability q, also learned with that choice as its
    label: imitation leaves the policy about q / (1 + q) of probability for leaving the
    harness action out, which RL can then try (from the imitation alone, 1e-5 on the invoices
    world's tracks), and the choice it tries is the teacher's.

    With ``args.mistakes`` = K > 0, each state where the learner's own greedy choice is not
    the teacher's label is learned K more times: the rare states a learner gets wrong (after
    a remedy failed, a lesson already noted) weigh as much as the common ones it has right,
    and a deterministic policy that loops in one of them fails its whole episode.

    The environments run in units (``args.unit_envs``, :func:`unit_slices`) of ``pool``
    (:class:`LocalPool` if none), each with its own random draws (:func:`dagger_unit`); the
    learner adds their samples unit by unit, fits, and validates through the same pool."""
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    own = pool is None
    pool = pool or LocalPool(source, getattr(args, "unit_envs", 0))
    units = [(k, kind, lo, m) for k, kind in enumerate(source.kinds)
             for lo, m in unit_slices(args.envs, 1, pool.unit_envs)]
    settings = {"steps": args.round_steps, "envs": args.envs, "seed": int(getattr(args, "seed", 0)),
                "skip_harness": float(getattr(args, "skip_harness", 0.0)),
                "skip_label": float(getattr(args, "skip_label", 0.0)),
                "mistakes": int(getattr(args, "mistakes", 0)),
                # A source that rotates (v3) gets new environments, in other organisations,
                # each round.
                "rotate": bool(getattr(source, "rotate", False))}
    best = None
    try:
        for r in range(args.rounds):
            beta = max(0.0, 1.0 - r / max(1, args.rounds // 2))
            t = time.time()
            parts = pool.run("dagger", net, [(u, {**settings, "round": r, "beta": beta}) for u in units])
            rollout_s = time.time() - t
            c = {key: sum(part[key] for part in parts)
                 for key in ("agree", "seen", "refused", "skipped", "alt_labelled", "steps")}
            eps = [e for part in parts for e in part["eps"]]
            for part in parts:
                buf.add(part["obs"], part["mask"], part["act"])
            t = time.time()
            lr = dagger_lr(args, r)
            for g in opt.param_groups:
                g["lr"] = lr
            loss = fit(net, opt, buf, args.epochs, args.batch, rng)
            learn_s = time.time() - t
            v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
            log(stage=1, round=r, beta=round(beta, 2), samples=buf.size, loss=round(loss, 5),
                **({"lr": float(f"{lr:.3g}")} if getattr(args, "lr_final", None) else {}),
                agreement=round(c["agree"] / max(1, c["seen"]), 4), teacher_refused=c["refused"],
                **({"skipped": c["skipped"]} if settings["skip_harness"] > 0 else {}),
                **({"skip_labelled": c["alt_labelled"]} if settings["skip_label"] > 0 else {}),
                train_success=round(float(np.mean([e["success"] for e in eps])), 3) if eps else None,
                train_harness=round(float(np.mean([e["harness"] for e in eps])), 3) if eps else None,
                rollout_steps=c["steps"], rollout_s=round(rollout_s, 3), learn_s=round(learn_s, 3),
                **valid_fields(v))
            best = select(best, v, net, ("dagger", r))
            if time.time() > deadline:
                break
    finally:
        pool.close_units()
        if own:
            pool.close()
    return best


def dagger_lr(args, r: int) -> float:
    """The learning rate of DAgger round ``r``: ``args.lr``, or with ``args.lr_final`` set, a
    geometric decay from ``args.lr`` at the first round to ``args.lr_final`` at the last of
    ``args.rounds``. A constant rate keeps moving a network that already agrees with its
    teacher on 99% of states, and the rare states that fail a whole episode move with it:
    the greedy policy's validation success swings from round to round. A decaying one lets
    the last rounds settle."""
    final = getattr(args, "lr_final", None)
    if not final:
        return args.lr
    return args.lr * (final / args.lr) ** (min(r, args.rounds - 1) / max(1, args.rounds - 1))


def select(best, v: dict, net, tag):
    """Keeps a checkpoint (its weights and validation figures) for :func:`choose`.

    Only checkpoints :func:`choose` could still pick are kept: one whose validation success
    and reward are both at most a later one's never will be (whatever success the best turns
    out to be, the later one passes the constraint whenever it does, with a reward at least
    as high, and ties go to the later one), so its weights are dropped. A long run keeps the
    few checkpoints on the success/reward front instead of one copy of the network per
    iteration."""
    cand = {"success": v["success_rate"], "reward": v["mean_reward"],
            "harness": v["mean_harness_actions"], "tag": tag,
            "state": {k: t.clone() for k, t in net.state_dict().items()}}
    if best is None:
        return {"all": [cand]}
    best["all"] = [c for c in best["all"]
                   if c["success"] > cand["success"] or c["reward"] > cand["reward"]]
    best["all"].append(cand)
    return best


def choose(best) -> dict:
    """Model selection: the highest validation mean reward among the checkpoints whose
    validation success is within a point of the best success seen (success is the
    constraint, reward the objective)."""
    top = max(c["success"] for c in best["all"])
    ok = [c for c in best["all"] if c["success"] >= top - 0.01]
    # Ties go to the latest checkpoint: it has seen the most data.
    return max(reversed(ok), key=lambda c: (c["reward"], c["success"]))


def group_advantages(traj, finished, group: int, harness_cost: float = 0.0) -> list:
    """GRPO's batch: every step of every finished episode, as (obs, mask, action, old log-prob,
    advantage), the advantage being the episode's return (its reward less `harness_cost` per
    harness action) less its group's mean, over the group's standard deviation; a group in
    which no episode succeeded gives no steps. Environments `g*group .. (g+1)*group` form
    group `g`."""
    batch = []
    for g in range(len(finished) // group):
        members = range(g * group, (g + 1) * group)
        R = np.array([finished[i]["reward"] - harness_cost * finished[i]["harness_actions"]
                      for i in members])
        if not any(finished[i]["success"] for i in members):
            # A group where no member succeeded says nothing about what success costs; what
            # it would teach is to fail cheaply, that is to give up at once (the reward
            # charges every step), which is how a policy's success collapses. It sits out.
            continue
        adv = (R - R.mean()) / (R.std() + 1e-6)
        for j, i in enumerate(members):
            batch += [(o, m, act, lp, adv[j]) for (o, m, act, lp) in traj[i]]
    return batch


def grpo_update(net, ref, opt, batch, epochs: int, minibatch: int, kl_coef: float, rng) -> None:
    """Clipped-ratio policy-gradient epochs over `batch` (from `group_advantages`), with a KL
    penalty to the frozen `ref` policy over legal templates only (illegal ones have
    probability about 0 in both)."""
    O = tensor(np.stack([b[0] for b in batch]))
    M = tensor(np.stack([b[1] for b in batch]))
    A = torch.as_tensor([b[2] for b in batch])
    LP = torch.as_tensor([b[3] for b in batch])
    ADV = torch.as_tensor([b[4] for b in batch], dtype=torch.float32)
    net.train()
    for _ in range(epochs):
        perm = rng.permutation(len(batch))
        for s in range(0, len(batch), minibatch):
            b = torch.as_tensor(perm[s: s + minibatch])
            logits, _ = net(O[b], M[b])
            logp_all = torch.log_softmax(logits, -1)
            logp = logp_all.gather(1, A[b][:, None])[:, 0]
            ratio = torch.exp(logp - LP[b])
            pg = -torch.min(ratio * ADV[b], torch.clamp(ratio, 0.8, 1.2) * ADV[b]).mean()
            with torch.no_grad():
                ref_logp = torch.log_softmax(ref(O[b], M[b])[0], -1)
            p = logp_all.exp()
            kl = (p * (logp_all - ref_logp)).masked_fill(M[b] == 0, 0.0).sum(-1).mean()
            loss = pg + kl_coef * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
    net.eval()


def sample(logits, mask: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
    """A template per row of ``logits`` (a batch), drawn from their softmax over the legal
    templates of ``mask``, and its log-probability. The Gumbel-max trick: the argmax of the
    log-probabilities less the logs of standard exponential draws (from the numpy generator
    ``rng``) is a draw from the softmax. The same distribution as
    ``torch.distributions.Categorical(logits=logits).sample()``, which took a third of a GRPO
    iteration on batches of 64 (its normalisation and ``torch.multinomial``); this takes a
    fifth of its time."""
    logp = torch.log_softmax(logits, -1).numpy()
    score = logp - np.log(rng.standard_exponential(logp.shape))
    score[mask == 0] = -np.inf
    a = score.argmax(1)
    return a, logp[np.arange(len(a)), a]


def warm_up(source, env, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``actions`` with the source's teacher choosing instead in every environment whose agent
    has finished fewer than ``source.warmup`` episodes (where it has a label), and which those
    are. An environment with a ``lifetime`` starts a new agent every ``lifetime`` episodes,
    which warms up again (PPO's environments live across iterations)."""
    warmup = int(getattr(source, "warmup", 0))
    if warmup == 0:  # v1 and host worlds: no per-environment calls on every RL step
        return actions, np.zeros(env.n, bool)
    life = int(getattr(env, "lifetime", 0) or 0)
    warming = np.array([(env.episodes(i) % life if life else env.episodes(i)) < warmup
                        for i in range(env.n)], bool)
    if warming.any():
        labels = source.labels(env)[0]
        drive = warming & (labels >= 0)
        actions = actions.copy()
        actions[drive] = labels[drive].astype(np.uint32)
    return actions, warming


def grpo(net, source, args, log, deadline: float, best, rng, pool=None):
    """Cost-aware GRPO. Every iteration starts fresh environments: for each kind (the
    source's ``rl_kinds`` if it has them),
    ``args.groups`` groups of ``args.group`` that share an organisation and a seed (new seeds
    each iteration), each running one whole episode sampled from the policy. An episode's
    advantage is its return under the library's reward (success gates an efficiency bonus;
    every action, harness ones included, costs budget) against its group's mean, over the
    group's standard deviation. A clipped ratio and a KL penalty to the policy GRPO started
    from.

    A source with ``warmup`` > 0 (v2 suite tasks, whose agents keep an experience store) has
    its teacher drive each environment's first ``warmup`` episodes, so that the episode
    sampled and learned from is one of an agent whose store is at work. A deterministic
    teacher leaves a group's members in the same state, so they still share their episode.

    The groups run in units of ``pool`` (:func:`grpo_unit`; whole groups, ``args.unit_envs``
    environments at most), each sampling with its own generator; the update sees their steps
    in group order, as from one set."""
    ref = net.twin()
    ref.eval()
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    G = args.group
    pool = pool or LocalPool(source, getattr(args, "unit_envs", 0))
    kinds = getattr(source, "rl_kinds", source.kinds)
    units = unit_slices(G * args.groups, G, pool.unit_envs)
    seed = int(getattr(args, "seed", 0))
    for it in range(args.rl_iters):
        if time.time() > deadline:
            break
        batch, eps = [], []
        t = time.time()
        jobs = [(kind, m, RL_SEED + it * args.groups + lo // G, G, lo // G, [seed, 2, it, k, lo])
                for k, kind in enumerate(kinds) for lo, m in units]
        parts = iter(pool.run("grpo", net, jobs))
        rollout_s = time.time() - t
        steps = 0
        for kind in kinds:
            traj, finished = [], []
            for _ in units:
                tr, fin = next(parts)
                traj += tr
                finished += fin
            steps += sum(len(x) for x in traj)
            batch += group_advantages(traj, finished, G, float(getattr(args, "harness_cost", 0.0)))
            eps += finished
        t = time.time()
        if batch:
            grpo_update(net, ref, opt, batch, args.rl_epochs,
                        getattr(args, "rl_batch", None) or args.batch, args.kl, rng)
        learn_s = time.time() - t
        v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
        log(stage=2, iteration=it, steps=len(batch),
            train_reward=round(float(np.mean([f["reward"] for f in eps])), 4),
            train_success=round(float(np.mean([f["success"] for f in eps])), 3),
            train_harness=round(float(np.mean([f["harness_actions"] for f in eps])), 3),
            rollout_steps=steps, rollout_s=round(rollout_s, 3), learn_s=round(learn_s, 3),
            **valid_fields(v))
        best = select(best, v, net, ("grpo", it))
    return best


# --- PPO with a value head and GAE -----------------------------------------------------------

def gae(rewards, values, dones, last_values, gamma: float, lam: float):
    """Generalised advantage estimation over a segment of ``T`` steps of ``n`` environments
    (arrays ``[T, n]``; a 1-d array is one environment): ``rewards[t]`` and ``dones[t]`` are what
    step ``t`` returned, ``values[t]`` the value of the state it acted in, ``last_values`` that
    of the state after the segment's last step. An episode that ends at step ``t`` bootstraps
    nothing past it (the budget is in the observation, so running out of it is an end, not a
    cut). Returns ``(advantages, returns)``, returns being advantages plus values: with
    ``delta_t = r_t + gamma * V(s_t+1) * (1 - done_t) - V(s_t)``,
    ``A_t = delta_t + gamma * lam * (1 - done_t) * A_t+1``."""
    r = np.asarray(rewards, np.float64)
    v = np.asarray(values, np.float64)
    live = 1.0 - np.asarray(dones, np.float64)
    adv = np.zeros_like(r)
    nxt = np.asarray(last_values, np.float64)
    run = np.zeros_like(nxt)
    for t in range(len(r) - 1, -1, -1):
        delta = r[t] + gamma * nxt * live[t] - v[t]
        run = delta + gamma * lam * live[t] * run
        adv[t] = run
        nxt = v[t]
    return adv, adv + v


class Critic(nn.Module):
    """PPO's value function: an MLP of its own on the observation, not a head on the policy's
    body. Measured on the invoices world (the imitation policy's episodes, returns to the end):
    a linear head on the imitated body explains 4% of the returns' variance, an MLP of the same
    size on the observation 59%; training the body for both moves the policy. It is not
    exported: the runtime never needs a value."""

    def __init__(self, obs_len: int, hidden: int):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(obs_len, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                               nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.f(obs)[:, 0]


def ppo_update(net, critic, ref, opt, copt, batch: dict, args, rng, policy: bool = True) -> dict:
    """``args.rl_epochs`` passes over ``batch`` (from :func:`ppo`) in minibatches of
    ``args.rl_batch`` (or ``args.batch``). The critic learns the squared error against the GAE
    returns; with ``policy``, the policy learns the clipped-ratio surrogate (``args.clip``) on
    advantages normalised over the batch, minus ``args.ent_coef`` times the entropy, plus
    ``args.kl`` times the KL divergence from ``ref`` (the policy RL started from).
    Probabilities are the tempered ones the rollout sampled from (each step's temperature in
    ``batch["temp"]``), over legal templates. Returns the last epoch's means of the losses,
    the entropy, the KL and the share of clipped ratios."""
    O, M = tensor(batch["obs"]), tensor(batch["mask"])
    A = torch.as_tensor(batch["act"])
    LP = torch.as_tensor(batch["logp"], dtype=torch.float32)
    adv = batch["adv"]
    ADV = torch.as_tensor((adv - adv.mean()) / (adv.std() + 1e-8), dtype=torch.float32)
    RET = torch.as_tensor(batch["ret"], dtype=torch.float32)
    TAU = torch.as_tensor(batch["temp"], dtype=torch.float32)[:, None]
    clip = float(args.clip)
    mb = getattr(args, "rl_batch", None) or args.batch
    n = len(A)
    net.train()
    for _ in range(args.rl_epochs):
        stats = []
        perm = rng.permutation(n)
        for s in range(0, n, mb):
            b = torch.as_tensor(perm[s: s + mb])
            vloss = 0.5 * (critic(O[b]) - RET[b]).pow(2).mean()
            copt.zero_grad()
            vloss.backward()
            copt.step()
            if not policy:
                stats.append([0.0, vloss.item(), 0.0, 0.0, 0.0])
                continue
            logits = net(O[b], M[b])[0]
            logp_all = torch.log_softmax(logits / TAU[b], -1)
            logp = logp_all.gather(1, A[b][:, None])[:, 0]
            ratio = torch.exp(logp - LP[b])
            pg = -torch.min(ratio * ADV[b], torch.clamp(ratio, 1 - clip, 1 + clip) * ADV[b]).mean()
            legal = M[b] > 0
            p = logp_all.exp()
            ent = -(p * logp_all).masked_fill(~legal, 0.0).sum(-1).mean()
            with torch.no_grad():
                ref_logp = torch.log_softmax(ref(O[b], M[b])[0] / TAU[b], -1)
            kl = (p * (logp_all - ref_logp)).masked_fill(~legal, 0.0).sum(-1).mean()
            loss = pg - args.ent_coef * ent + args.kl * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            clipped = ((ratio - 1).abs() > clip).float().mean()
            stats.append([pg.item(), vloss.item(), ent.item(), kl.item(), clipped.item()])
    net.eval()
    m = np.mean(stats, 0)
    return {"pg_loss": float(m[0]), "value_loss": float(m[1]), "entropy": float(m[2]),
            "kl": float(m[3]), "clipped": float(m[4])}


def flip_kind(scaled, mask: np.ndarray, greedy: np.ndarray, a: np.ndarray, logp: np.ndarray,
              harness: np.ndarray, flip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where ``flip``: the likeliest legal template (under ``scaled`` logits) on the other
    side of the line between harness actions and the rest from the ``greedy`` template (a
    world action or ``finish`` where the greedy one is a harness action, a harness action
    where it is not), with its log-probability; elsewhere, or where that side has no legal
    template, ``a`` and ``logp`` as they are."""
    lp_all = torch.log_softmax(scaled, -1).numpy()
    other = np.where(harness[greedy][:, None] != harness[None, :], lp_all, -np.inf)
    other[mask == 0] = -np.inf
    b = other.argmax(1)
    ok = flip & np.isfinite(other[np.arange(len(b)), b])
    a = np.where(ok, b, a)
    return a, lp_all[np.arange(len(a)), a]


def ppo(net, source, args, log, deadline: float, best, rng, pool=None):
    """Cost-aware PPO with a critic and GAE: per-step credit, where GRPO gives every step of an
    episode that episode's advantage.

    For each kind (the source's ``rl_kinds`` if it has them), ``args.envs`` environments live
    through the whole stage (new seeds every episode, from :data:`RL_SEED`). An iteration
    samples ``args.rl_steps`` steps in each from softmax(logits / ``args.temperature``)
    (greedy choices, and so the exported policy, do not depend on the temperature), with the
    library's per-step reward: every action's share of the budget, and at the end of an episode
    the success-gated efficiency bonus, so a harness action that changes nothing costs its
    price at the step it is taken. ``args.harness_cost`` (default 0) charges each harness
    action that much more in the rewards RL learns from; validation and model selection use
    the task's own reward. With ``args.explore`` > 0, that share of the steps takes the
    policy's likeliest template of the other kind (:func:`flip_kind`) and is learned from as
    if sampled (its ratio against the policy's own probability: a biased push, as in
    :func:`rollout_update`; the unbiased importance weight of a template imitation made 1e-5
    likely moves nothing).

    Advantages are GAE(``args.gamma``, ``args.gae_lambda``) against a :class:`Critic` of its
    own (trained on the GAE returns, learning rate ``args.critic_lr``), normalised over the
    iteration's steps; an episode cut by the end of a segment is bootstrapped from the value
    of its next state. The first ``args.critic_iters`` iterations train only the critic. Then
    :func:`ppo_update`. Checkpoints for model selection after every policy update.

    A source with ``warmup`` > 0 (v2 suite tasks) has its teacher drive each agent's first
    ``warmup`` episodes (:func:`warm_up`, again after every new agent of a ``lifetime``);
    those steps are not learned from."""
    ref = net.twin()
    ref.eval()
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    critic = Critic(source.layout["obs_len"], net.pi.in_features)
    copt = torch.optim.Adam(critic.parameters(), lr=args.critic_lr)
    harness = harness_templates(source.layout)
    kinds = list(getattr(source, "rl_kinds", source.kinds))
    envs = [source.envs(kind, args.envs, RL_SEED + 10_000 * k) for k, kind in enumerate(kinds)]
    T, tau, cost = int(args.rl_steps), float(args.temperature), float(args.harness_cost)
    explore = float(getattr(args, "explore", 0.0))
    try:
        for it in range(args.rl_iters):
            if time.time() > deadline:
                break
            t_it = time.time()
            parts, eps = [], []
            for env in envs:
                n = env.n
                obs = np.zeros((T, n, env.obs_len), np.float32)
                mask = np.zeros((T, n, env.actions), np.float32)
                act = np.zeros((T, n), np.int64)
                logp = np.zeros((T, n), np.float32)
                val = np.zeros((T, n), np.float32)
                rew = np.zeros((T, n), np.float32)
                done = np.zeros((T, n), bool)
                learn = np.zeros((T, n), bool)
                temp = np.zeros((T, n), np.float32)
                for t in range(T):
                    obs[t], mask[t] = env.obs, env.mask
                    with torch.no_grad():
                        logits = net(tensor(obs[t]), tensor(mask[t]))[0]
                        v = critic(tensor(obs[t]))
                    g = logits.argmax(-1).numpy()
                    temp[t] = tau
                    scaled = logits / tau
                    a, lp = sample(scaled, mask[t], rng)
                    if explore > 0:
                        a, lp = flip_kind(scaled, mask[t], g, a, lp, harness,
                                          rng.random(n) < explore)
                    a, warming = warm_up(source, env, a.astype(np.uint32))
                    r, d = env.step(a)[2:]
                    act[t], logp[t], val[t] = a, lp, v.numpy()
                    rew[t] = r - cost * harness[a]
                    done[t], learn[t] = d.astype(bool), ~warming
                    for i in np.flatnonzero(d & ~warming):
                        eps.append(env.last_episode(int(i)))
                with torch.no_grad():
                    last = critic(tensor(env.obs)).numpy()
                adv, ret = gae(rew, val, done, last, args.gamma, args.gae_lambda)
                keep = learn.reshape(-1)
                parts.append({"obs": obs.reshape(T * n, -1)[keep],
                              "mask": mask.reshape(T * n, -1)[keep],
                              "act": act.reshape(-1)[keep], "logp": logp.reshape(-1)[keep],
                              "temp": temp.reshape(-1)[keep],
                              "adv": adv.reshape(-1)[keep], "ret": ret.reshape(-1)[keep],
                              "val": val.reshape(-1)[keep]})
            batch = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            rollout_s = time.time() - t_it
            critic_only = it < args.critic_iters
            stats = {}
            if len(batch["act"]):
                stats = ppo_update(net, critic, ref, opt, copt, batch, args, rng, not critic_only)
                resid = np.var(batch["ret"] - batch["val"])
                stats["explained_var"] = 1.0 - resid / max(1e-12, float(np.var(batch["ret"])))
            v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
            row = dict(stage=2, iteration=it, steps=int(len(batch["act"])),
                       rollout_s=round(rollout_s, 1), critic_only=critic_only)
            if eps:
                row.update(train_episodes=len(eps),
                           train_reward=round(float(np.mean([e["reward"] for e in eps])), 4),
                           train_success=round(float(np.mean([e["success"] for e in eps])), 3),
                           train_harness=round(float(np.mean([e["harness_actions"] for e in eps])), 3))
            row.update({k: float(f"{x:.4g}") for k, x in stats.items()})
            log(**row, **valid_fields(v))
            if not critic_only:
                best = select(best, v, net, ("ppo", it))
    finally:
        for env in envs:
            env.close()
    return best


# --- Branching rollouts ----------------------------------------------------------------------

class Branches:
    """A ring of branch points: a state (observation, mask), the templates tried there (the
    policy's own first) and the return each earned to the end of its rollout."""

    def __init__(self, cap: int, obs_len: int, actions: int, width: int):
        self.obs = np.zeros((cap, obs_len), np.float32)
        self.mask = np.zeros((cap, actions), np.float32)
        self.act = np.zeros((cap, width), np.int64)
        self.ret = np.zeros((cap, width), np.float64)
        self.tried = np.zeros((cap, width), bool)
        self.cap, self.size, self.head = cap, 0, 0

    def add(self, obs, mask, act, ret, tried):
        i = self.head
        self.obs[i], self.mask[i], self.act[i], self.ret[i], self.tried[i] = obs, mask, act, ret, tried
        self.head = (self.head + 1) % self.cap
        self.size = min(self.cap, self.size + 1)

    def advantages(self) -> np.ndarray:
        """Each tried template's return less the return of the policy's own choice at its state
        (slot 0), differences below 1e-6 (float rounding) taken as 0, over the median gain,
        then clipped to [-30, 3]: the usual gain (a step saved) weighs about 1; a template that
        rescues an episode the policy would fail weighs 3 (one such state, pushed hundreds of
        times harder than the rest, teaches its template everywhere); one that fails the
        episode weighs -30 (what the policy must never learn)."""
        r, t = self.ret[: self.size], self.tried[: self.size]
        adv = np.where(t, r - r[:, :1], 0.0)
        adv[np.abs(adv) < 1e-6] = 0.0
        gains = adv[adv > 0]
        scale = float(np.median(gains)) if gains.size else max(1e-6, float(np.abs(adv).max()))
        return np.clip(adv / scale, -30.0, 3.0).astype(np.float32)


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


def alternatives(logits: np.ndarray, mask: np.ndarray, width: int, kinds: np.ndarray,
                 harness: np.ndarray | None = None) -> tuple:
    """The templates a branch point tries: the policy's greedy one first; then the likeliest
    legal template of each other kind (:func:`template_kinds`: another tool, or a harness verb
    instead of a world action and back), the likeliest kinds first; then the likeliest legal
    templates left. ``tried`` is False for slots left over when fewer templates are legal (they
    repeat the greedy one). A policy sharpened by imitation puts its next likeliest templates
    in the same kind as its choice (another field to track); the choice that pays is often of
    another kind (no harness action at all).

    With ``harness`` (:func:`harness_templates`), a harness step tries only templates that are
    not harness actions: doing without it. Another harness action in its place often wins by
    being cheaper while changing nothing (a second ``track`` of a field already tracked, the
    greedy policy then doing what it would have done), and a policy taught to prefer it there
    takes it again in the state it leaves unchanged, until the budget is spent. Loops still
    arise from what the policy generalises (``examples/train/README.md``); the update check of
    :func:`rollouts` is what holds them off."""
    legal = np.flatnonzero(mask > 0)
    if harness is not None and len(legal):
        greedy = legal[np.argmax(logits[legal])]
        if harness[greedy]:
            legal = np.concatenate([[greedy], legal[~harness[legal]]])
    order = legal[np.argsort(-logits[legal], kind="stable")]
    chosen = [int(order[0])] if len(order) else []
    seen = {int(kinds[order[0]])} if len(order) else set()
    for t in order[1:]:
        if len(chosen) == width:
            break
        if int(kinds[t]) not in seen:
            seen.add(int(kinds[t]))
            chosen.append(int(t))
    for t in order[1:]:
        if len(chosen) == width:
            break
        if int(t) not in chosen:
            chosen.append(int(t))
    tried = np.zeros(width, bool)
    tried[: len(chosen)] = True
    act = np.full(width, chosen[0] if chosen else 0, np.int64)
    act[: len(chosen)] = chosen
    return act, tried


def rollouts(net, source, args, log, deadline: float, best, rng, update=None, pool=None):
    """Policy improvement by branching rollouts: no teacher, only the library's reward.

    Each kind (the source's ``rl_kinds`` if it has them) runs ``args.groups`` groups of
    ``args.branches + 1`` environments that share their seeds (``VecEnv(group=)``), acting
    greedily. A group walks its first environment on for a random number of steps (up to the
    mean length of the episodes so far), then copies it into the others (``VecEnv.copy``: the
    same agent, world, store and random state), and each copy tries another template there
    (:func:`alternatives`: the likeliest of other kinds, at a harness step none that is a
    harness action); every copy then acts greedily to the
    end of ``args.rollout_episodes`` episodes. The suite's v2 worlds draw their faults per item
    and attempt, so the copies meet the same faults wherever their actions agree, and their
    returns differ by what the first template changed, not by luck: each template's advantage
    is its return against that of the policy's own choice there. An update raises the
    probability of the templates that did better and lowers that of those that did worse
    (:func:`rollout_update`), with a KL penalty to the policy the iteration started from; an
    iteration learns from the latest ``args.rl_states`` branch points of each kind and more
    from a ring of earlier ones (``8 x rl_states``). Tried templates that a policy sharpened by
    imitation would never sample get their advantage all the same, which GRPO from the start
    of an episode cannot give them.

    An update is kept only if the policy's greedy episodes on check seeds (:data:`CHECK_SEED`,
    training organisations, ``args.valid_episodes`` of them: the same ones every time) lose at
    most :data:`CHECK_SLACK` mean reward against those after the last kept update (a failed
    episode costs about two rewards, so this also holds success); otherwise the weights go
    back and the learning rate halves (a kept update grows it by half again, up to
    ``args.rl_lr``). Improving one state at a time changes states the policy never met:
    skipping one ``track`` of three leaves a state in which an imitated policy tracks the same
    field again and again, and without the check such loops spread from the fifth iteration
    on (validation success 100% to 34% in ten iterations). With the check, progress stops
    once every update breaks one check episode (``examples/train/README.md``: 1.14x fewer
    harness actions from the v2 static imitation).

    ``update`` (default :func:`rollout_update`, same arguments) replaces the update: a
    measurement that only wants the branch points (``scripts/branch-points.py``) passes one
    that keeps the ring and changes nothing."""
    K = int(args.branches)
    width = K + 1
    G = int(args.groups)
    kinds = list(getattr(source, "rl_kinds", source.kinds))
    lay = source.layout
    kinds_of, harness_of = template_kinds(lay), harness_templates(lay)
    ring = Branches(8 * args.rl_states * len(kinds), lay["obs_len"], lay["actions"], width)
    # States the policy visits (a group's first environment, walking): where the KL penalty
    # holds the policy, besides the branch points.
    anchors = Buffer(32 * args.rl_states * len(kinds), lay["obs_len"], lay["actions"])
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    envs = [source.envs(kind, G * width, RL_SEED, group=width) for kind in kinds]
    horizon = int(getattr(source, "horizon", 0) or 100)
    E = int(args.rollout_episodes)
    lengths = []  # of the episodes that ended, for how far a group walks before it branches
    state = []
    for env in envs:
        state.append({
            "wait": rng.integers(0, horizon, G),  # steps until the group branches (advancing)
            "branching": np.zeros(G, bool),  # in a rollout
            "ret": np.zeros(env.n), "ended": np.zeros(env.n, np.int64),
            "age": np.zeros(env.n, np.int64),
            "act": np.zeros((G, width), np.int64), "tried": np.zeros((G, width), bool),
            "obs": np.zeros((G, env.obs_len), np.float32),
            "mask": np.zeros((G, env.actions), np.float32),
        })
    def check(policy):
        rows = []
        for kind in kinds:
            rows += first_episodes(source, kind, lambda env: greedy(policy, env.obs, env.mask),
                                   CHECK_SEED, args.valid_episodes, split="train")
        return summary(rows)

    accepted_check = check(net)
    try:
        for it in range(args.rl_iters):
            if time.time() > deadline:
                break
            t_it = time.time()
            fresh, flips, gains = 0, 0, []
            while fresh < args.rl_states * len(kinds):
                for env, st in zip(envs, state):
                    starting = np.flatnonzero(~st["branching"] & (st["wait"] <= 0))
                    for g in starting:
                        for j in range(1, width):
                            env.copy(g * width, g * width + j, observe=False)
                    if len(starting):
                        env.observe()
                    obs, mask = env.obs, env.mask
                    with torch.no_grad():
                        logits = net(tensor(obs), tensor(mask))[0].numpy()
                    a = logits.argmax(-1).astype(np.uint32)
                    for g in starting:
                        s = g * width
                        act, tried = alternatives(logits[s], mask[s], width, kinds_of, harness_of)
                        st["act"][g], st["tried"][g] = act, tried
                        st["obs"][g], st["mask"][g] = obs[s], mask[s]
                        a[s: s + width] = act
                        st["ret"][s: s + width] = 0.0
                        st["ended"][s: s + width] = 0
                        st["branching"][g] = True
                    walking = np.flatnonzero(~st["branching"]) * width
                    keep = walking[rng.random(len(walking)) < 0.1]
                    anchors.add(obs[keep], mask[keep], a[keep].astype(np.int64))
                    reward, done = env.step(a)[2:]
                    counting = np.repeat(st["branching"], width) & (st["ended"] < E)
                    st["ret"][counting] += reward[counting]
                    st["ended"][counting] += done[counting].astype(np.int64)
                    st["wait"][~st["branching"]] -= 1
                    st["age"] += 1
                    ends = np.flatnonzero(done)
                    lengths += [int(x) for x in st["age"][ends]]
                    st["age"][ends] = 0
                    del lengths[:-1000]
                    for g in np.flatnonzero(st["branching"]):
                        s = g * width
                        if (st["ended"][s: s + width] >= E).all():
                            r = st["ret"][s: s + width]
                            ring.add(st["obs"][g], st["mask"][g], st["act"][g], r, st["tried"][g])
                            t = st["tried"][g]
                            gains.append(float(r[t].max() - r[0]))
                            flips += int(r[t].max() > r[0] + 1e-6)
                            fresh += 1
                            st["branching"][g] = False
                            walk = int(np.mean(lengths)) if lengths else horizon
                            st["wait"][g] = rng.integers(0, max(1, walk))
            rollout_s = time.time() - t_it
            before = {k: t.clone() for k, t in net.state_dict().items()}
            opt_before = copy.deepcopy(opt.state_dict())
            (update or rollout_update)(net, opt, ring, args, rng, anchors)
            c = check(net)
            accepted = c["mean_reward"] >= accepted_check["mean_reward"] - CHECK_SLACK
            row = dict(stage=2, iteration=it, branch_points=ring.size,
                       rollout_s=round(rollout_s, 1),
                       better_elsewhere=round(flips / max(1, fresh), 4),
                       mean_gain=round(float(np.mean(gains)), 5) if gains else None,
                       check_success=round(c["success_rate"], 4),
                       check_reward=round(c["mean_reward"], 4), accepted=accepted,
                       lr=float(f"{opt.param_groups[0]['lr']:.3g}"))
            if accepted:
                accepted_check = c
                scale_lr(opt, 1.5, args.rl_lr)
                v = validate(net, source, VALID_SEED, args.valid_episodes, pool)
                log(**row, **valid_fields(v))
                best = select(best, v, net, ("rollouts", it))
            else:
                net.load_state_dict(before)
                opt.load_state_dict(opt_before)
                scale_lr(opt, 0.5, args.rl_lr)
                log(**row)
    finally:
        for env in envs:
            env.close()
    return best


def scale_lr(opt, factor: float, top: float) -> None:
    """Multiplies every learning rate of ``opt`` by ``factor``, within [top / 64, top]."""
    for g in opt.param_groups:
        g["lr"] = min(top, max(top / 64, g["lr"] * factor))


def rollout_update(net, opt, ring: Branches, args, rng, anchors: Buffer | None = None) -> None:
    """``args.rl_epochs`` passes over the ring, in minibatches of ``args.rl_batch`` (or
    ``args.batch``), of: for a template that did better than the policy's choice, its gain
    times its log-probability (raised until the policy prefers it: the push fades only as its
    probability nears 1); for one that did worse, its loss times its log-probability down to a
    floor of 1e-3 (below it the log-probability has no bottom, and pushing templates that are
    already unlikely further down spoils the policy elsewhere); plus ``args.kl`` times the KL
    divergence from the policy before the update (legal templates only), on the branch points
    and on as many of ``anchors`` (states the policy visited) drawn at random."""
    if ring.size == 0:
        return
    adv = ring.advantages()
    n_anchor = anchors.size if anchors is not None else 0
    O = tensor(np.concatenate([ring.obs[: ring.size]] + ([anchors.obs[:n_anchor]] if n_anchor else [])))
    M = tensor(np.concatenate([ring.mask[: ring.size]] + ([anchors.mask[:n_anchor]] if n_anchor else [])))
    A, W = torch.as_tensor(ring.act[: ring.size]), torch.as_tensor(adv)
    with torch.no_grad():
        old = torch.log_softmax(net(O, M)[0], -1)
    floor = float(np.log(1e-3))
    mb = getattr(args, "rl_batch", None) or args.batch
    net.train()
    for _ in range(args.rl_epochs):
        perm = rng.permutation(ring.size)
        for s in range(0, ring.size, mb):
            b = torch.as_tensor(perm[s: s + mb])
            if n_anchor:
                b = torch.cat([b, torch.as_tensor(ring.size + rng.integers(0, n_anchor, len(b)))])
            logp = torch.log_softmax(net(O[b], M[b])[0], -1)
            k = len(b) if not n_anchor else len(b) // 2
            lp = logp[:k].gather(1, A[b[:k]])
            w = W[b[:k]]
            gain = (w.clamp(min=0) * lp).sum(1).mean()
            loss_ = (w.clamp(max=0) * lp.clamp(min=floor)).sum(1).mean()
            p_old = old[b].exp()
            kl = (p_old * (old[b] - logp)).masked_fill(M[b] == 0, 0.0).sum(-1).mean()
            loss = -gain - loss_ + args.kl * kl
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
    net.eval()
