#!/usr/bin/env bash
# The bench of worlds for learning, with everything it needs set up first, as the invoices
# example does: the Python venv with the pinned requirements (examples/train/requirements.txt)
# and the training library (libevoharness_train, built without tract). Then:
#
#   examples/learning/run.sh table [ARGS]          # every world's teacher and hand rule on
#                                                  # held-out seeds, paired -> the table
#   examples/learning/run.sh table --readme        # ... written into README.md
#   examples/learning/run.sh train WORLD [ARGS]    # python -m evoharness.train on a bench world
#                                                  # (catalog, incidents, rollout, consumer,
#                                                  # invoices) from its teacher, no other flag,
#                                                  # -> target/learning/WORLD.onnx
#   examples/learning/run.sh table --policies target/learning [--readme]
#                                                  # ... and those policies' table
#   examples/learning/run.sh python ARGS           # any Python command with the package set up
#
# `table` passes ARGS on to bench.py (`--seeds A..B`, `--only NAME,...`, `--check`, `--json`);
# `train` to `python -m evoharness.train` (e.g. `--smoke`, `--out PATH`).
# EVOHARNESS_TRAIN_VENV (default .venv-train) is the venv; EVOHARNESS_TRAIN_PROFILE (default
# release) the cargo profile of the library; EVOHARNESS_LIB a library already built, used as it is.
set -euo pipefail
cd "$(dirname "$0")/../.."
usage="usage: $0 table [ARGS] | train WORLD [ARGS] | python ARGS"
case "${1:-}" in
  table|train|python) ;;
  *) echo "$usage" >&2; exit 2 ;;  # before the setup, which can take minutes
esac
here=examples/learning
venv="${EVOHARNESS_TRAIN_VENV:-.venv-train}"
profile="${EVOHARNESS_TRAIN_PROFILE:-release}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir -r examples/train/requirements.txt
if [ -z "${EVOHARNESS_LIB:-}" ]; then
    flag=(); [ "$profile" = release ] && flag=(--release)
    target="${CARGO_TARGET_DIR:-target}"
    # Its own target folder, as in examples/train/run.sh: the cdylib's name carries no feature hash.
    cargo build "${flag[@]}" --locked -q -p evoharness-train-c --no-default-features --target-dir "$target/no-tract"
    export EVOHARNESS_LIB="$target/no-tract/$profile/libevoharness_train.so"
fi
export PYTHONPATH="bindings/python${PYTHONPATH:+:$PYTHONPATH}"
cmd="${1:-}"; shift || true
case "$cmd" in
  table) exec "$venv/bin/python" "$here/bench.py" "$@" ;;
  train)
    world="${1:-}"; shift || true
    case "$world" in
      catalog) spec=(catalog.py:Catalog track_everything) ;;
      incidents) spec=(incidents.py:Incidents runbook) ;;
      rollout) spec=(rollout.py:Rollout check_every_host) ;;
      consumer) spec=(consumer.py:Consumer never_commit) ;;
      invoices) spec=(../workflows/invoices/world.py:Invoices track_everything) ;;
      *) echo "$0 train: a Python world of the bench: catalog, incidents, rollout, consumer or invoices" >&2
         exit 2 ;;
    esac
    file="$here/${spec[0]%%:*}"
    [ "$world" = invoices ] && file="$here/../workflows/invoices/teacher.py"
    mkdir -p target/learning
    exec "$venv/bin/python" -m evoharness.train --world "$here/${spec[0]}" \
      --teacher "$file:${spec[1]}" --out "target/learning/$world.onnx" \
      --eval-seeds 1000000..1000500 "$@" ;;
  python) exec "$venv/bin/python" "$@" ;;
esac
