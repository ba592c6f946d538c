"""Demonstrations: episodes of a world driven by someone else (a rule-based automation, a
person), recorded as JSON lines, for behaviour cloning without a teacher in the loop.

The format (``evoharness-demos-v1``), one JSON object a line, in order:

- ``{"type": "episode", "episode": 0, "seed": 17, "format": "evoharness-demos-v1"}`` starts an
  episode: the world is reset with ``seed``. ``tools`` (the world's tool names) and ``budget``
  are optional; when present they are checked against the world.
- ``{"type": "step", "episode": 0, "step": 0, "event": {"kind": "notice", "fields": {...}},
  "action": ["call", "list_invoices"]}``, one per action taken: ``event`` is the last event the
  world returned when the action was chosen (kind ``result``, ``error`` or ``notice``; field
  values are JSON booleans, integers, numbers, strings, or ``{"bytes": "<hex>"}``), and
  ``action`` a high-level action as a teacher returns it (``["call", TOOL]``,
  ``["call", TOOL, ARG]``, ``["track", KEY]``, ``["finish", true]``, ... see
  :func:`evoharness.world.intent_json`).
- ``{"type": "end", "episode": 0, ...}`` closes it (optional; anything else on the line, such
  as ``success``, is kept for reading and ignored by training).

Blank lines and lines whose ``type`` starts with ``#`` are skipped. The world must be
deterministic for a seed: training replays each episode in the world through the library (which
makes the observations and masks the policy will see), and refuses a demonstration whose events
differ from the world's, naming the line.
"""

from __future__ import annotations

import json
import pathlib

import numpy as np

from .vec_env import VecEnv
from .world import Event, TeacherError, check_event, intent_json

FORMAT = "evoharness-demos-v1"


class DemoError(ValueError):
    """A demonstration file that cannot be read or replayed: the message names the line."""


def value_to_json(v):
    if isinstance(v, (bytes, bytearray)):
        return {"bytes": bytes(v).hex()}
    if isinstance(v, (np.integer, np.floating, np.bool_)):
        return v.item()
    return v


def value_from_json(v, where: str):
    if isinstance(v, dict):
        if set(v) != {"bytes"} or not isinstance(v["bytes"], str):
            raise DemoError(f"{where}: a field value object must be {{\"bytes\": \"<hex>\"}}")
        try:
            return bytes.fromhex(v["bytes"])
        except ValueError as e:
            raise DemoError(f"{where}: {e}") from None
    if isinstance(v, (bool, int, float, str)):
        return v
    raise DemoError(f"{where}: a field value is a bool, int, number, str or {{\"bytes\": ...}}, "
                    f"not {type(v).__name__}")


def event_to_json(ev: Event) -> dict:
    return {"kind": ev.kind, "fields": {k: value_to_json(v) for k, v in ev.fields.items()}}


def event_from_json(d, where: str) -> Event:
    if not isinstance(d, dict) or not isinstance(d.get("kind"), str) \
            or not isinstance(d.get("fields", {}), dict):
        raise DemoError(f"{where}: an event is {{\"kind\": ..., \"fields\": {{...}}}}")
    ev = Event(d["kind"], {k: value_from_json(v, f"{where}: field {k!r}")
                           for k, v in d.get("fields", {}).items()})
    try:
        return check_event(ev, "the demonstration")
    except (TypeError, ValueError) as e:
        raise DemoError(f"{where}: {e}") from None


def action_to_json(action):
    if isinstance(action, dict):
        return action
    if isinstance(action, str):
        return [action]
    return [value_to_json(x) for x in action]


def load(path) -> list[dict]:
    """Reads a demonstration file: a list of episodes ``{"seed", "line", "tools", "budget",
    "steps": [(line, Event, action), ...]}``. Raises :class:`DemoError` naming the line."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise DemoError(f"no demonstration file {path}")
    episodes: dict[object, dict] = {}
    order = []
    for no, raw in enumerate(path.read_text().splitlines(), 1):
        where = f"{path.name}:{no}"
        if not raw.strip():
            continue
        try:
            d = json.loads(raw)
        except json.JSONDecodeError as e:
            raise DemoError(f"{where}: not JSON: {e}") from None
        if not isinstance(d, dict) or not isinstance(d.get("type"), str):
            raise DemoError(f"{where}: each line is an object with a \"type\" (episode, step, end)")
        t = d["type"]
        if t.startswith("#"):
            continue
        if t not in ("episode", "step", "end"):
            raise DemoError(f"{where}: unknown type {t!r}: episode, step or end")
        if "episode" not in d:
            raise DemoError(f"{where}: no \"episode\" (the episode's id)")
        key = d["episode"]
        if t == "episode":
            if key in episodes:
                raise DemoError(f"{where}: episode {key!r} starts twice")
            if d.get("format", FORMAT) != FORMAT:
                raise DemoError(f"{where}: format {d['format']!r}; this reader knows {FORMAT}")
            seed = d.get("seed")
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
                raise DemoError(f"{where}: an episode needs a \"seed\" (an int from 0)")
            episodes[key] = {"seed": seed, "line": no, "tools": d.get("tools"),
                             "budget": d.get("budget"), "steps": [], "ended": False}
            order.append(key)
            continue
        if key not in episodes:
            raise DemoError(f"{where}: episode {key!r} has no \"episode\" line before it")
        ep = episodes[key]
        if ep["ended"]:
            raise DemoError(f"{where}: episode {key!r} already ended")
        if t == "end":
            ep["ended"] = True
            continue
        if "action" not in d or "event" not in d:
            raise DemoError(f"{where}: a step needs \"event\" and \"action\"")
        action = d["action"]
        try:
            intent_json(action if isinstance(action, (dict, str)) else tuple(action))
        except ValueError as e:
            raise DemoError(f"{where}: {e}") from None
        ep["steps"].append((no, event_from_json(d["event"], where),
                            action if isinstance(action, (dict, str)) else tuple(action)))
    if not order:
        raise DemoError(f"{path}: no episodes")
    return [episodes[k] for k in order]


def replay(factory, settings: dict, episodes: list[dict], name: str = "demos",
           layout_version: int = 1):
    """Replays demonstrated episodes in the world through the library: the observations,
    masks and templates of every step, and the episodes' stats. Raises :class:`DemoError`
    when an event differs from the world's or an action is not legal there."""
    obs, masks, acts, stats = [], [], [], []
    for ep in episodes:
        env = VecEnv.from_worlds(factory, 1, seed=ep["seed"], layout_version=layout_version,
                                 **settings)
        try:
            if ep["tools"] is not None and list(ep["tools"]) != env.tools:
                raise DemoError(f"{name}:{ep['line']}: recorded with the tools {ep['tools']}; "
                                f"the world has {env.tools}")
            for k, (no, event, action) in enumerate(ep["steps"]):
                where = f"{name}:{no}"
                if env.episodes(0) > 0:
                    raise DemoError(f"{where}: the episode already ended after {k} steps (budget "
                                    f"{env.budget}, or a finish before)")
                seen = env.last_event(0)
                if seen != event:
                    raise DemoError(f"{where}: the world's last event is {seen!r}; the "
                                    f"demonstration recorded {event!r} (is the world "
                                    "deterministic for its seed, and is this its demonstration?)")
                try:
                    t = env.intent_template(0, action)
                except TeacherError as e:
                    raise DemoError(f"{where}: {e}") from None
                obs.append(env.obs[0].copy())
                masks.append(env.mask[0].copy())
                acts.append(t)
                env.step(np.array([t], np.uint32))
            if env.episodes(0) > 0:
                stats.append(env.last_episode(0))
        finally:
            env.close()
    if not acts:
        raise DemoError(f"{name}: no steps to learn from")
    return (np.stack(obs).astype(np.float32), np.stack(masks).astype(np.float32),
            np.array(acts, np.int64), stats)


def record(factory, teacher, seeds, path, settings: dict) -> list[dict]:
    """Runs ``teacher`` (``teacher(world, event)`` or ``teacher(world, event, tracked)``) in
    the world for each seed and writes its episodes to ``path`` in the format above; returns
    the episodes' stats. A teacher's illegal action raises :class:`~evoharness.TeacherError`."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    stats = []
    with open(path, "w") as f:
        for k, seed in enumerate(seeds):
            env = VecEnv.from_worlds(factory, 1, seed=int(seed), **settings)
            try:
                f.write(json.dumps({"type": "episode", "episode": k, "seed": int(seed),
                                    "format": FORMAT, "tools": env.tools,
                                    "budget": env.budget}) + "\n")
                step = 0
                while env.episodes(0) == 0:
                    event = env.last_event(0)
                    action = env.teacher_action(teacher, 0)
                    t = env.intent_template(0, action)
                    f.write(json.dumps({"type": "step", "episode": k, "step": step,
                                        "event": event_to_json(event),
                                        "action": action_to_json(action)}) + "\n")
                    env.step(np.array([t], np.uint32))
                    step += 1
                e = env.last_episode(0)
                stats.append(e)
                f.write(json.dumps({"type": "end", "episode": k, "success": bool(e["success"]),
                                    "reward": round(float(e["reward"]), 6),
                                    "steps": int(e["steps"])}) + "\n")
            finally:
                env.close()
    return stats
