"""What the base install runs, with no torch and no onnx (the ``train`` extra's packages):
``import evoharness``, ``python -m evoharness`` (the commands, one line each), and
``python -m evoharness.evaluate`` and ``record`` on a world written in Python. Each runs in a
subprocess in which importing torch, onnx or transformers fails, as in a venv without them."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("onnxruntime")  # the embedded agent's ONNX Runtime: a base dependency

from evoharness.__main__ import COMMANDS  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = HERE.parent / "evoharness"
INVOICES = HERE.parents[2] / "examples" / "workflows" / "invoices"
TICKETS = HERE / "worlds" / "tickets.py"

#: Runs ``sys.argv[1]`` as ``python -m`` would, after making the train extra's packages
#: unimportable (a meta path finder ahead of all others refuses them).
BLOCKED = """
import runpy, sys

class NoTrainExtra:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("torch", "onnx", "transformers"):
            raise ImportError(f"{name} is not installed (blocked by the test)")
        return None

sys.meta_path.insert(0, NoTrainExtra())
module, sys.argv = sys.argv[1], [sys.argv[1]] + sys.argv[2:]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""


def run(module: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(HERE.parent)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-c", BLOCKED, module, *args], capture_output=True,
                          text=True, env=env, cwd=cwd)


def test_the_blocker_blocks():
    r = run("evoharness.train", "--help")  # argparse answers before the trainer needs torch
    assert r.returncode == 0, r.stderr
    r = run("evoharness.train.grpo")
    assert r.returncode != 0 and "torch is not installed (blocked by the test)" in r.stderr


def test_python_m_evoharness_lists_every_command_without_torch():
    r = run("evoharness")
    assert r.returncode == 0, r.stderr
    listed = [line.split()[0] for line in r.stdout.splitlines() if line.startswith("  ")]
    assert listed == [name for name, _, _ in COMMANDS]
    # The commands are the package's runnable modules, all of them: a module that runs as a
    # script, or a package with a __main__.
    runnable = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__main__":
            runnable.add(".".join(parts[:-1]))
        elif 'if __name__ == "__main__":' in path.read_text():
            runnable.add(".".join(parts))
    assert runnable - {""} == set(listed)


def test_evaluate_and_record_run_without_torch(tmp_path):
    r = run("evoharness.evaluate", "--world", f"{INVOICES / 'world.py'}:Invoices", "--agent",
            f"policy:{INVOICES / 'policy.onnx'}", "--seeds", "1000000..1000010", "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout.strip().splitlines()[-1])
    assert report["episodes"] == 10 and report["via"] == "agent" and report["success_rate"] > 0.5
    r = run("evoharness.evaluate", "--world", f"{TICKETS}:Tickets", "--agent",
            f"teacher:{TICKETS}:teacher", "--against", "random", "--seeds", "0..6", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1])["paired"]["episodes"] == 6
    out = tmp_path / "demos.jsonl"
    r = run("evoharness.record", "--world", f"{TICKETS}:Tickets", "--teacher",
            f"{TICKETS}:teacher", "--seeds", "0..3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "3 episodes" in r.stdout and out.stat().st_size > 0
