"""Rule-based automation for the invoices world: the teachers a policy learns from.

Both decide from what a policy can see, the last event and what the episode's ``track``
actions put in Belief (``tracked``), never from the world's hidden state, so a network can
imitate them exactly.

- :func:`lean` uses the workspace only when it pays: it keeps the API version announcement
  (one ``track``), which saves a refused payment per invoice for the rest of the task.
  Everything else it redoes from the queue: after a rate limit or a hold it waits and lists
  the queue again.
- :func:`track_everything` is the habit of a transcript-style harness: before acting on an
  event it tracks each of its fields that Belief does not hold yet, then acts as ``lean``.
"""

from __future__ import annotations


def lean(world, event, tracked):
    f = event.fields
    if "api" in f and tracked.get("api") != f["api"]:
        return ("track", "api")
    return _act(event, tracked)


def _act(event, tracked):
    f, kind = event.fields, event.kind
    if kind == "error":
        code = f.get("code")
        if code == "NO_MATCH":
            return ("call", "flag", f["inv"])             # disputed: manual review
        if f.get("hold"):
            return ("call", "flag", f["inv"])             # try review; NOT_FLAGGABLE says wait
        if code == "API_V2":
            return ("call", "pay", f["inv"])              # the new API takes the invoice
        return ("call", "wait")                           # RETRY_LATER, NOT_FLAGGABLE, ...
    if f.get("done"):
        return ("finish", True)
    if "ref" in f:                                        # a matched payment
        if tracked.get("api") == 2:
            return ("call", "pay", f["inv"])
        return ("call", "pay", f["ref"])
    if "inv" in f and "left" in f and "paid" not in f and "flagged" not in f:
        return ("call", "match_payment", f["inv"])       # the queue's next invoice
    return ("call", "list_invoices")                      # start, paid, flagged, waited


def track_everything(world, event, tracked):
    for k, v in event.fields.items():
        if tracked.get(k) != v:
            return ("track", k)
    return _act(event, tracked)
