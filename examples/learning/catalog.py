"""Catalog sync: a world where tracking everything is the habit and one track pays.

The agent publishes every product of a batch to a storefront channel, then finishes.

- The first event names the batch's ``channel`` (``{products, channel}``); no later event shows
  it again, except ``whoami()``, which costs a call.
- ``next_product()`` shows one unpublished product at a time (``{sku, price, stock, left}``),
  or ``{done: True}``: the batch is only partly observable.
- ``publish(sku)`` publishes it (``{published, left}``). The storefront's session expires now
  and then (a quarter of the publishes): the error ``SESSION_EXPIRED`` names the ``sku`` and
  publishes nothing.
- ``login(channel)`` opens a new session (``{logged_in, sku}``: the request it interrupted);
  any other value is refused (``WRONG_CHANNEL``).
- ``get_details(sku)`` shows vendor, weight and colour, which nothing needs.

Success: every product published and the agent finished claiming success.

**The teacher** (:func:`track_everything`) is a transcript-style harness: before acting on an
event it tracks every field whose value Belief does not hold yet (about six tracks a product),
then acts. One of those tracks pays: the channel, kept from the first event, lets it log in
again without ``whoami``. **The hand rule** (:func:`hand_rule`) tracks the channel only.
"""

from __future__ import annotations

import random

from evoharness import Event

CHANNELS = ["eu-web", "us-app", "apac-b2b", "uk-market", "latam-web", "nordics"]
#: Per publish, the chance that the session has expired.
EXPIRY = 0.25


class Catalog:
    tools = ["next_product", "get_details", "publish", "login", "whoami"]
    budget = 100
    capacities = {"facts": 16, "steps": 2, "lessons": 2}

    def reset(self, seed: int) -> Event:
        r = random.Random(seed)
        self.rng = random.Random(seed ^ 0xCA7A)
        self.channel = r.choice(CHANNELS)
        n = r.randrange(4, 8)
        self.products = [{"sku": s, "price": r.randrange(5, 500), "stock": r.randrange(0, 90)}
                         for s in r.sample(range(10_000, 99_999), n)]
        self.published: set[int] = set()
        self.pending = None
        return Event.notice(products=n, channel=self.channel)

    def _left(self) -> int:
        return len(self.products) - len(self.published)

    def call(self, tool: str, args: list) -> Event:
        arg = args[0] if args else None
        if tool == "next_product":
            p = next((p for p in self.products if p["sku"] not in self.published), None)
            if p is None:
                return Event.result(done=True)
            return Event.result(sku=p["sku"], price=p["price"], stock=p["stock"],
                                left=self._left())
        if tool == "whoami":
            return Event.result(channel=self.channel)
        if tool == "login":
            if arg != self.channel:
                return Event.error(code="WRONG_CHANNEL")
            ev = Event.result(logged_in=True)
            if self.pending is not None:
                ev.fields["sku"] = self.pending
            self.pending = None
            return ev
        known = any(p["sku"] == arg for p in self.products)
        if tool == "get_details":
            if not known:
                return Event.error(code="UNKNOWN_SKU")
            r = random.Random(arg)
            return Event.result(sku=arg, vendor=r.choice(["acme", "globex", "initech"]),
                                weight=r.randrange(1, 40), colour=r.choice(["red", "blue"]))
        if tool == "publish":
            if not known:
                return Event.error(code="UNKNOWN_SKU")
            if self.rng.random() < EXPIRY:
                self.pending = arg
                return Event.error(code="SESSION_EXPIRED", sku=arg)
            self.published.add(arg)
            return Event.result(published=arg, left=self._left())
        raise ValueError(f"no tool {tool!r}")

    def judge(self, finished):
        return {"success": finished is True and self._left() == 0,
                "published": len(self.published), "products": len(self.products)}


def _act(event, tracked):
    f = event.fields
    if event.kind == "error":
        if f.get("code") == "SESSION_EXPIRED":
            if "channel" in tracked:
                return ("call", "login", tracked["channel"])
            return ("call", "whoami")
        return ("call", "next_product")
    if "channel" in f and "products" not in f:              # whoami's answer
        return ("call", "login", f["channel"])
    if f.get("done"):
        return ("finish", True)
    if "sku" in f:                                         # a product, or a login that resumes
        return ("call", "publish", f["sku"])
    return ("call", "next_product")                        # start, published


def track_everything(world, event, tracked):
    """The team's script: track every new field, then act."""
    for k, v in event.fields.items():
        if tracked.get(k) != v:
            return ("track", k)
    return _act(event, tracked)


def hand_rule(world, event, tracked):
    """The best rule by hand: keep the channel (it saves a ``whoami`` at every expiry), track
    nothing else."""
    if "products" in event.fields and "channel" not in tracked:
        return ("track", "channel")
    return _act(event, tracked)
