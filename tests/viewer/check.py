"""The trace viewer in a real browser (headless Chromium through DevTools): the page of
`evoharness view` loads with no console error, shows the trace's counts of world and harness
actions, shows at each slider position the workspace the trace holds for that step, lists a
malformed and a truncated line by number while showing the rest, and `--follow` shows steps
appended to a trace while the page is open.

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
    viewer; the workspace after each step from the parts the lines carry."""
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
            episodes.append({"first": len(steps), "count": 0, "ended": False, "start": dict(ws), "steps0": b["steps"] if b else r["step"] - 1})
        else:
            ws = dict(steps[-1]["ws"])
        for p in PARTS:
            if p in r:
                ws[p] = r[p]
        steps.append({"step": r["step"], "verb": verb, "ws": ws})
        episodes[-1]["count"] += 1
        episodes[-1]["ended"] = "end" in r
    return steps, episodes, bad


def counts(steps):
    n = [0] * 6
    for s in steps:
        n[s["verb"]] += 1
    return {"steps": len(steps), "world": n[0], "harness": sum(n[1:5]), "track": n[1],
            "commit": n[2], "recall": n[3], "note": n[4], "finish": n[5]}


SHOWN = """(() => {
  const rows = sel => [...document.querySelectorAll(sel)].map(tr => [...tr.cells].map(td => td.textContent));
  const c = {};
  for (const k of ["steps", "world", "harness", "track", "commit", "recall", "note", "finish", "bad"])
    c[k] = +document.getElementById("count-" + k).textContent;
  return {counts: c, label: document.getElementById("step-label").textContent,
    belief: rows("#belief tbody tr"), progress: rows("#progress tbody tr"), experience: rows("#experience tbody tr"),
    event: rows("#event tbody tr"), eventKind: (document.getElementById("event-head") || {dataset: {}}).dataset.kind || null,
    bad: document.getElementById("bad").textContent};
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


def check_workspace(shown, ws, where):
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
        want = [[str(k), val(l["trigger"]), val(l["remedy"]), str(l["helpful"]), str(l["harmful"]), str(l["uses"])]
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
        positions += [(k, p) for p in sorted(x for x in picks if 0 <= x <= ep["count"])]
    for k, p in positions:
        ep = episodes[k]
        shown = move_slider(b, k, p)
        where = f"{name}: episode {k + 1}, position {p}"
        problems += check_workspace(shown, expected_ws(steps, ep, p), where)
        if p > 0:
            task_step = ep["steps0"] + p
            if not shown["label"].startswith(f"task step {task_step} of"):
                problems.append(f"{where}: the step label says {shown['label']!r}, expected task step {task_step}")
    print(f"{name}: {len(positions)} slider positions compared with the trace", flush=True)
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the evoharness tool")
    ap.add_argument("--trace", help="a trace of several episodes to check the page on")
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
            subprocess.run([a.bin, "view", a.time, "-o", str(page)], check=True)
            made = time.time() - t0
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
