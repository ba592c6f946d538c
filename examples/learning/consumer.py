"""Stream consumer: a world whose process restarts and resumes from its last durable state.

The agent processes every message of a topic partition, then finishes.

- ``poll()`` delivers the message after the consumer's position (``{offset, msg}``), or
  ``{idle: True}`` when the partition is drained.
- ``process(msg)`` handles it (``{processed, offset}``); processing is idempotent (a message
  handled before is recognised and skipped, ``{processed, offset, dup}``), so doing it twice
  costs a call and harms nothing.
- ``commit_offset(offset)`` makes the position durable (``{committed}``).
- ``lag()`` reports how many messages are left (``{lag}``), which nothing needs.
- The platform restarts the consumer's process now and then (a rebalance: 4% of the calls,
  ``poll`` and ``process`` alike, before they take effect): the call answers
  ``Event.notice(restarted=True, resume=K)`` and the consumer resumes from its last committed
  offset ``K`` (-1 when nothing was committed): every message after it is delivered again.

Success: every message processed at least once and the agent finished claiming success.

**The teacher** (:func:`never_commit`) polls and processes, and after a restart polls again;
it never commits, so a restart sends it back to the start of the partition. **The hand rule**
(:func:`hand_rule`) commits the offset after every third message: a call that bounds what a
restart makes it redo.

This is a world's restart, not the agent's: a world written in Python cannot restart the agent
that acts in it (roll its workspace back to its last harness ``commit``), so the durable state
here is the consumer's committed offset, a tool call (`README.md`, "What a Python world cannot
express").
"""

from __future__ import annotations

import random

from evoharness import Event

#: Per call, the chance of a restart.
RESTART = 0.04
#: The hand rule's commit interval, in messages.
EVERY = 3


class Consumer:
    tools = ["poll", "process", "commit_offset", "lag"]
    budget = 150
    capacities = {"facts": 4, "steps": 2, "lessons": 1}

    def reset(self, seed: int) -> Event:
        r = random.Random(seed)
        self.rng = random.Random(seed ^ 0xC0FF)
        n = r.randrange(10, 17)
        self.msgs = [r.randrange(100_000, 1_000_000) for _ in range(n)]
        self.position = -1      # the last offset delivered
        self.committed = -1
        self.done: set[int] = set()
        return Event.notice(messages=n, partition=r.randrange(0, 12))

    def call(self, tool: str, args: list) -> Event:
        arg = args[0] if args else None
        if tool == "lag":
            return Event.result(lag=len(self.msgs) - 1 - self.position)
        if tool in ("poll", "process") and self.rng.random() < RESTART:
            self.position = self.committed
            return Event.notice(restarted=True, resume=self.committed)
        if tool == "poll":
            if self.position + 1 >= len(self.msgs):
                return Event.result(idle=True)
            self.position += 1
            return Event.result(offset=self.position, msg=self.msgs[self.position])
        if tool == "process":
            if arg not in self.msgs:
                return Event.error(code="UNKNOWN_MESSAGE")
            k = self.msgs.index(arg)
            ev = Event.result(processed=arg, offset=k)
            if k in self.done:
                ev.fields["dup"] = True
            self.done.add(k)
            return ev
        if tool == "commit_offset":
            if not isinstance(arg, int) or not -1 <= arg <= self.position:
                return Event.error(code="BAD_OFFSET")
            self.committed = max(self.committed, arg)
            return Event.result(committed=self.committed)
        raise ValueError(f"no tool {tool!r}")

    def judge(self, finished):
        return {"success": finished is True and len(self.done) == len(self.msgs),
                "messages": len(self.msgs), "committed": self.committed}


def never_commit(world, event):
    """The team's script: poll, process, poll again after a restart; no commits."""
    f = event.fields
    if f.get("idle"):
        return ("finish", True)
    if "msg" in f:
        return ("call", "process", f["msg"])
    return ("call", "poll")                      # start, processed, restarted, errors


def hand_rule(world, event):
    """The best rule by hand: commit after every third message."""
    f = event.fields
    if "processed" in f and not f.get("dup") and (f["offset"] + 1) % EVERY == 0:
        return ("call", "commit_offset", f["offset"])
    return never_commit(world, event)
