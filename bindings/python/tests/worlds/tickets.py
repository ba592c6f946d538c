"""A small support-ticket world (four tools) that no other part of the project knows: the
generic training and evaluation commands are tested on it from Python only.

Each task has 2 to 4 tickets. ``next_ticket`` shows the next open one (``{ticket, prio}``) or
``{empty: True}``; ``answer(ticket)`` closes a normal one, ``escalate(ticket)`` an urgent one
(``prio`` 2); the wrong one is refused with an error that names the ticket again. ``pause``
does nothing. The first event announces the queue's ``shift`` code, which only matters at the
end: ``finish`` succeeds when every ticket is closed the right way.
"""

from __future__ import annotations

import random

from evoharness import Event


class Tickets:
    tools = ["next_ticket", "answer", "escalate", "pause"]
    budget = 30
    capacities = {"facts": 4, "steps": 2, "lessons": 1}

    def reset(self, seed):
        r = random.Random(seed)
        self.open = [(t, 2 if r.random() < 0.4 else 1)
                     for t in r.sample(range(100, 999), r.randrange(2, 5))]
        self.wrong = 0
        return Event.notice(shift=seed % 3)

    def call(self, tool, args):
        if tool == "next_ticket":
            if not self.open:
                return Event.result(empty=True)
            t, p = self.open[0]
            return Event.result(ticket=t, prio=p)
        if tool == "pause":
            return Event.result(paused=True)
        t = args[0] if args else None
        hit = [x for x in self.open if x[0] == t]
        if not hit:
            return Event.error(reason="no such ticket")
        want = "escalate" if hit[0][1] == 2 else "answer"
        if tool != want:
            self.wrong += 1
            return Event.error(reason="wrong handling", ticket=t)
        self.open.remove(hit[0])
        return Event.result(closed=t)

    def judge(self, finished):
        return {"success": finished is True and not self.open, "wrong": self.wrong}


def teacher(world, event):
    f = event.fields
    if f.get("empty"):
        return ("finish", True)
    if "prio" in f:
        return ("call", "escalate" if f["prio"] == 2 else "answer", f["ticket"])
    return ("call", "next_ticket")


def wasteful_teacher(world, event, tracked):
    """:func:`teacher` with a habit: it keeps the queue's ``shift`` in Belief, though no
    decision reads it (what ``--rl improve`` should learn to leave out)."""
    if "shift" in event.fields and "shift" not in tracked:
        return ("track", "shift")
    return teacher(world, event)
