"""Incident runbook: a world where remedies recur, so a lesson noted once pays again.

The agent clears every alert of an on-call shift, then finishes.

- ``next_alert()`` shows one open alert at a time (``{alert, fault, host}``), or
  ``{done: True}``.
- Four remedies, ``restart(alert)``, ``flush_cache(alert)``, ``rotate_keys(alert)`` and
  ``failover(alert)``: exactly one clears a given fault (``{fixed, fault, left}``). Which one is
  the deployment's and seen nowhere: a deployment has three fault codes (``F<deployment>-<k>``),
  each with its own remedy, and a shift meets them again and again.
- A wrong remedy fails (an error ``{alert, fault, tried}``) and leaves the service in a
  cooldown: any remedy before ``wait()`` is refused (``BUSY``). ``wait()`` ends it and says
  the alert again (``{alert, fault, after}``: ``after`` names the remedy that failed).

The deployment is ``seed // 8``: eight seeds in a row share their fault codes and remedies, so
an agent that runs them in order (as the embedded agent of ``python -m evoharness.evaluate``
does) meets a lesson again in its next tasks; the codes of two deployments never collide, so a
lesson never misleads. Success: every alert fixed and the agent finished claiming success.

**The teacher** (:func:`runbook`) is the runbook a team writes: the remedies in a fixed order,
a ``wait`` after each failure; it never notes or recalls. **The hand rule** (:func:`hand_rule`)
notes a lesson when a fault is fixed (trigger: the ``fault`` field; remedy: the tool that fixed
it) and applies that remedy first the next time the fault comes back.
"""

from __future__ import annotations

import random
import weakref

from evoharness import Event

REMEDIES = ["restart", "flush_cache", "rotate_keys", "failover"]
#: Seeds in a row that share a deployment.
DEPLOYMENT_SEEDS = 8
#: The agent's Experience (its working set): lessons outlive a task, so it fills up over the
#: tasks of a lifetime; a note into a full one is refused.
LESSONS = 8


def deployment(d: int) -> dict[str, str]:
    """Deployment ``d``'s fault codes and the remedy that clears each."""
    r = random.Random(104_729 * d + 3)
    codes = [f"F{d}-{k}" for k in range(3)]
    return {c: r.choice(REMEDIES) for c in codes}


class Incidents:
    tools = ["next_alert", *REMEDIES, "wait"]
    budget = 90
    capacities = {"facts": 4, "steps": 2, "lessons": LESSONS}

    def reset(self, seed: int) -> Event:
        r = random.Random(seed)
        self.remedy = deployment(seed // DEPLOYMENT_SEEDS)
        codes = sorted(self.remedy)
        n = r.randrange(5, 9)
        self.alerts = [{"alert": a, "fault": r.choice(codes), "host": r.randrange(1, 40),
                        "fixed": False} for a in r.sample(range(100, 1000), n)]
        self.cooldown = False
        self.last = None
        return Event.notice(alerts=n)

    def _open(self):
        return [a for a in self.alerts if not a["fixed"]]

    def call(self, tool: str, args: list) -> Event:
        arg = args[0] if args else None
        if tool == "next_alert":
            open_ = self._open()
            if not open_:
                return Event.result(done=True)
            a = open_[0]
            return Event.result(alert=a["alert"], fault=a["fault"], host=a["host"])
        if tool == "wait":
            self.cooldown = False
            if self.last is None:
                return Event.result(waited=True)
            a, tried = self.last
            return Event.result(alert=a["alert"], fault=a["fault"], after=tried)
        a = next((a for a in self.alerts if a["alert"] == arg and not a["fixed"]), None)
        if a is None:
            return Event.error(code="UNKNOWN_ALERT")
        if self.cooldown:
            return Event.error(code="BUSY", alert=a["alert"], fault=a["fault"])
        if self.remedy[a["fault"]] != tool:
            self.cooldown = True
            self.last = (a, tool)
            return Event.error(alert=a["alert"], fault=a["fault"], tried=tool)
        a["fixed"] = True
        self.last = None
        return Event.result(fixed=a["alert"], fault=a["fault"], left=len(self._open()))

    def judge(self, finished):
        return {"success": finished is True and not self._open(),
                "alerts": len(self.alerts)}


def _next_remedy(after: str | None) -> str:
    return REMEDIES[0] if after is None else REMEDIES[(REMEDIES.index(after) + 1) % len(REMEDIES)]


def runbook(world, event):
    """The team's script: every remedy in order, a wait after each failure, no memory."""
    f = event.fields
    if event.kind == "error":
        if "tried" in f or f.get("code") == "BUSY":
            return ("call", "wait")
        return ("call", "next_alert")
    if f.get("done"):
        return ("finish", True)
    if "alert" in f:                             # a new alert, or the same one after a wait
        return ("call", _next_remedy(f.get("after")), f["alert"])
    return ("call", "next_alert")                # start, fixed, waited


#: What the hand rule has noted in each world's agent: fault -> remedy. The lessons themselves
#: are in the agent's Experience, which its working set shows and which outlives a task, as this
#: copy does; the rule keeps it because a teacher is shown Belief (`tracked`), not Experience.
_NOTED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: The tool each world's agent called last: the remedy a note records.
_LAST: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def hand_rule(world, event, tracked):
    """The best rule by hand: note what fixed a fault, use it first when the fault recurs."""
    f = event.fields
    noted = _NOTED.setdefault(world, {})
    if "fixed" in f and f["fault"] not in noted and len(noted) < LESSONS:
        noted[f["fault"]] = _LAST[world]
        return ("note", "fault")                 # remedy: the tool called last, the fix
    action = runbook(world, event)
    if event.kind == "result" and "alert" in f and "after" not in f and f["fault"] in noted:
        action = ("call", noted[f["fault"]], f["alert"])
    if action[0] == "call":
        _LAST[world] = action[1]
    return action
