"""What the episodes a v3 policy did not finish were doing at the end (examples/train/README.md,
"v3: one policy for every deployment"): reads a trace of `evoharness eval --trace`, splits it
into episodes (a restart after a crash continues its episode), and for each episode that never
called `finish` prints its deployment card and the loop it ended in: the kinds of steps of its
last 30 (world calls by tool: fetch, land, wait, remedy; harness actions by verb). With the
run's `--json` output it also says how many failed episodes did finish (claiming a success
the world did not see).

    evoharness eval --scenario v3 --task migration --agent policy:examples/policies/deployments.onnx \\
        --organisations 3000..3100 --seeds 3000000..3000800 --horizon 100 \\
        --trace trace.jsonl --json > eval.json
    python examples/train/v3/failures.py trace.jsonl eval.json
"""

from __future__ import annotations

import json
import sys
from collections import Counter

TOOLS = {0: "fetch", 1: "land", 2: "land", 3: "wait", 4: "remedy", 5: "remedy", 6: "remedy",
         7: "special"}


def kind(step: dict) -> str:
    verb, body = next(iter(step["action"].items()))
    if verb == "Act":
        return TOOLS.get(body["tool"], "act")
    return f"{verb}.{next(iter(body))}" if isinstance(body, dict) else verb


def episodes(path: str) -> list[dict]:
    out = []
    for line in open(path):
        r = json.loads(line)
        begin = r.get("begin")
        fields = {f["key"]: next(iter(f["value"].values())) for f in begin["event"]["fields"]} \
            if begin else {}
        if "model" in fields:  # a task's first event carries the card; a restart's does not
            out.append({"card": fields, "steps": []})
        out[-1]["steps"].append(r)
    return out


def main(trace: str, report: str | None = None) -> int:
    eps = episodes(trace)
    unfinished = [e for e in eps if not any("Finish" in s["action"] for s in e["steps"])]
    loops = Counter()
    for e in unfinished:
        loops[" / ".join(sorted({kind(s) for s in e["steps"][-30:]}))] += 1
    models = Counter(e["card"]["model"] for e in unfinished)
    print(f"{len(eps)} episodes, {len(unfinished)} never finished "
          f"({', '.join(f'{n} with a {m} model' for m, n in models.items())})")
    for loop, n in loops.most_common():
        print(f"  {n:3d}  {loop}")
    if report:
        r = json.load(open(report))
        failed = round((1 - r["success_rate"]) * r["episodes"])
        print(f"{failed} failed in the report: {failed - len(unfinished)} of them finished, "
              "claiming a success the world did not see")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
