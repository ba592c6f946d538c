#!/usr/bin/env bash
# The Python package as a user gets it. Installs WHEEL[train,test] into a fresh venv at VENV
# (give one outside the clone; it is removed first), then, from an empty temporary folder and
# with none of the checkout's variables set, runs the invoices example from copies of its files
# kept in another folder: `evaluate` of its committed policy (at its bar), `record`, a smoke
# `train` and `evaluate` of what it wrote. Then the base install: WHEEL[test] alone (no torch,
# no onnx) into a second fresh venv, VENV-base, which must run `python -m evoharness`,
# `evaluate` and `record` on the same files, and must not have torch. The versions are those
# CI pins (examples/train/requirements.txt, as constraints). Prints the wheel's size.
#
#   scripts/wheel-check.sh WHEEL VENV
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 WHEEL VENV" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
venv="$2"
echo "wheel: $(basename "$wheel"), $(stat -c %s "$wheel") bytes"
rm -rf "$venv"
python3 -m venv "$venv"
venv="$(cd "$venv" && pwd)"
# No pip cache: it would keep a second copy of torch's wheels.
"$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir \
    -c "$root/examples/train/requirements.txt" "$wheel[train,test]"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/flows" "$work/run"
cp "$root"/examples/workflows/invoices/{world.py,teacher.py,policy.onnx} "$work/flows/"
cd "$work/run"
py() {
    env -u EVOHARNESS_LIB -u EVOHARNESS_ORT_LIB -u EVOHARNESS_BIN -u PYTHONPATH -u CARGO_TARGET_DIR \
        "$venv/bin/python" "$@"
}
# The library comes from inside the installed package.
py - "$venv" <<'PY'
import pathlib, sys
import evoharness
from evoharness import _native
lib = _native.library_path().resolve()
venv = pathlib.Path(sys.argv[1]).resolve()
assert venv in lib.parents and lib.parent == pathlib.Path(evoharness.__file__).resolve().parent, lib
print("library:", lib.relative_to(venv))
PY
world=../flows/world.py:Invoices
py -m evoharness.evaluate --world "$world" --agent policy:../flows/policy.onnx \
    --seeds 1000000..1000050 --json --min-success 0.95
py -m evoharness.record --world "$world" --teacher ../flows/teacher.py:lean --seeds 0..5 --out demos.jsonl
test -s demos.jsonl
py -m evoharness.train --world "$world" --teacher ../flows/teacher.py:lean --smoke --out smoke.onnx
py -m evoharness.evaluate --world "$world" --agent policy:smoke.onnx --seeds 1000000..1000020 --json

# The base install, as a user who only evaluates gets it: no [train], so no torch and no onnx.
base="$venv-base"
rm -rf "$base"
python3 -m venv "$base"
"$base/bin/pip" install -q --disable-pip-version-check --no-cache-dir \
    -c "$root/examples/train/requirements.txt" "$wheel[test]"
py_base() {
    env -u EVOHARNESS_LIB -u EVOHARNESS_ORT_LIB -u EVOHARNESS_BIN -u PYTHONPATH -u CARGO_TARGET_DIR \
        "$base/bin/python" "$@"
}
py_base -c 'import importlib.util as u, sys; sys.exit([m for m in ("torch", "onnx") if u.find_spec(m)] or 0)'
py_base -m evoharness >/dev/null
py_base -m evoharness.evaluate --world "$world" --agent policy:../flows/policy.onnx \
    --seeds 1000000..1000020 --json --min-success 0.95
py_base -m evoharness.record --world "$world" --teacher ../flows/teacher.py:lean --seeds 0..5 --out base-demos.jsonl
cmp demos.jsonl base-demos.jsonl
echo "base install (no torch): $(du -sh "$base" | cut -f1), evaluate and record ran"
