#!/usr/bin/env bash
# Trains the suite's language-model policy from scratch (examples/policies/lm.onnx's recipe), or
# evaluates one, with everything set up first: the Python venv of examples/train/requirements.txt,
# the training C library the trainer drives the simulators through, the evoharness tool
# (without tract) that validates every round and evaluates the result, and ONNX Runtime's
# library for that tool.
#
#   examples/train/lm/run.sh                  # train: writes target/lm/lm.{onnx,json,train.jsonl}
#   examples/train/lm/run.sh --out DIR/x.onnx # the same elsewhere
#   examples/train/lm/run.sh eval POLICY      # held-out figures, beside the MLP and the teacher
#
# EVOHARNESS_TRAIN_VENV (default .venv-train) is the venv; CARGO_TARGET_DIR as usual.
set -euo pipefail
cd "$(dirname "$0")/../../.."
venv="${EVOHARNESS_TRAIN_VENV:-.venv-train}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir -r examples/train/requirements.txt
target="${CARGO_TARGET_DIR:-target}"
# Library and tool without tract (minutes of build saved); the tool runs ONNX Runtime.
cargo build --release --locked -q -p evoharness-train-c --no-default-features --target-dir "$target/no-tract"
cargo build --release --locked -q -p evoharness-cli --no-default-features --bin evoharness --target-dir "$target/no-tract"
export EVOHARNESS_LIB="$target/no-tract/release/libevoharness_train.so"
export EVOHARNESS_BIN="$target/no-tract/release/evoharness"
EVOHARNESS_ORT_LIB="$(scripts/fetch-onnxruntime.sh)"
export EVOHARNESS_ORT_LIB
export PYTHONPATH="bindings/python${PYTHONPATH:+:$PYTHONPATH}"

if [ "${1:-}" = eval ]; then
    policy="${2:?eval needs the policy file}"
    # Held out: organisations and seeds no training or validation run used.
    for agent in "policy:$policy" policy:examples/policies/generalist.onnx tuned; do
        "$EVOHARNESS_BIN" eval --scenario v1 --task migration --horizon 100 --agent "$agent" \
            --organisations 3000..3100 --seeds 3000000..3000200 --json
    done
    exit 0
fi

# The shipped policy's run (examples/policies/lm.json: about 60 minutes on 2 cores with
# validation; LM.json keeps the command and its figures; the learning rate decays over the 55
# minutes). The second record's run is the same without the last three flags.
mkdir -p "$target/lm"
exec "$venv/bin/python" -m evoharness.lm --suite migration --teacher tuned --horizon 100 \
    --d-model 96 --layers 4 --heads 4 --ff 384 --alibi --rounds 16 --round-steps 300 --envs 16 \
    --keep 0.1 --student-max 0.7 --updates 300 --minutes 55 --valid-episodes 40 \
    --keep-mistakes --keep-fact-args --permute-facts 0.5 --out "$target/lm/lm.onnx" "$@"
