#!/usr/bin/env bash
# Trains a policy for the task suite from scratch, with everything it needs set up first:
# a Python venv with the pinned requirements (examples/train/requirements.txt), the task
# suite's C library (libevoharness_train) the Python package drives the simulators through, and
# the evoharness tool that checks and evaluates the exported policy. Arguments go to train.py:
#
#   examples/train/run.sh --out examples/policies/generalist.onnx     # the shipped policy
#   examples/train/run.sh --smoke --out target/train-smoke/smoke.onnx # a minute or two
#
# EVOHARNESS_TRAIN_VENV (default .venv-train) is the venv; EVOHARNESS_TRAIN_PROFILE (default
# release) the cargo profile of the library and tool; EVOHARNESS_BIN a tool already built.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv="${EVOHARNESS_TRAIN_VENV:-.venv-train}"
profile="${EVOHARNESS_TRAIN_PROFILE:-release}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# No pip cache: it would keep a second copy of torch's ~3 GB of wheels beside the venv.
"$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir -r examples/train/requirements.txt
flag=(); [ "$profile" = release ] && flag=(--release)
target="${CARGO_TARGET_DIR:-target}"
# The library without tract: training never runs an ONNX model through it, and tract would
# add minutes to the build. It gets its own target folder: a cdylib's file name carries no
# feature hash, so building it without tract in the shared folder would replace the library
# the C tests link (with tract) while cargo still thought that one fresh.
cargo build "${flag[@]}" --locked -q -p evoharness-train-c --no-default-features --target-dir "$target/no-tract"
# The tool keeps tract: it checks and evaluates the policy. An EVOHARNESS_BIN already set to a
# built tool is used as it is (.ci/run passes the one its tests built).
if [ -z "${EVOHARNESS_BIN:-}" ]; then
    cargo build "${flag[@]}" --locked -q -p evoharness-cli --bin evoharness
    EVOHARNESS_BIN="$target/$profile/evoharness"
fi
export EVOHARNESS_LIB="$target/no-tract/$profile/libevoharness_train.so"
export EVOHARNESS_BIN
exec "$venv/bin/python" examples/train/train.py "$@"
