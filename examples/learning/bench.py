#!/usr/bin/env python3
"""The bench of worlds for learning: on every world, the teacher a team would write and the
best rule we could write by hand (kept out of training), on seeds no training uses, paired over
the same seeds.

    examples/learning/run.sh table [--seeds A..B] [--only NAME,...] [--readme] [--check] [--json]
    examples/learning/run.sh table --policies DIR [--readme]   # + the policies DIR/NAME.onnx

Python worlds run through :func:`evoharness.evaluate.evaluate` (``python -m evoharness.evaluate
--agent HAND --against TEACHER``); the suite's tasks, which that command does not take, run on
the package's suite ``VecEnv`` with its rule-based teachers, one environment per seed, on
organisations no training or validation uses, and are paired by the same function
(:func:`evoharness.evaluate.paired`). ``--readme`` writes the table into ``README.md`` between
its markers; ``--check`` exits 1 unless, on every world, the teacher succeeds in at least 95%
of the episodes, the hand rule in at least 95%, and the hand rule's paired gain over the
teacher has a 95% interval above zero.

``--policies DIR`` also evaluates, on the Python worlds, the policy ``DIR/NAME.onnx`` that
``python -m evoharness.train`` wrote for each (``run.sh train NAME --out DIR/NAME.onnx``),
through the embedded agent on the same seeds, paired with the teacher, beside the hand rule's
gain: the policy's table, with the training time from its record ``DIR/NAME.json``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import numpy as np

from evoharness.evaluate import evaluate, paired, parse_seeds
from evoharness.figures import summary

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
README = HERE / "README.md"
BEGIN, END = "<!-- bench-table:begin -->", "<!-- bench-table:end -->"
POLICY_BEGIN, POLICY_END = "<!-- policy-table:begin -->", "<!-- policy-table:end -->"
#: The suite's held-out organisations (training uses 0-63, validation 5000-5015), as
#: `examples/train/train.py` evaluates on, and its horizon (`python -m evoharness.train --suite`'s
#: default).
SUITE_ORGANISATIONS = range(10_000, 10_016)
SUITE_HORIZON = 250


def _world(file: str, cls: str, teacher: str, hand: str, shape: str) -> dict:
    """A Python world of the bench: ``file`` (from the repository's root) and the names in it."""
    return {"kind": "world", "file": file, "class": cls, "teacher": teacher, "hand": hand,
            "shape": shape}


#: name -> what the bench runs; `shape` is the README's one-line description.
BENCH = {
    "migration": {"kind": "suite", "task": "migration", "teacher": "static", "hand": "lean",
                  "shape": "suite v1, 8 tools; teacher: the static (transcript-style) harness"},
    "records": {"kind": "suite", "task": "records", "teacher": "static", "hand": "lean",
                "shape": "suite v1, 8 tools; teacher: the static harness"},
    "orchestration": {"kind": "suite", "task": "orchestration", "teacher": "static", "hand": "lean",
                      "shape": "suite v1, 8 tools; teacher: the static harness"},
    "invoices": _world("examples/workflows/invoices/world.py", "Invoices", "track_everything",
                       "lean",
                       "6 tools, rate limits, holds, a drift announced once"),
    "catalog": _world("examples/learning/catalog.py", "Catalog", "track_everything", "hand_rule",
                      "5 tools, session expiry; (a) tracks everything, one track pays"),
    "incidents": _world("examples/learning/incidents.py", "Incidents", "runbook", "hand_rule",
                        "6 tools, hidden remedies, cooldowns; (b) no memory, remedies recur"),
    "rollout": _world("examples/learning/rollout.py", "Rollout", "check_every_host", "hand_rule",
                      "3 tools, silent failures; (c) right on bare, wasteful on managed (card)"),
    "consumer": _world("examples/learning/consumer.py", "Consumer", "never_commit", "hand_rule",
                       "4 tools, process restarts; (d) never commits its offset"),
}

def suite_rows(task: str, teacher: str, seeds: range) -> list[dict]:
    """One suite episode per seed (environment i runs seed `seeds.start + i`), by a teacher."""
    from evoharness import VecEnv

    rows = []
    n = 16
    for start in range(0, len(seeds), n):
        chunk = seeds[start: start + n]
        env = VecEnv(task, SUITE_HORIZON, len(chunk), SUITE_ORGANISATIONS, chunk[0])
        try:
            got: dict[int, dict] = {}
            while len(got) < len(chunk):
                done = env.step(env.teacher_actions(teacher))[3]
                for i in np.flatnonzero(done):
                    got.setdefault(int(i), env.last_episode(int(i)))
            rows += [got[i] for i in range(len(chunk))]
        finally:
            env.close()
    return rows


def _figures(rows: list[dict]) -> dict:
    s = summary([{"success": r["success"], "reward": r["reward"], "harness": r["harness_actions"],
                  "world": r["world_actions"], "steps": r["steps"], "cost": r["cost"],
                  "violations": r.get("violations", r.get("integrity_violations", 0))}
                 for r in rows])
    return {"success_rate": s["success_rate"], "mean_reward": s["mean_reward"],
            "reward_se": s["reward_se"], "mean_harness_actions": s["mean_harness_actions"],
            "mean_world_actions": s["mean_world_actions"]}


def _keep(r: dict) -> dict:
    return {k: r[k] for k in ("success_rate", "mean_reward", "reward_se",
                              "mean_harness_actions", "mean_world_actions")}


def run(name: str, seeds: range) -> dict:
    b = BENCH[name]
    t0 = time.time()
    if b["kind"] == "suite":
        teacher = suite_rows(b["task"], b["teacher"], seeds)
        hand = suite_rows(b["task"], b["hand"], seeds)
        t, h = _figures(teacher), _figures(hand)
        p = paired(hand, teacher, b["teacher"])
    else:
        path = ROOT / b["file"]
        # The teacher and the hand rule of the invoices example live beside its world.
        rules = path.with_name("teacher.py") if b["file"].endswith("/world.py") else path
        world, teacher, hand = (f"{path}:{b['class']}", f"teacher:{rules}:{b['teacher']}",
                                f"teacher:{rules}:{b['hand']}")
        t = _keep(evaluate(world, teacher, seeds))
        r = evaluate(world, hand, seeds, against=teacher)
        h, p = _keep(r), r["paired"]
    return {"name": name, "shape": b["shape"], "teacher": t, "hand": h,
            "gain": p["mean_reward_gain"], "gain_low": p["low"], "gain_high": p["high"],
            "better": p["better"], "worse": p["worse"], "same": p["same"],
            "seconds": round(time.time() - t0, 1)}


def policy_row(name: str, seeds: range, policies: pathlib.Path) -> dict | None:
    """The policy ``policies/NAME.onnx`` on a Python world of the bench, paired with the
    teacher on ``seeds`` (None where there is no such file)."""
    b = BENCH[name]
    policy = policies / f"{name}.onnx"
    if b["kind"] != "world" or not policy.is_file():
        return None
    path = ROOT / b["file"]
    rules = path.with_name("teacher.py") if b["file"].endswith("/world.py") else path
    r = evaluate(f"{path}:{b['class']}", f"policy:{policy}", seeds,
                 against=f"teacher:{rules}:{b['teacher']}")
    record = json.loads(policy.with_suffix(".json").read_text())
    p = r["paired"]
    return {"name": name, "policy": _keep(r), "gain": p["mean_reward_gain"], "gain_low": p["low"],
            "gain_high": p["high"], "better": p["better"], "worse": p["worse"],
            "same": p["same"], "train_s": record["stage1_s"] + record["stage2_s"],
            "selected": record["selected"]["checkpoint"]}


def policy_table(prows: list[dict], rows: list[dict], seeds: range) -> str:
    hand = {r["name"]: r for r in rows}
    out = [f"The plain `python -m evoharness.train --world W --teacher T` (`run.sh train NAME`), "
           f"held-out seeds {seeds.start:,}..{seeds.stop:,} through the embedded agent: the "
           "policy's figures and its reward gain over the teacher, paired, with its 95% "
           "interval; the share is that gain over the hand rule's (the bar: two thirds); the "
           "training time is both stages' wall clock.",
           "",
           "| world | policy: success | reward | harness | world | gain over the teacher [95% "
           "interval] | better / worse / same | hand rule's gain | share | trained in | stage 2 |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in prows:
        p, h = r["policy"], hand[r["name"]]
        share = r["gain"] / h["gain"] if h["gain"] > 0 else float("nan")
        kept = "imitation kept" if r["selected"][0] in ("dagger", "bc", "init") else \
            f"{r['selected'][0]} {r['selected'][1]}"
        out.append(
            f"| {r['name']} | {100 * p['success_rate']:.1f}% | {p['mean_reward']:.4f} "
            f"| {p['mean_harness_actions']:.2f} | {p['mean_world_actions']:.2f} "
            f"| {r['gain']:+.4f} [{r['gain_low']:+.4f}, {r['gain_high']:+.4f}] "
            f"| {r['better']} / {r['worse']} / {r['same']} | {h['gain']:+.4f} | {share:.2f} "
            f"| {r['train_s'] / 60:.1f} min | {kept} |")
    return "\n".join(out)


def table(rows: list[dict], seeds: range) -> str:
    out = [f"Held-out seeds {seeds.start:,}..{seeds.stop:,} ({len(seeds)} episodes per agent and "
           f"world; the suite's on organisations {SUITE_ORGANISATIONS.start:,}–"
           f"{SUITE_ORGANISATIONS.stop - 1:,}, horizon {SUITE_HORIZON}). Success, mean reward, "
           "harness and world actions per episode; the gain is the hand rule's reward minus the "
           "teacher's, paired episode by episode, with its 95% interval (better / worse / same "
           "episodes).",
           "",
           "| world | teacher: success | reward | harness | world | hand rule: success | reward "
           "| harness | world | gain of the hand rule [95% interval] | better / worse / same |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        t, h = r["teacher"], r["hand"]
        out.append(
            f"| {r['name']} | {100 * t['success_rate']:.1f}% | {t['mean_reward']:.4f} "
            f"| {t['mean_harness_actions']:.2f} | {t['mean_world_actions']:.2f} "
            f"| {100 * h['success_rate']:.1f}% | {h['mean_reward']:.4f} "
            f"| {h['mean_harness_actions']:.2f} | {h['mean_world_actions']:.2f} "
            f"| {r['gain']:+.4f} [{r['gain_low']:+.4f}, {r['gain_high']:+.4f}] "
            f"| {r['better']} / {r['worse']} / {r['same']} |")
    return "\n".join(out)


def write_readme(text: str, begin: str = BEGIN, end: str = END) -> None:
    doc = README.read_text()
    a, b = doc.index(begin) + len(begin), doc.index(end)
    README.write_text(doc[:a] + "\n" + text + "\n" + doc[b:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1000000..1000500", help="held-out seeds A..B")
    ap.add_argument("--only", help="NAME[,NAME...]: these worlds only (" + ", ".join(BENCH) + ")")
    ap.add_argument("--readme", action="store_true", help="write the table into README.md")
    ap.add_argument("--check", action="store_true", help="exit 1 when a world misses its bars")
    ap.add_argument("--json", action="store_true", help="one JSON object per world")
    ap.add_argument("--policies", type=pathlib.Path,
                    help="DIR: also the policies DIR/NAME.onnx trained on the Python worlds")
    args = ap.parse_args()
    seeds = parse_seeds(args.seeds)
    names = args.only.split(",") if args.only else list(BENCH)
    bad = [n for n in names if n not in BENCH]
    if bad:
        ap.error(f"no bench world {bad[0]!r}: {', '.join(BENCH)}")
    t0 = time.time()
    rows = []
    for n in names:
        rows.append(run(n, seeds))
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
        else:
            print(f"{n}: {rows[-1]['seconds']} s", file=sys.stderr, flush=True)
    text = table(rows, seeds)
    prows = [r for n in names if args.policies
             for r in [policy_row(n, seeds, args.policies)] if r is not None]
    ptext = policy_table(prows, rows, seeds) if prows else ""
    if args.json:
        for r in prows:
            print(json.dumps(r), flush=True)
    else:
        print(text)
        if ptext:
            print("\n" + ptext)
    print(f"the bench took {time.time() - t0:.0f} s", file=sys.stderr)
    if args.readme:
        if names != list(BENCH):
            ap.error("--readme writes the whole bench's table: leave out --only")
        write_readme(text)
        if ptext:
            write_readme(ptext, POLICY_BEGIN, POLICY_END)
    if args.check:
        misses = []
        for r in rows:
            if r["teacher"]["success_rate"] < 0.95:
                misses.append(f"{r['name']}: the teacher succeeds in "
                              f"{100 * r['teacher']['success_rate']:.1f}% < 95%")
            if r["hand"]["success_rate"] < 0.95:
                misses.append(f"{r['name']}: the hand rule succeeds in "
                              f"{100 * r['hand']['success_rate']:.1f}% < 95%")
            if not r["gain_low"] > 0:
                misses.append(f"{r['name']}: the hand rule's gain {r['gain']:+.4f} has a 95% "
                              f"interval reaching {r['gain_low']:+.4f}")
        if misses:
            print("below the bar: " + "; ".join(misses), file=sys.stderr)
            return 1
        print("every bench world meets its bars", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
