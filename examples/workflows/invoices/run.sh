#!/usr/bin/env bash
# The invoices example end to end, with everything it needs set up first: the Python venv with
# the pinned requirements (examples/train/requirements.txt) and the training library
# (libevoharness_train, built without tract). Then:
#
#   examples/workflows/invoices/run.sh train [ARGS]   # train from scratch -> policy.onnx (+ record)
#   examples/workflows/invoices/run.sh train-anneal   # from track_everything, RL anneals the
#                                                     # harness -> annealed.onnx (+ record)
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
cargo build "${flag[@]}" --locked -q -p evoharness-train-c --no-default-features --target-dir "$target/no-tract"
export EVOHARNESS_LIB="$target/no-tract/$profile/libevoharness_train.so"
export PYTHONPATH="bindings/python${PYTHONPATH:+:$PYTHONPATH}"
cmd="${1:-}"; shift || true
case "$cmd" in
  train)
    # --rl grpo: the committed policy.onnx and its record were made with GRPO, the default stage
    # 2 before improving on the teacher (--rl improve) became it; the lean teacher already keeps
    # only the track that pays, so there is little to improve on.
    exec "$venv/bin/python" -m evoharness.train --world "$here/world.py:Invoices" \
      --teacher "$here/teacher.py:lean" --out "$here/policy.onnx" --eval-seeds 1000000..1000500 \
      --rl grpo "$@" ;;
  train-anneal)
    # The wasteful teacher's imitation with the tracks it would skip also taught (--skip-label,
    # --skip-harness), then PPO learns from the task's reward which tracks never pay. The same
    # command with no RL first writes the imitation checkpoint PPO starts from, for comparison.
    anneal=(--world "$here/world.py:Invoices" --teacher "$here/teacher.py:track_everything"
            --eval-seeds 1000000..1000500 --skip-harness 0.8 --skip-label 0.5 --rl ppo
            --rl-iters 300 --rl-lr 3e-4 --kl 0 --ent-coef 0.003 --minutes 30)
    "$venv/bin/python" -m evoharness.train "${anneal[@]}" --out "$here/annealed-imitation.onnx" \
      --rl-iters 0 "$@"
    exec "$venv/bin/python" -m evoharness.train "${anneal[@]}" --out "$here/annealed.onnx" "$@" ;;
  table) exec "$venv/bin/python" "$here/table.py" "$@" ;;
  python) exec "$venv/bin/python" "$@" ;;
  *) echo "usage: $0 train [ARGS] | train-anneal [ARGS] | table [ARGS] | python ARGS" >&2; exit 2 ;;
esac
