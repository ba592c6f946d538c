"""Invoice-to-payment reconciliation: a world for evoharness, written in plain Python.

The agent settles every open invoice of an accounts-payable queue, then finishes:

- ``list_invoices()`` shows one open invoice at a time (``{inv, left}``), or ``{done: True}``:
  the queue is only partly observable, one item per call.
- ``match_payment(inv)`` finds the bank payment for it (``{inv, ref, amount}``), or says it has
  none (an error ``NO_MATCH``): a disputed invoice, which must be flagged, never paid.
- ``pay(ref)`` pays it (``{paid, left}``). Some invoices are on hold: the error names a hold
  code of the organisation and its remedy depends on the organisation, which the agent does not
  see: in some the hold is lifted by ``flag(inv)`` (manual review settles the invoice), in the
  others ``flag`` is refused and a ``wait`` lifts the hold before paying again.
- ``get_invoice(inv)`` shows vendor and currency (never needed to settle).
- ``flag(inv)`` sends an invoice to manual review; ``wait()`` waits out a rate limit or a hold.
- The API is rate-limited: any call may answer ``RETRY_LATER`` (and do nothing); every call
  after it does the same until the agent waits.
- Drift, once per task: after some invoices the payments API moves to version 2, announced by a
  field ``api: 2`` on one event only. From then on ``pay`` takes the invoice number, not the
  payment reference; a reference is refused (``API_V2``), which costs a call per invoice to an
  agent that did not keep the announcement.

Paying an invoice twice is an integrity violation. Success: every invoice settled the right way
(disputed ones flagged, the others paid, or flagged where the organisation's hold remedy is
review), no violation, and the agent finished claiming success.

Everything is a function of the seed: the organisation is ``seed % ORGANISATIONS``.
"""

from __future__ import annotations

import random

from evoharness import Event

TOOLS = ["list_invoices", "get_invoice", "match_payment", "pay", "flag", "wait"]
ORGANISATIONS = 50
#: Per API call, the chance of a "retry later".
RATE_LIMIT = 0.08
HOLD, DISPUTED = 0.3, 0.2


def organisation(org: int) -> tuple[str, str]:
    """An organisation's hold code and the remedy that lifts it (``flag`` or ``wait``)."""
    r = random.Random(7_919 * org + 1)
    return f"H{r.randrange(100, 1000)}", r.choice(["flag", "wait"])


class Invoices:
    """One reconciliation task per seed."""

    tools = TOOLS
    #: Defaults for training and evaluation (the command line can override the budget).
    budget = 80
    capacities = {"facts": 16, "steps": 4, "lessons": 2}

    def reset(self, seed: int) -> Event:
        r = random.Random(seed)
        self.rng = random.Random(seed ^ 0x5EED)
        self.org = seed % ORGANISATIONS
        self.hold_code, self.hold_remedy = organisation(self.org)
        n = r.randrange(3, 6)
        ids = r.sample(range(1000, 10000), n)
        self.invoices = []
        for inv in ids:
            x = r.random()
            self.invoices.append({
                "inv": inv, "ref": r.randrange(500_000, 1_000_000), "amount": r.randrange(20, 5000),
                "disputed": x < DISPUTED, "hold": DISPUTED <= x < DISPUTED + HOLD,
                "vendor": r.choice(["acme", "globex", "initech", "umbrella"]),
                "state": "open",  # open, paid, flagged
            })
        self.api = 1
        self.drift_after = r.randrange(1, n)  # settled invoices before the API moves
        self.announced = False
        self.limited = False
        self.violations = 0
        return Event.notice(invoices=n, org=self.org)

    # --- helpers -------------------------------------------------------------------------
    def _open(self):
        return [x for x in self.invoices if x["state"] == "open"]

    def _find(self, key, value):
        return next((x for x in self.invoices if x[key] == value), None)

    def _settled(self) -> int:
        return sum(x["state"] != "open" for x in self.invoices)

    def _event(self, ev: Event) -> Event:
        if self.api == 2 and not self.announced:
            self.announced = True
            ev.fields["api"] = 2
        return ev

    # --- tools ---------------------------------------------------------------------------
    def call(self, tool: str, args: list) -> Event:
        if tool == "wait":
            self.limited = False
            if self.hold_remedy == "wait":
                for x in self.invoices:
                    if x["hold"] and x.get("held"):
                        x["hold"] = False  # a hold the agent ran into lifts with time
            return self._event(Event.result(waited=True))
        if self.limited or self.rng.random() < RATE_LIMIT:
            self.limited = True
            return self._event(Event.error(code="RETRY_LATER", retry_in=1))
        arg = args[0] if args else None
        if tool == "list_invoices":
            open_ = self._open()
            if not open_:
                return self._event(Event.result(done=True))
            return self._event(Event.result(inv=open_[0]["inv"], left=len(open_)))
        x = self._find("inv", arg) if isinstance(arg, int) else None
        if tool == "get_invoice":
            if x is None:
                return self._event(Event.error(code="UNKNOWN_INVOICE"))
            return self._event(Event.result(inv=x["inv"], vendor=x["vendor"], amount=x["amount"],
                                            currency="EUR"))
        if tool == "match_payment":
            if x is None or x["state"] != "open":
                return self._event(Event.error(code="UNKNOWN_INVOICE"))
            if x["disputed"]:
                return self._event(Event.error(code="NO_MATCH", inv=x["inv"]))
            return self._event(Event.result(inv=x["inv"], ref=x["ref"], amount=x["amount"]))
        if tool == "flag":
            if x is None or x["state"] != "open":
                return self._event(Event.error(code="UNKNOWN_INVOICE"))
            if x["disputed"] or (x["hold"] and self.hold_remedy == "flag"):
                x["state"] = "flagged"
                self._drift()
                return self._event(Event.result(flagged=x["inv"], left=len(self._open())))
            return self._event(Event.error(code="NOT_FLAGGABLE", inv=x["inv"]))
        if tool == "pay":
            if self.api == 2:
                y = x
                if y is None and self._find("ref", arg) is not None:
                    return self._event(Event.error(code="API_V2", inv=self._find("ref", arg)["inv"]))
            else:
                y = self._find("ref", arg) if isinstance(arg, int) else None
            if y is None:
                return self._event(Event.error(code="UNKNOWN_REF"))
            if y["state"] != "open":
                self.violations += 1  # paid twice, or paid a flagged one
                return self._event(Event.error(code="ALREADY_SETTLED", inv=y["inv"]))
            if y["disputed"]:
                self.violations += 1  # paying a disputed invoice damages the books
                y["state"] = "paid"
                return self._event(Event.result(paid=y["inv"], left=len(self._open())))
            if y["hold"]:
                y["held"] = True
                return self._event(Event.error(code=self.hold_code, inv=y["inv"], hold=True))
            y["state"] = "paid"
            self._drift()
            return self._event(Event.result(paid=y["inv"], left=len(self._open())))
        raise ValueError(f"no tool {tool!r}")

    def _drift(self):
        if self.api == 1 and self._settled() >= self.drift_after:
            self.api = 2

    def judge(self, finished):
        # Disputed invoices and (where review is the remedy) held ones are flagged; the rest paid.
        right = all(x["state"] == ("flagged" if x["disputed"] or
                                   (x["hold"] and self.hold_remedy == "flag") else "paid")
                    for x in self.invoices)
        return {"success": finished is True and right and self.violations == 0
                and not self._open(),
                "violations": self.violations, "settled": self._settled(),
                "invoices": len(self.invoices)}
