"""The trace viewer in a real browser (headless Chromium through DevTools): the page of
`evoharness view` loads with no console error, shows the trace's counts of world and harness
actions, shows at each slider position the workspace the trace holds for that step, the step's
numbers as its record gives them (also after a cut line) and its action in words, lists a
malformed and a truncated line by number while showing the rest, marks the steps at which the
world's count of violations rose (and says when a trace does not carry the count), and
`--follow` shows steps appended to a trace while the page is open, staying with the newest step
across episodes until the user picks another, and saying so.

    python3 tests/viewer/check.py --bin target/debug/evoharness --trace T.jsonl --out DIR
    python3 tests/viewer/check.py --bin ... --time BIG.jsonl --out DIR   # open time of a page

Everything it writes (pages, traces, screenshots) goes to --out, outside the repository.
"""

import argparse
import http.client
import json
import pathlib
import random
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from cdp import Browser  # noqa: E402

VERBS = ["Act", "Track", "Commit", "Recall", "Note", "Finish"]
PARTS = ["event", "belief", "progress", "experience"]


def val(v):
    """A core Value in serde's JSON form as the page shows it."""
    if v is None:
        return ""
    if not isinstance(v, dict):
        return str(v).lower() if isinstance(v, bool) else str(v)
    (k, x), = v.items()
    if k == "Bool":
        return "true" if x else "false"
    if k in ("Int", "Float", "Text"):
        return str(x)
    if k == "Bytes":
        return "0x" + "".join(f"{b & 255:02x}" for b in x)
    return json.dumps(v)


def read_trace(path):
    """Steps, episodes (first index, steps) and bad line numbers, read independently of the
    viewer; the workspace before and after each step from the parts the lines carry."""
    steps, episodes, bad = [], [], []
    for n, line in enumerate(pathlib.Path(path).read_text(errors="replace").split("\n"), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            verb = VERBS.index(next(iter(r["action"])))
        except (ValueError, KeyError, StopIteration, TypeError):
            bad.append(n)
            continue
        last = episodes[-1] if episodes else None
        if last is None or "begin" in r or last["ended"] or r["step"] <= steps[-1]["step"]:
            b = r.get("begin")
            ws = {p: (b.get(p) if b else None) for p in PARTS} if b else {p: None for p in PARTS}
            episodes.append({"first": len(steps), "count": 0, "ended": False, "start": dict(ws),
                             "steps0": b["steps"] if b else r["step"] - 1,
                             "tools": (b.get("tools") or []) if b else [],
                             "violations": b.get("violations") if b else None, "rises": []})
        else:
            ws = dict(steps[-1]["ws"])
        before = dict(ws)
        for p in PARTS:
            if p in r:
                ws[p] = r[p]
        ep = episodes[-1]
        if "violations" in r:
            if ep["violations"] is not None and r["violations"] > ep["violations"]:
                ep["rises"].append(ep["count"] + 1)
            ep["violations"] = r["violations"]
        steps.append({"step": r["step"], "line": n, "verb": verb, "ws": ws, "before": before,
                      "action": r["action"], "outcome": r["outcome"], "end": r.get("end")})
        ep["count"] += 1
        ep["ended"] = "end" in r
    return steps, episodes, bad


def counts(steps):
    n = [0] * 6
    for s in steps:
        n[s["verb"]] += 1
    return {"steps": len(steps), "world": n[0], "harness": sum(n[1:5]), "track": n[1],
            "commit": n[2], "recall": n[3], "note": n[4], "finish": n[5]}


def tool(ep, t):
    tools = ep["tools"]
    return tools[t] if t < len(tools) and tools[t] else f"tool {t}"


def remedy(ep, r):
    """A lesson's remedy as the page names it: a tool's index is the tool."""
    if isinstance(r, dict) and "Int" in r and 0 <= r["Int"] < len(ep["tools"]) and ep["tools"][r["Int"]]:
        return ep["tools"][r["Int"]]
    return val(r)


def lesson(ep, l):
    return f"when {val(l['trigger'])} \u2192 {remedy(ep, l['remedy'])} (helpful {l['helpful']}, harmful {l['harmful']})"


def words(ep, s):
    """What the page should say a step did, for world actions, facts set and lessons noted
    (None for other actions): tool names, argument values, the world's answer."""
    (verb, x), = s["action"].items()
    (ov, y), = s["outcome"].items() if isinstance(s["outcome"], dict) else [(s["outcome"], None)]
    ev_before = s["before"]["event"]
    if verb == "Act" and ov == "Call":
        args = []
        for k, a in enumerate(x["args"]):
            if isinstance(a, dict) and "Field" in a and ev_before and a["Field"] < len(ev_before["fields"]):
                args.append(f"{ev_before['fields'][a['Field']]['key']} {val(y['args'][k])}")
            else:
                return None
        ev = s["ws"]["event"]
        f = {q["key"]: val(q["value"]) for q in ev["fields"]}
        kv = ", ".join(f"{q['key']} {val(q['value'])}" for q in ev["fields"][:3])
        if ev["kind"] == "Error":
            said = " ".join(x for x in [f.get("error", "error"), f.get("code")] if x is not None)
        else:
            said = f"notice: {kv}" if ev["kind"] == "Notice" else kv or "ok"
        return f"{tool(ep, x['tool'])}({', '.join(args)}) \u2192 {said}"
    if verb == "Track" and "Set" in x and ov == "Tracked":
        fact = s["ws"]["belief"][y["slot"]]
        return f"track: {fact['key']} = {val(fact['value'])} ({ {'Created': 'new', 'Revised': 'revised'}[y['change']] })"
    if verb == "Note" and "Add" in x and ov == "Noted":
        l = s["ws"]["experience"][y["slot"]]
        return f"note: {lesson(ep, l)}, " + (f"merged into lesson {y['slot']}" if y["merged"] else f"new lesson {y['slot']}")
    return None


SHOWN = """(() => {
  const rows = sel => [...document.querySelectorAll(sel)].map(tr => [...tr.cells].map(td => td.textContent));
  const c = {};
  for (const k of ["steps", "world", "harness", "track", "commit", "recall", "note", "finish", "bad"])
    c[k] = +document.getElementById("count-" + k).textContent;
  return {counts: c, label: document.getElementById("step-label").textContent,
    belief: rows("#belief tbody tr"), progress: rows("#progress tbody tr"), experience: rows("#experience tbody tr"),
    event: rows("#event tbody tr"), eventKind: (document.getElementById("event-head") || {dataset: {}}).dataset.kind || null,
    bad: document.getElementById("bad").textContent, detail: document.getElementById("step-detail").textContent,
    what: (document.getElementById("step-what") || {}).textContent || null,
    lessons: [...document.querySelectorAll("#lessons li")].map(li => li.textContent),
    title: document.getElementById("ep-title").textContent, summary: document.getElementById("ep-summary").textContent,
    where: document.getElementById("where").textContent, follow: document.getElementById("follow-state").textContent,
    following: document.body.dataset.following, pos: pos, view: view, count: T.episodes.length ? T.episodes[ep].count : 0,
    violationSteps: T.episodes.length ? T.flag.slice(T.episodes[ep].first, T.episodes[ep].first + T.episodes[ep].count).reduce((a, f, k) => (f & 4 ? a.concat([k + 1]) : a), []) : []};
})()"""


def move_slider(b, episode, position):
    """Chooses the episode by a click on its row, then moves the slider as a person does: its
    value changes and it fires `input`."""
    b.eval(f"""(() => {{
      document.querySelector('#episodes tr[data-ep="{episode}"]').click();
      const s = document.getElementById('slider'); s.value = {position};
      s.dispatchEvent(new Event('input', {{bubbles: true}}));
    }})()""")
    return b.eval(SHOWN)


def expected_ws(steps, ep, position):
    return ep["start"] if position == 0 else steps[ep["first"] + position - 1]["ws"]


def check_workspace(shown, ws, where, ep):
    problems = []
    if ws["belief"] is not None:
        want = [[f["key"], val(f["value"])] for f in ws["belief"]]
        got = [r[:2] for r in shown["belief"]]
        if got != want:
            problems.append(f"{where}: belief shows {got}, the trace has {want}")
    if ws["progress"] is not None:
        want = [[str(k), val(s["label"]), s["status"]] for k, s in enumerate(ws["progress"])]
        got = [r[:3] for r in shown["progress"]]
        if got != want:
            problems.append(f"{where}: progress shows {got}, the trace has {want}")
    if ws["experience"] is not None:
        want = [[str(k), val(l["trigger"]), remedy(ep, l["remedy"]), str(l["helpful"]), str(l["harmful"]), str(l["uses"])]
                for k, l in enumerate(ws["experience"])]
        got = [r[:6] for r in shown["experience"]]
        if got != want:
            problems.append(f"{where}: experience shows {got}, the trace has {want}")
    ev = ws["event"]
    if ev is not None:
        want = [[f["key"], val(f["value"])] for f in ev["fields"]]
        if shown["event"] != want or shown["eventKind"] != ev["kind"]:
            problems.append(f"{where}: event shows {shown['eventKind']} {shown['event']}, the trace has {ev['kind']} {want}")
    return problems


def check_page(b, trace, page, shots, name):
    steps, episodes, bad = read_trace(trace)
    t0 = time.time()
    b.open(page.resolve().as_uri())
    print(f"{name}: page open in {time.time() - t0:.2f} s", flush=True)
    problems = []
    shown = b.eval(SHOWN)
    want = counts(steps)
    want["bad"] = len(bad)
    if shown["counts"] != want:
        problems.append(f"{name}: counts shown {shown['counts']}, the trace has {want}")
    for n in bad:
        if f"line {n}:" not in shown["bad"]:
            problems.append(f"{name}: line {n} is malformed, and the page does not list it: {shown['bad']!r}")
    # In every episode: its ends, the first positions where a workspace part changed and the
    # ones after them, and two others.
    rng = random.Random(7)
    positions = []
    for k, ep in enumerate(episodes):
        changed = [p + 1 for p in range(ep["count"])
                   if steps[ep["first"] + p]["verb"] in (1, 2, 3, 4)]
        picks = {0, ep["count"]} | set(changed[:4]) | {p + 1 for p in changed[:2]}
        picks |= {rng.randint(0, ep["count"]) for _ in range(2)}
        # The steps right after a cut line: numbered as their records say.
        lines = [steps[ep["first"] + p]["line"] for p in range(ep["count"])]
        picks |= {p + 1 for p in range(1, ep["count"]) if lines[p] != lines[p - 1] + 1}
        positions += [(k, p) for p in sorted(x for x in picks if 0 <= x <= ep["count"])]
    said = 0
    for k, p in positions:
        ep = episodes[k]
        shown = move_slider(b, k, p)
        where = f"{name}: episode {k + 1}, position {p}"
        problems += check_workspace(shown, expected_ws(steps, ep, p), where, ep)
        if p > 0:
            s = steps[ep["first"] + p - 1]
            # The record's numbers, not the line's position: the same after a cut line.
            if not shown["label"].startswith(f"task step {s['step']} of"):
                problems.append(f"{where}: the step label says {shown['label']!r}, expected task step {s['step']}")
            if f"trace line {s['line']}" not in shown["detail"]:
                problems.append(f"{where}: the step is on trace line {s['line']}; the page says {shown['detail']!r}")
            w = words(ep, s)
            if w is not None:
                said += 1
                if shown["what"] != w:
                    problems.append(f"{where}: the step shows {shown['what']!r}, expected {w!r}")
    # The lessons list of each episode: task steps as the records number them, notes in words.
    for k, ep in enumerate(episodes):
        shown = move_slider(b, k, 0)
        want = []
        for p in range(ep["count"]):
            s = steps[ep["first"] + p]
            if s["verb"] in (3, 4):
                w = words(ep, s)
                want.append((f"task step {s['step']}: ", w))
        got = shown["lessons"][: len(want)]
        for (prefix, w), g in zip(want[:300], got):
            if not g.startswith(prefix) or (w is not None and g != prefix + w):
                problems.append(f"{name}: episode {k + 1}: the lessons list shows {g!r}, expected {prefix}{w or '...'}")
                break
    print(f"{name}: {len(positions)} slider positions compared with the trace ({said} actions in words)", flush=True)
    # The screenshot at an interesting step: the first harness action of the last episode.
    last = episodes[-1]
    first_harness = next((p + 1 for p in range(last["count"]) if steps[last["first"] + p]["verb"] in (1, 2, 3, 4)), 0)
    move_slider(b, len(episodes) - 1, first_harness)
    b.screenshot(shots / f"{name}.png")
    print(f"{name}: screenshot {shots / (name + '.png')}", flush=True)
    return problems


def check_follow(b, evoharness, trace, out):
    """`view --follow` on a trace that grows while the page is open."""
    lines = pathlib.Path(trace).read_text().splitlines(keepends=True)
    half = len(lines) // 2
    live = out / "live.jsonl"
    live.write_text("".join(lines[:half]))
    server = subprocess.Popen([evoharness, "view", str(live), "--follow", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    problems = []
    try:
        first = server.stdout.readline()
        url = first.split()[1]
        host, port = url.split("/")[2].split(":")
        b.open(url, ready="document.body.dataset.ready === '1' && +document.getElementById('count-steps').textContent > 0")
        shown = b.eval(SHOWN)
        if shown["counts"]["steps"] != half:
            problems.append(f"follow: {shown['counts']['steps']} steps shown, {half} written")
        # The rest, with a line cut in two writes in between: the page must not see half a line.
        with live.open("a") as f:
            cut = lines[half]
            f.write(cut[: len(cut) // 2])
            f.flush()
            time.sleep(1.5)
            f.write(cut[len(cut) // 2:])
            f.writelines(lines[half + 1:])
        want = counts(read_trace(live)[0])
        b.wait(f"+document.getElementById('count-steps').textContent === {want['steps']}", timeout=20)
        shown = b.eval(SHOWN)
        want["bad"] = 0
        if shown["counts"] != want:
            problems.append(f"follow: counts shown {shown['counts']}, the trace has {want}")
        # The server serves the page and the trace only, and only under its loopback name.
        for path, host_header, status in [("/", f"{host}:{port}", 200), ("/etc/passwd", f"{host}:{port}", 404),
                                          ("/", "attacker.example", 403)]:
            c = http.client.HTTPConnection(host, int(port), timeout=10)
            c.request("GET", path, headers={"Host": host_header})
            got = c.getresponse().status
            if got != status:
                problems.append(f"follow: GET {path} with Host {host_header} answered {got}, not {status}")
        print(f"follow: {half} steps at first, {want['steps']} after appending; both shown", flush=True)
    finally:
        server.terminate()
        server.wait(10)
    return problems


def append(path, lines):
    with path.open("a") as f:
        f.writelines(lines)


def check_live_episodes(b, evoharness, trace, out):
    """`view --follow` on a trace written across three episodes: the page stays with the newest
    step (title, summary, timeline, cursor) until the user picks another episode or step, says
    which it does, and shows where the failed episode went wrong. Screenshots of both."""
    lines = pathlib.Path(trace).read_text().splitlines(keepends=True)
    steps, episodes, bad = read_trace(trace)
    assert not bad and len(episodes) == 3, (bad, len(episodes))
    e1, e2, e3 = episodes
    cut = lambda ep, frac: ep["first"] + max(1, int(ep["count"] * frac))
    live = out / "live-episodes.jsonl"
    live.write_text("".join(lines[: cut(e1, 0.5)]))
    server = subprocess.Popen([evoharness, "view", str(live), "--follow", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    problems = []

    def grow(upto):
        append(live, lines[grow.at:upto])
        grow.at = upto
        b.wait(f"+document.getElementById('count-steps').textContent === {upto}", timeout=20)
        return b.eval(SHOWN)
    grow.at = cut(e1, 0.5)

    def newest(shown, where, k, n):
        """The page shows episode k (0-based) of n, at its newest step, following."""
        ep = episodes[k]
        count = grow.at - ep["first"] if k == n - 1 else ep["count"]
        last = steps[ep["first"] + count - 1]["step"]
        want = {"title": f"{k + 1} of {n}", "following": "1", "pos": count, "count": count}
        for key, v in want.items():
            if shown[key] != v:
                problems.append(f"live: {where}: {key} is {shown[key]!r}, expected {v!r}")
        if f"{count} steps traced" not in shown["summary"]:
            problems.append(f"live: {where}: the summary says {shown['summary']!r}, expected {count} steps traced")
        if not shown["label"].startswith(f"task step {last} of"):
            problems.append(f"live: {where}: the step label says {shown['label']!r}, expected the newest, task step {last}")
        if shown["view"][1] != count:
            problems.append(f"live: {where}: the timeline shows positions {shown['view']}, not the newest ({count})")
        if "Following the trace" not in shown["follow"]:
            problems.append(f"live: {where}: the page does not say it follows: {shown['follow']!r}")

    try:
        url = server.stdout.readline().split()[1]
        b.open(url, ready="document.body.dataset.ready === '1' && +document.getElementById('count-steps').textContent > 0")
        newest(b.eval(SHOWN), "half of episode 1", 0, 1)
        # Zoomed in while following; episode 1 ends and episode 2 begins.
        b.eval("view = [Math.floor(view[1] / 2), view[1]]; viewCount = view[1]; drawAll()")
        shown = grow(cut(e2, 0.3))
        newest(shown, "episode 2 begun", 1, 2)
        if shown["view"][0] != 0:
            problems.append(f"live: episode 2 begun: a new episode is shown whole, not {shown['view']}")
        # A zoomed window at the end moves with the newest step and keeps its width.
        b.eval("view = [view[1] - 10, view[1]]; viewCount = view[1]; drawAll()")
        shown = grow(cut(e2, 0.6))
        newest(shown, "episode 2 grown, zoomed", 1, 2)
        if shown["view"][1] - shown["view"][0] != 10:
            problems.append(f"live: episode 2 grown, zoomed: the window is {shown['view']}, not 10 steps wide")
        # The user picks episode 1: the page stays there while the trace goes on, and says so.
        b.eval("""document.querySelector('#episodes tr[data-ep="0"]').click()""")
        shown = grow(cut(e3, 0.5))
        if (shown["title"], shown["pos"], shown["following"]) != ("1 of 3", 0, "0"):
            problems.append(f"live: episode 1 picked: shows {shown['title']}, position {shown['pos']}, following {shown['following']}")
        if "Stopped at episode 1" not in shown["follow"] or "3 episodes" not in shown["follow"]:
            problems.append(f"live: episode 1 picked: the page says {shown['follow']!r}")
        b.eval("document.getElementById('follow-newest').click()")
        newest(b.eval(SHOWN), "following again", 2, 3)
        b.screenshot(out / "live-three-episodes.png")
        print(f"live: screenshot {out / 'live-three-episodes.png'}", flush=True)
        # The user picks a step of the newest episode: it stays while the episode grows.
        b.eval("(() => { const s = document.getElementById('slider'); s.value = 3; s.dispatchEvent(new Event('input')); })()")
        shown = grow(cut(e3, 0.8))
        want_label = f"task step {steps[e3['first'] + 2]['step']} of"
        if shown["pos"] != 3 or shown["following"] != "0" or not shown["label"].startswith(want_label):
            problems.append(f"live: step 3 picked: position {shown['pos']}, following {shown['following']}, label {shown['label']!r}")
        if "Stopped at episode 3" not in shown["follow"]:
            problems.append(f"live: step 3 picked: the page says {shown['follow']!r}")
        b.eval("document.getElementById('follow-newest').click()")
        # The rest: episode 3 fails. The newest step is its last; the page says where it went wrong.
        shown = grow(len(lines))
        newest(shown, "episode 3 ended", 2, 3)
        verdict = steps[e3["first"] + e3["count"] - 1]["end"]["verdict"]
        if verdict["success"] or not e3["rises"]:
            problems.append(f"live: the third episode of {trace} should fail with violations at steps: {verdict}, {e3['rises']}")
        if shown["violationSteps"] != e3["rises"]:
            problems.append(f"live: violations marked at positions {shown['violationSteps']}, the trace has them rise at {e3['rises']}")
        first = steps[e3["first"] + e3["rises"][0] - 1]["step"]
        wants = [f"It ended at task step {steps[-1]['step']}", "verdict: failure",
                 f"violations rose at task steps {first},"]
        if verdict["violations"] > e3["violations"]:
            wants.append(f"{e3['violations']} happened at the steps above; the other "
                         f"{verdict['violations'] - e3['violations']} ")
        for want in wants:
            if want not in shown["where"]:
                problems.append(f"live: the failed episode's account {shown['where']!r} lacks {want!r}")
        b.screenshot(out / "failed-episode.png")
        print(f"live: screenshot {out / 'failed-episode.png'}", flush=True)
        # A deep link: episode 2 at task step 5, not following.
        b.eval("location.hash = '#ep=2&step=5'")
        shown = b.wait("document.getElementById('ep-title').textContent === '2 of 3' && " + SHOWN)
        if not shown["label"].startswith("task step 5 of") or shown["following"] != "0":
            problems.append(f"live: #ep=2&step=5 shows {shown['title']} {shown['label']!r}, following {shown['following']}")
        print(f"live: {len(lines)} steps appended across 3 episodes; the page followed, stopped and followed again", flush=True)
    finally:
        server.terminate()
        server.wait(10)
    return problems


def check_violations_unknown(b, evoharness, trace, out):
    """A trace written before lines carried violation counts: the failed episode is shown, and
    the page says it cannot say where the violations happened."""
    older = out / "no-counts.jsonl"
    rows = []
    for line in pathlib.Path(trace).read_text().splitlines():
        r = json.loads(line)
        r.pop("violations", None)
        if "begin" in r:
            r["begin"].pop("violations", None)
        rows.append(json.dumps(r) + "\n")
    older.write_text("".join(rows))
    page = out / "no-counts.html"
    subprocess.run([evoharness, "view", str(older), "-o", str(page)], check=True, stdout=subprocess.DEVNULL)
    b.open(page.resolve().as_uri() + "#ep=3&step=1")
    shown = b.eval(SHOWN)
    problems = []
    if "does not say at which steps violations happened" not in shown["where"] or shown["violationSteps"]:
        problems.append(f"older trace: the page says {shown['where']!r}, marks {shown['violationSteps']}")
    print("older trace (no violation counts): shown, and the page says what it cannot say", flush=True)
    return problems


# What `view` may hold per step of a trace, in bytes of resident memory above what it holds for
# a three-line trace (cli/src/view/model.rs says what a step costs; about 225 bytes on the
# suite's traces).
RSS_PER_STEP = 400


def peak_rss(cmd):
    """The peak resident memory of a command, in bytes (its own process, measured by a fresh
    Python that runs it as its only child)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *cmd], check=True, capture_output=True, text=True).stdout
    return int(out) * 1024


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for line in f if line.strip())


def check_memory(evoharness, big, out):
    """`view -o` on a long trace holds at most RSS_PER_STEP bytes a step."""
    tiny = out / "tiny.jsonl"
    tiny.write_text("".join(pathlib.Path(big).read_text().splitlines(keepends=True)[:3]))
    base = peak_rss([evoharness, "view", str(tiny), "-o", str(out / "tiny.html")])
    peak = peak_rss([evoharness, "view", str(big), "-o", str(out / "big.html")])
    n = count_lines(big)
    per_step = (peak - base) / n
    print(f"memory: view -o holds {per_step:.0f} bytes a step ({n} steps: peak {peak / 1e6:.1f} MB, "
          f"{base / 1e6:.1f} MB for a 3-line trace)", flush=True)
    return [] if per_step <= RSS_PER_STEP else [f"memory: {per_step:.0f} bytes a step, more than {RSS_PER_STEP}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the evoharness tool")
    ap.add_argument("--trace", help="a trace of several episodes to check the page on")
    ap.add_argument("--failing", help="a trace of three episodes, the third failing with violations")
    ap.add_argument("--long", help="a trace of tens of thousands of steps, for view's memory")
    ap.add_argument("--time", help="only measure how long the page of this trace takes to open")
    ap.add_argument("--out", required=True, help="a folder for pages, traces and screenshots")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    b = Browser()
    problems = []
    try:
        if a.time:
            page = out / "timed.html"
            t0 = time.time()
            peak = peak_rss([a.bin, "view", a.time, "-o", str(page)])
            made = time.time() - t0
            n = count_lines(a.time)
            print(f"{a.time}: {n} steps; view -o peak resident memory {peak / 1e6:.0f} MB ({peak / n:.0f} bytes a step)")
            t0 = time.time()
            b.open(page.resolve().as_uri(), timeout=300)
            opened = time.time() - t0
            render = b.eval("+document.body.dataset.renderMs")
            print(f"{a.time}: page {page.stat().st_size / 1e6:.1f} MB made in {made:.1f} s; "
                  f"opened in {opened:.2f} s (script {render} ms after parsing)")
            t0 = time.time()
            b.eval("(() => { const s = document.getElementById('slider'); s.value = Math.floor(s.max / 2); s.dispatchEvent(new Event('input')); })()")
            print(f"slider to the middle: {1000 * (time.time() - t0):.0f} ms")
            b.screenshot(out / "timed.png")
            problems += [f"console: {e}" for e in b.errors]
        else:
            page = out / "report.html"
            subprocess.run([a.bin, "view", a.trace, "-o", str(page)], check=True)
            problems += check_page(b, a.trace, page, out, "report")
            # A malformed line and a cut-off last line: both listed, the rest shown.
            lines = pathlib.Path(a.trace).read_text().splitlines(keepends=True)
            lines[4] = '{"step": 5, "action": oops\n'
            lines[-1] = lines[-1][: len(lines[-1]) // 3]
            broken = out / "broken.jsonl"
            broken.write_text("".join(lines))
            page = out / "broken.html"
            subprocess.run([a.bin, "view", str(broken), "-o", str(page)], check=True)
            problems += check_page(b, broken, page, out, "broken")
            problems += check_follow(b, a.bin, a.trace, out)
            problems += check_live_episodes(b, a.bin, a.failing, out)
            problems += check_violations_unknown(b, a.bin, a.failing, out)
            problems += check_memory(a.bin, a.long, out)
            problems += [f"console: {e}" for e in b.errors]
    finally:
        b.close()
    for p in problems:
        print("FAIL:", p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print("viewer: all browser checks passed")


if __name__ == "__main__":
    main()
