#!/usr/bin/env bash
# The trace viewer in a real browser: headless Chromium (Debian's package, installed when
# missing) opens the pages of `evoharness view` and `view --follow` and compares what they show
# with the traces (tests/viewer/check.py). Pages, traces and screenshots go to
# $EVOHARNESS_VIEWER_OUT (default: a folder in the cargo target folder), never into the clone.
#
#   tests/viewer/check.sh            the checks (.ci/run runs them; about 15 s when built)
#   tests/viewer/check.sh --time N   also: a trace of about N steps, and how long its page takes to open
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v chromium >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y --no-install-recommends chromium
fi
# (Debian's launcher script talks on stderr.)
chromium --version 2>/dev/null

target="${CARGO_TARGET_DIR:-target}"
out="${EVOHARNESS_VIEWER_OUT:-$target/viewer-check}"
rm -rf "$out"
mkdir -p "$out"
# The debug tool, or EVOHARNESS_BIN when set (.ci/run passes the one its tests built).
bin="${EVOHARNESS_BIN:-}"
if [ -z "$bin" ]; then
    cargo build -p evoharness-cli --locked
    bin="$target/debug/evoharness"
fi

# Several episodes of three agents, between them every verb: the shipped policy (notes and
# tracks), a static harness (commits and recalls), the v2 rule with an experience store.
"$bin" eval --task migration --agent policy:examples/policies/generalist.onnx --backend tract \
    --seeds 0..3 --horizon 150 --organisations 1 --trace "$out/policy.jsonl" >/dev/null
"$bin" eval --task migration --agent static-harness --seeds 0..1 --horizon 60 \
    --organisations 1 --trace "$out/static.jsonl" >/dev/null
"$bin" eval --task records --scenario v2 --agent tuned --seeds 0..2 --horizon 80 \
    --organisations 1 --trace "$out/tuned.jsonl" >/dev/null
cat "$out/policy.jsonl" "$out/static.jsonl" "$out/tuned.jsonl" >"$out/trace.jsonl"
# Three episodes of a rule that writes stale records: the third fails, with violations at steps.
"$bin" eval --task records --agent append-only --seeds 0..3 --horizon 150 --organisations 1 \
    --trace "$out/failing.jsonl" >/dev/null
# About 49,000 steps (the tuned rule, one long episode): what `view` holds per step.
"$bin" eval --task migration --agent tuned --seeds 0..1 --horizon 50000 --organisations 1 \
    --trace "$out/long.jsonl" >/dev/null
python3 tests/viewer/check.py --bin "$bin" --trace "$out/trace.jsonl" --failing "$out/failing.jsonl" \
    --long "$out/long.jsonl" --out "$out"

if [ "${1:-}" = "--time" ]; then
    steps="${2:?--time needs a number of steps}"
    # The tuned rule at the largest horizon: about 98,000 steps an episode.
    episodes=$(( (steps + 97999) / 98000 ))
    "$bin" eval --task migration --agent tuned --seeds "0..$episodes" --horizon 100000 \
        --organisations 1 --trace "$out/big.jsonl" >/dev/null
    wc -l "$out/big.jsonl"
    python3 tests/viewer/check.py --bin "$bin" --time "$out/big.jsonl" --out "$out"
fi
