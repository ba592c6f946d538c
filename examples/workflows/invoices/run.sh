#!/usr/bin/env bash
# The invoices example end to end, with everything it needs set up first: the Python venv with
# the pinned requirements (examples/train/requirements.txt) and the training library
# (libevoharness_suite, built without tract). Then:
#
#   examples/workflows/invoices/run.sh train [ARGS]   # train from scratch -> policy.onnx (+ record)
#   examples/workflows/invoices/run.sh table [ARGS]   # the policy against the teachers and random
#   examples/workflows/invoices/run.sh python ARGS    # any Python command with the package set up
#
# `train` passes ARGS on to `python -m evoharness.train` (e.g. `--smoke --out DIR/smoke.onnx`);
# `table` to table.py (`--check` fails below the bar, `--seeds A..B`).
# EVOHARNESS_TRAIN_VENV (default .venv-train) is the venv; EVOHARNESS_TRAIN_PROFILE (default
# release) the cargo profile of the library.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=examples/workflows/invoices
venv="${EVOHARNESS_TRAIN_VENV:-.venv-train}"
profile="${EVOHARNESS_TRAIN_PROFILE:-release}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir -r examples/train/requirements.txt
flag=(); [ "$profile" = release ] && flag=(--release)
target="${CARGO_TARGET_DIR:-target}"
# Its own target folder, as in examples/train/run.sh: the cdylib's name carries no feature hash.
cargo build "${flag[@]}" --locked -q -p evoharness-suite-c --no-default-features --target-dir "$target/no-tract"
export EVOHARNESS_LIB="$target/no-tract/$profile/libevoharness_suite.so"
export PYTHONPATH="bindings/python${PYTHONPATH:+:$PYTHONPATH}"
cmd="${1:-}"; shift || true
case "$cmd" in
  train)
    exec "$venv/bin/python" -m evoharness.train --world "$here/world.py:Invoices" \
      --teacher "$here/teacher.py:lean" --out "$here/policy.onnx" --eval-seeds 1000000..1000500 "$@" ;;
  table) exec "$venv/bin/python" "$here/table.py" "$@" ;;
  python) exec "$venv/bin/python" "$@" ;;
  *) echo "usage: $0 train [ARGS] | table [ARGS] | python ARGS" >&2; exit 2 ;;
esac
