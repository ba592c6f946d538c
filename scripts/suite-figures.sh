#!/usr/bin/env bash
# Reproduces the task suite's figures (docs/src/suite.md, "The task suite"): success rate against horizon
# for every baseline in every family (tables, and SVG plots in the output folder), then the
# per-step time and peak memory of every baseline at horizons 100 and 100,000 (one process
# per run, so that its peak RSS is its own). Seeds and organisations are ones no test uses.
#
#   scripts/suite-figures.sh [OUTPUT_FOLDER]    (default: target/suite-figures)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/suite-figures}"
mkdir -p "$out"
cargo build --release --locked -p evoharness-cli --bin evoharness
bin="${CARGO_TARGET_DIR:-target}/release/evoharness"

for task in migration records orchestration; do
  "$bin" eval --sweep --task "$task" --seeds 10000..10200 --organisations 1000..1008 \
    --horizons 50,100,300,1000,3000,10000 --out "$out/$task.svg"
  echo
done

echo "per-step time and peak memory: 8 episodes of each task, one thread, one process each"
printf '%-14s %-15s %8s %9s %9s %13s %10s\n' task agent horizon success p50_us peak_rss_MiB mean_steps
for task in migration records orchestration; do
  for agent in oracle static-harness lean-harness append-only random; do
    for h in 100 100000; do
      "$bin" eval --task "$task" --agent "$agent" --seeds 10000..10008 --organisations 1000..1001 \
        --threads 1 --horizon "$h" --json |
        python3 -c 'import json, sys
r = json.load(sys.stdin)
print("%-14s %-15s %8d %8.0f%% %9.3f %13.1f %10.0f" % (r["task"], sys.argv[1], r["horizon"],
      100 * r["success_rate"], r["p50_step_us"], (r["peak_rss_kib"] or 0) / 1024, r["mean_steps"]))' "$agent"
    done
  done
done
