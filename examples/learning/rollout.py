"""Rolling deploy: a world whose teacher is right in one kind of deployment and wasteful in
the other, and only the first event says which.

The agent deploys a release to every host of a pool, then finishes.

- The first event is the deployment's card: ``{hosts, runtime}``, ``runtime`` being
  ``"managed"`` or ``"bare"``. No later event says it.
- ``next_host()`` shows one host still to deploy (``{host, left}``), or ``{done: True}``.
- ``deploy(host)`` rolls the release out. On a bare runtime a third of the deploys come up
  unhealthy and ``deploy`` cannot tell: it answers ``{deployed, left}`` all the same, and only
  ``health_check(host)`` shows it (an error ``{host, unhealthy}``; deploying again fixes it).
  A managed runtime checks the host's health itself before it answers: an unhealthy roll-out
  is an error of ``deploy`` (``{host, unhealthy}``), so a ``health_check`` after a successful
  deploy always says ``{healthy}`` and is a wasted call.

Success: every host deployed and healthy, and the agent finished claiming success.

**The teacher** (:func:`check_every_host`) is what a team writes once for all its pools: a
health check after every deploy. Right on bare runtimes, one wasted call a host on managed
ones. **The hand rule** (:func:`hand_rule`) keeps the card in Belief when it says ``managed``
(one ``track``) and skips the checks there.
"""

from __future__ import annotations

import random

from evoharness import Event

#: On a bare runtime, the chance that a deploy comes up unhealthy.
UNHEALTHY = 0.33


class Rollout:
    tools = ["next_host", "deploy", "health_check"]
    budget = 60
    capacities = {"facts": 4, "steps": 2, "lessons": 1}

    def reset(self, seed: int) -> Event:
        r = random.Random(seed)
        self.rng = random.Random(seed ^ 0xD3B1)
        self.runtime = "managed" if r.random() < 0.5 else "bare"
        n = r.randrange(6, 11)
        self.hosts = {h: "pending" for h in r.sample(range(1, 250), n)}  # pending, sick, ok
        return Event.notice(hosts=n, runtime=self.runtime)

    def _left(self) -> int:
        return sum(s != "ok" for s in self.hosts.values())

    def call(self, tool: str, args: list) -> Event:
        arg = args[0] if args else None
        if tool == "next_host":
            h = next((h for h, s in self.hosts.items() if s == "pending"), None)
            if h is None:
                return Event.result(done=True)
            return Event.result(host=h, left=self._left())
        if arg not in self.hosts:
            return Event.error(code="UNKNOWN_HOST")
        if tool == "deploy":
            sick = self.rng.random() < UNHEALTHY
            if self.runtime == "managed":
                if sick:
                    return Event.error(host=arg, unhealthy=True)
                self.hosts[arg] = "ok"
            else:
                self.hosts[arg] = "sick" if sick else "ok"
            return Event.result(deployed=arg, left=self._left())
        if tool == "health_check":
            if self.hosts[arg] == "sick":
                return Event.error(host=arg, unhealthy=True)
            if self.hosts[arg] == "pending":
                return Event.error(code="NOT_DEPLOYED", host=arg)
            return Event.result(healthy=arg)
        raise ValueError(f"no tool {tool!r}")

    def judge(self, finished):
        return {"success": finished is True and self._left() == 0,
                "runtime": self.runtime, "hosts": len(self.hosts)}


def _act(event, check: bool):
    f = event.fields
    if event.kind == "error":
        if f.get("unhealthy"):
            return ("call", "deploy", f["host"])
        return ("call", "next_host")
    if f.get("done"):
        return ("finish", True)
    if "deployed" in f:
        return ("call", "health_check", f["deployed"]) if check else ("call", "next_host")
    if "host" in f:
        return ("call", "deploy", f["host"])
    return ("call", "next_host")                 # start, healthy


def check_every_host(world, event):
    """The team's script: a health check after every deploy, in every pool."""
    return _act(event, check=True)


def hand_rule(world, event, tracked):
    """The best rule by hand: keep a managed card, and check hosts only on bare runtimes."""
    if event.fields.get("runtime") == "managed" and "runtime" not in tracked:
        return ("track", "runtime")
    return _act(event, check=tracked.get("runtime") != "managed")
